// The command line, run in-process over a fixture machine (tests/support/cli_fixture.h).
#include "core/cli/cli.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "tests/support/cli_fixture.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

using test::CliRun;

class CliTest : public test::CliFixture {};

const char* kProject = R"([external]
build-requires = ["dep:virtual/compiler/c", "dep:generic/make"]
host-requires = ["dep:generic/libxml2@>=2.9", "dep:generic/zlib"]
)";

TEST_F(CliTest, ResolvePlansWhatIsMissingAndNamesWhatIsThere) {
  write_project("extdeps.toml", kProject);
  auto r = run({"resolve", project_, "--json"});
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "ok");
  ASSERT_EQ(j["requirements"].size(), 4u);
  std::map<std::string, std::string> status;
  for (const auto& x : j["requirements"]) status[x["id"]] = x["status"];
  EXPECT_EQ(status["dep:virtual/compiler/c"], "satisfied");
  EXPECT_EQ(status["dep:generic/make"], "satisfied");
  EXPECT_EQ(status["dep:generic/zlib"], "satisfied");
  EXPECT_EQ(status["dep:generic/libxml2"], "planned");
  ASSERT_EQ(j["steps"].size(), 1u);
  const auto& step = j["steps"][0];
  EXPECT_EQ(step["manager"], "apt");
  EXPECT_EQ(step["requires_elevation"], true);
  ASSERT_EQ(step["packages"].size(), 1u);
  EXPECT_EQ(step["packages"][0]["name"], "libxml2-dev");
  // The newest libxml2-dev of the three lists is the one from bookworm main (deb12u6)
  EXPECT_EQ(step["packages"][0]["version"], "2.9.14+dfsg-1.3~deb12u6");
  auto cmd = step["command"].get<std::vector<std::string>>();
  EXPECT_EQ(cmd.front(), "apt-get");
  EXPECT_EQ(cmd.back(), "libxml2-dev=2.9.14+dfsg-1.3~deb12u6");
  EXPECT_TRUE(j["problems"].empty());
}

TEST_F(CliTest, CheckSaysWhatIsMissingAndHowToInstallIt) {
  write_project("extdeps.toml", kProject);
  auto r = run({"check", project_});
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.out.find("missing: 1 of 4 needs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sudo apt-get install"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("libxml2-dev=2.9.14+dfsg-1.3~deb12u6"), std::string::npos) << r.out;
  // Only the build category: everything is there.
  r = run({"check", project_, "--category", "build"});
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("ok: every need"), std::string::npos);
}

