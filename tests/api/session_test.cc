// The public API (core/include/extdeps/extdeps.h and extdeps_c.h) over the fixture machine of the
// CLI tests: the same answers as the command line, as plain structs, JSON and text.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/config/command_options.h"
#include "extdeps/extdeps.h"
#include "extdeps/extdeps_c.h"
#include "tests/support/cli_fixture.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace extdeps::test {
namespace {

constexpr const char* kProject = R"([external]
build-requires = ["dep:virtual/compiler/c"]
host-requires = ["dep:generic/zlib", "dep:generic/libxml2@>=2.9"]

[external.optional-host-requires]
tls = ["dep:generic/openssl@>=3"]
)";

class ApiTest : public CliFixture {
 protected:
  api::SessionOptions options() {
    api::SessionOptions o;
    o.root = root_;
    o.cache_dir = cache_;
    o.inherit_environment = false;
    o.environment = {
        {"EXTDEPS_MAPPINGS_DIR", EXTDEPS_SOURCE_MAPPINGS_DIR}, {"PKG_CONFIG_LIBDIR", ""}, {"PATH", "/usr/bin:/bin"}};
    return o;
  }
  api::Options apt() {
    api::Options o;
    o.managers = {"apt"};
    return o;
  }
  std::string sudo() const { return geteuid() == 0 ? "" : "sudo "; }
};

TEST_F(ApiTest, LoadReadsTheDeclaration) {
  write_project("extdeps.toml", kProject);
  api::Session s(options());
  auto d = s.load(project_);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->path, project_ + "/extdeps.toml");
  ASSERT_EQ(d->needs.size(), 4u);
  EXPECT_EQ(d->needs[2].id, "dep:generic/libxml2");
  EXPECT_EQ(d->needs[2].range, ">=2.9");
  EXPECT_EQ(d->needs[2].category, "host");
  EXPECT_EQ(d->needs[2].where, project_ + "/extdeps.toml:3:38");
  EXPECT_EQ(d->needs[3].group, "tls");
  EXPECT_EQ(d->optional_groups, std::vector<std::string>{"tls"});
  auto j = json::parse(d->json);
  EXPECT_EQ(j["needs"].size(), 4u);
  EXPECT_EQ(j["needs"][3]["group"], "tls");
}

TEST_F(ApiTest, BadInputIsAnErrorWithItsPlaceAndExitCode) {
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:gneric/zlib\"]\n");
  api::Session s(options());
  auto r = s.resolve(project_, apt());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_EQ(r.error().message.rfind(project_ + "/extdeps.toml:2:18: unknown DepURL type 'gneric'", 0), 0u)
      << r.error().message;
  auto missing = s.load(project_ + "/nothing-here");
  ASSERT_FALSE(missing.ok());
}

TEST_F(ApiTest, ResolveAndCheckGiveThePlanAndWhatIsMissing) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write_project("extdeps.toml", kProject);
  api::Session s(options());
  auto r = s.resolve(project_, apt());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->plan_found);
  EXPECT_FALSE(r->all_satisfied);
  EXPECT_EQ(r->host, "Debian GNU/Linux 12 (bookworm), amd64");
  ASSERT_EQ(r->needs.size(), 3u);  // the optional group is not asked for
  EXPECT_EQ(r->needs[1].need.id, "dep:generic/zlib");
  EXPECT_EQ(r->needs[1].status, api::Status::satisfied);
  ASSERT_FALSE(r->needs[1].packages.empty());
  EXPECT_EQ(r->needs[1].packages[0].name, "zlib1g-dev");
  EXPECT_TRUE(r->needs[1].packages[0].installed);
  EXPECT_EQ(r->needs[2].status, api::Status::planned);
  ASSERT_EQ(r->steps.size(), 1u);
  EXPECT_EQ(r->steps[0].manager, "apt");
  EXPECT_TRUE(r->steps[0].requires_elevation);
  EXPECT_EQ(r->steps[0].argv[0], "apt-get");
  EXPECT_EQ(
      r->steps[0].command_line.rfind(
          sudo() + "apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=300 -- 'libxml2-dev=2.9.14", 0),
      0u)
      << r->steps[0].command_line;
  auto j = json::parse(r->json);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["satisfied"], false);
  EXPECT_EQ(j["declaration"], project_ + "/extdeps.toml");
  EXPECT_NE(r->text.find("planned       dep:generic/libxml2 >=2.9"), std::string::npos) << r->text;

  auto c = s.check(project_, apt());
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->all_satisfied);
  EXPECT_NE(c->text.find("error: 1 of 3 needs of " + project_ + "/extdeps.toml are not met"), std::string::npos)
      << c->text;
  EXPECT_EQ(c->text.find("satisfied"), std::string::npos) << "check lists only what is missing\n" << c->text;

  // Options: the optional group, and the build category alone (met).
  auto tls = apt();
  tls.optional_groups = {"tls"};
  auto with_tls = s.resolve(project_, tls);
  ASSERT_TRUE(with_tls.ok());
  EXPECT_EQ(with_tls->needs.size(), 4u);
  auto build = apt();
  build.categories = {"build"};
  auto b = s.check(project_, build);
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(b->all_satisfied);
  EXPECT_EQ(b->text, "ok: every need of " + project_ + "/extdeps.toml is met (1 checked)\n");
}

