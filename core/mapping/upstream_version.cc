// upstream_version: the upstream part of a native version, by the rule a mapping table gives:
// the native version itself, none (unknown), a map's entry, a regex's group, or a rule a
// provider defines (its descriptor's upstream_rules: apt's deb-upstream).
#include <map>
#include <memory>
#include <mutex>

#include "core/mapping/mapping.h"
#include "core/mapping/version_regex.h"
#include "core/provider/descriptor.h"
#include "core/util/limits.h"

namespace extdeps::mapping {

namespace {

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
  if (rule.kind == "none") return {};
  if (rule.kind == "map") {
    auto it = rule.map.find(std::string(native));
    return it == rule.map.end() ? std::string() : it->second;
  }
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
  if (rule.kind != "native")
    if (const UpstreamRule* r = upstream_rule_named(rule.kind)) return r->upstream(native);
  return std::string(native);
}

}  // namespace extdeps::mapping
