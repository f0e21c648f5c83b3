// A guard run on TOML text before toml++ parses it: toml++ recurses once per dotted part of a key
// ("a.b.c" or [a.b.c]), so 40,000 of them overflow the stack. The guard finds the first key
// deeper than limits::kMaxTomlDepth (dotted parts plus the brackets around them) in one pass.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace extdeps {

// bad_input "path:line:col: a key of more than N dotted parts and brackets (extdeps reads at most
// N)" at the first part past the limit; nullopt when every key is within it.
std::optional<Error> toml_too_deep(std::string_view text, const std::string& path);

}  // namespace extdeps
