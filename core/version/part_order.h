// The order of one part of a version as dpkg's verrevcmp gives it, which the upstream versions of
// version.h use for what PEP 440 cannot read, and its code in the pool's rpm order.
#pragma once

#include <string>
#include <string_view>

namespace extdeps::version {

// Non-digit runs compare byte by byte with '~' < end of run < letters < everything else, digit
// runs numerically.
int part_compare(std::string_view a, std::string_view b);

// A string in rpm order for one part, so that
//   sign(part_compare(a, b)) == sign(evr_compare(part_code(a), part_code(b))).
// Each (non-digit run, number) pair that part_compare steps through becomes 'a' + a letter code
// per byte (order-preserving, fixed length; '~' becomes "~a") + the number; a final 'a' closes it.
// Only letters, digits and '~' appear in it.
std::string part_code(std::string_view part);

}  // namespace extdeps::version
