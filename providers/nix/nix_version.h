// Nix versions: the order of builtins.compareVersions (nix-env's, nixpkgs' lib.versionOlder) and its
// map into the pool's rpm order.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"
#include "core/version/version.h"

namespace extdeps::version {

// Nix splits a version into components and compares them one by one (libstore/names.cc):
//  - '.' and '-' separate components; a component is a run of digits, or a run of anything else
//    up to the next digit, '.' or '-' ("2.3pre1" is 2, 3, pre, 1; "1.0-rc1" is 1, 0, rc, 1);
//  - a missing component is the empty string, so versions of different lengths compare as if the
//    shorter went on with empty components;
//  - components order as: "pre" < empty < any other string (byte by byte) < any number; numbers
//    compare as numbers ("01" == "1"); a run of digits too big for a C int (above 2147483647) is
//    not a number for nix but a string, which the tests check against the real nix-instantiate.
// Every string is a valid Nix version; "" is one (below every version with a number).
std::vector<std::string_view> nix_components(std::string_view version);

int nix_compare(std::string_view a, std::string_view b);

// The rpm-order form: "x" followed by one token per component, each after a '.':
//   number N   "b<N>"              (leading zeros dropped)
//   "pre"      "~"                 (sorts before the end and before everything else)
//   string S   "a<code(S)>"        code: each byte as two letters A-P, high nibble first
// so a number beats a string ("b" > "a..."), a string beats the end, and the end beats "pre",
// as in nix: "1.0pre1" < "1.0" < "1.0a" < "1.0.1". "x" keeps "" (the lowest version but "pre"
// ones) a valid, non-empty pool version. nix_scheme.normalize never fails.
std::string nix_pool_order(std::string_view version);

// The nix scheme of the nix provider.
extern const Scheme nix_scheme;

}  // namespace extdeps::version
