// The question is a short Python program run with the interpreter itself; its answer is JSON.
#include "providers/pypi/interpreter.h"
#include "core/json/document.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/detect/process.h"
#include "core/util/file_stamp.h"
#include "core/util/regular_file.h"

namespace extdeps::pypi {

namespace {

namespace fs = std::filesystem;

// Bump when the program asks for more: older cached answers are then asked again.
constexpr int kAnswerFormat = 1;

constexpr const char* kProgram = R"PY(
import json, os, platform, site, sys, sysconfig, importlib.util
def paths():
    out = []
    for k in ("purelib", "platlib"):
        p = sysconfig.get_path(k)
        if p: out.append(p)
    try: out += site.getsitepackages()
    except Exception: pass
    try:
        if site.ENABLE_USER_SITE: out.append(site.getusersitepackages())
    except Exception: pass
    seen, res = set(), []
    for p in out:
        if p not in seen: seen.add(p); res.append(p)
    return res
stdlib = sysconfig.get_path("stdlib") or ""
em = os.path.join(stdlib, "EXTERNALLY-MANAGED")
print(json.dumps({
    "executable": sys.executable, "implementation": sys.implementation.name,
    "version": platform.python_version(), "major": sys.version_info[0], "minor": sys.version_info[1],
    "abiflags": getattr(sys, "abiflags", ""),
    "gil_disabled": bool(sysconfig.get_config_var("Py_GIL_DISABLED")),
    "machine": platform.machine(), "system": platform.system(), "release": platform.release(),
    "platform_version": platform.version(), "os_name": os.name, "sys_platform": sys.platform,
    "prefix": sys.prefix, "base_prefix": getattr(sys, "base_prefix", sys.prefix), "stdlib": stdlib,
    "site_dirs": paths(), "has_pip": importlib.util.find_spec("pip") is not None,
    "externally_managed_file": em if os.path.isfile(em) else "",
}))
)PY";

// A script ("#!..."), such as a pyenv shim, may run a different interpreter every time.
bool is_script(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[2] = {};
  in.read(head, 2);
  return in.gcount() == 2 && head[0] == '#' && head[1] == '!';
}

// Keyed on the path as given too: a virtual environment's python is a link to its base
// interpreter, and which environment it is follows from where the link is (pyvenv.cfg beside it).
std::string cache_file(const Context& ctx, const std::string& given, const std::string& real, const struct stat& st) {
  std::string key = given + "|" + real + "|" + std::to_string(st.st_size) + "|" + std::to_string(mtime_ns(st)) + "|" +
                    std::to_string(kAnswerFormat);
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : key) h = (h ^ c) * 1099511628211ULL;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return ctx.cache_dir() + "/pypi/interpreters/" + hex + ".json";
}

Result<Interpreter> from_answer(const std::string& text, const std::string& path) {
  auto j = json::parse_or_discarded(text);
  if (!j.is_object())
    return error_at(ExitCode::environment, path, "its answer about itself is not JSON: " + text.substr(0, 200));
  Interpreter in;
  try {
    in.path = path;
    in.executable = j.at("executable").get<std::string>();
    in.implementation = j.at("implementation").get<std::string>();
    in.version = j.at("version").get<std::string>();
    in.major = j.at("major").get<int>();
    in.minor = j.at("minor").get<int>();
    in.abiflags = j.at("abiflags").get<std::string>();
    in.gil_disabled = j.at("gil_disabled").get<bool>();
    in.machine = j.at("machine").get<std::string>();
    in.system = j.at("system").get<std::string>();
    in.release = j.at("release").get<std::string>();
    in.platform_version = j.at("platform_version").get<std::string>();
    in.os_name = j.at("os_name").get<std::string>();
    in.sys_platform = j.at("sys_platform").get<std::string>();
    in.prefix = j.at("prefix").get<std::string>();
    in.base_prefix = j.at("base_prefix").get<std::string>();
    in.stdlib = j.at("stdlib").get<std::string>();
    in.site_dirs = j.at("site_dirs").get<std::vector<std::string>>();
    in.has_pip = j.at("has_pip").get<bool>();
    in.externally_managed_file = j.at("externally_managed_file").get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    return error_at(ExitCode::environment, path,
                    "its answer about itself lacks a field (" + std::string(e.what()) + ")");
  }
  in.externally_managed = !in.externally_managed_file.empty() && !in.in_venv();
  return in;
}

}  // namespace

