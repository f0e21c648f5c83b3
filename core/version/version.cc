// The scheme dispatch of version.h, the rpm scheme's checks, and upstream versions.
#include "core/version/version.h"

#include "core/util/text.h"

#include "core/version/conda.h"
#include "core/version/deb.h"
#include "core/version/detail.h"
#include "core/version/homebrew.h"
#include "core/version/nix.h"
#include "core/version/pacman.h"
#include "core/version/pep440.h"

namespace extdeps::version {

namespace {

Result<std::string> check_rpm(std::string_view text) {
  auto invalid = [&](std::string why) {
    return error_at(ExitCode::bad_input, "", "invalid rpm version '" + shorten(text) + "': " + why);
  };
  if (text.empty()) return invalid("it is empty");
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) return invalid("invalid character " + detail::quote_char(c));
  }
  return std::string(text);
}

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
  if (rest.front() == '~') return out + "~z" + deb_part_code(rest.substr(1));
  return out + ".o" + deb_part_code(rest);
}

}  // namespace

int compare(VersionScheme scheme, std::string_view a, std::string_view b) {
  switch (scheme) {
    case VersionScheme::deb:
      return deb_compare(a, b);
    case VersionScheme::rpm:
      return rpm_compare(a, b);
    case VersionScheme::pep440: {
      auto pa = parse_pep440(a), pb = parse_pep440(b);
      if (pa && pb) return pep440_compare(*pa, *pb);
      return rpm_compare(normalize_upstream(a), normalize_upstream(b));
    }
    case VersionScheme::conda:
      return conda_compare(a, b);
    case VersionScheme::nix:
      return nix_compare(a, b);
    case VersionScheme::pacman:
      return pacman_compare(a, b);
    case VersionScheme::homebrew:
      return homebrew_compare(a, b);
  }
  return 0;
}

Result<std::string> normalize(VersionScheme scheme, std::string_view native) {
  switch (scheme) {
    case VersionScheme::deb:
      return deb_normalize(native);
    case VersionScheme::rpm:
      return check_rpm(native);
    case VersionScheme::pep440: {
      auto v = parse_pep440(native);
      if (!v) return v.error();
      return pep440_pool_order(*v);
    }
    case VersionScheme::conda:
      return conda_normalize(native);
    case VersionScheme::nix:
      return nix_pool_order(native);
    case VersionScheme::pacman:
      return pacman_normalize(native);
    case VersionScheme::homebrew:
      return homebrew_normalize(native);
  }
  return error_at(ExitCode::bad_input, "", "unknown version scheme");
}

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

const std::vector<std::string_view>& scheme_names() {
  static const std::vector<std::string_view> names = {"deb", "rpm", "pkgconfig", "pep440", "conda", "nix", "pacman",
                                                      "homebrew"};
  return names;
}

std::string scheme_names_text() {
  const auto& names = scheme_names();
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
  return out;
}

std::optional<VersionScheme> parse_scheme(std::string_view name) {
  if (name == "deb") return VersionScheme::deb;
  if (name == "rpm" || name == "pkgconfig") return VersionScheme::rpm;
  if (name == "pep440") return VersionScheme::pep440;
  if (name == "conda") return VersionScheme::conda;
  if (name == "nix") return VersionScheme::nix;
  if (name == "pacman") return VersionScheme::pacman;
  if (name == "homebrew") return VersionScheme::homebrew;
  return std::nullopt;
}

std::string_view scheme_name(VersionScheme scheme) {
  switch (scheme) {
    case VersionScheme::deb:
      return "deb";
    case VersionScheme::rpm:
      return "rpm";
    case VersionScheme::pep440:
      return "pep440";
    case VersionScheme::conda:
      return "conda";
    case VersionScheme::nix:
      return "nix";
    case VersionScheme::pacman:
      return "pacman";
    case VersionScheme::homebrew:
      return "homebrew";
  }
  return "unknown";
}

}  // namespace extdeps::version
