// Provider plugins (core/plugin/plugin.h, schema/provider-protocol.md): the example plugin of
// examples/provider-plugin resolved in one solve with apt by the real extdeps program, its
// records cached like any provider's; and what a plugin that hangs, crashes, writes garbage or
// speaks a newer protocol gets: a clear error naming it, never a hang.
#include "core/plugin/plugin.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <tuple>

#include "core/provider/provider.h"
#include "core/util/subprocess.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

namespace fs = std::filesystem;

const std::string kExample = std::string(EXTDEPS_TEST_DATA) + "/../../examples/provider-plugin";

// Runs the extdeps program with exactly this environment (and PATH); stdout as text.
struct Ran {
  int rc = 0;
  std::string out, err;
};
Ran extdeps_run(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  std::vector<std::string> argv{"/usr/bin/env", "-i", "PATH=/usr/bin:/bin"};
  argv.insert(argv.end(), env.begin(), env.end());
  argv.push_back(EXTDEPS_BINARY);
  argv.insert(argv.end(), args.begin(), args.end());
  Ran ran;
  auto r = run_process({.argv = argv, .timeout_ms = 60000, .max_output = 1 << 24});
  if (r) ran.out = r->out;
  EXPECT_TRUE(r.ok()) << r.error().message;
  if (r) {
    ran.rc = r->exit_status;
    ran.err = r->err_tail;
  }
  return ran;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A plugin program written by the test: a shell script named extdeps-provider-<name>.
std::string write_plugin(const std::string& dir, const std::string& name, const std::string& body) {
  std::string path = dir + "/extdeps-provider-" + name;
  std::ofstream(path) << "#!/bin/sh\n" << body;
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

std::string describe_line(const std::string& name, int protocol = 1) {
  return "{\"type\":\"describe\",\"protocol\":" + std::to_string(protocol) + ",\"name\":\"" + name +
         "\",\"ecosystem\":\"" + name + "\",\"manager\":\"" + name + "-get\",\"scheme\":\"segments\"}";
}

class ExamplePlugin : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "the example plugin is a Python 3 script; no /usr/bin/python3";
    cache_ = test::temp_dir();
    log_ = test::temp_dir() + "/site.log";
    env_ = {"EXTDEPS_PLUGIN_PATH=" + kExample,
            "EXTDEPS_SITE_INDEX=" + kExample + "/site-index.json",
            "EXTDEPS_SITE_LOG=" + log_,
            "XDG_CACHE_HOME=" + cache_,
            "EXTDEPS_MAPPINGS_DIR=" + std::string(EXTDEPS_SOURCE_MAPPINGS_DIR),
            "HOME=" + cache_};
  }
  std::vector<std::string> resolve_args(std::vector<std::string> more = {}) const {
    std::vector<std::string> args{"resolve",   kExample,       "--root",        test::data_path("apt/bookworm"),
                                  "--manager", "apt,site-get", "--mapping-dir", kExample + "/mappings"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }
  std::string cache_, log_;
  std::vector<std::string> env_;
};

// One solve: zlib met by what dpkg has installed, acme-sdk >= 4.2 planned from the site index by
// the plugin's site-get; the second run reads the plugin's records from the .solv cache and
// does not ask it to load, nor to describe itself again.
TEST_F(ExamplePlugin, ResolvesInOneSolveWithAptAndIsCachedLikeAnyProvider) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  auto first = extdeps_run(resolve_args(), env_);
  EXPECT_EQ(first.rc, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("satisfied     dep:generic/zlib            [host]  zlib1g-dev 1:1.2.13.dfsg-1"),
            std::string::npos)
      << first.out;
  EXPECT_NE(first.out.find("planned       dep:generic/acme-sdk >=4.2  [host]  acme-sdk 4.2.1 (site-get)"),
            std::string::npos)
      << first.out;
  EXPECT_NE(first.out.find("site-get install -- acme-sdk=4.2.1"), std::string::npos) << first.out;
  EXPECT_EQ(read_text(log_), "describe\nidentity\nload\ninstall_commands\n");

  auto second = extdeps_run(resolve_args({"--json"}), env_);
  EXPECT_EQ(second.rc, 0) << second.err;
  EXPECT_EQ(read_text(log_), "describe\nidentity\nload\ninstall_commands\nidentity\ninstall_commands\n");
  auto plan = nlohmann::json::parse(second.out);
  ASSERT_EQ(plan["steps"].size(), 1u);
  EXPECT_EQ(plan["steps"][0]["manager"], "site-get");
  EXPECT_EQ(plan["steps"][0]["command"], nlohmann::json({"site-get", "install", "--", "acme-sdk=4.2.1"}));

  // Its option is a flag like any provider's, over the variable; a range it cannot meet is
  // unsatisfiable with the candidates it offered.
  auto listed = extdeps_run({"providers"}, env_);
  EXPECT_NE(listed.out.find("sitepkgs: a site's binary repository"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("--site-index FILE"), std::string::npos) << listed.out;
  std::string other = test::temp_dir() + "/index.json";
  std::ofstream(other) << R"({"packages": [{"name": "acme-sdk", "version": "4.1.3"}]})";
  auto old = extdeps_run(resolve_args({"--site-index", other}), env_);
  EXPECT_EQ(old.rc, 1) << old.out << old.err;
  EXPECT_NE(old.out.find("unsatisfiable dep:generic/acme-sdk >=4.2"), std::string::npos) << old.out;
}

// Not named in --manager and not available by default: the plugin is described, never loaded.
TEST_F(ExamplePlugin, AnUnnamedPluginIsNotAsked) {
  auto run = extdeps_run(
      {"resolve", kExample, "--root", test::data_path("apt/bookworm"), "--mapping-dir", kExample + "/mappings"}, env_);
  EXPECT_EQ(run.rc, 1) << run.out << run.err;  // acme-sdk has no provider in use
  EXPECT_EQ(read_text(log_), "describe\n");
}

// The env method: the search paths of an installed package of the plugin.
TEST_F(ExamplePlugin, EnvAsksThePluginForThePathsOfWhatIsInstalled) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  std::string root = test::temp_dir() + "/root";
  fs::copy(test::data_path("apt/bookworm"), root, fs::copy_options::recursive);
  fs::create_directories(root + "/opt/site");
  std::ofstream(root + "/opt/site/installed.json") << R"({"acme-sdk": "4.2.1", "acme-runtime": "4.2.0"})";
  auto run = extdeps_run(
      {"env", kExample, "--root", root, "--manager", "apt,site-get", "--mapping-dir", kExample + "/mappings"}, env_);
  EXPECT_EQ(run.rc, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("export PATH=/opt/site/acme-sdk/4.2.1/bin\"${PATH:+:$PATH}\"\n"), std::string::npos)
      << run.out;
  EXPECT_NE(
      run.out.find("export CMAKE_PREFIX_PATH=/opt/site/acme-sdk/4.2.1\"${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}\"\n"),
      std::string::npos)
      << run.out;
}

