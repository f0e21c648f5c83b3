// Version orders. Every native scheme has a comparator (the native rules) and a normaliser into
// the one order the solver's pool uses: libsolv's rpm order (DESIGN.md decision 3). For every pair
// of valid versions a, b of one scheme:
//     sign(compare(scheme, a, b)) == sign(evr_compare(normalize(scheme, a), normalize(scheme, b)))
// which the tests check on real version lists against the managers' own tools.
//
// Core has two schemes: segments (the pool's own order, rpm's) and PEP 440's (the language of the ranges
// users write). A provider whose manager orders versions its own way defines its scheme in its
// folder and names it in its descriptor; provider::version_schemes() lists them all by name.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace extdeps::version {

// One native order. Objects of this type live as long as the process (each is a constant).
struct Scheme {
  std::string_view name;  // "segments": what `version compare --scheme` and a plugin's "scheme" say
  // Native comparison: <0, 0, >0. A string the scheme cannot parse still gets a total order (the
  // pep440 scheme orders it as normalize_upstream does).
  int (*compare)(std::string_view a, std::string_view b);
  // The pool-order form of a native version. Fails on a string the scheme cannot parse.
  Result<std::string> (*normalize)(std::string_view native);
};

// The pool's own order (rpm's, for versions compared segment by segment with an optional epoch
// and release); the normal form is the text itself (evr_check). dnf's "rpm" scheme is this one.
extern const Scheme segments_scheme;
// PEP 440's order; a string that is no PEP 440 version compares as normalize_upstream orders it.
extern const Scheme pep440_scheme;

inline int compare(const Scheme& scheme, std::string_view a, std::string_view b) { return scheme.compare(a, b); }
inline Result<std::string> normalize(const Scheme& scheme, std::string_view native) { return scheme.normalize(native); }

// rpm's vercmp as libsolv's rpm disttype applies it to full [epoch:]version[-release] strings
// (pool_evrcmp_str with EVRCMP_COMPARE): the epoch defaults to 0, the release starts at the last
// '-', and a version without a release sorts before the same version with one.
//
// The segments scheme (and any scheme a provider makes of it) compares with this and normalises to
// the text itself, so a '-' or a leading "N:" reads as release or epoch.
int evr_compare(std::string_view a, std::string_view b);

// The segments scheme's normal form: the text itself, if it is not empty and has only printable ASCII
// that is not blank.
Result<std::string> evr_check(std::string_view text);

// The pool-order form of an upstream version taken from a native package ("3.6.2", "2.0.0~rc1",
// "1.1.1w", "1.2.13.dfsg"), comparable with normalize(pep440_scheme, bound) for the PEP 440
// ranges users write. Never fails:
//  - a '~' before a letter is dropped ("2.0.0~rc1" -> "2.0.0rc1"); if the result is PEP 440, its
//    PEP 440 form ("3.6.2+dfsg" is the local version 3.6.2+dfsg);
//  - otherwise the leading release numbers R (a leading 'v' dropped, none counts as 0) and the
//    rest T, ordered by R, then T in dpkg's order; every R+T sorts after R's final and local
//    versions and before R's post-releases and R.1 ("1.1.1 < 1.1.1w < 1.1.1.post0 < 1.1.2"); a T
//    that starts with '~' sorts after R's pre-releases and before R ("1.0rc1 < 1.0~git5 < 1.0");
//  - blanks around are ignored; an empty string orders as "0".
std::string normalize_upstream(std::string_view upstream);

// The text of an upstream version as PEP 440 reads it ("2.0.0~rc1" -> "2.0.0rc1"; blanks
// around dropped), for checking it against a range with PEP 440's own rules. A version that is
// not PEP 440 comes back with only those changes.
std::string upstream_as_pep440(std::string_view upstream);

}  // namespace extdeps::version
