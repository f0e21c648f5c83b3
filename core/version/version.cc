// Core's two schemes (segments, pep440), the segments scheme's checks, and upstream versions.
#include "core/version/version.h"

#include "core/util/text.h"

#include "core/version/detail.h"
#include "core/version/part_order.h"
#include "core/version/pep440.h"

namespace extdeps::version {

namespace {

// The order of a version that may not be PEP 440: its own where it is, else normalize_upstream's.
int pep440_or_upstream_compare(std::string_view a, std::string_view b) {
  auto pa = parse_pep440(a), pb = parse_pep440(b);
  if (pa && pb) return pep440_compare(*pa, *pb);
  return evr_compare(normalize_upstream(a), normalize_upstream(b));
}

Result<std::string> pep440_normalize(std::string_view native) {
  auto v = parse_pep440(native);
  if (!v) return v.error();
  return pep440_pool_order(*v);
}

}  // namespace

Result<std::string> evr_check(std::string_view text) {
  auto invalid = [&](std::string why) {
    return error_at(ExitCode::bad_input, "", "invalid version '" + shorten(text) + "': " + why);
  };
  if (text.empty()) return invalid("it is empty");
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) return invalid("invalid character " + detail::quote_char(c));
  }
  return std::string(text);
}

namespace {

// The lenient order of an upstream version that is not PEP 440: its leading release numbers,
// then the rest coded in dpkg's order, placed after the release's local versions and before its
// post-releases ("~..." rests go after its pre-releases and before the release itself).
std::string upstream_fallback(std::string_view s) {
  if (s.size() > 1 && (s[0] == 'v' || s[0] == 'V') && detail::is_digit(s[1])) s.remove_prefix(1);
  std::vector<std::string_view> release;
  size_t i = 0;
  while (i < s.size() && detail::is_digit(s[i])) {
    size_t start = i;
    while (i < s.size() && detail::is_digit(s[i])) ++i;
    release.push_back(detail::strip_zeros(s.substr(start, i - start)));
    if (i + 1 >= s.size() || s[i] != '.' || !detail::is_digit(s[i + 1])) break;
    ++i;
  }
  std::string_view rest = s.substr(i);
  while (!release.empty() && release.back() == "0") release.pop_back();
  std::string out = "0:";
  if (release.empty()) out += "0";
  for (size_t k = 0; k < release.size(); ++k) {
    if (k) out += '.';
    out += release[k];
  }
  if (rest.empty()) return out;
  if (rest.front() == '~') return out + "~z" + part_code(rest.substr(1));
  return out + ".o" + part_code(rest);
}

}  // namespace

std::string upstream_as_pep440(std::string_view upstream) {
  std::string_view s = upstream;
  while (!s.empty() && detail::is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && detail::is_ascii_space(s.back())) s.remove_suffix(1);
  // Debian writes pre-releases as "2.0~rc1": without the '~' they are PEP 440's "2.0rc1".
  std::string candidate;
  for (size_t i = 0; i < s.size(); ++i)
    if (!(s[i] == '~' && i + 1 < s.size() && detail::is_alpha(s[i + 1]))) candidate += s[i];
  return candidate;
}

std::string normalize_upstream(std::string_view upstream) {
  std::string_view s = upstream;
  while (!s.empty() && detail::is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && detail::is_ascii_space(s.back())) s.remove_suffix(1);
  if (s.empty()) return "0:0";
  if (auto v = parse_pep440(upstream_as_pep440(s))) return pep440_pool_order(*v);
  return upstream_fallback(s);
}

const Scheme segments_scheme{"segments", evr_compare, evr_check};
const Scheme pep440_scheme{"pep440", pep440_or_upstream_compare, pep440_normalize};

}  // namespace extdeps::version
