// A C library loaded with dlopen when first used, not linked: every library linked is dynamic
// linking paid by every run, and some (bzip2, brotli) only a few runs need. `load` opens the
// library once per process and binds the named functions; the answer, an error naming the
// library and what dlopen said, or the function it lacks, is the same every later call.
// (libcurl and libxml2 have their own tables: core/fetch/curl_api.h, providers/dnf/libxml_api.h.)
#pragma once

#include <initializer_list>
#include <string>
#include <utility>

#include "core/util/result.h"

namespace extdeps::lazy {

// Opens `soname` (RTLD_NOW | RTLD_LOCAL, never closed) and fills each (name, slot) pair with the
// symbol's address. `needed_for`: what the error's hint says the library is for ("reading
// .bz2 files"); `package`: the package that ships it where extdeps is built and tested
// (README.md, "Install"), which the hint names.
Result<void> load(const char* soname, const char* package, const char* needed_for,
                  std::initializer_list<std::pair<const char*, void**>> symbols);

}  // namespace extdeps::lazy
