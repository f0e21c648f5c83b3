// Nix versions: compareVersions' components and order, and their rpm-order code (see nix_version.h).
#include "providers/nix/nix_version.h"

#include "core/version/detail.h"

namespace extdeps::version {

namespace {

using detail::is_digit;

bool is_separator(char c) { return c == '.' || c == '-'; }

// nix reads a component as a number when it converts to a C int; a longer run of digits is a
// string to it.
bool fits_int(std::string_view digits) {
  std::string_view d = detail::strip_zeros(digits);
  return detail::compare_numbers(d, "2147483647") <= 0;
}

enum class Kind { pre, empty, string, number };

Kind kind_of(std::string_view c) {
  if (c.empty()) return Kind::empty;
  if (is_digit(c.front()) && fits_int(c)) return Kind::number;
  return c == "pre" ? Kind::pre : Kind::string;
}

int compare_component(std::string_view a, std::string_view b) {
  Kind ka = kind_of(a), kb = kind_of(b);
  if (ka != kb) return ka < kb ? -1 : 1;
  if (ka == Kind::number) return detail::compare_numbers(a, b);
  if (ka == Kind::string) {
    int r = a.compare(b);  // char_traits<char>: bytes compare as unsigned, as nix's std::string does
    return r < 0 ? -1 : r > 0 ? 1 : 0;
  }
  return 0;
}

// nix's nextComponent: skips separators, then takes one run.
std::string_view next_component(std::string_view& rest) {
  while (!rest.empty() && is_separator(rest.front())) rest.remove_prefix(1);
  size_t n = 0;
  if (!rest.empty() && is_digit(rest.front())) {
    while (n < rest.size() && is_digit(rest[n])) ++n;
  } else {
    while (n < rest.size() && !is_digit(rest[n]) && !is_separator(rest[n])) ++n;
  }
  std::string_view c = rest.substr(0, n);
  rest.remove_prefix(n);
  return c;
}

}  // namespace

std::vector<std::string_view> nix_components(std::string_view version) {
  std::vector<std::string_view> out;
  while (true) {
    std::string_view c = next_component(version);
    if (c.empty()) return out;
    out.push_back(c);
  }
}

int nix_compare(std::string_view a, std::string_view b) {
  while (!a.empty() || !b.empty()) {
    std::string_view ca = next_component(a), cb = next_component(b);
    if (int r = compare_component(ca, cb)) return r;
  }
  return 0;
}

std::string nix_pool_order(std::string_view version) {
  static constexpr char kNibble[] = "ABCDEFGHIJKLMNOP";
  std::string out = "x";
  for (std::string_view c : nix_components(version)) {
    switch (kind_of(c)) {
      case Kind::number:
        out += ".b";
        out += detail::strip_zeros(c);
        break;
      case Kind::pre: out += ".~"; break;
      case Kind::string:
        out += ".a";
        for (char ch : c) {
          auto u = static_cast<unsigned char>(ch);
          out += kNibble[u >> 4];
          out += kNibble[u & 15];
        }
        break;
      case Kind::empty: break;
    }
  }
  return out;
}

namespace {
Result<std::string> nix_normalize(std::string_view text) { return nix_pool_order(text); }
}  // namespace

const Scheme nix_scheme{"nix", nix_compare, nix_normalize};

}  // namespace extdeps::version
