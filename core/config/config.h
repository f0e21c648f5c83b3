// Configuration: manager preference and extra mapping directories. Precedence, highest first:
// command line > environment (EXTDEPS_MANAGERS, EXTDEPS_MAPPING_DIRS) > project ([tool.extdeps]
// in the declaration file) > user ($XDG_CONFIG_HOME/extdeps/config.toml) > built-in defaults.
// A list set by a higher level replaces the lower one; it is not merged.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/provider/descriptor.h"
#include "core/util/result.h"

namespace extdeps::config {

struct Settings {
  std::optional<std::vector<std::string>> managers;
  std::optional<std::vector<std::string>> mapping_dirs;
  // The providers' options (ProviderDescriptor::options) that are set, by option name, each
  // with where it came from: "--channel", "EXTDEPS_CONDA_CHANNELS", a file's "path:line:col".
  // A file sets one with its config_key (conda-channels); a higher level replaces a lower one.
  std::map<std::string, OptionValue, std::less<>> provider_options;
  // Core's own options (config::core_options: offline, plugin-timeout, ...), the same way.
  std::map<std::string, OptionValue, std::less<>> core_options;
  // Where each value came from, for messages: "command line", "EXTDEPS_MANAGERS", or the
  // file:line:col of the key. Relative mapping-dirs in a file are made relative to its folder.
  std::string managers_from;
  std::string mapping_dirs_from;
  // root: the folder the system providers read the machine's files under (dpkg status, apt
  // lists, os-release), for planning against a mounted image or chroot; `--root` and
  // EXTDEPS_ROOT are above it. Relative to the file that names it.
  std::optional<std::string> root;
  std::string root_from;
};

// Reads [tool.extdeps] from a pyproject.toml or extdeps.toml, or the top level of a user config
// file (keys: managers, mapping-dirs, the providers' config keys such as conda-channels, the
// download limits, root). A missing file gives empty settings.
Result<Settings> read_file(const std::string& path, bool under_tool_table);

// The user file: $XDG_CONFIG_HOME/extdeps/config.toml or ~/.config/extdeps/config.toml.
std::string user_config_path(const Context& ctx);

// Merges by precedence: cli over env over project over user. The environment gives
// EXTDEPS_MANAGERS, EXTDEPS_MAPPING_DIRS and every provider option's variables (the first one
// set; a list split on the option's separators; one that splits into nothing counts as unset).
Result<Settings> load(const Context& ctx, const std::string& declaration_path, const Settings& cli);

// Makes the resolved options, core's and the providers', what `ctx` answers: config::value
// and the typed readers of core/config/values.h read them there from now on, and no longer the
// environment.
void apply_to(Context& ctx, const Settings& settings);

}  // namespace extdeps::config
