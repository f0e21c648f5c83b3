// Homebrew's version order (Library/Homebrew/version.rb, Version#<=>, and pkg_version.rb,
// PkgVersion#<=>), and its form in the pool's rpm order. Homebrew cannot run here: the order is
// checked on the comparisons Homebrew's own tests assert (tests/data/versions/homebrew-pairs.tsv,
// from test/version_spec.rb and pkg_version_spec.rb).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"
#include "core/version/version.h"

namespace extdeps::version {

// A version splits into tokens as Ruby's String#scan with version.rb's SCAN_PATTERN finds them:
// at each position, the first of these that matches (letters case-insensitive): alpha[0-9]* or
// a[0-9]+, beta[0-9]* or b[0-9]+, pre[0-9]*, rc[0-9]*, p[0-9]* (a patch), any one character
// then post[0-9]+, digits (numeric), letters (a string); other bytes are skipped.
enum class BrewTokenKind { alpha, beta, pre, rc, patch, post, numeric, string };
struct BrewToken {
  BrewTokenKind kind;
  std::string_view text;
};
std::vector<BrewToken> homebrew_tokens(std::string_view version);

// PkgVersion's order: "VERSION[_REVISION]" (the revision: digits after the last '_' that only
// digits follow), versions as Version#<=> compares them, then revisions. Version#<=>: equal
// texts are equal; a HEAD version ("HEAD", "HEAD-abc123") is newer than any other and equal to
// every HEAD; otherwise the tokens compare in turn, a missing one being the null token. A numeric
// token against a non-numeric one wins when it is above 0 and is skipped when it is 0; the null
// token equals 0, is newer than alpha, beta, pre and rc tokens and older than any other; among
// the others alpha < beta < pre < rc < patch and post, each kind by its first digits; strings,
// and a string against alpha..post, or a patch against a post, compare as byte strings.
// `stopped_early` (when given) says whether the comparison stopped before every token was compared:
// Homebrew's loop runs as long as the longer side, so zeros skipped on one side leave tokens of
// the other unread ("1.0.0" equals "1.0a", though "1.0" < "1.0a").
int homebrew_compare(std::string_view a, std::string_view b, bool* stopped_early = nullptr);

// The pool-order form, "0.TOKENS-REVISION" ("1" for HEAD versions): 0 tokens before a
// non-numeric token or the end are dropped (Homebrew skips them there), and each token is coded
// so that evr_compare orders kinds as alpha < beta < pre < rc < the end < string < patch < post <
// number. It agrees with homebrew_compare except where Homebrew's order is not transitive: a
// string against alpha..post ("1.0a" < "1.0alpha" by bytes, though "1.0alpha" < "1.0" < "1.0a"),
// a patch against a post, and versions whose comparison stops early because zeros were skipped
// on one side only. Fails on an empty version and on blanks or control characters.
Result<std::string> homebrew_normalize(std::string_view text);

// The homebrew scheme of the homebrew provider.
extern const Scheme homebrew_scheme;

}  // namespace extdeps::version
