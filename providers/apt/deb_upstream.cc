// The upstream part of a Debian version (see deb_upstream.h).
#include "providers/apt/deb_upstream.h"

#include <algorithm>
#include <cctype>

namespace extdeps::apt {

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Where a repack or distribution suffix starts: one of + ~ . followed by a known word (dfsg, ds,
// repack, debian, debNNuN, bpoN) and optional digits, then the end or another separator. npos
// when there is none. A scanner, not std::regex: the regex recursed once per character and a
// version of 50,000 digits overflowed the stack.
std::size_t repack_suffix(std::string_view s) {
  auto digits = [&](std::size_t i) {
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    return i;
  };
  auto ends_part = [&](std::size_t i) { return i == s.size() || s[i] == '+' || s[i] == '~' || s[i] == '.'; };
  auto word_at = [&](std::size_t i, std::string_view w) { return s.substr(i, w.size()) == w; };
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '+' && s[i] != '~' && s[i] != '.') continue;
    const std::size_t w = i + 1;
    for (std::string_view word : {"dfsg", "ds", "repack", "debian", "bpo"}) {
      if (word_at(w, word) && ends_part(digits(w + word.size()))) return i;
    }
    // debNNuN: "deb", digits, "u", digits.
    if (word_at(w, "deb")) {
      const std::size_t d = digits(w + 3);
      if (d > w + 3 && d < s.size() && s[d] == 'u') {
        const std::size_t e = digits(d + 1);
        if (e > d + 1 && ends_part(e)) return i;
      }
    }
  }
  return std::string_view::npos;
}

}  // namespace

std::string deb_upstream(std::string_view v) {
  if (auto colon = v.find(':'); colon != std::string_view::npos && all_digits(v.substr(0, colon))) {
    v.remove_prefix(colon + 1);
  }
  if (auto dash = v.rfind('-'); dash != std::string_view::npos) v = v.substr(0, dash);
  for (std::string_view marker : {"+really", "~really"}) {
    if (auto r = v.find(marker); r != std::string_view::npos) v.remove_prefix(r + marker.size());
  }
  if (auto cut = repack_suffix(v); cut != std::string_view::npos && cut > 0) v = v.substr(0, cut);
  return std::string(v);
}

}  // namespace extdeps::apt
