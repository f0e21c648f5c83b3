// PEP 440: parsing with packaging's grammar, its order, its canonical text and the rpm-order form.
#include "core/version/pep440.h"
#include "core/util/text.h"

#include <array>
#include <utility>

#include "core/version/detail.h"

namespace extdeps::version {

using detail::compare_numbers;
using detail::is_ascii_space;
using detail::is_digit;

namespace {

// No place of its own: the caller puts it where the version was read (at_place). `expected`,
// where `why` says what was expected, is that apart.
Error invalid(std::string_view text, std::string_view why, std::string expected = {}) {
  Error e = error_at(ExitCode::bad_input, "", "invalid PEP 440 version '" + shorten(text) + "': " + std::string(why));
  e.expected = std::move(expected);
  return e;
}

bool is_separator(char c) { return c == '-' || c == '_' || c == '.'; }
bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z'); }

// A cursor over the lower-cased text; every step either consumes or leaves the position alone.
class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  size_t pos() const { return i_; }
  void seek(size_t i) { i_ = i; }
  bool done() const { return i_ >= s_.size(); }
  char peek(size_t k = 0) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }
  bool eat(char c) {
    if (peek() != c) return false;
    ++i_;
    return true;
  }
  void eat_separator() {
    if (is_separator(peek())) ++i_;
  }
  bool eat_word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  std::string_view digits() {
    size_t start = i_;
    while (is_digit(peek())) ++i_;
    return s_.substr(start, i_ - start);
  }
  std::string_view alnums() {
    size_t start = i_;
    while (is_alnum(peek())) ++i_;
    return s_.substr(start, i_ - start);
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

// "[-_.]? label [-_.]? N?" for the first label that matches, in the order packaging's regex tries
// them (a longer spelling before its prefix). Returns the index of the label, or -1.
template <size_t K>
int eat_labelled_number(Cursor& c, const std::array<std::string_view, K>& labels, std::string& number) {
  size_t start = c.pos();
  c.eat_separator();
  for (size_t k = 0; k < K; ++k) {
    if (!c.eat_word(labels[k])) continue;
    c.eat_separator();
    number = std::string(detail::strip_zeros(c.digits()));
    return static_cast<int>(k);
  }
  c.seek(start);
  return -1;
}

std::vector<std::string_view> trimmed_release(const Pep440& v) {
  std::vector<std::string_view> r(v.release.begin(), v.release.end());
  while (!r.empty() && r.back() == "0") r.pop_back();
  return r;
}

int compare_release(const Pep440& a, const Pep440& b) {
  auto ra = trimmed_release(a), rb = trimmed_release(b);
  for (size_t i = 0; i < ra.size() && i < rb.size(); ++i)
    if (int r = compare_numbers(ra[i], rb[i])) return r;
  return ra.size() == rb.size() ? 0 : ra.size() < rb.size() ? -1 : 1;
}

// An optional number; `absent` is the sign a missing one gets against a present one.
int compare_optional(const std::optional<std::string>& a, const std::optional<std::string>& b, int absent) {
  if (a && b) return compare_numbers(*a, *b);
  if (a) return -absent;
  if (b) return absent;
  return 0;
}

// packaging's _pre key: -inf for a dev-only version, +inf for no pre-release, else (letter, N).
int compare_pre(const Pep440& a, const Pep440& b) {
  auto rank = [](const Pep440& v) {
    if (v.pre != Pep440::Pre::none) return 1;
    return !v.post && v.dev ? 0 : 2;
  };
  int ra = rank(a), rb = rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  if (ra != 1) return 0;
  if (a.pre != b.pre) return a.pre < b.pre ? -1 : 1;
  return compare_numbers(a.pre_number, b.pre_number);
}

bool all_digits(std::string_view s) {
  for (char c : s)
    if (!is_digit(c)) return false;
  return !s.empty();
}

// A numeric part beats a string part; strings compare as text; a shorter prefix is smaller.
int compare_local(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.empty() != b.empty()) return a.empty() ? -1 : 1;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    bool na = all_digits(a[i]), nb = all_digits(b[i]);
    if (na != nb) return na ? 1 : -1;
    int r = na ? compare_numbers(a[i], b[i]) : a[i].compare(b[i]);
    if (r) return r < 0 ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : a.size() < b.size() ? -1 : 1;
}

std::string_view pre_label(Pep440::Pre p) {
  switch (p) {
    case Pep440::Pre::a: return "a";
    case Pep440::Pre::b: return "b";
    case Pep440::Pre::rc: return "rc";
    case Pep440::Pre::none: break;
  }
  return "";
}

}  // namespace

