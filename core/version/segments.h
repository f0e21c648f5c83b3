// rpm version order as libsolv's rpm disttype applies it (libsolv 0.7.23, DISTTYPE_RPM): the order
// of the solver's pool. Written here, not called from libsolv, because only core/solve/ may include
// libsolv; tests check every rule against pool_evrcmp_str itself.
#pragma once

#include <string_view>

namespace extdeps::version {

// rpmvercmp on one field (epoch, version or release): runs of digits compare numerically, runs of
// ASCII letters by strcmp, a digit run beats a letter run; any other byte separates runs, except
// '~' (sorts before everything, the end included) and '^' (after the end, before anything else).
int segment_compare(std::string_view a, std::string_view b);

}  // namespace extdeps::version
