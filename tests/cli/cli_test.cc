// The command line, run in-process over a fixture machine (tests/support/cli_fixture.h), where a
// case needs more than tests/cases/ can say: here, that nothing is cached from a damaged status file.
#include "core/cli/cli.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/cli_fixture.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

class CliTest : public test::CliFixture {};

// A damaged dpkg status file stops the run with its file and line, and exit code 3 (the machine's
// own files failed us, docs/exit-codes.md); nothing is cached from it.
TEST_F(CliTest, ACorruptStatusFileIsBadInputWithItsPlace) {
  write_project("extdeps.toml", R"([external]
build-requires = ["dep:virtual/compiler/c", "dep:generic/make"]
host-requires = ["dep:generic/libxml2@>=2.9", "dep:generic/zlib"]
)");
  {
    std::ofstream status(root_ + "/var/lib/dpkg/status", std::ios::app);
    status << "\nPackage: half-written\nVersion 1.0\n";
  }
  auto r = run({"resolve", project_});
  EXPECT_EQ(r.rc, 3) << r.err;
  EXPECT_EQ(r.err, "error: " + root_ + "/var/lib/dpkg/status:2184: missing ':' in line 'Version 1.0' "
                   "(expected 'Field: value' or an indented continuation line)\n");
  EXPECT_TRUE(fs::is_empty(cache_) || !fs::exists(cache_ + "/solv") || fs::is_empty(cache_ + "/solv"));
}

}  // namespace
}  // namespace extdeps