// Every request extdeps sends and every message the example plugin answers with is what
// schema/provider-protocol.schema.json allows (Python's jsonschema, as the CLI cases check theirs).
TEST_F(ExamplePlugin, ItsMessagesFollowTheProtocolSchema) {
  if (std::system("/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 with jsonschema is missing (Debian: python3-jsonschema)";
  const std::string source = std::string(EXTDEPS_TEST_DATA) + "/../..";
  Ran checked;
  const std::string options = nlohmann::json{{"site-index", kExample + "/site-index.json"}}.dump();
  std::vector<std::string> argv{"/usr/bin/env",
                                "-i",
                                "PATH=/usr/bin:/bin",
                                "/usr/bin/python3",
                                source + "/tests/core/plugin/check_protocol.py",
                                source + "/schema/provider-protocol.schema.json",
                                kExample + "/extdeps-provider-sitepkgs",
                                test::data_path("apt/bookworm"),
                                options};
  auto r = run_process({.argv = argv, .timeout_ms = 60000});
  if (r) checked.out = r->out;
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->exit_status, 0) << checked.out << r->err_tail;
  EXPECT_EQ(checked.out, "ok: 4 records, every message valid\n");
}

class BadPlugin : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::temp_dir(); }
  Result<std::unique_ptr<ProviderDescriptor>> describe(const std::string& path,
                                                       std::map<std::string, std::string> env = {}) {
    return plugin::describe(Context::for_test("/", std::move(env)), path);
  }
  std::string dir_;
};

