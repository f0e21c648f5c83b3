// Version orders. Every native scheme has a comparator (the native rules) and a normaliser into
// the one order the solver's pool uses: libsolv's rpm order (DESIGN.md decision 3). For every pair
// of valid versions a, b of one scheme:
//     sign(compare(scheme, a, b)) == sign(rpm_compare(normalize(scheme, a), normalize(scheme, b)))
// which the tests check on real version lists against dpkg and Python's packaging.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/record.h"
#include "core/util/result.h"

namespace extdeps::version {

// Native comparison: <0, 0, >0. A string the scheme cannot parse still gets a total order: deb
// splits it like dpkg without the checks, pep440 orders it as normalize_upstream does, conda puts
// it before every conda version and orders such strings among themselves as normalize_upstream.
int compare(VersionScheme scheme, std::string_view a, std::string_view b);

// The pool-order form of a native version. Fails on a string the scheme cannot parse.
Result<std::string> normalize(VersionScheme scheme, std::string_view native);

// rpm's vercmp as libsolv's rpm disttype applies it to full [epoch:]version[-release] strings
// (pool_evrcmp_str with EVRCMP_COMPARE): the epoch defaults to 0, the release starts at the last
// '-', and a version without a release sorts before the same version with one.
//
// The rpm scheme (and pkg-config, which parse_scheme maps to it) compares with this and normalises
// to the text itself, so a '-' or leading "N:" in a pkg-config version reads as release or epoch
// (pkgconf itself takes both as plain separators).
int rpm_compare(std::string_view a, std::string_view b);

// The pool-order form of an upstream version taken from a native package ("3.6.2", "2.0.0~rc1",
// "1.1.1w", "1.2.13.dfsg"), comparable with normalize(VersionScheme::pep440, bound) for the PEP 440
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

// The names parse_scheme reads, in the order help and messages list them: "deb", "rpm",
// "pkgconfig" (which orders like rpm), "pep440", "conda", "nix", "pacman", "homebrew".
const std::vector<std::string_view>& scheme_names();
// "deb, rpm, pkgconfig, pep440, conda, nix, pacman or homebrew": for help texts and messages.
std::string scheme_names_text();
std::optional<VersionScheme> parse_scheme(std::string_view name);
std::string_view scheme_name(VersionScheme scheme);

}  // namespace extdeps::version
