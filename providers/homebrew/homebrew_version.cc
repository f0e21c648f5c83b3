// Homebrew's version order and its pool-order form.
#include "providers/homebrew/homebrew_version.h"

#include "core/version/detail.h"

namespace extdeps::version {

namespace {

using detail::is_alpha;
using detail::is_digit;

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Whether `word` (lower case) is at s[i], case-insensitively.
bool word_at(std::string_view s, std::size_t i, std::string_view word) {
  if (s.size() - i < word.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k)
    if (lower(s[i + k]) != word[k]) return false;
  return true;
}

std::size_t digits_at(std::string_view s, std::size_t i) {
  std::size_t n = 0;
  while (i + n < s.size() && is_digit(s[i + n])) ++n;
  return n;
}

// The length of a match of `word`[0-9]* (or [0-9]+ when `need_digit`) at s[i]; 0 when none.
std::size_t word_digits(std::string_view s, std::size_t i, std::string_view word, bool need_digit) {
  if (!word_at(s, i, word)) return 0;
  std::size_t d = digits_at(s, i + word.size());
  if (need_digit && d == 0) return 0;
  return word.size() + d;
}

// The first run of digits of a composite token, as Ruby's value[/[0-9]+/].to_i: without leading
// zeros ("" for none, which is 0).
std::string_view rev(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && !is_digit(text[i])) ++i;
  std::size_t n = digits_at(text, i);
  std::string_view d = text.substr(i, n);
  while (!d.empty() && d.front() == '0') d.remove_prefix(1);
  return d;
}

// Numbers of any length, without leading zeros, compared as numbers.
int compare_digits(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

std::string_view number(std::string_view digits) {
  while (!digits.empty() && digits.front() == '0') digits.remove_prefix(1);
  return digits;
}

int bytes(std::string_view a, std::string_view b) {
  int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

bool prerelease(BrewTokenKind k) {
  return k == BrewTokenKind::alpha || k == BrewTokenKind::beta || k == BrewTokenKind::pre || k == BrewTokenKind::rc;
}

// A token, or the null token (nullptr).
using Tok = const BrewToken*;

bool numeric(Tok t) { return t && t->kind == BrewTokenKind::numeric; }

// NullToken#<=>.
int null_vs(Tok other) {
  if (!other) return 0;
  if (other->kind == BrewTokenKind::numeric) return number(other->text).empty() ? 0 : -1;
  if (prerelease(other->kind)) return 1;
  return -1;
}

// The rank of alpha..post among themselves (CompositeToken subclasses' <=>); patch and post are
// not ranked against each other.
int composite_rank(BrewTokenKind k) {
  switch (k) {
    case BrewTokenKind::alpha: return 0;
    case BrewTokenKind::beta: return 1;
    case BrewTokenKind::pre: return 2;
    case BrewTokenKind::rc: return 3;
    case BrewTokenKind::patch:
    case BrewTokenKind::post: return 4;
    default: return -1;
  }
}

// Token#<=> of version.rb, for every pair of kinds.
int token_compare(Tok a, Tok b) {
  if (!a) return null_vs(b);
  if (!b) return -null_vs(a);
  const bool an = a->kind == BrewTokenKind::numeric, bn = b->kind == BrewTokenKind::numeric;
  if (an && bn) return compare_digits(number(a->text), number(b->text));
  if (an) return 1;  // NumericToken against a StringToken (composites are StringTokens)
  if (bn) return -1;
  if (a->kind == b->kind && a->kind != BrewTokenKind::string) return compare_digits(rev(a->text), rev(b->text));
  const int ra = composite_rank(a->kind), rb = composite_rank(b->kind);
  if (ra >= 0 && rb >= 0 && ra != rb) return ra < rb ? -1 : 1;
  // A plain string on either side, or a patch against a post: StringToken#<=>, the values.
  return bytes(a->text, b->text);
}

bool head(std::string_view v) { return v == "HEAD" || v.starts_with("HEAD-"); }

// Version#<=> on two version texts (without revisions). `early`: whether the loop ended with
// tokens of one side not compared (zeros skipped on the other side).
int version_compare(std::string_view a, std::string_view b, bool* early) {
  if (a == b) return 0;
  const bool ha = head(a), hb = head(b);
  if (ha || hb) return ha && hb ? 0 : ha ? 1 : -1;
  const auto lt = homebrew_tokens(a), rt = homebrew_tokens(b);
  const std::size_t max = std::max(lt.size(), rt.size());
  std::size_t l = 0, r = 0;
  while (l < max) {
    Tok x = l < lt.size() ? &lt[l] : nullptr;
    Tok y = r < rt.size() ? &rt[r] : nullptr;
    const int c = token_compare(x, y);
    if (c == 0) {
      ++l;
      ++r;
    } else if (numeric(x) && !numeric(y)) {
      if (token_compare(x, nullptr) > 0) return 1;
      ++l;
    } else if (!numeric(x) && numeric(y)) {
      if (token_compare(y, nullptr) > 0) return -1;
      ++r;
    } else {
      return c;
    }
  }
  if (early) *early = r < rt.size();
  return 0;
}

// PkgVersion.parse: "1.2.3_4" -> {"1.2.3", "4"}; the revision is "" when there is none.
std::pair<std::string_view, std::string_view> split_revision(std::string_view s) {
  // /\A(.+?)(?:_(\d+))?\z/: the first '_' after a non-empty version that only digits follow.
  for (std::size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] != '_') continue;
    std::string_view tail = s.substr(i + 1);
    if (digits_at(tail, 0) == tail.size()) return {s.substr(0, i), tail};
  }
  return {s, {}};
}

}  // namespace