// Options::system plans for another system (--system): the plan names it, the machine's own
// packages still count.
TEST_F(ApiTest, SystemPlansForAnotherSystem) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write_project("extdeps.toml", kProject);
  api::Session s(options());
  api::Options o = apt();
  o.system = "ubuntu:24.04";
  auto r = s.resolve(project_, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->host, "ubuntu 24.04, amd64");
  o.system = "ubuntu 24.04";
  r = s.resolve(project_, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("ubuntu 24.04"), std::string::npos) << r.error().message;
}

// Sessions in several threads at once (docs/library.md, "Threads"): each thread its own Session,
// one cache folder for all, and a provider plugin (examples/provider-plugin) that the first
// thread to plan discovers and registers while the others read the providers. Every plan is the
// one a session alone makes afterwards. It runs in a child process (gtest's death-test fork), so
// the plugin registered stays there; the child reports each problem on stderr.
TEST_F(ApiTest, SessionsInSeveralThreadsMakeTheSamePlans) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "the example plugin is a Python 3 script; no /usr/bin/python3";
  const std::string example = std::string(EXTDEPS_TEST_DATA) + "/../../examples/provider-plugin";
  api::SessionOptions so = options();
  so.environment["EXTDEPS_PLUGIN_PATH"] = example;
  so.environment["EXTDEPS_SITE_INDEX"] = example + "/site-index.json";
  so.environment["EXTDEPS_SITE_LOG"] = test::temp_dir() + "/site.log";
  so.environment["HOME"] = cache_;
  api::Options o;
  o.managers = {"apt", "site-get"};
  o.mapping_dirs = {example + "/mappings"};
  auto plan_in_threads = [&] {
    constexpr int kThreads = 6, kRounds = 3;
    std::mutex mutex;
    std::vector<std::string> texts(kThreads), problems;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        api::Session s(so);
        for (int round = 0; round < kRounds; ++round) {
          auto r = s.resolve(example, o);
          auto h = s.detect();
          std::lock_guard lock(mutex);
          if (!r.ok()) problems.push_back("resolve: " + r.error().message);
          else if (round == 0) texts[t] = r->text;
          else if (r->text != texts[t]) problems.push_back("a later plan of one session differs:\n" + r->text);
          if (!h.ok()) problems.push_back("detect: " + h.error().message);
        }
      });
    for (auto& t : threads) t.join();
    auto alone = api::Session(so).resolve(example, o);
    if (!alone.ok()) problems.push_back("alone: " + alone.error().message);
    else if (alone->text.find("acme-sdk 4.2.1 (site-get)") == std::string::npos)
      problems.push_back("the plugin's package is not planned:\n" + alone->text);
    for (const std::string& text : texts)
      if (alone.ok() && text != alone->text) problems.push_back("a plan made in a thread differs:\n" + text);
    for (const std::string& p : problems) std::fprintf(stderr, "%s\n", p.c_str());
    std::exit(problems.empty() ? 0 : 1);
  };
  EXPECT_EXIT(plan_in_threads(), ::testing::ExitedWithCode(0), "");
}

TEST_F(ApiTest, EnvSaysWhatIsMissingAndRendersTheVariables) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write_project("extdeps.toml", kProject);
  api::Session s(options());
  auto e = s.env(project_, apt());
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_FALSE(e->satisfied);
  ASSERT_EQ(e->missing.size(), 1u);
  EXPECT_EQ(e->missing[0].need.id, "dep:generic/libxml2");
  EXPECT_NE(e->explanation.find("libxml2-dev="), std::string::npos);
  EXPECT_TRUE(e->variables.empty());
  EXPECT_EQ(e->sh(), "");
  auto j = json::parse(e->json);
  EXPECT_EQ(j["satisfied"], false);
  EXPECT_EQ(j["missing"][0]["id"], "dep:generic/libxml2");
}

