// One resolver for every setting (issue 15 part 6): core's options (plugin-timeout, detect-ttl,
// ...) and the providers' come from the command line, the environment, the project and the user
// file, in that order, checked once against their kind; the resolved value is what every reader
// of the option sees (config::apply_to, config::value), blamed on where it came from; and every
// variable the sources read is in the registry (config/variables.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "core/config/config.h"
#include "core/config/values.h"
#include "core/config/variables.h"
#include "core/detect/host.h"
#include "core/plugin/plugin.h"
#include "core/util/subprocess.h"
#include "tests/support/fake_processes.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

namespace fs = std::filesystem;

struct Files {
  std::string dir = test::temp_dir();
  std::string project = dir + "/pyproject.toml";
  Files(const std::string& user, const std::string& project_text) {
    fs::create_directories(dir + "/xdg/extdeps");
    std::ofstream(dir + "/xdg/extdeps/config.toml") << user;
    std::ofstream(project) << project_text;
  }
  Context context(std::map<std::string, std::string> env = {}) const {
    env["XDG_CONFIG_HOME"] = dir + "/xdg";
    return Context::for_test("/", env);
  }
};

// The option's value as a reader in core sees it: its values and where they came from.
std::pair<std::vector<std::string>, std::string> seen(const Context& ctx, std::string_view name) {
  auto v = config::value(ctx, name);
  if (!v.ok()) return {{}, "error: " + v.error().message};
  if (!*v) return {{}, "unset"};
  return {(*v)->values, (*v)->from};
}

using Seen = std::pair<std::vector<std::string>, std::string>;

