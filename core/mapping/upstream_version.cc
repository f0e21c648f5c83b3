// upstream_version: the upstream part of a native version, by the rule a mapping table gives.
// Debian's rules (deb-version(7)): [epoch:]upstream[-revision]; repacked sources add +dfsg, +ds,
// +repack or .dfsg to the upstream part; stable updates add +debNNuN or ~debNNuN; "+really"
// marks a downgrade whose real version follows it.
#include <algorithm>
#include <cctype>
#include <regex>

#include "core/mapping/mapping.h"

namespace extdeps::mapping {

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

// Where a repack or distribution suffix starts: one of + ~ . followed by a known word and
// optional digits, then the end or another separator. npos when there is none.
std::size_t repack_suffix(std::string_view s) {
  static const std::regex kSuffix(
      R"([+~.](dfsg|ds|repack|debian|deb\d+u\d+|bpo\d*)\d*(?=$|[+~.]))");
  std::match_results<std::string_view::const_iterator> m;
  try {
    if (std::regex_search(s.begin(), s.end(), m, kSuffix)) {
      return static_cast<std::size_t>(m.position(0));
    }
  } catch (const std::regex_error&) {
    // Only on pathological input (error_complexity); the version is then kept as it is.
  }
  return std::string_view::npos;
}

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

}  // namespace

std::string upstream_version(const VersionRule& rule, std::string_view native) {
  if (rule.kind == "deb-upstream") return deb_upstream(native);
  if (rule.kind == "regex") {
    try {
      std::shared_ptr<const std::regex> re = rule.compiled;
      if (!re) re = std::make_shared<const std::regex>(rule.pattern, std::regex::ECMAScript);
      std::match_results<std::string_view::const_iterator> m;
      if (std::regex_search(native.begin(), native.end(), m, *re) && m.size() > 1 && m[1].matched) {
        return m[1].str();
      }
    } catch (const std::regex_error&) {
      // load_table rejects patterns that do not compile; a hand-built rule gets "unknown".
    }
    return {};
  }
  return std::string(native);
}

}  // namespace extdeps::mapping
