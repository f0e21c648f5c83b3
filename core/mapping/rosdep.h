// rosdep's YAML tables (ros/rosdistro rosdep/*.yaml, REP 111) to a mapping table for one OS and
// release. Each key becomes dep:generic/<key>; its rule for the OS is found as rosdep itself
// finds it (lookup.py's get_rule_for_platform: the OS or its '*', then an installer key, else a
// release codename or '*', then an installer key), and the packages of the OS's package
// installer are kept. Rules for other installers (pip, gem, npm, source) are left out.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/mapping/write_table.h"
#include "core/util/result.h"

namespace extdeps::mapping {

struct RosdepImport {
  DraftTable table;
  std::vector<std::string> warnings;  // keys left out and why, one line each
  std::size_t keys = 0;               // keys in the file, each once
  std::size_t mapped = 0;             // entries with packages
  std::size_t unavailable = 0;        // rosdep says null ("not available") for the release
};

// `os` is "debian:bookworm" or "ubuntu:noble" (rosdep's OS name and version codename). rosdep has
// no build/host/run: the packages are written as `host` (the other categories fall back to it).
// A rule that resolves to no package at all (rosdep's "nothing to install") has no form here
// and is left out with a warning. Errors name the file:line:col of bad YAML.
Result<RosdepImport> import_rosdep(const std::string& path, const std::string& os);

}  // namespace extdeps::mapping
