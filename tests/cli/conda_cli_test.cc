// conda and apt in one solve, from the command line: a channel built from conda-forge's real numpy
// subset (../shared/data/conda) served on 127.0.0.1, and the fixture machine's apt lists and dpkg
// status (tests/support/cli_fixture.h). The closure test checks the plan without libsolv: every
// depends and constrains of every planned conda package, read from the index itself, is met by the
// plan.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "providers/conda/matchspec.h"
#include "tests/support/cli_fixture.h"
#include "tests/support/http_server.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

using nlohmann::json;

class CondaCliTest : public test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    auto numpy = test::shared_data("conda/conda-forge-numpy-linux-64.json");
    if (!numpy) GTEST_SKIP() << "../shared/data/conda is absent (no shared/ beside the checkout)";
    index_path_ = *numpy;
    channel_ = test::temp_dir();
    fs::create_directories(channel_ + "/linux-64");
    fs::create_directories(channel_ + "/noarch");
    fs::copy_file(*numpy, channel_ + "/linux-64/repodata.json");
    std::ofstream(channel_ + "/noarch/repodata.json") << R"({"info": {"subdir": "noarch"}, "packages": {}})";
    server_.serve_dir("/conda-forge", channel_);
  }

  test::CliRun resolve(const std::string& managers, std::vector<std::string> more = {}) {
    std::vector<std::string> args = {
        "resolve", project_, "--json", "--manager", managers, "--channel", server_.url("/conda-forge")};
    args.insert(args.end(), more.begin(), more.end());
    return run(args, {{"CONDA_SUBDIR", "linux-64"}, {"PATH", ""}});
  }

  static std::map<std::string, std::string> status_of(const json& plan) {
    std::map<std::string, std::string> out;
    for (const auto& r : plan["requirements"])
      out[r["id"]] = r["status"].get<std::string>() + " " +
                     (r["packages"].empty() ? std::string("-") : r["packages"][0]["manager"].get<std::string>());
    return out;
  }

  std::string index_path_, channel_;
  test::HttpServer server_;
};

// openssl is installed through apt on the fixture machine, libxml2-dev is not, and only the conda
// channel has a BLAS.
const char* kMixed = R"([external]
host-requires = ["dep:generic/openssl@>=3", "dep:generic/libxml2", "dep:virtual/interface/blas"]
)";

TEST_F(CondaCliTest, CondaFirstTakesWhatCondaHasAndAptTheRest) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write_project("extdeps.toml", kMixed);
  auto r = resolve("conda,apt");
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  auto plan = json::parse(r.out);
  auto status = status_of(plan);
  EXPECT_EQ(status["dep:generic/openssl"], "planned conda");  // preferred to apt's installed copy
  EXPECT_EQ(status["dep:virtual/interface/blas"], "planned conda");
  EXPECT_EQ(status["dep:generic/libxml2"], "planned apt");  // not in the channel
  ASSERT_EQ(plan["steps"].size(), 2u);
  EXPECT_EQ(plan["steps"][0]["manager"], "conda");
  EXPECT_EQ(plan["steps"][1]["manager"], "apt");
  auto conda = plan["steps"][0]["command"].get<std::vector<std::string>>();
  ASSERT_GE(conda.size(), 6u);
  EXPECT_EQ(std::vector<std::string>(conda.begin(), conda.begin() + 5),
            (std::vector<std::string>{"conda", "install", "-y", "--override-channels", "-c"}));
  EXPECT_EQ(conda[5], server_.url("/conda-forge"));
  EXPECT_NE(std::find(conda.begin(), conda.end(), "openssl=3.2.1=hd590300_0"), conda.end());
  EXPECT_NE(std::find(conda.begin(), conda.end(), "libopenblas=0.3.26=pthreads_h413a1c8_0"), conda.end());
  EXPECT_EQ(plan["steps"][1]["command"].back(), "libxml2-dev=2.9.14+dfsg-1.3~deb12u6");
}

TEST_F(CondaCliTest, AptFirstKeepsWhatAptHasAndTakesTheRestFromConda) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write_project("extdeps.toml", kMixed);
  auto r = resolve("apt,conda");
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  auto plan = json::parse(r.out);
  auto status = status_of(plan);
  EXPECT_EQ(status["dep:generic/openssl"], "satisfied apt");
  EXPECT_EQ(status["dep:generic/libxml2"], "planned apt");
  EXPECT_EQ(status["dep:virtual/interface/blas"], "planned conda");
  ASSERT_EQ(plan["steps"].size(), 2u);
  EXPECT_EQ(plan["steps"][0]["manager"], "apt");
  EXPECT_EQ(plan["steps"][1]["manager"], "conda");
  for (const auto& p : plan["steps"][1]["packages"]) EXPECT_NE(p["name"], "openssl");
}

