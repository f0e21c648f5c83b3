// The pkgconfig scheme (see pkgconfig_version.h).
#include "providers/pkgconf/pkgconfig_version.h"

namespace extdeps::version {

const Scheme pkgconfig_scheme{"pkgconfig", evr_compare, evr_check};

}  // namespace extdeps::version
