// The version rules of a mapping table (schema/mapping.md, "Version rules"): a rule's name, a
// regex (bounded before RE2 compiles it), a map of native to upstream versions, and a detector's
// rules per module.
#include <algorithm>
#include <string>

#include <re2/re2.h>

#include "core/mapping/table_loader.h"
#include "core/mapping/version_regex.h"
#include "core/provider/descriptor.h"
#include "core/util/limits.h"
#include "core/util/text.h"

namespace extdeps::mapping::load_detail {

// Why a version regex is refused before RE2 compiles it (docs/limits.md): longer than
// kMaxRegexLength, or a repetition count above kMaxRegexRepeat (RE2's own limit, said in our
// words). nullopt when it may be compiled; RE2 refuses the rest (a back-reference among them).
std::optional<std::string> regex_too_big(std::string_view pattern) {
  if (pattern.size() > limits::kMaxRegexLength)
    return "is " + std::to_string(pattern.size()) + " bytes long (extdeps reads at most " +
           std::to_string(limits::kMaxRegexLength) + ")";
  auto digits_at = [&](std::size_t i) {
    std::size_t j = i;
    while (j < pattern.size() && pattern[j] >= '0' && pattern[j] <= '9') ++j;
    return j - i;
  };
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\') {
      ++i;
      continue;
    }
    if (c == '[') in_class = true;
    else if (c == ']') in_class = false;
    else if (c == '{' && !in_class) {
      for (std::size_t j = i + 1; j < pattern.size() && pattern[j] != '}'; ++j) {
        std::size_t n = digits_at(j);
        if (n == 0) continue;
        if (n > 4 || std::stoul(std::string(pattern.substr(j, n))) > limits::kMaxRegexRepeat)
          return "has a repetition count above " + std::to_string(limits::kMaxRegexRepeat);
        j += n - 1;
      }
    }
  }
  return std::nullopt;
}

// A map rule's versions, `map = { "24.3.18" = "2.12.1" }`: native -> upstream, both non-empty
// strings; only the map rule takes one, and it needs one.
std::optional<Failure> Loader::read_version_map(const toml::table& t, VersionRule& rule) const {
  const toml::node* m = t.get("map");
  if (!m) {
    if (rule.kind == "map") return fail(t.source(), "a map version rule needs 'map': { \"NATIVE\" = \"UPSTREAM\" }");
    return std::nullopt;
  }
  if (rule.kind != "map") return fail(m->source(), "'map' is only read by the map rule");
  const toml::table* versions = m->as_table();
  if (!versions) return fail(m->source(), std::string("'map' must be a table of strings, got ") + type_name(*m));
  if (versions->empty()) return fail(m->source(), "'map' is empty: a map rule names at least one version");
  for (const auto& [native, upstream] : *versions) {
    const auto* u = upstream.as_string();
    if (!u || u->get().empty() || native.str().empty())
      return fail(upstream.source(), "'map' maps a native version to an upstream one, both non-empty strings; '" +
                                         std::string(native.str()) + "' is " + (u ? "empty" : type_name(upstream)));
    rule.map.emplace(std::string(native.str()), u->get());
  }
  return std::nullopt;
}

// A detector's entry: `version`, the rule of every module, and `versions`, a rule per module
// name (`versions = { libexslt = "none" }`), which wins. A rule reads the module's own version,
// so it names no package in `from`.
std::optional<Failure> Loader::read_module_versions(const toml::table& t, Entry& e) const {
  auto read = [&](const toml::node& n, VersionRule& rule) -> std::optional<Failure> {
    if (auto f = read_rule(n, rule)) return f;
    if (!rule.from.empty())
      return fail(n.source(), "a detector's version rule reads each module's own version: no 'from'");
    return std::nullopt;
  };
  if (const toml::node* v = t.get("version")) {
    VersionRule all;
    if (auto f = read(*v, all)) return f;
    if (all.kind != "native")
      for (const std::string& m : e.modules) e.module_versions[m] = all;
  }
  const toml::node* per = t.get("versions");
  if (!per) return std::nullopt;
  const toml::table* rules = per->as_table();
  if (!rules)
    return fail(per->source(), std::string("'versions' must be a table of version rules, got ") + type_name(*per));
  for (const auto& [module, n] : *rules) {
    const std::string m(module.str());
    if (std::find(e.modules.begin(), e.modules.end(), m) == e.modules.end())
      return fail(n.source(), "'versions' names '" + m + "', which is not one of " + e.id + "'s modules");
    VersionRule rule;
    if (auto f = read(n, rule)) return f;
    if (rule.kind == "native") e.module_versions.erase(m);
    else e.module_versions[m] = rule;
  }
  return std::nullopt;
}

std::optional<Failure> Loader::read_rule(const toml::node& n, VersionRule& out) const {
  if (const auto* s = n.as_string()) {
    const std::string& kind = s->get();
    if (known_rule(kind)) {
      out = VersionRule{kind, "", ""};
      return std::nullopt;
    }
    if (kind == "regex") {
      return fail(n.source(), "a regex version rule needs its pattern: { regex = '...' }");
    }
    if (kind == "map") {
      return fail(n.source(), "a map version rule needs its versions: { map = { \"NATIVE\" = \"UPSTREAM\" } }");
    }
    return fail(n.source(), "unknown version rule '" + kind + "'", version_rule_forms_text());
  }
  const toml::table* t = n.as_table();
  if (!t)
    return fail(n.source(), std::string("'version' must be a string or a table, got ") + type_name(n),
                version_rule_forms_text());
  if (auto f = check_keys(*t, {"rule", "regex", "map", "from"}, " in a version rule")) return f;
  VersionRule rule;
  if (auto f = read_string(*t, "rule", rule.kind)) return f;
  if (auto f = read_string(*t, "regex", rule.pattern)) return f;
  if (auto f = read_string(*t, "from", rule.from)) return f;
  if (!t->get("rule")) rule.kind = t->get("regex") ? "regex" : t->get("map") ? "map" : default_rule_.kind;
  if (auto f = read_version_map(*t, rule)) return f;
  if (rule.kind != "regex" && rule.kind != "map" && !known_rule(rule.kind)) {
    return fail(t->get("rule")->source(), "unknown version rule '" + rule.kind + "'", version_rule_forms_text());
  }
  if (rule.kind == "regex") {
    if (rule.pattern.empty()) return fail(n.source(), "a regex version rule needs 'regex'");
    if (auto why = regex_too_big(rule.pattern))
      return fail(t->get("regex")->source(), "version regex '" + shorten(rule.pattern) + "' " + *why);
    // Tables repeat a few patterns many times (debian.toml: 22 rules, 7 patterns): one compile
    // each.
    auto& re = regexes_[rule.pattern];
    if (!re) re = std::make_shared<const re2::RE2>(rule.pattern, version_regex_options());
    if (!re->ok())
      return fail(t->get("regex")->source(),
                  "version regex '" + shorten(rule.pattern) + "' does not compile: " + re->error());
    rule.compiled = re;
    if (re->NumberOfCapturingGroups() != 1) {
      return fail(t->get("regex")->source(), "version regex '" + rule.pattern +
                                                 "' must have exactly one group, it has " +
                                                 std::to_string(re->NumberOfCapturingGroups()));
    }
  } else if (!rule.pattern.empty()) {
    return fail(t->get("regex")->source(), "'regex' is only read by the regex rule");
  }
  out = rule;
  return std::nullopt;
}

}  // namespace extdeps::mapping::load_detail
