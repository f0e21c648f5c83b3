// The worlds provider tests build with the real tools of a package manager (a make_world.sh per
// provider under tests/providers/<name>/: packages, a repository, a root with its database), and
// what those tests share to read them.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "core/model/record.h"
#include "tests/test_support.h"

namespace extdeps::test {

inline bool have_tool(const std::string& tool) {
  return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0;
}

// tests/providers/<provider>/make_world.sh run once per test program into a new folder, which it
// returns; "" when one of `tools` is missing (the caller skips, saying which), or when the script
// failed (a test failure with its output).
inline const std::string& tool_world(const std::string& provider, const std::vector<std::string>& tools) {
  static std::map<std::string, std::string> built;
  auto it = built.find(provider);
  if (it != built.end()) return it->second;
  std::string dir;
  bool all = true;
  for (const auto& t : tools) all = all && have_tool(t);
  if (all) {
    dir = temp_dir() + "/world";
    const std::string script = std::string(EXTDEPS_TEST_DATA) + "/../providers/" + provider + "/make_world.sh";
    if (std::system(("bash " + script + " " + dir + " >" + dir + ".log 2>&1").c_str()) != 0) {
      ADD_FAILURE() << provider << "/make_world.sh failed: " << read_file(dir + ".log");
      dir.clear();
    }
  }
  return built.emplace(provider, dir).first->second;
}

// "name>=1:2.0": a relation as the tests compare it.
inline std::string show_dep(const NativeDep& d) {
  static const char* ops[] = {"", "=", "<", "<=", ">", ">=", "!=", "~"};
  return d.name + ops[static_cast<int>(d.op)] + d.version;
}

}  // namespace extdeps::test
