// Small text helpers shared by the version schemes; not part of the public API.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace extdeps::version::detail {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// A byte as a message shows it: '_' for printable ASCII, '\x01' otherwise.
inline std::string quote_char(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u > 0x20 && u < 0x7f) return std::string("'") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "'\\x%02x'", u);
  return buf;
}

// "007" -> "7", "000" -> "0", "" -> "0".
inline std::string_view strip_zeros(std::string_view digits) {
  while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
  return digits.empty() ? std::string_view("0") : digits;
}

// Numeric order of two digit strings of any length.
inline int compare_numbers(std::string_view a, std::string_view b) {
  a = strip_zeros(a);
  b = strip_zeros(b);
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int r = a.compare(b);
  return r < 0 ? -1 : r > 0 ? 1 : 0;
}

}  // namespace extdeps::version::detail
