#include "core/solve/solvext.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

namespace extdeps::solve {

Result<const SolvExt*> load_solvext() {
  static SolvExt api{};
  static std::string error;
  static std::once_flag once;
  std::call_once(once, [] {
    constexpr const char* kFile = "libsolvext.so.1";
    void* lib = ::dlopen(kFile, RTLD_NOW | RTLD_LOCAL);  // never closed
    if (!lib) {
      const char* why = ::dlerror();
      error = std::string("cannot load ") + kFile + " (" + (why ? why : "unknown reason") +
              "); testcases need libsolv's extension library: install the package that ships it (libsolvext1 "
              "where extdeps is built)";
      return;
    }
    api.write = reinterpret_cast<decltype(api.write)>(::dlsym(lib, "testcase_write"));
    api.read = reinterpret_cast<decltype(api.read)>(::dlsym(lib, "testcase_read"));
    api.solverresult = reinterpret_cast<decltype(api.solverresult)>(::dlsym(lib, "testcase_solverresult"));
    if (!api.write || !api.read || !api.solverresult)
      error = std::string(kFile) + " lacks testcase_write, testcase_read or testcase_solverresult";
  });
  if (!error.empty()) return error_at(ExitCode::environment, "", error);
  return &api;
}

}  // namespace extdeps::solve
