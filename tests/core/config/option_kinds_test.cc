// Typed options with one read path (issue 32 item 3): every option, core's and each provider's,
// says what its values are (OptionKind); config::load checks each value it resolves once, from
// whichever source, and names that source in the error (exit 2); readers take the checked value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/config/config.h"
#include "core/config/values.h"
#include "core/config/variables.h"
#include "tests/support/cli_fixture.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

namespace fs = std::filesystem;

// Every option extdeps has: core's, then the compiled-in providers'.
std::vector<const ProviderOption*> every_option() {
  std::vector<const ProviderOption*> out;
  for (const auto& o : config::core_options()) out.push_back(&o);
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& o : d->options) out.push_back(&o);
  return out;
}

// A value each kind refuses, and one it takes (with what the check makes of it; "" the same).
struct Sample {
  OptionKind kind;
  std::string bad, good, canonical;
};
const Sample kSamples[] = {
    {OptionKind::choice, "nope", "", ""},  // good: the option's first choice
    {OptionKind::seconds, "soon", "2.5", ""}, {OptionKind::size, "lots", "2G", "2147483648"},
    {OptionKind::flag, "maybe", "yes", "1"},  {OptionKind::url, "ftp://mirror/x", "https://mirror.example/x", ""},
};

TEST(OptionKinds, EveryOptionSaysWhatItsValuesAre) {
  std::size_t typed = 0;
  for (const ProviderOption* o : every_option()) {
    SCOPED_TRACE(std::string(o->name));
    const std::string_view v = o->value_name;
    if (o->kind != OptionKind::text) ++typed;
    if (o->kind == OptionKind::choice) {
      ASSERT_FALSE(o->choices.empty());
      std::string joined;
      for (auto c : o->choices) joined += (joined.empty() ? "" : "|") + std::string(c);
      EXPECT_EQ(v, joined) << "--help and the completions show a choice's values";
    } else {
      EXPECT_TRUE(o->choices.empty());
    }
    // The value name --help shows and the kind that is checked say the same thing.
    if (v == "SECONDS") EXPECT_EQ(o->kind, OptionKind::seconds);
    if (v == "SIZE") EXPECT_EQ(o->kind, OptionKind::size);
    if (v == "1|0") EXPECT_EQ(o->kind, OptionKind::flag);
    if (v == "DIR" || v == "FILE") EXPECT_EQ(o->kind, OptionKind::path);
    if (v == "FILE|URL") EXPECT_EQ(o->kind, OptionKind::path_or_url);
    if (v == "URL") EXPECT_TRUE(o->kind == OptionKind::url || o->kind == OptionKind::path_or_url);
    if (o->kind == OptionKind::seconds) EXPECT_LT(o->min_seconds, o->max_seconds);
    EXPECT_EQ(option_kind_named(option_kind_name(o->kind)), o->kind);
  }
  EXPECT_GE(typed, 8u) << "core alone has eight typed options";
}