TEST_F(BadPlugin, EachFailureIsAnErrorNamingThePlugin) {
  struct Case {
    std::string name, body, message;
  };
  for (const auto& c : std::vector<Case>{
           {"crash", "echo 'boom: no such table' >&2\nexit 3\n",
            "exited with status 3 during describe: boom: no such table"},
           {"signal", "kill -SEGV $$\n", "exited with status 139 during describe"},
           {"garbage", "echo 'hello there'\n", "line 1 of its answer to describe is not JSON"},
           {"untyped", "echo '[1, 2]'\n", "line 1 of its answer to describe is not an object with a \"type\""},
           {"refuses", "echo '{\"type\": \"error\", \"message\": \"no repository configured\"}'\n",
            "describe failed: no repository configured"},
           {"silent", "exit 0\n", "no \"describe\" message in its answer to describe"},
           // Issue 31: 300000 nested arrays crashed the copy of the message (SIGSEGV at discovery).
           {"deep", "head -c 300000 /dev/zero | tr '\\0' '['; head -c 300000 /dev/zero | tr '\\0' ']'; echo\n",
            "arrays and objects nested deeper than 200"},
           // One line of 70 MB: killed at 64 MiB, never buffered whole (nor searched quadratically).
           {"long", "head -c 70000000 /dev/zero | tr '\\0' ' '\n",
            "line 1 of its answer to describe is longer than 64 MiB"},
           {"newer", "echo '" + describe_line("newer", 2) + "'\n",
            "its description is for protocol 2; this extdeps speaks protocol 1 (a newer extdeps may speak it)"},
           {"misnamed", "echo '" + describe_line("other") + "'\n",
            "its description names it 'other', not 'misnamed' as its program's name does"},
       }) {
    std::string path = write_plugin(dir_, c.name, c.body);
    auto d = describe(path);
    ASSERT_FALSE(d.ok()) << c.name;
    EXPECT_EQ(d.error().code, ExitCode::environment) << c.name;
    EXPECT_NE(d.error().message.find("plugin extdeps-provider-" + c.name + " (" + path + ")"), std::string::npos)
        << d.error().message;
    EXPECT_NE(d.error().message.find(c.message), std::string::npos) << d.error().message;
  }
}

// A plugin that never answers is stopped at the time limit, with what it started.
TEST_F(BadPlugin, AHangingPluginIsStoppedAtTheTimeLimit) {
  std::string path = write_plugin(dir_, "hangs", "sleep 30 &\nwait\n");
  auto start = std::chrono::steady_clock::now();
  auto d = describe(path, {{"EXTDEPS_PLUGIN_TIMEOUT", "0.5"}});
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("did not answer describe within 0.5 s (EXTDEPS_PLUGIN_TIMEOUT); it was stopped"),
            std::string::npos)
      << d.error().message;
  EXPECT_LT(took, std::chrono::seconds(10));
}