TEST(SettingsResolver, CoreOptionsFollowThePrecedenceAndReachTheirReaders) {
  Files f("plugin-timeout = 30\ndetect-ttl = \"600\"\n", "[tool.extdeps]\nplugin-timeout = \"7\"\n");
  // The project's file over the user's; the user's where the project says nothing.
  auto ctx = f.context();
  auto s = config::load(ctx, f.project, {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_TRUE(s->core_options.count("plugin-timeout"));
  EXPECT_EQ(s->core_options["plugin-timeout"].values, std::vector<std::string>{"7"});
  EXPECT_EQ(s->core_options["plugin-timeout"].from, f.project + ":2:18");
  EXPECT_EQ(s->core_options["detect-ttl"].values, std::vector<std::string>{"600"});
  config::apply_to(ctx, *s);
  EXPECT_EQ(seen(ctx, "plugin-timeout"), (Seen{{"7"}, f.project + ":2:18"}));
  EXPECT_EQ(seen(ctx, "detect-ttl"), (Seen{{"600"}, f.dir + "/xdg/extdeps/config.toml:2:14"}));
  EXPECT_EQ(config::seconds(ctx, "plugin-timeout")->value_or(-1), 7);
  // The environment is the environment: nothing is written into it.
  EXPECT_EQ(ctx.env("EXTDEPS_PLUGIN_TIMEOUT"), std::nullopt);

  // The environment over both files.
  auto env_ctx = f.context({{"EXTDEPS_PLUGIN_TIMEOUT", "9"}});
  s = config::load(env_ctx, f.project, {});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->core_options["plugin-timeout"].values, std::vector<std::string>{"9"});
  EXPECT_EQ(s->core_options["plugin-timeout"].from, "EXTDEPS_PLUGIN_TIMEOUT");
  config::apply_to(env_ctx, *s);
  EXPECT_EQ(seen(env_ctx, "plugin-timeout"), (Seen{{"9"}, "EXTDEPS_PLUGIN_TIMEOUT"}));

  // A context whose run's settings are not resolved (a later run, before it resolves its own)
  // reads the environment's layer alone: none of the files' values carry over.
  env_ctx.set_options(std::nullopt);
  EXPECT_EQ(seen(env_ctx, "detect-ttl"), (Seen{{}, "unset"}));
  EXPECT_EQ(seen(env_ctx, "plugin-timeout"), (Seen{{"9"}, "EXTDEPS_PLUGIN_TIMEOUT"}));
}

TEST(SettingsResolver, TheResolvedTimeoutIsWhatThePluginCallUses) {
  // plugin-timeout from the project's file reaches the ProcessRunner's request.
  Files f("", "[tool.extdeps]\nplugin-timeout = \"3.5\"\n");
  auto ctx = f.context();
  auto s = config::load(ctx, f.project, {});
  ASSERT_TRUE(s.ok());
  config::apply_to(ctx, *s);
  auto fake = test::FakeProcesses::install(ctx);
  fake->on("extdeps-provider-x", test::printed("{\"type\":\"error\",\"message\":\"no\"}\n"));
  auto d = plugin::describe(ctx, "/opt/bin/extdeps-provider-x");
  ASSERT_FALSE(d.ok());
  ASSERT_EQ(fake->requests().size(), 1u);
  EXPECT_EQ(fake->requests()[0].timeout_ms, 3500);
}

TEST(SettingsResolver, ABadValueFromAFileIsBlamedOnItsPlace) {
  // Refused as the file is read, before anything reads the value.
  Files f("", "[tool.extdeps]\ndetect-ttl = \"soon\"\n");
  auto s = config::load(f.context(), f.project, {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, f.project + ":2:14: expected a number of seconds from 0 to 31536000, got 'soon'");
  EXPECT_EQ(s.error().from, f.project + ":2:14");
  EXPECT_EQ(s.error().code, ExitCode::bad_input);
  // The same value from the variable, where no settings are resolved, is the reader's error.
  auto unresolved = Context::for_test("/", {{"EXTDEPS_DETECT_TTL", "soon"}});
  auto facts = detect::detect_host(unresolved, {});
  ASSERT_FALSE(facts.ok());
  EXPECT_EQ(facts.error().message, "EXTDEPS_DETECT_TTL: expected a number of seconds from 0 to 31536000, got 'soon'");
  // A table, not a value: refused where it is written.
  Files g("", "[tool.extdeps]\nplugin-timeout = [1]\n");
  auto bad = config::load(g.context(), g.project, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, g.project + ":2:18: 'plugin-timeout' must be SECONDS");
}

TEST(SettingsResolver, ProvidersDeclareTheirsAndTheyResolveTheSameWay) {
  EXTDEPS_NEEDS_PROVIDER("conda");
  EXTDEPS_NEEDS_PROVIDER("nix");
  EXTDEPS_NEEDS_PROVIDER("pypi");
  Files f("nix-timeout = \"60\"\n", "[tool.extdeps]\nconda-frontend = \"micromamba\"\n");
  auto ctx = f.context({{"EXTDEPS_PYPI_FRONTEND", "uv"}});
  auto s = config::load(ctx, f.project, {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  config::apply_to(ctx, *s);
  EXPECT_EQ(seen(ctx, "conda-frontend"), (Seen{{"micromamba"}, f.project + ":2:18"}));
  EXPECT_EQ(seen(ctx, "nix-timeout"), (Seen{{"60"}, f.dir + "/xdg/extdeps/config.toml:1:15"}));
  EXPECT_EQ(seen(ctx, "pypi-frontend"), (Seen{{"uv"}, "EXTDEPS_PYPI_FRONTEND"}));
  EXPECT_EQ(s->provider_options["nix-timeout"].values, std::vector<std::string>{"60"});
  for (const char* name : {"EXTDEPS_CONDA_FRONTEND", "EXTDEPS_NIX_TIMEOUT", "EXTDEPS_PYPI_FRONTEND", "PIP_INDEX_URL",
                           "EXTDEPS_PLUGIN_TIMEOUT", "CONDA_OVERRIDE_CUDA", "EXTDEPS_OVERRIDE_GLIBC", "XDG_CACHE_HOME"})
    EXPECT_TRUE(config::is_registered(name)) << name;
  EXPECT_FALSE(config::is_registered("EXTDEPS_NO_SUCH_THING"));
}

// Every variable name the sources read (ctx.env("X"), std::getenv("X"), and every "EXTDEPS_..."
// literal, which helpers pass on; comments aside) is in the registry: a new one cannot be read
// without being declared, documented and listed by `extdeps config --variables`.
TEST(SettingsResolver, EveryVariableTheSourcesReadIsRegistered) {
  const fs::path root = fs::path(EXTDEPS_SOURCE_MAPPINGS_DIR).parent_path();  // the source tree
  const std::regex read(R"re((?:env|getenv)\("([A-Za-z_][A-Za-z0-9_]*)"\))re");
  const std::regex ours(R"re("(EXTDEPS_[A-Z0-9_]+)")re");
  const std::regex comment(R"re((^|\s)//[^\n]*)re");
  std::set<std::string> missing;
  std::size_t files = 0, names = 0;
  for (const char* top : {"core", "providers"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      if (e.path().extension() != ".cc" && e.path().extension() != ".h") continue;
      // A provider the build left out registers nothing.
      const fs::path in = fs::relative(e.path(), root / top);
      if (std::string_view(top) == "providers" && !test::compiled_in(in.begin()->string())) continue;
      ++files;
      // A comment's example ("EXTDEPS_CONDA_CHANNELS" in core's) is not a read.
      const std::string text = std::regex_replace(test::read_file(e.path().string()), comment, "$1");
      for (const std::regex* re : {&read, &ours}) {
        for (std::sregex_iterator it(text.begin(), text.end(), *re), end; it != end; ++it) {
          const std::string name = (*it)[1];
          ++names;
          if (!config::is_registered(name)) missing.insert(name + " (" + e.path().filename().string() + ")");
        }
      }
    }
  }
  EXPECT_GT(files, 100u);
  EXPECT_GT(names, 40u);
  std::string list;
  for (const auto& m : missing) list += "\n  " + m;
  EXPECT_TRUE(missing.empty()) << "read but not in core/config/variables.cc or a descriptor:" << list;
}

}  // namespace
}  // namespace extdeps
