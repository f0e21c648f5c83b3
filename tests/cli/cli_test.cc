// The command line, run in-process over a fixture machine (tests/support/cli_fixture.h), where a
// case needs more than tests/cases/ can say: here, that nothing is cached from a damaged status file.
#include "core/cli/cli.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/cli_fixture.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

class CliTest : public test::CliFixture {};

// A damaged dpkg status file stops the run with its file and line, and exit code 3 (the machine's
// own files failed us, docs/exit-codes.md); nothing is cached from it.
TEST_F(CliTest, ACorruptStatusFileIsBadInputWithItsPlace) {
  EXTDEPS_NEEDS_PROVIDER("apt");
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
  EXPECT_EQ(r.err, "error: " + root_ +
                       "/var/lib/dpkg/status:2184: missing ':' in line 'Version 1.0' "
                       "(expected 'Field: value' or an indented continuation line)\n");
  EXPECT_TRUE(fs::is_empty(cache_) || !fs::exists(cache_ + "/solv") || fs::is_empty(cache_ + "/solv"));
}

// A warm run reads from the table cache only the entries of the needs' ids in the tables of the
// ecosystems in use; it says what a cold run says. Where an id is in none of those tables (here:
// only in a conda-forge table of the user's), the warm run reads every table, as the cold one
// does, to say where it is mapped.
TEST_F(CliTest, AWarmRunSaysWhatAColdRunSays) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  const std::string extra = test::temp_dir();
  {
    std::ofstream t(extra + "/conda-extra.toml");
    t << "schema = 1\necosystem = \"conda-forge\"\nmanager = \"conda\"\ndescription = \"test\"\n\n"
         "[[id]]\nid = \"dep:generic/only-in-conda\"\nhost = [\"only-in-conda\"]\n";
  }
  for (const std::string& needs :
       {std::string(R"("dep:generic/libxml2@>=2.9", "dep:generic/zlib", "dep:generic/OpenSSL", "dep:generic/arrow")"),
        std::string(R"("dep:generic/zlib", "dep:generic/only-in-conda", "dep:generic/libxml")")}) {
    SCOPED_TRACE(needs);
    write_project("extdeps.toml", "[external]\nhost-requires = [" + needs + "]\n");
    fs::remove_all(cache_);
    fs::create_directories(cache_);
    const std::vector<std::string> args{"resolve", project_, "--manager", "apt", "--mapping-dir", extra, "--json"};
    auto cold = run(args);
    ASSERT_TRUE(fs::exists(cache_ + "/tables")) << "the first run keeps the tables it parsed";
    auto warm = run(args);
    EXPECT_EQ(warm.rc, cold.rc);
    EXPECT_EQ(warm.out, cold.out);
    EXPECT_EQ(warm.err, cold.err);
    if (needs.find("only-in-conda") != std::string::npos)
      EXPECT_NE(warm.out.find("it is mapped for conda-forge, which is not in use here"), std::string::npos) << warm.out;
    else EXPECT_NE(warm.out.find("\"canonical_id\""), std::string::npos) << "OpenSSL is respelled in both runs";
  }
}

// --color auto (the default) colours a plan where stdout is a terminal, unless NO_COLOR is set
// (no-color.org: any non-empty value) or TERM is dumb; a pipe gets none.
TEST_F(CliTest, APlanIsColouredOnATerminalUnlessNoColorOrADumbTerminal) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:generic/libxml2@>=2.9\"]\n");
  const std::string planned = "\x1b[36mplanned\x1b[0m       dep:generic/libxml2";
  EXPECT_EQ(run({"resolve", project_}).out.find('\x1b'), std::string::npos);
  stdout_is_terminal_ = true;
  auto coloured = run({"resolve", project_});
  EXPECT_EQ(coloured.rc, 0) << coloured.err;
  EXPECT_NE(coloured.out.find(planned), std::string::npos) << coloured.out;
  for (const auto& env : std::vector<std::map<std::string, std::string>>{{{"NO_COLOR", "1"}}, {{"TERM", "dumb"}}}) {
    auto plain = run({"resolve", project_}, env);
    EXPECT_EQ(plain.rc, 0) << plain.err;
    EXPECT_EQ(plain.out.find('\x1b'), std::string::npos) << plain.out;
    EXPECT_NE(plain.out.find("  planned       dep:generic/libxml2"), std::string::npos) << plain.out;
  }
  EXPECT_EQ(run({"--color", "never", "resolve", project_}).out.find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace extdeps
