// rpm version order: segment_compare on one field and evr_compare on [epoch:]version[-release].
#include "core/version/segments.h"

#include "core/version/version.h"

namespace extdeps::version {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_separator(char c) { return !is_digit(c) && !is_alpha(c) && c != '~' && c != '^'; }

int sign(int v) { return v < 0 ? -1 : v > 0 ? 1 : 0; }

// Compares two runs taken by the same predicate; digit runs are compared without leading zeros.
int compare_digit_runs(std::string_view a, std::string_view b) {
  while (a.size() > 1 && a.front() == '0') a.remove_prefix(1);
  while (b.size() > 1 && b.front() == '0') b.remove_prefix(1);
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return sign(a.compare(b));
}

template <class Pred>
std::string_view take_run(std::string_view s, size_t& i, Pred pred) {
  size_t start = i;
  while (i < s.size() && pred(s[i])) ++i;
  return s.substr(start, i - start);
}

// The length of the leading digits of s.
size_t digit_prefix(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && is_digit(s[n])) ++n;
  return n;
}

bool all_zeros(std::string_view s) { return s.find_first_not_of('0') == std::string_view::npos; }

}  // namespace

int segment_compare(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  for (;;) {
    while (i < a.size() && is_separator(a[i])) ++i;
    while (j < b.size() && is_separator(b[j])) ++j;
    bool a_end = i >= a.size(), b_end = j >= b.size();
    // '~' sorts before anything, the end included.
    if (!a_end && a[i] == '~') {
      if (!b_end && b[j] == '~') {
        ++i, ++j;
        continue;
      }
      return -1;
    }
    if (!b_end && b[j] == '~') return 1;
    // '^' sorts after the end but before anything else.
    if (!a_end && a[i] == '^') {
      if (!b_end && b[j] == '^') {
        ++i, ++j;
        continue;
      }
      return b_end ? 1 : -1;
    }
    if (!b_end && b[j] == '^') return a_end ? -1 : 1;
    if (a_end || b_end) break;
    if (is_digit(a[i]) || is_digit(b[j])) {
      if (!is_digit(b[j])) return 1;
      if (!is_digit(a[i])) return -1;
      int r = compare_digit_runs(take_run(a, i, is_digit), take_run(b, j, is_digit));
      if (r) return r;
    } else {
      int r = sign(take_run(a, i, is_alpha).compare(take_run(b, j, is_alpha)));
      if (r) return r;
    }
  }
  return i < a.size() ? 1 : j < b.size() ? -1 : 0;
}

int evr_compare(std::string_view a, std::string_view b) {
  // libsolv reads C strings: nothing after a NUL counts.
  a = a.substr(0, a.find('\0'));
  b = b.substr(0, b.find('\0'));
  // An epoch is a non-empty run of digits before a ':' at the very start.
  size_t ea = digit_prefix(a), eb = digit_prefix(b);
  bool a_epoch = ea > 0 && ea < a.size() && a[ea] == ':';
  bool b_epoch = eb > 0 && eb < b.size() && b[eb] == ':';
  if (a_epoch && b_epoch) {
    if (int r = segment_compare(a.substr(0, ea), b.substr(0, eb))) return r;
  } else if (a_epoch) {
    // A missing epoch equals an all-zero one and is less than any other.
    if (!all_zeros(a.substr(0, ea))) return 1;
  } else if (b_epoch) {
    if (!all_zeros(b.substr(0, eb))) return -1;
  }
  if (a_epoch) a.remove_prefix(ea + 1);
  if (b_epoch) b.remove_prefix(eb + 1);

  // version-release splits at the last '-'; a missing release sorts before any release.
  size_t ra = a.rfind('-'), rb = b.rfind('-');
  std::string_view va = a.substr(0, ra), vb = b.substr(0, rb);
  if (int r = segment_compare(va, vb)) return r;
  bool a_rel = ra != std::string_view::npos, b_rel = rb != std::string_view::npos;
  if (a_rel != b_rel) return a_rel ? 1 : -1;
  if (!a_rel) return 0;
  return segment_compare(a.substr(ra + 1), b.substr(rb + 1));
}

}  // namespace extdeps::version
