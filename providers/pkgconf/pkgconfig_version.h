// pkg-config's versions, which extdeps orders as rpm does (core/version/version.h: evr_compare),
// under the scheme name pkg-config users know.
#pragma once

#include "core/version/version.h"

namespace extdeps::version {

// "pkgconfig": evr_compare and evr_check. A '-' or a leading "N:" reads as rpm's release or
// epoch (pkgconf itself takes both as plain separators).
extern const Scheme pkgconfig_scheme;

}  // namespace extdeps::version