// load: records stream in, installed ones apart; an answer cut before its "end" line, or a
// record the protocol does not allow, is an error naming the line.
TEST_F(BadPlugin, LoadStreamsRecordsAndRefusesATruncatedOrBadAnswer) {
  auto make = [&](const std::string& name, const std::string& load) {
    std::string body = "read line\ncase \"$line\" in\n  *describe*) echo '" + describe_line(name) + "' ;;\n  *) " +
                       load + " ;;\nesac\n";
    auto d = describe(write_plugin(dir_, name, body));
    EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message);
    return d;
  };
  auto load = [](const ProviderDescriptor& d) -> Result<std::pair<size_t, size_t>> {
    Context ctx = Context::for_test("/");
    auto p = d.make(ctx, ProviderSettings{});
    std::size_t available = 0, installed = 0;
    auto r = p->load(
        ctx, [&](PackageRecord&&) { ++available; }, [&](PackageRecord&&) { ++installed; });
    if (!r) return r.error();
    return std::make_pair(available, installed);
  };
  auto good = make(
      "good",
      R"(echo '{"type":"record","name":"a","version":"1","depends":[["b","c"],{"name":"d","op":">=","version":"2"}]}'; echo '{"type":"record","name":"b","version":"1","installed":true}'; echo '{"type":"end","records":2}')");
  ASSERT_TRUE(good.ok());
  auto counted = load(**good);
  ASSERT_TRUE(counted.ok()) << counted.error().message;
  EXPECT_EQ(*counted, std::make_pair(std::size_t{1}, std::size_t{1}));

  auto cut = make("cut", R"(echo '{"type":"record","name":"a","version":"1"}')");
  ASSERT_TRUE(cut.ok());
  auto r = load(**cut);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("its answer to load stopped before its \"end\" line"), std::string::npos)
      << r.error().message;

  auto bad = make(
      "badop", R"(echo '{"type":"record","name":"a","version":"1","depends":[{"name":"b","op":"~>","version":"1"}]}')");
  ASSERT_TRUE(bad.ok());
  r = load(**bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("line 1 of its answer to load: \"depends\": unknown operator '~>'"),
            std::string::npos)
      << r.error().message;  // As data: the place is the line of the plugin's answer, the operator what went wrong, the
  // operators it knows what was expected.
  EXPECT_NE(r.error().place.find("extdeps-provider-badop"), std::string::npos) << r.error().place;
  EXPECT_NE(r.error().place.find("line 1 of its answer to load"), std::string::npos) << r.error().place;
  EXPECT_EQ(r.error().what, "unknown operator '~>'");
  EXPECT_EQ(r.error().expected, "= < <= > >= !=");
  EXPECT_EQ(r.error().code, ExitCode::environment);
}

