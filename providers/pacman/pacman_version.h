// pacman's version order (libalpm's alpm_pkg_vercmp, as `vercmp` prints it), and its form in the
// pool's rpm order. Checked against the real `vercmp` (Debian's pacman-package-manager) on
// tests/data/pacman/vercmp-pairs.tsv.
#pragma once

#include <string>
#include <string_view>

#include "core/util/result.h"
#include "core/version/version.h"

namespace extdeps::version {

// [epoch:]version[-release]: the epoch is the leading digits when a ':' follows them, the release
// what follows the last '-'. Epochs, then versions compare; releases only when both sides have
// one ("1.0-1" and "1.0" are equal). Each field compares as pacman's rpmvercmp does, which is not
// rpm's: only ASCII letters and digits make segments, and every other byte ('~' and '^' included)
// separates them; a longer run of separators wins; a digit segment beats a letter segment; at the
// end, a left-over letter segment loses ("1.0a" < "1.0") and anything else left over wins.
int pacman_compare(std::string_view a, std::string_view b);

// The pool-order form: each field's segments coded so that evr_compare orders them as
// pacman_compare does, "EPOCH:VERSION[-RELEASE]". Two differences remain, both from orders of
// pacman's that are not transitive: a version without a release sorts before the same version
// with one (the solver matches a relation without a release by version alone, as pacman does),
// and a field that ends in separators ("1.0.") sorts right after the same field without them.
// Fails on an empty version and on blanks or control characters.
Result<std::string> pacman_normalize(std::string_view text);

// The pacman scheme of the pacman provider.
extern const Scheme pacman_scheme;

}  // namespace extdeps::version
