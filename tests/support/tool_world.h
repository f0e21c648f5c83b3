// The worlds provider tests build with the real tools of a package manager (a make_world.sh per
// provider under tests/providers/<name>/: packages, a repository, a root with its database), and
// what those tests share to read them.
#pragma once

#include <gtest/gtest.h>

#include <sys/wait.h>

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

struct ToolWorld {
  std::string dir;      // the world, when it was built
  std::string missing;  // what this machine lacks to build it, with the Debian package of each
  std::string failure;  // make_world.sh's output, when it failed for another reason
};

// tests/providers/<provider>/make_world.sh run once per test program into a new folder. The
// script says itself what it needs: exit status 77 and a "needs ..." line when a tool is missing.
inline const ToolWorld& tool_world(const std::string& provider) {
  static std::map<std::string, ToolWorld> built;
  auto it = built.find(provider);
  if (it != built.end()) return it->second;
  ToolWorld w;
  const std::string dir = temp_dir() + "/world";
  const std::string script = std::string(EXTDEPS_TEST_DATA) + "/../providers/" + provider + "/make_world.sh";
  const int status = std::system(("bash " + script + " " + dir + " >" + dir + ".log 2>&1").c_str());
  std::string log = read_file(dir + ".log");
  if (status == 0) {
    w.dir = dir;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
    while (!log.empty() && log.back() == '\n') log.pop_back();
    w.missing = provider + "/make_world.sh " + log;
  } else {
    w.failure = log.empty() ? "exit status " + std::to_string(status) : log;
  }
  return built.emplace(provider, std::move(w)).first->second;
}

// The world of `provider` as `var` (its folder); the test skips, saying what is missing, where
// the tools are not here, and fails with the script's output where it failed otherwise.
#define TOOL_WORLD_OR_SKIP(var, provider)                                                                \
  const ::extdeps::test::ToolWorld& var##_world = ::extdeps::test::tool_world(provider);                 \
  if (!var##_world.missing.empty()) GTEST_SKIP() << var##_world.missing;                                 \
  if (var##_world.dir.empty()) FAIL() << (provider) << "/make_world.sh failed: " << var##_world.failure; \
  const std::string& var = var##_world.dir

// "name>=1:2.0": a relation as the tests compare it.
inline std::string show_dep(const NativeDep& d) {
  static const char* ops[] = {"", "=", "<", "<=", ">", ">=", "!=", "~"};
  return d.name + ops[static_cast<int>(d.op)] + d.version;
}

}  // namespace extdeps::test
