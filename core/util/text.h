// Small text helpers shared by the readers.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/limits.h"

namespace extdeps {

// Messages for people start lower-case (docs/STYLE.md); libraries' own texts ("Error while
// parsing array") are brought in line.
inline std::string lower_first(std::string_view text) {
  std::string out(text);
  if (!out.empty() && std::isupper(static_cast<unsigned char>(out[0])) &&
      (out.size() == 1 || !std::isupper(static_cast<unsigned char>(out[1]))))
    out[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[0])));
  return out;
}

// How many bytes from the start of `s` are valid UTF-8 (s.size() when all are): overlong forms,
// surrogates, code points past U+10FFFF and cut sequences are not.
inline std::size_t utf8_valid_length(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto u = static_cast<unsigned char>(s[i]);
    const std::size_t n = u < 0x80 ? 1 : (u & 0xe0) == 0xc0 ? 2 : (u & 0xf0) == 0xe0 ? 3 : (u & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return i;
    std::uint32_t cp = n == 1 ? u : n == 2 ? (u & 0x1f) : n == 3 ? (u & 0x0f) : (u & 0x07);
    for (std::size_t k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xc0) != 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) ||
        cp > 0x10ffff)
      return i;
    i += n;
  }
  return s.size();
}

// Without leading and trailing white space (std::isspace: blank, tab, CR, LF, VT, FF).
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// `text` cut at each `sep`, each piece trimmed (trim), the empty ones left out, appended to `to`:
// "a, b,,c" and ',' give "a", "b", "c". How a list option's value reads in a variable, a
// library key or a flag.
inline void append_split(std::string_view text, char sep, std::vector<std::string>& to) {
  while (!text.empty()) {
    const std::size_t cut = text.find(sep);
    if (const std::string_view item = trim(text.substr(0, cut)); !item.empty()) to.emplace_back(item);
    text = cut == std::string_view::npos ? std::string_view() : text.substr(cut + 1);
  }
}

// "a, b or c" for {"a", "b", "c"}: a choice, in a message or a help text.
template <typename Strings>
std::string or_list(const Strings& items) {
  std::string out;
  std::size_t i = 0;
  for (const auto& item : items) {
    out += i == 0 ? "" : i + 1 == items.size() ? " or " : ", ";
    out += std::string_view(item);
    ++i;
  }
  return out;
}

// "a, b, c" for {"a", "b", "c"} and ", ".
inline std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

// ASCII letters in lower case, every other byte as it is.
inline std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// PEP 503 / PEP 685 normalisation of names (extras, dependency groups): lower case, and every run
// of '-', '_' and '.' becomes one '-'.
inline std::string normalize_name(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '-' || c == '_' || c == '.') {
      if (out.empty() || out.back() != '-') out += '-';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

// A text as a message may quote it: whole when short, else its first `max` bytes (not cutting a
// UTF-8 sequence) and "…(N bytes)" with the whole length. A 1 GB package name is a name nobody
// reads, and printing it whole costs gigabytes.
inline std::string shorten(std::string_view s, std::size_t max = limits::kMaxShownLength) {
  if (s.size() <= max) return std::string(s);
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut)) + "\u2026(" + std::to_string(s.size()) + " bytes)";
}

// FNV-1a, 64 bits, as 16 hex digits: names of cache files keyed on a longer text.
inline std::string fnv1a_hex(std::string_view s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<size_t>(i)] = kHex[h & 15];
  return out;
}

}  // namespace extdeps