// The same bad value, from a flag, a variable and a file, is refused by config::load with the
// source's name leading the message; a good one is read back as the check made it.
TEST(OptionKinds, EachKindRefusesABadValueFromEverySourceAndNamesIt) {
  std::size_t checked = 0;
  for (const Sample& sample : kSamples) {
    for (const ProviderOption* o : every_option()) {
      if (o->kind != sample.kind) continue;
      SCOPED_TRACE(std::string(o->name));
      const bool core = [&] {
        for (const auto& c : config::core_options())
          if (&c == o) return true;
        return false;
      }();
      const std::string dir = test::temp_dir();
      std::map<std::string, std::string> env{{"XDG_CONFIG_HOME", dir + "/none"}};
      // From the command line.
      config::Settings cli;
      (core ? cli.core_options : cli.provider_options)[std::string(o->name)] =
          OptionValue{{sample.bad}, "--" + std::string(o->name)};
      auto s = config::load(Context::for_test("/", env), "", cli);
      ASSERT_FALSE(s.ok());
      EXPECT_EQ(s.error().code, ExitCode::bad_input);
      EXPECT_TRUE(s.error().message.starts_with("--" + std::string(o->name) + ": expected ")) << s.error().message;
      EXPECT_TRUE(s.error().message.ends_with(", got '" + sample.bad + "'")) << s.error().message;
      EXPECT_EQ(s.error().from, "--" + std::string(o->name));
      // From its variable.
      if (!o->env.empty()) {
        auto with_var = env;
        with_var[std::string(o->env.front())] = sample.bad;
        s = config::load(Context::for_test("/", with_var), "", {});
        ASSERT_FALSE(s.ok());
        EXPECT_TRUE(s.error().message.starts_with(std::string(o->env.front()) + ": expected ")) << s.error().message;
        EXPECT_EQ(s.error().from, std::string(o->env.front()));
        // A flag over it wins, and the bad variable below is not in the way.
        const std::string good = sample.good.empty() ? std::string(o->choices.front()) : sample.good;
        config::Settings over;
        (core ? over.core_options : over.provider_options)[std::string(o->name)] =
            OptionValue{{good}, "--" + std::string(o->name)};
        s = config::load(Context::for_test("/", with_var), "", over);
        ASSERT_TRUE(s.ok()) << s.error().message;
        const auto& values = core ? s->core_options : s->provider_options;
        EXPECT_EQ(values.at(std::string(o->name)).values.front(), sample.canonical.empty() ? good : sample.canonical);
      }
      // From a project's file, at the key's line and column.
      if (!o->config_key.empty()) {
        const std::string project = dir + "/pyproject.toml";
        std::ofstream(project) << "[tool.extdeps]\n"
                               << o->config_key << " = "
                               << (o->list ? "[\"" + sample.bad + "\"]" : "\"" + sample.bad + "\"") << "\n";
        s = config::load(Context::for_test("/", env), project, {});
        ASSERT_FALSE(s.ok());
        const std::string place = project + ":2:" + std::to_string(o->config_key.size() + 4 + (o->list ? 1 : 0));
        EXPECT_EQ(s.error().message, place + ": expected " + s.error().expected + ", got '" + sample.bad + "'");
        EXPECT_EQ(s.error().from, place);
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 8u);
}

TEST(OptionKinds, APathFromAFileIsRelativeToItAndAUrlIsLeftAsItIs) {
  EXTDEPS_NEEDS_PROVIDER("pacman");
  EXTDEPS_NEEDS_PROVIDER("nix");
  const std::string dir = test::temp_dir();
  fs::create_directories(dir + "/project");
  const std::string project = dir + "/project/pyproject.toml";
  std::ofstream(project) << "[tool.extdeps]\npacman-config = \"etc/pacman.conf\"\npacman-dbs = [\"core.db\", "
                            "\"/srv/extra.db\"]\nnix-frontend = \"env\"\n";
  auto ctx = Context::for_test(
      "/", {{"XDG_CONFIG_HOME", dir + "/none"}, {"EXTDEPS_NIX_INDEX", "https://channels.example/packages.json.br"}});
  auto s = config::load(ctx, project, {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->provider_options["pacman-config"].values, std::vector<std::string>{dir + "/project/etc/pacman.conf"});
  EXPECT_EQ(s->provider_options["pacman-db"].values,
            (std::vector<std::string>{dir + "/project/core.db", "/srv/extra.db"}));
  // A path from a variable is the caller's, as given.
  auto var = Context::for_test("/", {{"XDG_CONFIG_HOME", dir + "/none"}, {"EXTDEPS_PACMAN_CONFIG", "my.conf"}});
  auto v = config::load(var, "", {});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->provider_options["pacman-config"].values, std::vector<std::string>{"my.conf"});
  EXPECT_EQ(s->provider_options["nix-index"].values,
            std::vector<std::string>{"https://channels.example/packages.json.br"});
  EXPECT_EQ(s->provider_options["nix-frontend"].values, std::vector<std::string>{"env"});
}

// Core's readers take the resolved value and no longer look at the variable; where no run's
// settings were resolved they read the variable through the same check.
TEST(OptionKinds, CoreReadsTheResolvedValueOrElseTheVariableChecked) {
  auto ctx = Context::for_test("/", {{"EXTDEPS_PROBE_TIMEOUT", "2.5"}});
  EXPECT_EQ(config::seconds(ctx, "probe-timeout")->value_or(-1), 2.5);
  ctx.set_options(Context::Options{{"probe-timeout", OptionValue{{"7"}, "pyproject.toml:3:17"}}});
  EXPECT_EQ(config::seconds(ctx, "probe-timeout")->value_or(-1), 7);
  EXPECT_EQ(config::seconds(ctx, "detect-ttl")->has_value(), false);  // resolved: not set anywhere
  auto bad = Context::for_test("/", {{"EXTDEPS_PROBE_TIMEOUT", "3601"}});
  auto e = config::seconds(bad, "probe-timeout");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, "EXTDEPS_PROBE_TIMEOUT: expected a number of seconds from 0 to 3600, got '3601'");
  EXPECT_EQ(config::size(Context::for_test("/", {{"EXTDEPS_MAX_DOWNLOAD_SIZE", "1K"}}), "max-download-size")->value(),
            1024u);
  EXPECT_EQ(config::flag(Context::for_test("/", {{"EXTDEPS_OFFLINE", "no"}}), "offline")->value(), false);
}

class OptionKindsCli : public test::CliFixture {};

// On the command line: a bad provider option's value is exit 2, named by its flag; the same from
// the project's file is named by its place.
TEST_F(OptionKindsCli, ABadValueIsExitTwoNamingTheFlagOrThePlace) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  EXTDEPS_NEEDS_PROVIDER("pypi");
  write_project("pyproject.toml", "[external]\nbuild-requires = [\"dep:virtual/compiler/c\"]\n");
  auto r = run({"resolve", project_, "--pypi-frontend", "conda"});
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("--pypi-frontend: expected pip or uv, got 'conda'"), std::string::npos) << r.err;
  write_project("pyproject.toml",
                "[external]\nbuild-requires = [\"dep:virtual/compiler/c\"]\n[tool.extdeps]\ndownload-deadline = 0\n");
  r = run({"resolve", project_});
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("pyproject.toml:4:21: expected a number of seconds from 1 to 604800, got '0'"),
            std::string::npos)
      << r.err;
  // A bad variable is refused by its name; once a flag decides the option, it is not in the way.
  write_project("pyproject.toml", "[external]\nbuild-requires = [\"dep:virtual/compiler/c\"]\n");
  r = run({"resolve", project_}, {{"EXTDEPS_OFFLINE", "sometimes"}});
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("EXTDEPS_OFFLINE: expected 1 or 0, got 'sometimes'"), std::string::npos) << r.err;
  r = run({"resolve", project_, "--offline"}, {{"EXTDEPS_OFFLINE", "sometimes"}});
  EXPECT_EQ(r.rc, 0) << r.err;
}

}  // namespace
}  // namespace extdeps
