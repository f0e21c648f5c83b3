// The marker environment of this machine: uname() for the platform values, and a Python
// interpreter for python_version / python_full_version / implementation_name: the one given
// (`--python`, the interpreter a build hook runs in), else the python3 on the context's PATH.
//
// The full version and the implementation need the interpreter itself, which is run once,
// briefly (5 s at most), and only when the context's root is the real "/". Where it is not run,
// or fails, python_version comes from the interpreter's name (python3 -> python3.11 is how Debian,
// Fedora, Homebrew and venvs lay it out), python_full_version stays unset and the implementation
// is taken to be CPython.
// EXTDEPS_PYTHON_VERSION ("3.11" or "3.11.4") overrides the version.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <climits>
#include <regex>
#include <string>
#include <vector>

#include "core/config/values.h"
#include "core/declare/declare.h"
#include "core/util/subprocess.h"

namespace extdeps::declare {

namespace {

// "3.11" from a name like "python3.11" (or a path ending in it).
std::optional<std::string> version_from_name(const std::string& path) {
  static const std::regex re(R"(python(\d+\.\d+))");
  std::string base = path.substr(path.rfind('/') + 1);
  std::smatch m;
  if (std::regex_match(base, m, re)) return m[1].str();
  return std::nullopt;
}

// Follows python3's chain of symlinks (as seen under the context's root) until a name carries
// the version.
std::optional<std::string> version_from_links(const Context& ctx, std::string path) {
  for (int hops = 0; hops < 16; ++hops) {
    if (auto v = version_from_name(path)) return v;
    char buf[PATH_MAX];
    ssize_t n = ::readlink(ctx.host_path(path).c_str(), buf, sizeof buf - 1);
    if (n <= 0) return std::nullopt;
    std::string target(buf, static_cast<std::size_t>(n));
    if (target.front() != '/') target = path.substr(0, path.rfind('/') + 1) + target;
    path = target;
  }
  return std::nullopt;
}

// What the interpreter says of itself.
struct PythonFacts {
  std::string version;                // platform.python_version(): "3.11.2"
  std::string implementation;         // sys.implementation.name: "cpython", "pypy"
  std::string python_implementation;  // platform.python_implementation(): "CPython", "PyPy"
};

// Runs `python -I -S -c ...` with a 5 second limit; nullopt when it fails or says something else
// than three short lines of the expected shapes.
std::optional<PythonFacts> run_python(const Context& ctx, const std::string& python) {
  ProcessRequest request;
  request.argv = {python, "-I", "-S", "-c",
                  "import platform,sys;print(platform.python_version());print(sys.implementation.name);"
                  "print(platform.python_implementation())"};
  request.timeout_ms = 5000;
  request.max_output = 4096;
  auto ran = ctx.processes().run(request);
  if (!ran || !ran->ok()) return std::nullopt;
  std::vector<std::string> lines;
  std::string line;
  for (char c : ran->out) {
    if (c == '\n') lines.push_back(std::move(line)), line.clear();
    else if (c != '\r') line += c;
  }
  if (!line.empty()) lines.push_back(std::move(line));
  static const std::regex version_re(R"(\d+\.\d+(\.\d+)?\S*)");
  static const std::regex name_re(R"([A-Za-z][A-Za-z0-9_.-]{0,63})");
  if (lines.size() != 3 || !std::regex_match(lines[0], version_re) || !std::regex_match(lines[1], name_re) ||
      !std::regex_match(lines[2], name_re))
    return std::nullopt;
  return PythonFacts{lines[0], lines[1], lines[2]};
}

// The first python3 on PATH, as a machine path (the context's root is applied when looking).
std::optional<std::string> find_python(const Context& ctx) {
  auto path = ctx.env("PATH");
  if (!path) return std::nullopt;
  std::size_t start = 0;
  while (start <= path->size()) {
    std::size_t colon = path->find(':', start);
    std::string dir = path->substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    start = colon == std::string::npos ? path->size() + 1 : colon + 1;
    if (dir.empty() || dir.front() != '/') continue;
    std::string candidate = dir + (dir.back() == '/' ? "" : "/") + "python3";
    struct stat st;
    if (::lstat(ctx.host_path(candidate).c_str(), &st) == 0) return candidate;
  }
  return std::nullopt;
}

std::string major_minor(const std::string& full) {
  std::size_t first = full.find('.');
  if (first == std::string::npos) return full;
  std::size_t second = full.find_first_not_of("0123456789", first + 1);
  return full.substr(0, second);
}

}  // namespace

MarkerEnv host_marker_env(const Context& ctx, const std::string& python) {
  MarkerEnv env;
  env["os_name"] = "posix";
  env["implementation_name"] = "cpython";
  env["platform_python_implementation"] = "CPython";
  if (const Context::Uname& u = ctx.uname(); !u.system.empty()) {
    const std::string& sysname = u.system;
    env["platform_system"] = sysname;
    env["platform_machine"] = u.machine;
    env["platform_release"] = u.release;
    env["platform_version"] = u.version;
    std::string lowered;
    for (char c : sysname) lowered += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    env["sys_platform"] = lowered;  // "linux", "darwin", "freebsd" as Python spells them
  }

  std::optional<std::string> full, short_version;
  std::optional<std::string> interpreter = python.empty() ? find_python(ctx) : std::optional<std::string>(python);
  std::optional<PythonFacts> facts;
  // --python-version's option (python-version in a file, EXTDEPS_PYTHON_VERSION); text, never bad.
  auto option = config::text(ctx, "python-version");
  std::optional<std::string> forced = option.ok() ? *option : std::nullopt;
  if (interpreter && ctx.root() == "/" && !forced) facts = run_python(ctx, *interpreter);
  if (facts) {
    env["implementation_name"] = facts->implementation;
    env["platform_python_implementation"] = facts->python_implementation;
  }
  if (forced) {
    short_version = major_minor(*forced);
    if (std::count(forced->begin(), forced->end(), '.') >= 2) full = *forced;
  } else if (interpreter) {
    if (facts) full = facts->version;
    short_version = full ? major_minor(*full) : version_from_links(ctx, *interpreter);
  }
  if (short_version) env["python_version"] = *short_version;
  if (full) {
    env["python_full_version"] = *full;
    env["implementation_version"] = *full;
  }
  return env;
}

}  // namespace extdeps::declare
