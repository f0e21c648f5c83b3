// Debian version order: dpkg's parseversion and version comparison, and the map of Debian versions into
// the pool's rpm order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/result.h"
#include "core/version/version.h"

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

// dpkg --compare-versions. A string parse_deb rejects is split the same way without the checks.
int deb_compare(std::string_view a, std::string_view b);

// "<epoch>:<part_code(upstream)>-<part_code(revision)>" (core/version/part_order.h); fails where parse_deb fails.
Result<std::string> deb_normalize(std::string_view text);

// The deb scheme of apt's provider: deb_compare and deb_normalize.
extern const Scheme deb_scheme;

}  // namespace extdeps::version
