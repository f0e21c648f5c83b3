// Reading an option's value: one path for every option, core's and the providers'. config::load
// resolves each option once, by precedence (command line > environment > project > user file),
// and checks it against its kind (check_option_value); config::apply_to hands the result to the
// Context; core reads it here, a provider from its ProviderSettings. A context no run's settings
// were resolved for (the plugins' discovery, before any settings exist; a library caller of one
// part) reads the environment's layer alone, by the same rules and the same check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/context/context.h"
#include "core/provider/descriptor.h"
#include "core/util/result.h"

namespace extdeps::config {

// The option of that name, core's or a provider's; null when none.
const ProviderOption* find_option(std::string_view name);

// The first of the option's variables that is set, as an unchecked OptionValue; nullopt when
// none is (or a list splits into nothing).
std::optional<OptionValue> from_environment(const Context& ctx, const ProviderOption& option);

// The option's value, checked; nullopt when it is not set. The error is the check's.
Result<std::optional<OptionValue>> value(const Context& ctx, std::string_view name);
// Typed: its first value.
Result<std::optional<std::string>> text(const Context& ctx, std::string_view name);
Result<std::optional<double>> seconds(const Context& ctx, std::string_view name);
Result<std::optional<std::uint64_t>> size(const Context& ctx, std::string_view name);
Result<std::optional<bool>> flag(const Context& ctx, std::string_view name);

}  // namespace extdeps::config
