// --root DIR (EXTDEPS_ROOT, `root` in the configuration): the plan is for the machine under DIR
// (its dpkg status, apt lists, os-release), not for the one extdeps runs on.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/cli/cli.h"
#include "core/context/context.h"
#include "tests/support/cli_fixture.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

const char* kProject = R"([external]
host-requires = ["dep:generic/libxml2@>=2.9", "dep:generic/zlib"]
)";

class RootOption : public test::CliFixture {
 protected:
  // Runs over a Context whose own root is an empty folder: only --root (or its variable or
  // configuration) can point it at the fixture machine.
  test::CliRun run_elsewhere(std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
    env.emplace("EXTDEPS_MAPPINGS_DIR", std::string(EXTDEPS_SOURCE_MAPPINGS_DIR));
    env.emplace("PKG_CONFIG_LIBDIR", "");
    auto ctx = Context::for_test(empty_, env);
    ctx.set_cache_dir(cache_);
    std::ostringstream out, err;
    int rc = cli::run(ctx, args, out, err);
    return {rc, out.str(), err.str(), ctx.warnings()};
  }
  std::map<std::string, std::string> statuses(const std::string& json) {
    std::map<std::string, std::string> out;
    auto doc = nlohmann::json::parse(json);  // kept: the loop must not run over a temporary's element
    for (const auto& r : doc["requirements"]) out[r["id"].get<std::string>()] = r["status"].get<std::string>();
    return out;
  }
  std::string empty_ = test::temp_dir();
};

TEST_F(RootOption, TheFixtureRootGivesItsPlan) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write_project("extdeps.toml", kProject);
  auto here = run_elsewhere({"resolve", project_, "--json", "--manager", "apt"});
  EXPECT_NE(here.rc, 0);  // no dpkg database under the empty root
  for (const auto& args : {std::vector<std::string>{"--root", root_, "resolve", project_, "--json"},
                           std::vector<std::string>{"resolve", project_, "--json", "--root", root_ + "/"}}) {
    auto there = run_elsewhere(args);
    ASSERT_EQ(there.rc, 0) << there.err;
    auto s = statuses(there.out);
    EXPECT_EQ(s["dep:generic/zlib"], "satisfied");
    EXPECT_EQ(s["dep:generic/libxml2"], "planned");
    auto j = nlohmann::json::parse(there.out);
    ASSERT_EQ(j["steps"].size(), 1u);
    EXPECT_EQ(j["steps"][0]["command"].back(), "libxml2-dev=2.9.14+dfsg-1.3~deb12u6");
  }
  auto text = run_elsewhere({"--root", root_, "resolve", project_});
  EXPECT_NE(text.out.find("on Debian GNU/Linux 12 (bookworm)"), std::string::npos) << text.out;
}

TEST_F(RootOption, TheVariableAndTheConfigurationSetItToo) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write_project("extdeps.toml", kProject);
  auto env = run_elsewhere({"resolve", project_, "--json"}, {{"EXTDEPS_ROOT", root_}});
  ASSERT_EQ(env.rc, 0) << env.err;
  EXPECT_EQ(statuses(env.out)["dep:generic/zlib"], "satisfied");

  write_project("extdeps.toml", std::string(kProject) + "\n[tool.extdeps]\nroot = \"" + root_ + "\"\n");
  auto config = run_elsewhere({"resolve", project_, "--json"});
  ASSERT_EQ(config.rc, 0) << config.err;
  EXPECT_EQ(statuses(config.out)["dep:generic/libxml2"], "planned");
  // The command line is above the configuration.
  auto cli = run_elsewhere({"resolve", project_, "--json", "--root", empty_, "--manager", "apt"});
  EXPECT_NE(cli.rc, 0);
}

TEST_F(RootOption, AMissingRootIsBadInput) {
  write_project("extdeps.toml", kProject);
  auto r = run_elsewhere({"--root", empty_ + "/nowhere", "resolve", project_});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: the root folder " + empty_ + "/nowhere does not exist or is not a folder\n");
  write_project("extdeps.toml", std::string(kProject) + "\n[tool.extdeps]\nroot = \"nowhere\"\n");
  r = run_elsewhere({"resolve", project_});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: " + project_ + "/extdeps.toml:5:8: the root folder " + project_ +
                       "/nowhere does not exist or is not a folder\n");
}

}  // namespace
}  // namespace extdeps
