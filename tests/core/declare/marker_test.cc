#include <sys/utsname.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/declare/declare.h"
#include "core/detect/os_release.h"
#include "tests/test_support.h"

namespace extdeps::declare {
namespace {

// A Linux x86_64 machine with CPython 3.11.4 (values as Python's platform module reports them).
MarkerEnv linux_env() {
  return {
      {"os_name", "posix"},
      {"sys_platform", "linux"},
      {"platform_machine", "x86_64"},
      {"platform_python_implementation", "CPython"},
      {"platform_release", "6.1.0-18-amd64"},
      {"platform_system", "Linux"},
      {"platform_version", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)"},
      {"python_version", "3.11"},
      {"python_full_version", "3.11.4"},
      {"implementation_name", "cpython"},
      {"implementation_version", "3.11.4"},
  };
}

bool eval(std::string_view marker, const MarkerEnv& env = linux_env()) {
  auto r = evaluate_marker(marker, env);
  EXPECT_TRUE(r.ok()) << marker << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() && *r;
}

std::string marker_error(std::string_view marker, const MarkerEnv& env = linux_env()) {
  auto r = evaluate_marker(marker, env);
  EXPECT_FALSE(r.ok()) << marker << " evaluated";
  return r.ok() ? "" : r.error().message;
}

TEST(Marker, StringComparisons) {
  EXPECT_TRUE(eval("sys_platform == 'linux'"));
  EXPECT_TRUE(eval("sys_platform == \"linux\""));
  EXPECT_FALSE(eval("sys_platform != 'linux'"));
  EXPECT_TRUE(eval("platform_system!='Windows'"));  // PEP 725's PyEnchant example
  EXPECT_TRUE(eval("platform_system=='Linux'"));    // PEP 725's NAVis example
  EXPECT_TRUE(eval("'linux' == sys_platform"));
  EXPECT_TRUE(eval("os_name < 'z'"));
  // platform_release is not a version variable: "6.1.0-18-amd64" >= "10" in string order.
  EXPECT_TRUE(eval("platform_release >= '10'"));
  EXPECT_FALSE(eval("platform_release < '6'"));
}

TEST(Marker, InAndNotIn) {
  EXPECT_TRUE(eval("platform_machine in 'x86_64 aarch64'"));
  EXPECT_FALSE(eval("platform_machine in 'arm64 ppc64le'"));
  EXPECT_TRUE(eval("platform_machine not in 'arm64 ppc64le'"));
  EXPECT_TRUE(eval("'Debian' in platform_version"));
}

TEST(Marker, VersionComparisons) {
  EXPECT_TRUE(eval("python_version >= '3.9'"));
  EXPECT_TRUE(eval("python_version > '3.9'"));  // 3.11 > 3.9 as versions, not as strings
  EXPECT_FALSE(eval("python_version < '3.9'"));
  EXPECT_TRUE(eval("python_full_version == '3.11.4'"));
  EXPECT_TRUE(eval("python_full_version == '3.11.*'"));
  EXPECT_TRUE(eval("python_full_version ~= '3.10'"));
  EXPECT_FALSE(eval("python_full_version ~= '3.10.0'"));
  EXPECT_TRUE(eval("python_version == '3.11.0'"));
  EXPECT_TRUE(eval("'3.8' < python_version"));
  EXPECT_TRUE(eval("implementation_version === '3.11.4'"));
  EXPECT_TRUE(eval("python_version in '3.10 3.11 3.12'"));
}

TEST(Marker, BooleanLogicAndParentheses) {
  EXPECT_TRUE(eval("sys_platform == 'linux' and platform_machine != 'arm64'"));
  EXPECT_FALSE(eval("sys_platform == 'win32' and platform_machine == 'x86_64'"));
  EXPECT_TRUE(eval("sys_platform == 'win32' or platform_machine == 'x86_64'"));
  // "and" binds tighter than "or".
  EXPECT_TRUE(eval("os_name == 'nt' and sys_platform == 'win32' or python_version >= '3.9'"));
  EXPECT_FALSE(eval("os_name == 'nt' and (sys_platform == 'win32' or python_version >= '3.9')"));
  EXPECT_TRUE(eval("((sys_platform == 'linux'))"));
}

TEST(Marker, Extra) {
  MarkerEnv env = linux_env();
  EXPECT_FALSE(eval("extra == 'plots'", env));  // no group asked for
  env["extra"] = "Plots_Extra";
  EXPECT_TRUE(eval("extra == 'plots-extra'", env));  // PEP 685 normalisation
  EXPECT_TRUE(eval("extra == \"plots.extra\" and sys_platform == 'linux'", env));
  EXPECT_FALSE(eval("extra != 'plots--extra'", env));
}

TEST(Marker, Errors) {
  EXPECT_EQ(marker_error("pyton_version >= '3.9'"),
            "unknown marker variable 'pyton_version' (did you mean 'python_version'?)");
  EXPECT_EQ(marker_error("os.name == 'posix'"), "unknown marker variable 'os.name' (did you mean 'os_name'?)");
  EXPECT_EQ(marker_error("sys_platform == 'linux"),
            "invalid marker 'sys_platform == 'linux': unterminated string, expected a closing ' at "
            "position 17");
  EXPECT_EQ(marker_error("sys_platform =="),
            "invalid marker 'sys_platform ==': expected a marker variable or a quoted string at the "
            "end");
  EXPECT_EQ(marker_error("sys_platform 'linux'"),
            "invalid marker 'sys_platform 'linux'': expected a comparison operator, got 'linux' at "
            "position 14");
  EXPECT_EQ(marker_error("(os_name == 'posix'"), "invalid marker '(os_name == 'posix'': expected ')' at the end");
  EXPECT_EQ(marker_error("os_name == 'posix' or"),
            "invalid marker 'os_name == 'posix' or': expected a marker variable or a quoted string "
            "at the end");
  EXPECT_EQ(marker_error("os_name"), "invalid marker 'os_name': expected a comparison operator at the end");
  EXPECT_EQ(marker_error("os_name => 'posix'"),
            "invalid marker 'os_name => 'posix'': unknown operator '=>' at position 9");
  EXPECT_EQ(marker_error("os_name not 'posix'"),
            "invalid marker 'os_name not 'posix'': expected 'in' after 'not' at position 13");
  EXPECT_EQ(marker_error("os_name == 'posix' sys_platform == 'linux'"),
            "invalid marker 'os_name == 'posix' sys_platform == 'linux'': expected 'and', 'or' or "
            "the end of the marker, got 'sys_platform' at position 20");
  EXPECT_EQ(marker_error("os_name ~= 'posix'"), "cannot compare 'posix' ~= 'posix': they are not versions");
  MarkerEnv no_python = linux_env();
  no_python.erase("python_version");
  EXPECT_EQ(marker_error("python_version >= '3'", no_python),
            "marker variable 'python_version' has no value here (no python3 on PATH; set "
            "EXTDEPS_PYTHON_VERSION)");
}

TEST(Marker, CheckWithoutEvaluating) {
  EXPECT_TRUE(check_marker("python_version >= '3.9' and extra == 'x'").ok());
  EXPECT_FALSE(check_marker("python_version >=").ok());
  EXPECT_EQ(check_marker("").error().message, "empty marker");
}

TEST(Marker, HostEnvFromUname) {
  Context ctx = Context::for_test("/", {{"EXTDEPS_PYTHON_VERSION", "3.12.1"}});
  MarkerEnv env = host_marker_env(ctx);
  struct utsname u;
  ASSERT_EQ(uname(&u), 0);
  EXPECT_EQ(env.at("platform_machine"), u.machine);
  EXPECT_EQ(env.at("platform_release"), u.release);
  EXPECT_EQ(env.at("platform_version"), u.version);
  EXPECT_EQ(env.at("platform_system"), u.sysname);
  EXPECT_EQ(env.at("os_name"), "posix");
#ifdef __linux__
  EXPECT_EQ(env.at("sys_platform"), "linux");
  EXPECT_EQ(env.at("platform_system"), "Linux");
#endif
  EXPECT_EQ(env.at("implementation_name"), "cpython");
  EXPECT_EQ(env.at("platform_python_implementation"), "CPython");
  EXPECT_EQ(env.at("python_version"), "3.12");
  EXPECT_EQ(env.at("python_full_version"), "3.12.1");
  EXPECT_TRUE(*evaluate_marker("python_full_version >= '3.12' and os_name == 'posix'", env));
}

// The machine is the context's (Context::uname), not a second uname call: an aarch64 Darwin
// context gives its names to the markers, and the machine's name (uname's form) follows it.
TEST(Marker, HostEnvFollowsTheContextsUname) {
  Context ctx = Context::for_test("/", {{"EXTDEPS_PYTHON_VERSION", "3.12.1"}});
  ctx.set_uname(
      {.system = "Darwin", .release = "23.4.0", .version = "Darwin Kernel Version 23.4.0", .machine = "arm64"});
  MarkerEnv env = host_marker_env(ctx);
  EXPECT_EQ(env.at("platform_system"), "Darwin");
  EXPECT_EQ(env.at("sys_platform"), "darwin");
  EXPECT_EQ(env.at("platform_machine"), "arm64");
  EXPECT_EQ(env.at("platform_release"), "23.4.0");
  EXPECT_EQ(env.at("platform_version"), "Darwin Kernel Version 23.4.0");
  EXPECT_EQ(detect::machine(ctx), "aarch64");
  ctx.set_uname({.system = "Linux", .release = "6.1.0", .version = "#1", .machine = "ppc64le"});
  EXPECT_EQ(detect::machine(ctx), "ppc64le");
  ctx.set_uname({});  // uname failed: no platform keys, x86_64
  EXPECT_EQ(host_marker_env(ctx).count("platform_machine"), 0u);
  EXPECT_EQ(detect::machine(ctx), "x86_64");
}

TEST(Marker, HostEnvShortOverride) {
  Context ctx = Context::for_test("/", {{"EXTDEPS_PYTHON_VERSION", "3.10"}});
  MarkerEnv env = host_marker_env(ctx);
  EXPECT_EQ(env.at("python_version"), "3.10");
  EXPECT_EQ(env.count("python_full_version"), 0u);
}

TEST(Marker, HostEnvPythonFromSymlinkName) {
  // A fixture root whose PATH holds python3 -> python3.13 -> /opt/py/bin/python3.13 (dangling):
  // the version comes from the names, nothing is run under a fixture root.
  std::string root = test::temp_dir();
  namespace fs = std::filesystem;
  fs::create_directories(root + "/usr/local/bin");
  fs::create_directory_symlink("/nonexistent", root + "/usr/bin");  // an unusable PATH entry
  fs::create_symlink("python3.13", root + "/usr/local/bin/python3");
  Context ctx = Context::for_test(root, {{"PATH", "/usr/bin:relative/dir:/usr/local/bin"}});
  MarkerEnv env = host_marker_env(ctx);
  EXPECT_EQ(env.at("python_version"), "3.13");
  EXPECT_EQ(env.count("python_full_version"), 0u);

  Context bare = Context::for_test(root);  // no PATH at all
  EXPECT_EQ(host_marker_env(bare).count("python_version"), 0u);
}

// --python (the interpreter a build hook runs in) decides python_version and the implementation,
// whatever python3 PATH has: PyPy (Python 3.9 on bookworm) beside the machine's CPython.
TEST(Marker, HostEnvFromTheGivenInterpreter) {
  const std::string pypy = "/usr/bin/pypy3";
  if (access(pypy.c_str(), X_OK) != 0) GTEST_SKIP() << "a second interpreter is needed: " << pypy << " (Debian: pypy3)";
  Context ctx = Context::from_process();
  if (ctx.env("EXTDEPS_PYTHON_VERSION")) GTEST_SKIP() << "EXTDEPS_PYTHON_VERSION is set";
  MarkerEnv env = host_marker_env(ctx, pypy);
  EXPECT_EQ(env.at("implementation_name"), "pypy");
  EXPECT_EQ(env.at("platform_python_implementation"), "PyPy");
  ASSERT_EQ(env.count("python_full_version"), 1u);
  EXPECT_EQ(env.at("python_full_version").rfind(env.at("python_version") + ".", 0), 0u);
  EXPECT_TRUE(*evaluate_marker("implementation_name == 'pypy' and python_version >= '3'", env));

  // The same machine without --python: the python3 on PATH, here a link to CPython.
  std::string bin = test::temp_dir();
  std::filesystem::create_symlink("/usr/bin/python3", bin + "/python3");
  Context plain = Context::for_test("/", {{"PATH", bin}});
  MarkerEnv cpython = host_marker_env(plain);
  EXPECT_EQ(cpython.at("implementation_name"), "cpython");
  EXPECT_NE(cpython.at("python_full_version"), env.at("python_full_version"));
  // A --python that is not an interpreter: the version from its name only, never a guess.
  MarkerEnv named = host_marker_env(plain, "/nonexistent/python3.12");
  EXPECT_EQ(named.at("python_version"), "3.12");
  EXPECT_EQ(named.count("python_full_version"), 0u);
  EXPECT_EQ(named.at("implementation_name"), "cpython");
}

TEST(Marker, HostEnvRunsTheRealPython) {
  Context ctx = Context::from_process();
  auto path = ctx.env("PATH");
  bool have_python = false;
  if (path) {
    std::stringstream dirs(*path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) have_python |= !dir.empty() && access((dir + "/python3").c_str(), X_OK) == 0;
  }
  if (!have_python) GTEST_SKIP() << "no python3 on PATH";
  if (ctx.env("EXTDEPS_PYTHON_VERSION")) GTEST_SKIP() << "EXTDEPS_PYTHON_VERSION is set";
  MarkerEnv env = host_marker_env(ctx);
  ASSERT_EQ(env.count("python_full_version"), 1u);
  const std::string& full = env.at("python_full_version");
  EXPECT_EQ(full.rfind(env.at("python_version") + ".", 0), 0u) << full;
  EXPECT_TRUE(*evaluate_marker("python_full_version >= '3'", env));
}

}  // namespace
}  // namespace extdeps::declare
