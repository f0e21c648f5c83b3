// Provider plugins: a package manager extdeps learns at run time, without being rebuilt. A plugin
// is an executable named extdeps-provider-<name>, found in the folders of EXTDEPS_PLUGIN_PATH,
// then of PATH, that answers JSON lines (schema/provider-protocol.md): describe, identity, load,
// install_commands, env. Each found plugin is described once (the answer cached under
// <cache>/plugins, keyed on the program's path, size and time) and registered as a
// ProviderDescriptor; from then on it is a provider like the compiled-in ones: its options are
// flags, configuration keys and variables, its records go into the one solve and into the .solv
// cache keyed by its identity, so a warm run does not ask it to load.
#pragma once

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/context/context.h"
#include "core/model/record.h"
#include "core/provider/descriptor.h"
#include "core/util/result.h"

namespace extdeps::plugin {

inline constexpr int kProtocol = 1;
inline constexpr std::string_view kProgramPrefix = "extdeps-provider-";

// The plugin programs: extdeps-provider-* executables in EXTDEPS_PLUGIN_PATH's folders, then
// PATH's, the first of each name; sorted by name within a folder.
std::vector<std::string> find_programs(const Context& ctx);

// The descriptor of the plugin at `path`, from its describe answer.
Result<std::unique_ptr<ProviderDescriptor>> describe(const Context& ctx, const std::string& path);

// The descriptor the "describe" message of a plugin's answer gives, checked against the program
// at `path` (its name). (The fuzz harness tests/fuzz/plugin_describe_fuzz.cc drives it.)
Result<std::unique_ptr<ProviderDescriptor>> descriptor_of(const nlohmann::json& message, const std::string& path);

// Finds, describes and registers every plugin once per process (register_descriptor). A plugin
// that fails is left out with a warning that names it and says why.
void discover(const Context& ctx);

// Why discover() left out the plugin whose program is extdeps-provider-NAME (a description
// refused: an option named like one of extdeps' own, a bad scheme, no answer); nullptr when it
// did not. A --manager NAME that is unknown because of it fails with this error.
const Error* refusal(std::string_view name);

// One line of an answer to load, as load() reads it: a record, or nullopt for the "end" line;
// an error for anything else. (The fuzz harness tests/fuzz/plugin_protocol_fuzz.cc drives it.)
Result<std::optional<PackageRecord>> parse_load_line(std::string_view line);

// The time a plugin has to answer one request: EXTDEPS_PLUGIN_TIMEOUT seconds (decimals allowed),
// else 120 s.
int timeout_ms(const Context& ctx);

// "plugin extdeps-provider-site (/opt/bin/extdeps-provider-site)": how messages name a plugin.
std::string who(const std::string& path);

}  // namespace extdeps::plugin