std::vector<BrewToken> homebrew_tokens(std::string_view s) {
  std::vector<BrewToken> out;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t n = 0;
    BrewTokenKind kind = BrewTokenKind::string;
    auto take = [&](BrewTokenKind k, std::size_t len) {
      if (n == 0 && len > 0) {
        n = len;
        kind = k;
      }
    };
    take(BrewTokenKind::alpha, word_digits(s, i, "alpha", false));
    take(BrewTokenKind::alpha, word_digits(s, i, "a", true));
    take(BrewTokenKind::beta, word_digits(s, i, "beta", false));
    take(BrewTokenKind::beta, word_digits(s, i, "b", true));
    take(BrewTokenKind::pre, word_digits(s, i, "pre", false));
    take(BrewTokenKind::rc, word_digits(s, i, "rc", false));
    take(BrewTokenKind::patch, word_digits(s, i, "p", false));
    if (n == 0 && s[i] != '\n' && i + 1 < s.size()) {
      std::size_t len = word_digits(s, i + 1, "post", true);
      if (len) take(BrewTokenKind::post, len + 1);
    }
    take(BrewTokenKind::numeric, digits_at(s, i));
    if (n == 0) {
      std::size_t k = 0;
      while (i + k < s.size() && is_alpha(s[i + k])) ++k;
      take(BrewTokenKind::string, k);
    }
    if (n == 0) {
      ++i;
      continue;
    }
    out.push_back({kind, s.substr(i, n)});
    i += n;
  }
  return out;
}

int homebrew_compare(std::string_view a, std::string_view b, bool* stopped_early) {
  if (stopped_early) *stopped_early = false;
  auto [va, ra] = split_revision(a);
  auto [vb, rb] = split_revision(b);
  const int c = version_compare(va, vb, stopped_early);
  if (c != 0) return c;
  return compare_digits(number(ra), number(rb));
}

Result<std::string> homebrew_normalize(std::string_view text) {
  if (text.empty()) return error_at(ExitCode::bad_input, "", "an empty Homebrew version");
  for (char c : text)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
      return error_at(ExitCode::bad_input, "", "invalid Homebrew version '" + std::string(text) + "'",
                      "no blanks or control characters");
  auto [v, revision] = split_revision(text);
  std::string rev_text(number(revision));
  if (rev_text.empty()) rev_text = "0";
  if (head(v)) return "1-" + rev_text;
  auto tokens = homebrew_tokens(v);
  // Zeros that a non-numeric token or the end follows are skipped by Homebrew's comparison.
  std::vector<bool> keep(tokens.size(), true);
  bool drop = true;  // what follows is non-numeric or the end
  for (std::size_t k = tokens.size(); k-- > 0;) {
    if (tokens[k].kind != BrewTokenKind::numeric) {
      drop = true;
    } else if (number(tokens[k].text).empty()) {
      keep[k] = !drop;
    } else {
      drop = false;
    }
  }
  std::string out = "0";
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    if (!keep[k]) continue;
    const BrewToken& t = tokens[k];
    std::string_view r = rev(t.text);
    std::string rv = r.empty() ? "0" : std::string(r);
    switch (t.kind) {
      case BrewTokenKind::alpha: out += ".~a." + rv; break;
      case BrewTokenKind::beta: out += ".~b." + rv; break;
      case BrewTokenKind::pre: out += ".~c." + rv; break;
      case BrewTokenKind::rc: out += ".~d." + rv; break;
      case BrewTokenKind::string: out += ".s." + std::string(t.text); break;
      case BrewTokenKind::patch: out += ".t." + rv; break;
      case BrewTokenKind::post: out += ".u." + rv; break;
      case BrewTokenKind::numeric: {
        std::string_view n = number(t.text);
        out += ".v." + (n.empty() ? std::string("0") : std::string(n));
        break;
      }
    }
  }
  return out + "-" + rev_text;
}

namespace {
int homebrew_compare_text(std::string_view a, std::string_view b) { return homebrew_compare(a, b); }
}  // namespace

const Scheme homebrew_scheme{"homebrew", homebrew_compare_text, homebrew_normalize};

}  // namespace extdeps::version