TEST_F(ApiTest, DetectDescribesTheFixtureMachine) {
  api::Session s(options());
  auto h = s.detect();
  ASSERT_TRUE(h.ok()) << h.error().message;
  EXPECT_EQ(h->os, "Debian GNU/Linux 12 (bookworm)");
  EXPECT_FALSE(h->kernel.empty());
  EXPECT_EQ(h->cuda_state, "no-library");  // no program to probe with: not probed
  auto j = json::parse(h->json);
  EXPECT_EQ(j["os"]["pretty_name"], "Debian GNU/Linux 12 (bookworm)");
}

// Every option the table of command options marks for the library is a key of the C API, with
// the same name; the unknown-key error lists them. "host" reaches the plan: a missing file fails it.
TEST_F(ApiTest, EveryLibraryOptionOfTheCommandTableIsACApiKey) {
  write_project("extdeps.toml", kProject);
  extdeps_session* s = extdeps_session_new();
  ASSERT_NE(s, nullptr);
  std::size_t keys = 0;
  for (const auto& row : config::command_options()) {
    if (!row.library.any()) continue;
    ++keys;
    extdeps_session_set(s, "reset", "");
    const char* value = row.value_name.empty() ? "1" : row.library.session_map ? "NAME=x" : "x";
    EXPECT_EQ(extdeps_session_set(s, std::string(row.name).c_str(), value), 0)
        << row.name << ": " << (extdeps_session_error(s) ? extdeps_session_error(s) : "");
  }
  EXPECT_GE(keys, 14u);
  EXPECT_EQ(extdeps_session_set(s, "colour", "blue"), 2);
  const std::string error = extdeps_session_error(s);
  for (const auto& row : config::command_options()) {
    if (!row.library.any()) continue;
    const std::size_t at = error.find(" " + std::string(row.name));
    ASSERT_NE(at, std::string::npos) << error;
    const char after = error[at + 1 + row.name.size()];
    EXPECT_TRUE(after == ',' || after == ')') << row.name << " in " << error;
  }
  EXPECT_EQ(extdeps_session_set(s, "env", "=x"), 2);
  EXPECT_STREQ(extdeps_session_error(s), "option 'env' takes NAME=VALUE, not '=x'");
  extdeps_session_set(s, "reset", "");
  EXPECT_EQ(extdeps_session_set(s, "root", root_.c_str()), 0);
  EXPECT_EQ(extdeps_session_set(s, "cache-dir", cache_.c_str()), 0);
  EXPECT_EQ(extdeps_session_set(s, "env", (std::string("EXTDEPS_MAPPINGS_DIR=") + EXTDEPS_SOURCE_MAPPINGS_DIR).c_str()),
            0);
  EXPECT_EQ(extdeps_session_set(s, "manager", "apt"), 0);
  EXPECT_EQ(extdeps_session_set(s, "host", (project_ + "/no-such-facts.json").c_str()), 0);
  extdeps_result* r = nullptr;
  EXPECT_NE(extdeps_resolve(s, project_.c_str(), &r), 0);
  ASSERT_NE(extdeps_result_error(r), nullptr);
  EXPECT_NE(std::string(extdeps_result_error(r)).find("no-such-facts.json"), std::string::npos)
      << extdeps_result_error(r);
  extdeps_result_free(r);
  extdeps_session_free(s);
}