TEST_F(CondaCliTest, WithoutCondaNamedNothingIsDownloaded) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write_project("extdeps.toml", kMixed);
  auto r = resolve("apt");
  EXPECT_EQ(r.rc, 1) << r.err << r.out;  // no BLAS in the fixture's apt lists
  EXPECT_EQ(status_of(json::parse(r.out))["dep:virtual/interface/blas"], "unsatisfiable -");
  EXPECT_EQ(server_.count("/conda-forge/linux-64/repodata.json.zst"), 0);
  EXPECT_EQ(server_.count("/conda-forge/noarch/repodata.json"), 0);
}

// The planned conda packages with their records from the index: "name version build" -> record.
std::map<std::string, json> planned_records(const json& plan, const json& index) {
  std::map<std::string, json> by_key;
  for (const char* section : {"packages", "packages.conda"})
    for (const auto& [file, rec] : index[section].items())
      by_key[rec["name"].get<std::string>() + " " + rec["version"].get<std::string>() + " " +
             rec["build"].get<std::string>()] = rec;
  std::map<std::string, json> out;
  for (const auto& step : plan["steps"]) {
    if (step["manager"] != "conda") continue;
    for (const auto& p : step["packages"]) {
      std::string key =
          p["name"].get<std::string>() + " " + p["version"].get<std::string>() + " " + p["build"].get<std::string>();
      auto it = by_key.find(key);
      EXPECT_NE(it, by_key.end()) << key << " is planned but not in the index";
      if (it != by_key.end()) out[p["name"]] = it->second;
    }
  }
  return out;
}

// Every depends of every package in `env` (the plan plus what is installed) is met in `env`, and
// every constrains on a name `env` has; returns how many relations were checked.
size_t check_closure(const std::map<std::string, json>& env) {
  size_t checked = 0;
  for (const auto& [name, rec] : env) {
    for (const char* key : {"depends", "constrains"}) {
      if (!rec.contains(key) || rec[key].is_null()) continue;
      for (const auto& d : rec[key]) {
        auto [dep, rest] = conda::split_name(d.get<std::string>());
        auto m = conda::compile_conda_spec(rest);
        EXPECT_TRUE(m.ok()) << d << ": " << m.error().message;
        if (!m.ok()) continue;
        auto it = env.find(dep);
        ++checked;
        if (it == env.end()) {
          EXPECT_NE(std::string(key), "depends") << name << " depends on " << d << ", which the environment lacks";
          continue;
        }
        EXPECT_TRUE((*m)->matches(it->second["version"].get<std::string>(), it->second["build"].get<std::string>()))
            << name << " " << key << " " << d << " but the environment has " << it->second["version"] << " "
            << it->second["build"];
      }
    }
  }
  return checked;
}

const char* kPythonAndLibraries = R"([external]
build-requires = ["dep:generic/python@>=3.12"]
host-requires = ["dep:generic/openssl", "dep:virtual/interface/blas", "dep:generic/bzip2", "dep:generic/libffi"]
dependencies = ["dep:generic/zlib", "dep:generic/sqlite"]
)";

TEST_F(CondaCliTest, EveryDependsAndConstrainsOfThePlanIsMetByThePlan) {
  write_project("extdeps.toml", kPythonAndLibraries);
  auto r = resolve("conda");
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  auto plan = json::parse(r.out);
  auto index = json::parse(test::read_file(index_path_));
  auto records = planned_records(plan, index);
  ASSERT_GE(records.size(), 20u);  // python's closure alone is 20 packages
  EXPECT_TRUE(records.count("python"));
  EXPECT_TRUE(records.count("libopenblas"));
  EXPECT_GE(check_closure(records), 40u);
  // The plan names every package once, pinned to version and build, after "--".
  EXPECT_EQ(plan["steps"][0]["command"].size(), 7 + records.size());
}

TEST_F(CondaCliTest, ThePlanPlusTheInstalledEnvironmentIsClosed) {
  // An environment (--prefix) that already has the compiler runtime, as conda-meta records.
  auto index = json::parse(test::read_file(index_path_));
  std::string prefix = test::temp_dir();
  fs::create_directories(prefix + "/conda-meta");
  std::map<std::string, json> installed;
  for (const auto& [file, rec] : index["packages.conda"].items()) {
    std::string name = rec["name"];
    if (name != "libgcc-ng" && name != "libgomp" && name != "_openmp_mutex" && name != "libzlib") continue;
    installed[name] = rec;
    std::ofstream(prefix + "/conda-meta/" + file.substr(0, file.size() - 6) + ".json") << rec.dump();
  }
  for (const auto& [file, rec] : index["packages"].items())
    if (rec["name"] == "_libgcc_mutex" || rec["name"] == "_openmp_mutex") {
      installed[rec["name"]] = rec;
      std::ofstream(prefix + "/conda-meta/" + file.substr(0, file.size() - 8) + ".json") << rec.dump();
    }
  ASSERT_EQ(installed.size(), 5u);

  write_project("extdeps.toml", kPythonAndLibraries);
  auto r = resolve("conda", {"--prefix", prefix});
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  auto plan = json::parse(r.out);
  auto planned = planned_records(plan, index);
  for (const auto& [name, rec] : installed) EXPECT_FALSE(planned.count(name)) << name << " is installed already";
  auto command = plan["steps"][0]["command"].get<std::vector<std::string>>();
  EXPECT_EQ(std::vector<std::string>(command.begin(), command.begin() + 5),
            (std::vector<std::string>{"conda", "install", "-y", "-p", prefix}));
  auto env = planned;
  env.insert(installed.begin(), installed.end());
  EXPECT_GE(check_closure(env), 40u);
  // zlib's run need is met by the installed libzlib.
  for (const auto& req : plan["requirements"])
    if (req["id"] == "dep:generic/zlib") {
      EXPECT_EQ(req["status"], "satisfied");
    }
}

