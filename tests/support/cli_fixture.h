// The command line, run in-process over a fixture machine: a copy of tests/data/apt/bookworm (real
// bookworm lists and dpkg status, trimmed) with libxml2-dev taken out of the status file, a project
// folder and a cache folder of its own. Commands that `install` would run are recorded, not run.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace extdeps::test {

struct CliRun {
  int rc;
  std::string out, err;
  std::vector<std::string> warnings;  // what extdeps would print as "warning: ..." on stderr
};

class CliFixture : public ::testing::Test {
 protected:
  void SetUp() override;
  void write_project(const std::string& name, const std::string& text);
  // Runs extdeps with `args` over the fixture machine; EXTDEPS_MAPPINGS_DIR is the source
  // tree's, PKG_CONFIG_LIBDIR is empty unless `env` says otherwise. `input` answers questions.
  CliRun run(std::vector<std::string> args, std::map<std::string, std::string> env = {}, std::string input = "");

  std::string root_, project_, cache_;
  std::vector<std::vector<std::string>> commands_;
  int exit_status_ = 0;
  bool stdout_is_terminal_ = false;  // what main() would learn from isatty(1)
};

}  // namespace extdeps::test
