// upstream_version: the upstream part of a native version, by the rule a mapping table gives.
// Debian's rules (deb-version(7)): [epoch:]upstream[-revision]; repacked sources add +dfsg, +ds,
// +repack or .dfsg to the upstream part; stable updates add +debNNuN or ~debNNuN; "+really"
// marks a downgrade whose real version follows it.
#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <mutex>

#include "core/mapping/mapping.h"
#include "core/mapping/version_regex.h"
#include "core/util/limits.h"

namespace extdeps::mapping {

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

// A rule read from the table cache has no compiled pattern: each pattern is compiled once per
// process and kept (the tables hold a few dozen; hand-built rules beyond kMaxKept compile on use).
std::shared_ptr<const re2::RE2> compiled(const std::string& pattern) {
  constexpr std::size_t kMaxKept = 256;
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const re2::RE2>, std::less<>> kept;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = kept.find(pattern); it != kept.end()) return it->second;
  auto re = std::make_shared<const re2::RE2>(pattern, version_regex_options());
  if (kept.size() < kMaxKept) kept.emplace(pattern, re);
  return re;
}

}  // namespace

std::string upstream_version(const VersionRule& rule, std::string_view native) {
  if (rule.kind == "deb-upstream") return deb_upstream(native);
  if (rule.kind == "regex") {
    // No real version is this long; RE2 would match it in linear time, but its upstream part
    // is not worth a guess.
    if (native.size() > limits::kMaxVersionLength) return {};
    std::shared_ptr<const re2::RE2> re = rule.compiled;
    if (!re) re = compiled(rule.pattern);
    // load_table refuses a pattern that does not compile or has not one group; a hand-built
    // rule like that gives "unknown".
    std::string group;
    if (re->ok() && re->NumberOfCapturingGroups() == 1 &&
        re2::RE2::PartialMatch(re2::StringPiece(native.data(), native.size()), *re, &group))
      return group;
    return {};
  }
  return std::string(native);
}

}  // namespace extdeps::mapping