Result<Interpreter> find_interpreter(const Context& ctx, const std::string& python) {
  std::string path = python;
  if (path.empty()) {
    auto found = detect::find_on_path(ctx, "python3");
    if (found.empty()) {
      Error e = environment_error("no python3 on PATH for the pypi provider (pass --python PATH)");
      e.what = "no python3 on PATH for the pypi provider";
      e.hint = "pass --python PATH";
      return e;
    }
    path = found;
  } else if (path.find('/') == std::string::npos) {
    auto found = detect::find_on_path(ctx, path);
    if (found.empty()) return error_at(ExitCode::environment, "--python " + python, "not found on PATH");
    path = found;
  }
  char real_buf[PATH_MAX];
  if (!::realpath(path.c_str(), real_buf))
    return error_at(ExitCode::environment, path, "no such interpreter (--python)");
  std::string real = real_buf;
  struct stat st {};
  if (::stat(real.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || ::access(real.c_str(), X_OK) != 0)
    return error_at(ExitCode::environment, path, "not an executable file (--python)");
  const bool cacheable = ctx.cache_enabled() && !is_script(real);
  std::string cached = cacheable ? cache_file(ctx, path, real, st) : "";
  if (!cached.empty()) {
    // A cache file: a regular file, not a link, bounded.
    if (auto text = read_regular_file(cached, std::size_t{1} << 20, Links::refuse); text.ok()) {
      auto i = from_answer(*text, path);
      if (i) {
        i->from_cache = true;
        return i;
      }
    }
  }
  auto answer = detect::run_capture(ctx, {path, "-c", kProgram}, 20000);
  if (!answer) {
    Error e = error_at(ExitCode::environment, path, "cannot ask it what it is: " + answer.error().message);
    e.hint = answer.error().hint;
    return e;
  }
  if (answer->exit_status != 0) {
    Error e = environment_error(path + ": exited with " + std::to_string(answer->exit_status) +
                                " when asked what it is (is it a Python 3 interpreter?)");
    e.place = path;
    e.what = "exited with " + std::to_string(answer->exit_status) + " when asked what it is";
    e.hint = "is it a Python 3 interpreter?";
    return e;
  }
  auto i = from_answer(answer->out, path);
  if (!i) return i.error();
  if (!cached.empty()) {
    std::error_code ec;
    fs::create_directories(fs::path(cached).parent_path(), ec);
    std::string tmp = cached + ".tmp." + std::to_string(::getpid());
    {
      std::ofstream out(tmp);
      out << answer->out;
    }
    if (std::rename(tmp.c_str(), cached.c_str()) != 0) ::unlink(tmp.c_str());
  }
  return i;
}

declare::MarkerEnv marker_env(const Interpreter& in) {
  declare::MarkerEnv env;
  env["os_name"] = in.os_name;
  env["sys_platform"] = in.sys_platform;
  env["platform_machine"] = in.machine;
  env["platform_system"] = in.system;
  env["platform_release"] = in.release;
  env["platform_version"] = in.platform_version;
  env["python_version"] = std::to_string(in.major) + "." + std::to_string(in.minor);
  env["python_full_version"] = in.version;
  env["implementation_name"] = in.implementation;
  env["implementation_version"] = in.version;
  env["platform_python_implementation"] = in.implementation == "cpython" ? "CPython"
                                          : in.implementation == "pypy"  ? "PyPy"
                                                                         : in.implementation;
  return env;
}

TagTarget tag_target(const Interpreter& in, const detect::HostFacts* host) {
  TagTarget t;
  t.implementation = in.implementation == "cpython" ? "cp" : in.implementation == "pypy" ? "pp" : in.implementation;
  t.major = in.major;
  t.minor = in.minor;
  std::string flags = in.abiflags;
  if (in.gil_disabled && flags.find('t') == std::string::npos) flags += "t";
  if (t.implementation == "cp") t.abi = "cp" + std::to_string(in.major) + std::to_string(in.minor) + flags;
  t.abi3 = t.implementation == "cp" && !in.gil_disabled;
  t.arch = in.machine;
  if (host && host->libc == "musl") {
    t.libc = "musl";
    int a = 1, b = 2;
    if (std::sscanf(host->libc_version.c_str(), "%d.%d", &a, &b) == 2) {
      t.musl_major = a;
      t.musl_minor = b;
    }
  }
  return t;
}

}  // namespace extdeps::pypi
