// conda versions: conda's VersionOrder (parsing, order, prefix test) and the map of conda versions
// into the pool's rpm order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"
#include "core/version/version.h"

namespace extdeps::version {

// One run of a component: digits, a string, or conda's "post".
struct CondaPart {
  // The order of kinds is conda's: every string < every number < post.
  enum class Kind : std::uint8_t { string, number, post };
  Kind kind = Kind::number;
  // number: decimal digits without leading zeros. string: lower case; conda's "dev" is kept as
  // "DEV", which sorts before every other string ('*' runs aside) as in conda.
  std::string text = "0";
};

// A component is padded with the number 0 when compared ("1.1" == "1.1.0"): trailing zeros and
// trailing all-zero components do not count.
using CondaComponent = std::vector<CondaPart>;

struct CondaVersion {
  std::string text;                     // stripped, lower case, '-' read as '_' (conda's str())
  std::vector<CondaComponent> version;  // the epoch first, then one per '.'/'_' component
  std::vector<CondaComponent> local;    // after '+'; empty when there is none
};

// conda's rules (conda.models.version.VersionOrder):
//  - blanks around are ignored, letters are lower-cased; the allowed characters are
//    [0-9a-z.+!_*]; a version with '-' and no '_' reads every '-' as '_';
//  - "N!" in front is the epoch (digits only, 0 when absent); "+local" at the end is the local
//    version (both at most once);
//  - the rest splits into components at '.' and '_'; a trailing '_' stays part of the last
//    component (openssl-style "1.0.1_", which sorts before "1.0.1a"); no component may be empty;
//  - a component splits into runs of digits (numbers), of '*' and of anything else (strings);
//    "dev" and "post" are special; a component that does not start with a digit gets a leading 0
//    ("1.1.a1" == "1.1.0a1").
Result<CondaVersion> parse_conda(std::string_view text);

// conda's order: version components, then local components, lexicographically, each missing
// component or part read as 0; numbers compare numerically; strings compare as text and sort
// before every number ("1.0a1" < "1.0"), "dev" before every other string ("1.0dev1" < "1.0_" <
// "1.0a1"), "post" after everything ("1.0" < "1.0post1").
int conda_compare(const CondaVersion& a, const CondaVersion& b);

// conda_compare on text; a string parse_conda rejects is ordered as normalize_upstream orders it
// (both sides then), like the pep440 scheme.
int conda_compare(std::string_view a, std::string_view b);

// conda's VersionOrder.startswith, which "1.2.*" and "=1.2" test: `v` equals `prefix` in every
// component but the last of `prefix` and in every part of that component but its last part, whose
// last part must be equal to v's (numbers, "post") or a prefix of it (strings). With a local part
// in `prefix`, the versions must be equal and the test applies to the local parts.
// "1.2.3", "1.2a", "1.2" start with "1.2"; "1.20" does not; "1.0.0" and "1" start with "1.0".
bool conda_starts_with(const CondaVersion& v, const CondaVersion& prefix);

// The rpm-order form: "<epoch>:<components>-<local components>", where each component that is
// not all zeros is its parts as '.'-separated tokens followed by '^':
//   number N > 0   "n<N>"          post  "z"
//   zeros before a number or post: one "n0" each
//   a string S     "~<Z><code(S)>" where Z counts the zeros before it and code keeps the order
//                  ('*' -> B, "dev" -> C, '_' -> D, letters kept)
// and a run of K all-zero components before a component is written "^" K times, or "~<K>" when the
// component sorts below zero (starts with a string). '~' sorts before the end and '^' after it but
// before anything else, so "1.0.1rc1" < "1.0.1" < "1.0.1.post1" hold in rpm order, and equal
// versions ("1.1", "1.1.0") get rpm-equal forms.
std::string conda_pool_order(const CondaVersion& v);

// parse_conda, then conda_pool_order: "1.2.3" -> "0:n1^n2^n3^-", "1.1rc1" -> "0:n1^n1.~0rc.n1^-".
Result<std::string> conda_normalize(std::string_view text);

// The conda scheme of the conda provider.
extern const Scheme conda_scheme;

}  // namespace extdeps::version
