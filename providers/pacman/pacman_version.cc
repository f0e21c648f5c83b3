// pacman's version order and its pool-order form.
#include "providers/pacman/pacman_version.h"

#include "core/util/text.h"
#include "core/version/detail.h"

namespace extdeps::version {

namespace {

using detail::is_alpha;
using detail::is_digit;

bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }

struct Evr {
  std::string_view epoch = "0", version, release;
  bool has_release = false;
};

// "1:2.3-4" -> 1, 2.3, 4. The epoch is the leading digits when ':' follows them (an empty one
// reads as 0); the release starts after the last '-' of what follows those digits.
Evr split(std::string_view s) {
  Evr v;
  std::size_t digits = 0;
  while (digits < s.size() && is_digit(s[digits])) ++digits;
  std::string_view rest = s;
  if (digits < s.size() && s[digits] == ':') {
    if (digits > 0) v.epoch = s.substr(0, digits);
    rest = s.substr(digits + 1);
  }
  const std::size_t dash = s.rfind('-');
  if (dash != std::string_view::npos && dash >= digits) {
    const std::size_t cut = dash - (s.size() - rest.size());
    v.version = rest.substr(0, cut);
    v.release = rest.substr(cut + 1);
    v.has_release = true;
  } else {
    v.version = rest;
  }
  return v;
}

// One field, as pacman's rpmvercmp compares it.
int compare_field(std::string_view a, std::string_view b) {
  if (a == b) return 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const std::size_t si = i, sj = j;
    while (i < a.size() && !is_alnum(a[i])) ++i;
    while (j < b.size() && !is_alnum(b[j])) ++j;
    if (i >= a.size() || j >= b.size()) break;
    if (i - si != j - sj) return i - si < j - sj ? -1 : 1;  // the longer separator wins
    // A segment of the left side's kind on both sides.
    const bool digits = is_digit(a[i]);
    auto kind = [digits](char c) { return digits ? is_digit(c) : is_alpha(c); };
    const std::size_t ai = i, bj = j;
    while (i < a.size() && kind(a[i])) ++i;
    while (j < b.size() && kind(b[j])) ++j;
    if (j == bj) return digits ? 1 : -1;  // the other side's segment is of the other kind
    const std::string_view x = a.substr(ai, i - ai), y = b.substr(bj, j - bj);
    const int r = digits ? detail::compare_numbers(x, y) : x.compare(y);
    if (r != 0) return r < 0 ? -1 : 1;
  }
  const bool a_end = i >= a.size(), b_end = j >= b.size();
  if (a_end && b_end) return 0;
  // A left-over letter segment never beats the end; anything else left over wins.
  if ((a_end && !is_alpha(b[j])) || (!a_end && is_alpha(a[i]))) return -1;
  return 1;
}

// The rank of a segment among those of the same place: a longer separator run before it ranks
// higher, and digits rank above letters after the same run. Letters right after the previous
// segment (rank 0) sort before the end of the field and are coded apart.
std::size_t rank(std::size_t separators, bool digits) { return 2 * separators + (digits ? 1 : 0); }

// One field in rpm order: a letter segment with no separator before it as "~LETTERS" (before the
// end, as it loses to the end), every other segment as ".RANK.VALUE", trailing separators as "^"
// (after the end, before any segment).
std::string code_field(std::string_view f) {
  std::string out;
  std::size_t i = 0;
  while (i < f.size()) {
    const std::size_t start = i;
    while (i < f.size() && !is_alnum(f[i])) ++i;
    if (i >= f.size()) {
      out += '^';
      break;
    }
    const bool digits = is_digit(f[i]);
    const std::size_t seg = i;
    while (i < f.size() && (digits ? is_digit(f[i]) : is_alpha(f[i]))) ++i;
    const std::string_view value = f.substr(seg, i - seg);
    const std::size_t r = rank(seg - start, digits);
    if (r == 0) {
      out += '~';
      out += value;
    } else {
      out += '.' + std::to_string(r) + '.';
      out += digits ? detail::strip_zeros(value) : value;
    }
  }
  return out;
}

Error invalid(std::string_view text, const std::string& why) {
  return error_at(ExitCode::bad_input, "", "invalid pacman version '" + shorten(text) + "': " + why);
}

}  // namespace

int pacman_compare(std::string_view a, std::string_view b) {
  if (a == b) return 0;
  const Evr x = split(a), y = split(b);
  if (int r = compare_field(x.epoch, y.epoch)) return r;
  if (int r = compare_field(x.version, y.version)) return r;
  if (x.has_release && y.has_release) return compare_field(x.release, y.release);
  return 0;
}

Result<std::string> pacman_normalize(std::string_view text) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7f) return invalid(text, "invalid character " + detail::quote_char(c));
  }
  const Evr v = split(text);
  if (v.version.empty()) return invalid(text, "the version is empty");
  std::string out(detail::strip_zeros(v.epoch));
  out += ':';
  out += code_field(v.version);
  if (v.has_release) out += '-' + code_field(v.release);
  return out;
}

const Scheme pacman_scheme{"pacman", pacman_compare, pacman_normalize};

}  // namespace extdeps::version
