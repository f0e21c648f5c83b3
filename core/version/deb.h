// Debian version order: dpkg's parseversion and verrevcmp, and the map of Debian versions into
// the pool's rpm order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace extdeps::version {

struct DebVersion {
  std::uint32_t epoch = 0;
  std::string upstream;
  std::string revision;  // empty when absent, which dpkg orders like "0"
};

// dpkg's rules: [epoch:]upstream[-revision], split at the first ':' and the last '-'; blanks around
// the version are ignored. Unlike dpkg, characters dpkg only warns about are errors here; an
// upstream version that does not start with a digit is accepted (dpkg warns).
Result<DebVersion> parse_deb(std::string_view text);

// dpkg's verrevcmp on one part (upstream or revision): non-digit runs compare byte by byte with
// '~' < end of run < letters < everything else, digit runs numerically.
int deb_verrevcmp(std::string_view a, std::string_view b);

// dpkg --compare-versions. A string parse_deb rejects is split the same way without the checks.
int deb_compare(std::string_view a, std::string_view b);

// A string in rpm order for one part, so that
//   sign(deb_verrevcmp(a, b)) == sign(rpm_vercmp(deb_part_code(a), deb_part_code(b))).
// Each (non-digit run, number) pair that verrevcmp steps through becomes 'a' + a letter code per
// byte (order-preserving, fixed length; '~' becomes "~a") + the number; a final 'a' closes it.
// Only letters, digits and '~' appear in it.
std::string deb_part_code(std::string_view part);

// "<epoch>:<code(upstream)>-<code(revision)>"; fails where parse_deb fails.
Result<std::string> deb_normalize(std::string_view text);

}  // namespace extdeps::version