// A channel that cannot be read, with conda the only manager: exit 3, naming the URL.
TEST_F(CondaCliTest, ADownloadThatFailsExitsThreeNamingTheUrl) {
  write_project("extdeps.toml", kMixed);
  fs::remove_all(channel_ + "/noarch");
  std::string base = server_.url("/conda-forge");
  // Offline with nothing cached: the first URL it would need.
  auto r = resolve("conda", {"--offline"});
  EXPECT_EQ(r.rc, 3);
  EXPECT_EQ(r.err, "error: offline: no cached copy of " + base + "/linux-64/repodata.json.zst\n");

  r = resolve("conda");
  EXPECT_EQ(r.rc, 3);
  EXPECT_EQ(r.err, "error: channel " + base + " (" + base + ") is not a conda channel here: neither " + base +
                       "/noarch/repodata.json.zst nor " + base + "/noarch/repodata.json exists\n");
}

// The same with apt in use too: conda is left out with a warning that says why, apt plans what it
// can, and the need only the channel could meet (a BLAS) says that conda maps it and why it is
// missing. Exit 1 (that need is unmet), not 3.
TEST_F(CondaCliTest, ADownloadThatFailsLeavesCondaOutAndAptPlans) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write_project("extdeps.toml", kMixed);
  const std::string why = "offline: no cached copy of " + server_.url("/conda-forge") + "/linux-64/repodata.json.zst";
  auto r = resolve("conda,apt", {"--offline"});
  EXPECT_EQ(r.rc, 1) << r.err << r.out;
  auto plan = json::parse(r.out);
  EXPECT_EQ(plan["warnings"], json::array({"conda was left out of this plan: " + why}));
  auto status = status_of(plan);
  EXPECT_EQ(status["dep:generic/openssl"], "satisfied apt");
  EXPECT_EQ(status["dep:generic/libxml2"], "planned apt");
  EXPECT_EQ(status["dep:virtual/interface/blas"], "unsatisfiable -");
  for (const auto& req : plan["requirements"])
    if (req["id"] == "dep:virtual/interface/blas") {
      const std::string message = req["message"];
      EXPECT_NE(message.find("; conda maps it ("), std::string::npos) << message;
      EXPECT_NE(message.find(") but was left out: " + why), std::string::npos) << message;
    }
  ASSERT_EQ(plan["steps"].size(), 1u);
  EXPECT_EQ(plan["steps"][0]["manager"], "apt");

  // With the BLAS need gone, the plan holds: exit 0, the warning still there.
  write_project("extdeps.toml", R"([external]
host-requires = ["dep:generic/openssl@>=3", "dep:generic/libxml2"]
)");
  r = resolve("conda,apt", {"--offline"});
  EXPECT_EQ(r.rc, 0) << r.err << r.out;
  EXPECT_EQ(json::parse(r.out)["warnings"], json::array({"conda was left out of this plan: " + why}));
}

TEST_F(CondaCliTest, OfflineUsesTheCacheAndSaysHowOld) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write_project("extdeps.toml", kMixed);
  ASSERT_EQ(resolve("conda,apt").rc, 0);
  auto r = resolve("conda,apt", {"--offline"});
  ASSERT_EQ(r.rc, 0) << r.err;
  // The age is the seconds since the first run wrote it: 0 on an idle machine, more on a busy
  // one (under ASan on two shared cores the first run alone can take a second).
  const std::string prefix =
      "using the cached copy of " + server_.url("/conda-forge/linux-64/repodata.json") + " from ";
  EXPECT_NE(std::find_if(r.warnings.begin(), r.warnings.end(),
                         [&](const std::string& w) {
                           if (w.rfind(prefix, 0) != 0) return false;
                           const std::string age = w.substr(prefix.size());
                           const auto digits = age.find_first_not_of("0123456789");
                           return digits > 0 && digits != std::string::npos && age.substr(digits) == " s ago" &&
                                  std::stoi(age.substr(0, digits)) < 60;
                         }),
            r.warnings.end())
      << testing::PrintToString(r.warnings);
  EXPECT_EQ(status_of(json::parse(r.out))["dep:generic/openssl"], "planned conda");
}

}  // namespace
}  // namespace extdeps