// A plugin whose options are named like options of the CLI's commands (issue 31: `system` and
// `dump-testcase` aborted every command with CLI11's OptionAlreadyAdded, --version included): its
// description is refused, naming the option, and every command still runs. Two plugins sharing
// an option name that no core option has define it once.
TEST_F(BadPlugin, AnOptionNamedLikeACoreOptionIsRefusedAndNothingAborts) {
  const std::string cache = test::temp_dir();
  for (const std::string name : {"system", "dump-testcase", "refresh", "scheme", "format", "root", "help"}) {
    const std::string dir = test::temp_dir();
    std::string line = describe_line("clash");
    line.insert(line.size() - 1, ",\"options\":[{\"name\":\"" + name + "\",\"help\":\"x\"}]");
    std::string path = write_plugin(dir, "clash", "echo '" + line + "'\n");
    auto d = describe(path);
    ASSERT_FALSE(d.ok()) << name;
    EXPECT_NE(d.error().message.find("has an option named '" + name + "'"), std::string::npos) << d.error().message;
    const std::vector<std::string> env{"EXTDEPS_PLUGIN_PATH=" + dir, "XDG_CACHE_HOME=" + cache, "HOME=" + cache};
    // Asked for by name, it fails as a usage error that names the plugin and the core option.
    const std::string project = test::temp_dir();
    std::ofstream(project + "/pyproject.toml")
        << "[project]\nname = \"p\"\nversion = \"0\"\n[external]\nbuild-requires = [\"dep:generic/zlib\"]\n";
    auto asked = extdeps_run({"resolve", project, "--manager", "clash"}, env);
    EXPECT_EQ(asked.rc, 2) << name << ": " << asked.err;
    EXPECT_NE(asked.err.find("unknown package manager 'clash': plugin extdeps-provider-clash"), std::string::npos)
        << asked.err;
    EXPECT_NE(asked.err.find("which is extdeps' own --" + name + " (of "), std::string::npos) << asked.err;
    auto version = extdeps_run({"--version"}, env);
    EXPECT_EQ(version.rc, 0) << name << ": " << version.err;
    EXPECT_EQ(version.out, "extdeps " EXTDEPS_VERSION "\n");
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"resolve", "--help"}, {"detect", "--help"}, {"version", "compare", "1", "2", "--scheme", "deb"}}) {
      auto r = extdeps_run(args, env);
      EXPECT_GE(r.rc, 0) << name;
      EXPECT_LE(r.rc, 3) << name << " " << args[0] << ": " << r.err;
    }
  }
  // Two plugins with an option of one name: each command defines it once.
  const std::string dir = test::temp_dir();
  for (const std::string plugin : {"one", "two"}) {
    std::string line = describe_line(plugin);
    line.insert(line.size() - 1, ",\"options\":[{\"name\":\"site-index\",\"help\":\"x\"}]");
    write_plugin(dir, plugin, "echo '" + line + "'\n");
  }
  auto r =
      extdeps_run({"resolve", "--help"}, {"EXTDEPS_PLUGIN_PATH=" + dir, "XDG_CACHE_HOME=" + cache, "HOME=" + cache});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("--site-index"), std::string::npos) << r.out;
}

// A plugin's option says what its values are (schema/provider-protocol.md `kind`); extdeps
// checks a value before the plugin sees it, as it does its own options'.
TEST_F(BadPlugin, AnOptionsKindIsCheckedBeforeThePluginSeesAValue) {
  auto with_options = [&](const std::string& name, const std::string& options) {
    std::string line = describe_line(name);
    line.insert(line.size() - 1, ",\"options\":" + options);
    return write_plugin(dir_, name, "echo '" + line + "'\n");
  };
  auto good = describe(with_options("modal", R"([{"name":"mode","kind":"choice","choices":["fast","slow"]}])"));
  ASSERT_TRUE(good.ok()) << good.error().message;
  ASSERT_EQ((*good)->options.size(), 1u);
  EXPECT_EQ((*good)->options[0].kind, OptionKind::choice);
  EXPECT_EQ((*good)->options[0].value_name, "fast|slow");
  for (const auto& [name, options, message] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"colour", R"([{"name":"mode","kind":"colour"}])", "has an option 'mode' of an unknown kind 'colour'"},
           {"loose", R"([{"name":"mode","choices":["a"]}])", "has \"choices\" for option 'mode', which is not of kind"},
           {"open", R"([{"name":"mode","kind":"choice"}])", "has option 'mode' of kind \"choice\" with no \"choices\""},
       }) {
    auto d = describe(with_options(name, options));
    ASSERT_FALSE(d.ok()) << name;
    EXPECT_NE(d.error().message.find(message), std::string::npos) << d.error().message;
  }
  // On the command line: a value that is not a choice is exit 2, named by its flag.
  const std::string cache = test::temp_dir();
  const std::string project = test::temp_dir();
  std::ofstream(project + "/pyproject.toml")
      << "[project]\nname = \"p\"\nversion = \"0\"\n[external]\nbuild-requires = [\"dep:generic/zlib\"]\n";
  const std::string only = test::temp_dir();
  std::filesystem::copy_file(dir_ + "/extdeps-provider-modal", only + "/extdeps-provider-modal");
  auto r = extdeps_run({"resolve", project, "--manager", "modal", "--mode", "medium"},
                       {"EXTDEPS_PLUGIN_PATH=" + only, "XDG_CACHE_HOME=" + cache, "HOME=" + cache});
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("--mode: expected fast or slow, got 'medium'"), std::string::npos) << r.err;
}

