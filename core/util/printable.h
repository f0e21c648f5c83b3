// Text for people's terminals, from bytes that may hold anything (a native name from an index,
// a note from a table, a path). Kept apart from text.h, which nearly every file includes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace extdeps {

// C0 control characters and DEL as \xNN, every other byte kept: for text whose other bytes are
// its reader's business (a name in an install command, a Nix comment).
inline std::string escape_controls(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

// Text for a terminal: C0 control characters (a line break that would forge an output line, an
// ESC that would drive the terminal, a NUL), DEL and bytes that are not UTF-8 become \xNN, the C1
// controls (U+0080..U+009F) \u00NN; the rest is kept. For single-line fields of text output.
inline std::string printable_text(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  auto hex2 = [](std::string& out, unsigned char u) {
    out += kHex[u >> 4];
    out += kHex[u & 15];
  };
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    auto u = static_cast<unsigned char>(s[i]);
    if (u < 0x20 || u == 0x7f) {
      out += "\\x";
      hex2(out, u);
      ++i;
      continue;
    }
    if (u < 0x80) {
      out += static_cast<char>(u);
      ++i;
      continue;
    }
    std::size_t n = (u & 0xe0) == 0xc0 ? 2 : (u & 0xf0) == 0xe0 ? 3 : (u & 0xf8) == 0xf0 ? 4 : 0;
    bool ok = n > 0 && i + n <= s.size();
    std::uint32_t cp = n == 2 ? (u & 0x1fu) : n == 3 ? (u & 0x0fu) : (u & 0x07u);
    for (std::size_t k = 1; ok && k < n; ++k) {
      auto c = static_cast<unsigned char>(s[i + k]);
      ok = (c & 0xc0) == 0x80;
      cp = (cp << 6) | (c & 0x3fu);
    }
    ok = ok && !((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
                 (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff);
    if (!ok) {
      out += "\\x";
      hex2(out, u);
      ++i;
      continue;
    }
    if (cp < 0xa0) {
      out += "\\u00";
      hex2(out, static_cast<unsigned char>(cp));
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  return out;
}

}  // namespace extdeps