// The C API: the same over opaque handles.
TEST_F(ApiTest, TheCApiGivesCodesJsonTextAndErrors) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write_project("extdeps.toml", kProject);
  extdeps_session* s = extdeps_session_new();
  ASSERT_NE(s, nullptr);
  EXPECT_STREQ(extdeps_version(), EXTDEPS_VERSION);
  EXPECT_EQ(extdeps_session_set(s, "root", root_.c_str()), 0);
  EXPECT_EQ(extdeps_session_set(s, "cache-dir", cache_.c_str()), 0);
  EXPECT_EQ(extdeps_session_set(s, "env", (std::string("EXTDEPS_MAPPINGS_DIR=") + EXTDEPS_SOURCE_MAPPINGS_DIR).c_str()),
            0);
  EXPECT_EQ(extdeps_session_set(s, "env", "PKG_CONFIG_LIBDIR="), 0);
  EXPECT_EQ(extdeps_session_set(s, "manager", "apt"), 0);
  EXPECT_EQ(extdeps_session_error(s), nullptr);
  EXPECT_EQ(extdeps_session_set(s, "colour", "blue"), 2);
  ASSERT_NE(extdeps_session_error(s), nullptr);
  EXPECT_EQ(std::string(extdeps_session_error(s)).rfind("unknown option 'colour'", 0), 0u);
  EXPECT_EQ(extdeps_session_set(s, "offline", "maybe"), 2);
  EXPECT_STREQ(extdeps_session_error(s), "option 'offline' takes 1 or 0, not 'maybe'");

  extdeps_result* r = nullptr;
  EXPECT_EQ(extdeps_load(s, project_.c_str(), &r), 0);
  EXPECT_EQ(json::parse(extdeps_result_json(r))["needs"].size(), 4u);
  extdeps_result_free(r);

  EXPECT_EQ(extdeps_resolve(s, project_.c_str(), &r), 0);
  EXPECT_EQ(extdeps_result_error(r), nullptr);
  EXPECT_EQ(json::parse(extdeps_result_json(r))["steps"].size(), 1u);
  EXPECT_NE(std::string(extdeps_result_text(r)).find("libxml2-dev"), std::string::npos);
  EXPECT_EQ(extdeps_result_env(r, "sh"), nullptr);  // not an env result
  extdeps_result_free(r);

  EXPECT_EQ(extdeps_check(s, project_.c_str(), &r), 1);
  EXPECT_EQ(extdeps_result_code(r), 1);
  EXPECT_NE(std::string(extdeps_result_text(r)).find("are not met"), std::string::npos);
  extdeps_result_free(r);

  EXPECT_EQ(extdeps_env(s, project_.c_str(), &r), 1);
  EXPECT_STREQ(extdeps_result_env(r, "sh"), "");
  EXPECT_EQ(std::string(extdeps_result_env(r, "cmake")).rfind("# written by extdeps env", 0), 0u);
  EXPECT_EQ(json::parse(extdeps_result_env(r, "json"))["satisfied"], false);
  EXPECT_EQ(extdeps_result_env(r, "bat"), nullptr);
  extdeps_result_free(r);

  // Only the build category: met.
  EXPECT_EQ(extdeps_session_set(s, "category", "build"), 0);
  EXPECT_EQ(extdeps_check(s, project_.c_str(), nullptr), 0);

  // Bad input: the code and the line.
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:gneric/zlib\"]\n");
  EXPECT_EQ(extdeps_resolve(s, project_.c_str(), &r), 2);
  EXPECT_EQ(extdeps_result_json(r), nullptr);
  ASSERT_NE(extdeps_result_error(r), nullptr);
  EXPECT_NE(std::string(extdeps_result_error(r)).find("extdeps.toml:2:18: unknown DepURL type 'gneric'"),
            std::string::npos);
  extdeps_result_free(r);

  EXPECT_EQ(extdeps_detect(s, &r), 0);
  EXPECT_EQ(json::parse(extdeps_result_json(r))["os"]["pretty_name"], "Debian GNU/Linux 12 (bookworm)");
  extdeps_result_free(r);
  extdeps_session_free(s);
  extdeps_result_free(nullptr);
  extdeps_session_free(nullptr);
  EXPECT_EQ(extdeps_resolve(nullptr, ".", &r), 2);
  extdeps_result_free(r);
}

}  // namespace
}  // namespace extdeps::test

namespace extdeps::test {
namespace {

// A plan that removes an installed package, as the library reports it: Report::removals with the
// reason, the step's apt-get command with "name-", and "removals" in the JSON (tests/data/apt/
// removals: libhts-dev needs libcurl4-gnutls-dev; libcurl4-openssl-dev is installed).
TEST_F(ApiTest, APlansRemovalsAreReported) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  fs::remove_all(root_);
  fs::copy(data_path("apt/removals"), root_, fs::copy_options::recursive);
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:generic/htslib\"]\n");
  api::Session s(options());
  auto r = s.resolve(project_, apt());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->plan_found);
  ASSERT_EQ(r->removals.size(), 1u);
  EXPECT_EQ(r->removals[0].manager, "apt");
  EXPECT_EQ(r->removals[0].name, "libcurl4-openssl-dev");
  EXPECT_EQ(r->removals[0].version, "7.88.1-10+deb12u15");
  EXPECT_EQ(r->removals[0].reason, "libcurl4-gnutls-dev 7.88.1-10+deb12u15 (debian) conflicts with it");
  ASSERT_EQ(r->steps.size(), 1u);
  EXPECT_EQ(r->steps[0].argv.back(), "libcurl4-openssl-dev-");
  auto j = json::parse(r->json);
  ASSERT_EQ(j["removals"].size(), 1u);
  EXPECT_EQ(j["removals"][0]["for"], json::array({"dep:generic/htslib"}));
  EXPECT_EQ(j["steps"][0]["removals"][0]["name"], "libcurl4-openssl-dev");
}

}  // namespace
}  // namespace extdeps::test