Result<Pep440> parse_pep440(std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && is_ascii_space(t.front())) t.remove_prefix(1);
  while (!t.empty() && is_ascii_space(t.back())) t.remove_suffix(1);
  if (t.empty()) return invalid(text, "it is empty");
  std::string lower(t);
  for (char& ch : lower)
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');

  Pep440 v;
  Cursor c(lower);
  c.eat('v');
  size_t start = c.pos();
  if (auto e = c.digits(); !e.empty() && c.eat('!')) v.epoch = std::string(detail::strip_zeros(e));
  else c.seek(start);

  auto first = c.digits();
  if (first.empty())
    return invalid(text, "expected a release number at '" + std::string(t.substr(c.pos())) + "'", "a release number");
  v.release.emplace_back(detail::strip_zeros(first));
  while (c.peek() == '.' && is_digit(c.peek(1))) {
    c.eat('.');
    v.release.emplace_back(detail::strip_zeros(c.digits()));
  }

  static constexpr std::array<std::string_view, 8> kPre = {"alpha", "a", "beta", "b", "preview", "pre", "c", "rc"};
  static constexpr std::array<Pep440::Pre, 8> kPreKind = {Pep440::Pre::a,  Pep440::Pre::a,  Pep440::Pre::b,
                                                          Pep440::Pre::b,  Pep440::Pre::rc, Pep440::Pre::rc,
                                                          Pep440::Pre::rc, Pep440::Pre::rc};
  if (int k = eat_labelled_number(c, kPre, v.pre_number); k >= 0) v.pre = kPreKind[k];

  // A post-release is "-N" or "[-_.]? (post|rev|r) [-_.]? N?".
  static constexpr std::array<std::string_view, 3> kPost = {"post", "rev", "r"};
  static constexpr std::array<std::string_view, 1> kDev = {"dev"};
  std::string number;
  if (c.peek() == '-' && is_digit(c.peek(1))) {
    c.eat('-');
    v.post = std::string(detail::strip_zeros(c.digits()));
  } else if (eat_labelled_number(c, kPost, number) >= 0) {
    v.post = number;
  }
  if (eat_labelled_number(c, kDev, number) >= 0) v.dev = number;

  if (c.peek() == '+' && is_alnum(c.peek(1))) {
    c.eat('+');
    for (;;) {
      std::string part(c.alnums());
      v.local.push_back(all_digits(part) ? std::string(detail::strip_zeros(part)) : part);
      if (!is_separator(c.peek()) || !is_alnum(c.peek(1))) break;
      c.eat(c.peek());
    }
  }
  if (!c.done()) return invalid(text, "unexpected '" + std::string(t.substr(c.pos())) + "'");
  return v;
}

int pep440_compare(const Pep440& a, const Pep440& b) {
  if (int r = compare_numbers(a.epoch, b.epoch)) return r;
  if (int r = compare_release(a, b)) return r;
  if (int r = compare_pre(a, b)) return r;
  if (int r = compare_optional(a.post, b.post, -1)) return r;  // no post-release sorts first
  if (int r = compare_optional(a.dev, b.dev, 1)) return r;     // no dev release sorts last
  return compare_local(a.local, b.local);
}

std::string pep440_canonical(const Pep440& v) {
  std::string out;
  if (v.epoch != "0") out += v.epoch + "!";
  for (size_t i = 0; i < v.release.size(); ++i) out += (i ? "." : "") + v.release[i];
  if (v.pre != Pep440::Pre::none) out += std::string(pre_label(v.pre)) + v.pre_number;
  if (v.post) out += ".post" + *v.post;
  if (v.dev) out += ".dev" + *v.dev;
  for (size_t i = 0; i < v.local.size(); ++i) out += (i ? "." : "+") + v.local[i];
  return out;
}

std::string pep440_pool_order(const Pep440& v) {
  std::string out = v.epoch + ":";
  auto release = trimmed_release(v);
  if (release.empty()) out += "0";
  for (size_t i = 0; i < release.size(); ++i) {
    if (i) out += '.';
    out += release[i];
  }

  if (v.pre != Pep440::Pre::none) out += "~" + std::string(pre_label(v.pre)) + v.pre_number;
  else if (!v.post && v.dev) out += "~~dev" + *v.dev;  // dev-only: below every pre-release; nothing else follows
  if (v.post) out += ".post" + *v.post;
  if (v.dev && (v.pre != Pep440::Pre::none || v.post)) out += "~dev" + *v.dev;

  for (size_t i = 0; i < v.local.size(); ++i) {
    out += i ? "." : "+";
    const std::string& part = v.local[i];
    if (all_digits(part)) {
      out += "n" + part;
      continue;
    }
    out += 'l';
    for (char ch : part) out += is_digit(ch) ? static_cast<char>('A' + (ch - '0')) : ch;
  }
  return out;
}

}  // namespace extdeps::version
