// Every environment variable extdeps reads, in one registry: core's own settings (core_options,
// resolved by config::load with the providers' options: command line > environment > project >
// user file) and core's plain variables (PATH, XDG_CACHE_HOME, the overrides), then each
// provider descriptor's options and reads_env. `extdeps config` lists them with their values and
// where each came from; a test reads the sources and fails on a variable read that is not here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/provider/descriptor.h"

namespace extdeps::config {

struct Variable {
  std::string name;     // "EXTDEPS_NIX_TIMEOUT"; a family ends with '*' ("EXTDEPS_OVERRIDE_*")
  std::string owner;    // "core", or the provider's name
  std::string setting;  // the option it sets ("nix-timeout"); empty: read as it is, no config key
  std::string help;
};

// Core's settings that a configuration file may set too (offline, plugin-timeout, detect-ttl,
// probe-timeout, python-version), as provider options are declared: the first of `env` is the
// variable, `config_key` the key of [tool.extdeps] and of the user's config.toml.
const std::vector<ProviderOption>& core_options();

// The registry: core's options and plain variables, then every provider's (the compiled-in
// ones and the plugins found), each name once, in that order.
std::vector<Variable> variables();

// Whether `name` is a registered variable or belongs to a registered family.
bool is_registered(std::string_view name);

}  // namespace extdeps::config
