// The 37 real [external] tables of ../shared/data/external-deps-build, resolved with apt against
// this machine's own lists and dpkg database: every need is met or planned, or unsatisfiable for a
// true reason; and apt itself accepts the plan (`apt-get install -s`).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/cli/cli.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

bool machine_has_apt_lists() {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/var/lib/apt/lists", ec))
    if (e.path().filename().string().find("_Packages") != std::string::npos) return true;
  return false;
}

// Needs that bookworm cannot meet, and the words the reason must contain.
const std::map<std::string, std::string> kKnownUnsatisfiable = {
    {"dep:github/apache/arrow", "not packaged"},
};

TEST(ExternalDepsBuild, EveryTableResolvesWithAptAndAptAcceptsThePlan) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  EXTDEPS_SHARED_OR_SKIP(dir, "external-deps-build");
  if (!machine_has_apt_lists()) GTEST_SKIP() << "this machine has no apt lists in /var/lib/apt/lists";
  if (std::system("command -v apt-get >/dev/null 2>&1") != 0) GTEST_SKIP() << "apt-get is absent";
  std::string cache = test::temp_dir();
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 37u);

  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    auto ctx = Context::from_process();
    ctx.set_warning_sink(nullptr);
    std::ostringstream out, err;
    int rc = cli::run(
        ctx, {"resolve", f.string(), "--manager", "apt", "--all-optional", "--json", "--cache-dir", cache}, out, err);
    ASSERT_TRUE(rc == 0 || rc == 1) << err.str();
    auto j = nlohmann::json::parse(out.str());
    bool expect_ok = true;
    for (const auto& r : j["requirements"]) {
      std::string id = r["id"], status = r["status"];
      auto known = kKnownUnsatisfiable.find(id);
      if (known != kKnownUnsatisfiable.end()) {
        expect_ok = false;
        EXPECT_EQ(status, "unsatisfiable") << id;
        EXPECT_NE(r.value("message", "").find(known->second), std::string::npos) << r.dump();
        continue;
      }
      EXPECT_TRUE(status == "satisfied" || status == "planned") << r.dump(2);
      EXPECT_FALSE(r["packages"].empty()) << r.dump();
    }
    EXPECT_EQ(rc, expect_ok ? 0 : 1);
    // apt accepts exactly what was planned.
    for (const auto& step : j["steps"]) {
      ASSERT_EQ(step["manager"], "apt");
      std::string cmd = "apt-get install -s -q";
      for (const auto& p : step["packages"])
        cmd += " '" + p["name"].get<std::string>() + "=" + p["version"].get<std::string>() + "'";
      cmd += " >/dev/null 2>&1";
      EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    }
  }
}

}  // namespace
}  // namespace extdeps