TEST_F(CliTest, InstallAsksRunsThroughSudoAndStopsAtAFailure) {
  write_project("extdeps.toml", kProject);
  auto r = run({"install", project_}, {}, "n\n");
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(commands_.empty());
  EXPECT_NE(r.out.find("nothing was run"), std::string::npos);

  r = run({"install", project_, "--dry-run"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(commands_.empty());
  EXPECT_NE(r.out.find("1. sudo apt-get install"), std::string::npos) << r.out;

  r = run({"install", project_}, {}, "y\n");
  EXPECT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(commands_.size(), 1u);
  EXPECT_EQ(commands_[0][0], "sudo");
  EXPECT_EQ(commands_[0][1], "apt-get");

  exit_status_ = 100;
  commands_.clear();
  r = run({"install", project_, "--yes"});
  EXPECT_EQ(r.rc, 3);
  ASSERT_EQ(commands_.size(), 1u);
  EXPECT_NE(r.err.find("error: step 1 (apt) failed with exit code 100: sudo apt-get install"),
            std::string::npos)
      << r.err;
}

TEST_F(CliTest, AnUnsatisfiableNeedExitsOneWithItsReason) {
  write_project("extdeps.toml", R"([external]
host-requires = ["dep:generic/libxml2@>=3", "dep:github/apache/arrow"]
)");
  auto r = run({"resolve", project_, "--explain"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.out.find("error: no package manager here provides dep:generic/libxml2 >=3 (libxml2-dev "
                       "2.9.14+dfsg-1.3~deb12u6 (debian) gives version 2.9.14, which is not >=3)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("not packaged"), std::string::npos) << r.out;
}

TEST_F(CliTest, AnUnknownIdIsUnmappedWithADidYouMean) {
  // A near miss that no package is named after: unmapped, with what was meant.
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:generic/libxmll\"]\n");
  auto r = run({"resolve", project_, "--json"});
  EXPECT_EQ(r.rc, 1);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["requirements"][0]["status"], "unmapped");
  EXPECT_EQ(j["requirements"][0]["suggestions"][0], "dep:generic/libxml2");
  // One that a source package is named after (libxml2's libxml2-dev) is planned as a guess,
  // and the warning still offers the id.
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:generic/libxml\"]\n");
  r = run({"resolve", project_, "--json"});
  EXPECT_EQ(r.rc, 0) << r.out;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["requirements"][0]["status"], "planned");
  EXPECT_EQ(j["requirements"][0]["packages"][0]["name"], "libxml2-dev");
  EXPECT_EQ(j["requirements"][0]["suggestions"][0], "dep:generic/libxml2");
}

TEST_F(CliTest, BadInputNamesThePlaceAndExitsTwo) {
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:gneric/zlib\"]\n");
  auto r = run({"resolve", project_});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("extdeps.toml:2:18: unknown DepURL type 'gneric' (did you mean 'generic'?)"),
            std::string::npos)
      << r.err;

  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:generic/zlib\"\n");
  r = run({"resolve", project_});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("extdeps.toml:2:37: error while parsing array: encountered end-of-file"), std::string::npos) << r.err;

  write_project("extdeps.toml", kProject);
  r = run({"resolve", project_, "--category", "bulid"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: unknown category 'bulid' (expected build, host or run)\n");

  r = run({"resolve", project_, "--optional", "gpu"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: no optional group 'gpu' in " + project_ + "/extdeps.toml (it has none)\n");

  r = run({"resolve", project_, "--no-such-flag"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: the following argument was not expected: --no-such-flag (see extdeps --help)\n");
  r = run({"version", "compare", "--scheme"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  r = run({"--help"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_NE(r.out.find("resolve"), std::string::npos);
}

TEST_F(CliTest, ConfigurationPrecedenceIsCliThenEnvThenProject) {
  write_project("pyproject.toml", std::string(kProject) + "\n[tool.extdeps]\nmanagers = [\"yum\"]\n");
  auto r = run({"resolve", project_});
  EXPECT_EQ(r.rc, 2);
  // The message names where the value was set: the file, line and column of the key.
  EXPECT_TRUE(std::regex_search(r.err, std::regex("^error: " + project_ +
                                                  "/pyproject.toml:[0-9]+:12: unknown package manager 'yum' \\(known here: apt")))
      << r.err;
  r = run({"resolve", project_}, {{"EXTDEPS_MANAGERS", "apt"}});
  EXPECT_EQ(r.rc, 0) << r.err;
  r = run({"resolve", project_, "--manager", "apt"}, {{"EXTDEPS_MANAGERS", "dnf"}});
  EXPECT_EQ(r.rc, 0) << r.err;
  r = run({"resolve", project_}, {{"EXTDEPS_MANAGERS", "dnf"}});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err.rfind("error: EXTDEPS_MANAGERS: unknown package manager 'dnf' (known here: apt", 0), 0u) << r.err;
}

TEST_F(CliTest, VersionCompareFollowsEachScheme) {
  EXPECT_EQ(run({"version", "compare", "--scheme", "deb", "1:1.0", "2.0"}).out, ">\n");
  EXPECT_EQ(run({"version", "compare", "--scheme", "deb", "1.0~rc1", "1.0"}).out, "<\n");
  EXPECT_EQ(run({"version", "compare", "--scheme", "rpm", "1.0", "1.0"}).out, "=\n");
  EXPECT_EQ(run({"version", "compare", "--scheme", "pep440", "1.0a1", "1.0.dev0"}).out, ">\n");
  EXPECT_EQ(run({"version", "compare", "--scheme", "pep440", "1.0", "1.0.0"}).out, "=\n");
  EXPECT_EQ(run({"version", "compare", "--scheme", "conda", "1.1dev1", "1.1_"}).out, "<\n");
  EXPECT_EQ(run({"version", "compare", "--scheme", "conda", "1!0.4.1", "1996.07.12"}).out, ">\n");
  EXPECT_EQ(run({"version", "compare", "--scheme", "nix", "1.0", "1.0pre1"}).out, ">\n");
  auto bad = run({"version", "compare", "--scheme", "spack", "1", "2"});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_EQ(bad.err, "error: unknown version scheme 'spack' (known: deb, rpm, pkgconfig, pep440, conda, nix)\n");
}

TEST_F(CliTest, ShowListsTheMappingsAndTheCandidatesHere) {
  auto r = run({"show", "dep:generic/libxml2"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("debian"), std::string::npos);
  EXPECT_NE(r.out.find("libxml2-dev"), std::string::npos);
  EXPECT_NE(r.out.find("libxml-2.0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("host: planned"), std::string::npos) << r.out;
  r = run({"show", "dep:generic/libxml"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("did you mean dep:generic/libxml2"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace extdeps

namespace extdeps {
namespace {

// The --json output of resolve and check validates against schema/plan.schema.json (checked by
// Python's jsonschema, which CI installs; skipped, saying why, where it is missing).
TEST_F(CliTest, JsonOutputFollowsThePlanSchema) {
  if (std::system("/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 with jsonschema is missing (Debian: python3-jsonschema)";
  write_project("extdeps.toml", R"([external]
build-requires = ["dep:virtual/compiler/c"]
host-requires = ["dep:generic/libxml2@>=2.9", "dep:github/apache/arrow", "dep:generic/libxml"]
)");
  std::string schema = std::string(EXTDEPS_SOURCE_MAPPINGS_DIR) + "/../schema/plan.schema.json";
  for (const char* cmd : {"resolve", "check"}) {
    auto r = run({cmd, project_, "--json"});
    EXPECT_EQ(r.rc, 1);
    std::string doc = test::temp_dir() + "/out.json";
    std::ofstream(doc) << r.out;
    std::string check = "/usr/bin/python3 -c 'import json,sys,jsonschema; "
                        "jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' " +
                        schema + " " + doc;
    EXPECT_EQ(std::system(check.c_str()), 0) << r.out;
  }
}

}  // namespace
}  // namespace extdeps

namespace extdeps {
namespace {

// A damaged dpkg status file stops the run with its file and line, and exit code 3 (the machine's
// own files failed us, docs/exit-codes.md); nothing is cached from it.
TEST_F(CliTest, ACorruptStatusFileIsBadInputWithItsPlace) {
  write_project("extdeps.toml", kProject);
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
