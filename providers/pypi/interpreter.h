// The target interpreter: `--python PATH` or the first python3 on PATH, asked once what it is
// (version, implementation, ABI, platform, where its site-packages are, whether it is a virtual
// environment or externally managed) and the answer cached on disk, keyed on the executable.
#pragma once

#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/declare/declare.h"
#include "core/detect/host.h"
#include "core/util/result.h"
#include "providers/pypi/wheel_tags.h"

namespace extdeps::pypi {

struct Interpreter {
  std::string path;            // as given or found on PATH
  std::string executable;      // sys.executable
  std::string implementation;  // sys.implementation.name: "cpython", "pypy"
  std::string version;         // "3.12.1"
  int major = 0, minor = 0;
  std::string abiflags;  // "", "t" (free-threaded), "m" (old builds)
  bool gil_disabled = false;
  std::string machine, system, release, platform_version, os_name, sys_platform;
  std::string prefix, base_prefix, stdlib;
  std::vector<std::string> site_dirs;  // purelib, platlib, site.getsitepackages(), the user site
  bool has_pip = false;
  bool externally_managed = false;  // PEP 668: EXTERNALLY-MANAGED in stdlib, outside a venv
  std::string externally_managed_file;
  bool from_cache = false;

  bool in_venv() const { return prefix != base_prefix; }
};

// Finds and asks the interpreter. `python` is --python (a path, or a name looked up on PATH);
// empty: python3 on PATH. The answer is cached in <cache>/pypi/interpreters/ keyed on the path
// as given (a venv's python links to its base interpreter) and the executable's real path, size
// and mtime (not for a script such as a pyenv shim, which may run another interpreter each
// time). Errors say which interpreter and why.
Result<Interpreter> find_interpreter(const Context& ctx, const std::string& python);

// PEP 508 marker values of the interpreter (python_version, sys_platform, platform_machine ...).
declare::MarkerEnv marker_env(const Interpreter& interpreter);

// The tag target of the interpreter on this machine (libc from the detected host).
TagTarget tag_target(const Interpreter& interpreter, const detect::HostFacts* host);

}  // namespace extdeps::pypi
