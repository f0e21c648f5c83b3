#include "core/util/lazy_library.h"

#include <dlfcn.h>

namespace extdeps::lazy {

Result<void> load(const char* soname, const char* package, const char* needed_for,
                  std::initializer_list<std::pair<const char*, void**>> symbols) {
  void* lib = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* dl_why = ::dlerror();
    const std::string why = dl_why ? dl_why : "unknown reason";
    const std::string hint = std::string(needed_for) + " needs " + soname + ": install the package that ships it (" +
                             package + " where extdeps is built)";
    Error e = environment_error(std::string("cannot load ") + soname + " (" + why + "); " + hint);
    e.place = soname;
    e.what = "cannot load (" + why + ")";
    e.hint = hint;
    return e;
  }
  for (const auto& [name, slot] : symbols) {
    *slot = ::dlsym(lib, name);
    if (!*slot) {
      const std::string what = std::string(soname) + " has no " + name;
      Error e = environment_error(what);
      e.place = soname;
      e.what = std::string("no ") + name;
      return e;
    }
  }
  return {};
}

}  // namespace extdeps::lazy
