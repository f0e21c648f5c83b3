// PEP 440 versions (the order of Python's packaging.version.Version) and their map into the
// pool's rpm order.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace extdeps::version {

struct Pep440 {
  enum class Pre { none, a, b, rc };
  // Every number is kept as decimal digits without leading zeros, so none overflows.
  std::string epoch = "0";
  std::vector<std::string> release;  // as written: "1.0.0" keeps its trailing zeros
  Pre pre = Pre::none;
  std::string pre_number;  // set when pre != none
  std::optional<std::string> post;
  std::optional<std::string> dev;
  std::vector<std::string> local;  // lower case; all-digit parts without leading zeros
};

// Accepts what packaging.version.Version accepts (ASCII only): blanks around, a leading 'v',
// any case, the alternate spellings (alpha, beta, c, pre, preview, rev, r, implicit "-1" post)
// and the optional separators.
Result<Pep440> parse_pep440(std::string_view text);

// packaging's order: epoch, release (trailing zeros do not count), then
// dev-only < pre-releases (a < b < rc, each with its own post and dev) < final < post releases,
// dev before its non-dev version, and a local version after its public one.
int pep440_compare(const Pep440& a, const Pep440& b);

// str(packaging.version.Version(text)): "1!2.0rc1.post2.dev3+ubuntu.1".
std::string pep440_canonical(const Pep440& v);

// The rpm-order form: "<epoch>:<release>[suffix][+local]" where the release has its trailing
// zeros dropped ("0" when nothing is left) and
//   dev-only    "~~dev<N>"     (below every pre-release)
//   pre         "~a<N>" "~b<N>" "~rc<N>", then its own ".post<N>" and "~dev<N>"
//   final       ""
//   post        ".post<N>", then its own "~dev<N>"
//   local       "+" then ".".join(part): "l" + letters for a string part (0-9 -> A-J, a-z kept),
//               "n" + the number for a numeric part
// '~' sorts before the end and a letter run before a number, so every suffix sits between its
// release and the next one; "l" < "n" < "post" puts local versions after their public version
// and before its post-releases.
std::string pep440_pool_order(const Pep440& v);

}  // namespace extdeps::version
