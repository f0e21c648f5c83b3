// One part of a version in dpkg's order, and its rpm-order code (see part_order.h).
#include "core/version/part_order.h"

#include "core/version/detail.h"

namespace extdeps::version {

using detail::is_alpha;
using detail::is_digit;

namespace {

const std::string_view kLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// The weight of a byte inside a non-digit run; the end of a run (a digit or the end) weighs 0.
int weight(int c) {
  if (c < 0 || is_digit(static_cast<char>(c))) return 0;
  if (c == '~') return -1;
  if (is_alpha(static_cast<char>(c))) return c;
  return c + 256;
}

int at(std::string_view s, size_t i) { return i < s.size() ? static_cast<unsigned char>(s[i]) : -1; }

// The fixed-length letter code of one non-digit byte other than '~', ordered like weight().
void append_code(std::string& out, char c) {
  if (is_alpha(c)) {
    out += c >= 'a' ? 'a' : 'A';
    out += c;
    return;
  }
  auto u = static_cast<unsigned char>(c);
  out += 'z';
  out += kLetters[u / kLetters.size()];
  out += kLetters[u % kLetters.size()];
}

}  // namespace

int part_compare(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    while ((i < a.size() && !is_digit(a[i])) || (j < b.size() && !is_digit(b[j]))) {
      int wa = weight(at(a, i)), wb = weight(at(b, j));
      if (wa != wb) return wa < wb ? -1 : 1;
      ++i, ++j;
    }
    size_t na = i, nb = j;
    while (i < a.size() && is_digit(a[i])) ++i;
    while (j < b.size() && is_digit(b[j])) ++j;
    if (int r = detail::compare_numbers(a.substr(na, i - na), b.substr(nb, j - nb))) return r;
  }
  return 0;
}

std::string part_code(std::string_view part) {
  std::string out;
  size_t i = 0;
  // Always at least one pair, so that an empty part codes like "0" (dpkg: equal).
  do {
    out += 'a';
    for (; i < part.size() && !is_digit(part[i]); ++i) {
      if (part[i] == '~') out += "~a";  // '~' sorts before the end; the 'a' starts a fresh letter run after it
      else append_code(out, part[i]);
    }
    size_t start = i;
    while (i < part.size() && is_digit(part[i])) ++i;
    out += detail::strip_zeros(part.substr(start, i - start));
  } while (i < part.size());
  out += 'a';
  return out;
}

}  // namespace extdeps::version
