// The pkgconf detector: every module libpkgconf finds in its default personality's search path
// and PKG_CONFIG_PATH (read through the Context) is an installed record, with its version and the
// path of its .pc file. It installs nothing (DESIGN.md decision 7).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/provider/provider.h"

namespace extdeps::pkgconf {

// libpkgconf's compiled-in search path (its `pc_path`, what `pkg-config --variable pc_path
// pkg-config` prints), as machine paths, not under any root. Dirs that do not exist are kept.
std::vector<std::string> default_search_path();

// The directories searched, in order: PKG_CONFIG_PATH, then PKG_CONFIG_LIBDIR or the personality's
// default (both under ctx.root() when it is not "/"). Entries lose repeated and trailing
// slashes ("a//b/" -> "a/b") and are listed once; dirs that do not exist are kept (load skips
// them, identity notes them).
std::vector<std::string> search_path(const Context& ctx);

std::unique_ptr<Provider> make_provider(const Context& ctx);

}  // namespace extdeps::pkgconf
