// Fuzzes one version scheme's comparator and normaliser (core/version). Built once per scheme:
// EXTDEPS_FUZZ_SCHEME is deb, rpm (dnf's name for core's segments order, which pkg-config
// versions use too), pep440, conda or nix.
// The input is up to three versions, one a line. Properties, for the native comparator:
//   compare(a, a) == 0; sign(compare(a, b)) == -sign(compare(b, a));
//   a <= b and b <= c imply a <= c (and a == b == c gives a == c);
// and for versions the scheme normalises (DESIGN.md decision 3):
//   sign(evr_compare(normalize(a), normalize(b))) == sign(compare(a, b)).
#include <cstdint>
#include <string>

#include "core/provider/descriptor.h"
#include "core/version/version.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;
using fuzz::sign;

#ifndef EXTDEPS_FUZZ_SCHEME
#error "EXTDEPS_FUZZ_SCHEME names the version scheme this harness is built for"
#endif
#define EXTDEPS_FUZZ_STR2(x) #x
#define EXTDEPS_FUZZ_STR(x) EXTDEPS_FUZZ_STR2(x)

namespace {

const version::Scheme& scheme() {
  static const version::Scheme* s = [] {
    const version::Scheme* parsed = version_scheme_named(EXTDEPS_FUZZ_STR(EXTDEPS_FUZZ_SCHEME));
    if (!parsed) fuzz::fail("unknown scheme", EXTDEPS_FUZZ_STR(EXTDEPS_FUZZ_SCHEME));
    return parsed;
  }();
  return *s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parts = fuzz::split(fuzz::as_text(data, size), '\n', 3);
  const version::Scheme& s = scheme();
  std::string_view a = parts[0];
  std::string_view b = parts.size() > 1 ? parts[1] : parts[0];
  std::string_view c = parts.size() > 2 ? parts[2] : parts[0];

  if (version::compare(s, a, a) != 0) fuzz::fail("compare(a, a) != 0", a);
  int ab = sign(version::compare(s, a, b));
  int ba = sign(version::compare(s, b, a));
  if (ab != -ba) fuzz::fail("compare is not antisymmetric", a, b);
  int bc = sign(version::compare(s, b, c));
  int ac = sign(version::compare(s, a, c));
  if (ab <= 0 && bc <= 0 && ac > 0) fuzz::fail("compare is not transitive (a <= b <= c but a > c)", a, c);
  if (ab >= 0 && bc >= 0 && ac < 0) fuzz::fail("compare is not transitive (a >= b >= c but a < c)", a, c);
  if (ab == 0 && bc == 0 && ac != 0) fuzz::fail("compare's equality is not transitive", a, c);

  auto na = version::normalize(s, a);
  auto nb = version::normalize(s, b);
  if (na && nb && sign(version::evr_compare(*na, *nb)) != ab)
    fuzz::fail("the normalised versions order differently from the native ones", a, b);

  // Upstream versions taken from native packages go through this for every scheme.
  (void)version::normalize_upstream(a);
  (void)version::upstream_as_pep440(a);
  return 0;
}
