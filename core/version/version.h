// Version orders. Every native scheme has a comparator (the native rules) and a normaliser into
// the one order the solver's pool uses: libsolv's rpm order (DESIGN.md decision 3). For every pair
// of valid versions a, b of one scheme:
//     sign(compare(scheme, a, b)) == sign(rpm_compare(normalize(scheme, a), normalize(scheme, b)))
// which the tests check on real version lists against dpkg and Python's packaging.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/model/record.h"
#include "core/util/result.h"

namespace extdeps::version {

// Native comparison: <0, 0, >0.
int compare(VersionScheme scheme, std::string_view a, std::string_view b);

// The pool-order form of a native version. Fails on a string the scheme cannot parse.
Result<std::string> normalize(VersionScheme scheme, std::string_view native);

// rpm's vercmp as libsolv's rpm disttype applies it to full [epoch:]version[-release] strings.
int rpm_compare(std::string_view a, std::string_view b);

// Parses "deb", "rpm", "pep440" (and "pkgconfig", which orders like rpm).
std::optional<VersionScheme> parse_scheme(std::string_view name);
std::string_view scheme_name(VersionScheme scheme);

}  // namespace extdeps::version