// Found in EXTDEPS_PLUGIN_PATH's folders before PATH's, the first of a name only, executables
// only.
TEST_F(BadPlugin, ProgramsAreFoundByNameInThePluginPathThenPath) {
  std::string first = test::temp_dir(), second = test::temp_dir();
  write_plugin(first, "one", "exit 0\n");
  write_plugin(second, "one", "exit 0\n");
  write_plugin(second, "two", "exit 0\n");
  std::ofstream(second + "/extdeps-provider-three") << "not executable\n";
  std::ofstream(second + "/extdeps-provider-") << "no name\n";
  auto found = plugin::find_programs(
      Context::for_test("/", {{"EXTDEPS_PLUGIN_PATH", first}, {"PATH", second + ":/nonexistent"}}));
  EXPECT_EQ(found, (std::vector<std::string>{first + "/extdeps-provider-one", second + "/extdeps-provider-two"}));
}

// The programs found in each folder are cached (<cache>/plugins/path-*.list) and a folder is read
// again only when its modification time moved: a program added is found on the next run (adding
// it moves the time), a folder whose time is where it was is not read again, and a folder changed
// in the last two seconds is not cached at all (its time may not show a change made in the same
// clock tick).
TEST_F(BadPlugin, TheFoldersListingIsCachedUntilTheFolderChanges) {
  const std::string dir = test::temp_dir(), cache = test::temp_dir();
  Context ctx = Context::for_test("/", {{"EXTDEPS_PLUGIN_PATH", dir}, {"PATH", ""}});
  ctx.set_cache_dir(cache);
  auto set_old_time = [&dir](time_t t) {
    const struct timespec old[2] = {{t, 0}, {t, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, dir.c_str(), old, 0), 0);
  };
  auto lists = [&cache] {
    std::size_t n = 0;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(cache + "/plugins", ec))
      n += e.path().filename().string().rfind("path-", 0) == 0;
    return n;
  };
  write_plugin(dir, "one", "exit 0\n");
  // Just changed: read, not cached.
  EXPECT_EQ(plugin::find_programs(ctx), std::vector<std::string>{dir + "/extdeps-provider-one"});
  EXPECT_EQ(lists(), 0u);
  set_old_time(1700000000);
  EXPECT_EQ(plugin::find_programs(ctx), std::vector<std::string>{dir + "/extdeps-provider-one"});
  EXPECT_EQ(lists(), 1u);
  // A program added moves the folder's time: found.
  write_plugin(dir, "two", "exit 0\n");
  EXPECT_EQ(plugin::find_programs(ctx),
            (std::vector<std::string>{dir + "/extdeps-provider-one", dir + "/extdeps-provider-two"}));
  set_old_time(1700000100);
  EXPECT_EQ(plugin::find_programs(ctx).size(), 2u);
  // The cache is what is read while the time stays: a program slipped in with the time put back
  // is not seen (which is what shows the folder was not read)...
  write_plugin(dir, "three", "exit 0\n");
  set_old_time(1700000100);
  EXPECT_EQ(plugin::find_programs(ctx).size(), 2u);
  // ...but whether a cached name is still a program is checked every time.
  ::chmod((dir + "/extdeps-provider-one").c_str(), 0644);
  EXPECT_EQ(plugin::find_programs(ctx), std::vector<std::string>{dir + "/extdeps-provider-two"});
  // Without a cache folder, always read.
  Context no_cache = Context::for_test("/", {{"EXTDEPS_PLUGIN_PATH", dir}, {"PATH", ""}});
  EXPECT_EQ(plugin::find_programs(no_cache),
            (std::vector<std::string>{dir + "/extdeps-provider-three", dir + "/extdeps-provider-two"}));
}

}  // namespace
}  // namespace extdeps
