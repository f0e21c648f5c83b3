// load_table: reads one mapping table (schema/mapping.md) with toml++, checks every key and type,
// applies the category fallback, and reports the first problem as "file:line:col: message".
#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include <toml++/toml.h>

#include "core/mapping/mapping.h"
#include "core/mapping/names.h"
#include "core/mapping/version_regex.h"
#include "core/provider/descriptor.h"
#include "core/util/limits.h"
#include "core/util/text.h"
#include "core/util/toml_depth.h"

namespace extdeps::mapping {

namespace {

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

constexpr int kSchema = 1;
constexpr std::array<Category, 3> kCategories = {Category::build, Category::host, Category::run};

const char* type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::table: return "table";
    case toml::node_type::array: return "array";
    case toml::node_type::date: return "date";
    case toml::node_type::time: return "time";
    case toml::node_type::date_time: return "date-time";
    default: return "nothing";
  }
}

// The first problem found; every check returns one or nothing, and the first one ends the load.
// A table's error, at its place (an Error of bad input once load_table hands it over).
struct Failure {
  std::string place;  // file:line:col
  std::string what;
  std::string expected;  // what the table should have there, if there is one thing to say
};

// One set of build/host/run lists as written, before the fallback.
struct Lists {
  std::array<std::optional<std::vector<std::string>>, 3> by;  // build, host, run
  bool any() const { return by[0] || by[1] || by[2]; }
};

class Loader {
 public:
  explicit Loader(std::string path) : path_(std::move(path)) {}

  std::optional<Failure> run(const toml::table& root, Table& out);

 private:
  SourceSpan span(const toml::source_region& r) const {
    return SourceSpan{path_, static_cast<int>(r.begin.line), static_cast<int>(r.begin.column)};
  }
  std::string at(const toml::source_region& r) const {
    return path_ + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
  }
  Failure fail(const toml::source_region& r, const std::string& what, const std::string& expected = {}) const {
    return Failure{at(r), what, expected};
  }

  std::optional<Failure> check_keys(const toml::table& t, const std::vector<std::string>& allowed,
                                    const std::string& where) const;
  std::optional<Failure> read_string(const toml::table& t, const char* key, std::string& out) const;
  std::optional<Failure> read_strings(const toml::table& t, const char* key,
                                      std::optional<std::vector<std::string>>& out) const;
  std::optional<Failure> read_rule(const toml::node& n, VersionRule& out) const;
  std::optional<Failure> read_version_map(const toml::table& t, VersionRule& rule) const;
  std::optional<Failure> read_module_versions(const toml::table& t, Entry& e) const;
  std::optional<Failure> read_component(const toml::table& t, std::string& out) const;
  std::optional<Failure> check_package_names(const toml::table& t, const char* key,
                                             const std::vector<std::string>& names) const;
  std::optional<Failure> read_entry(const toml::table& t, Entry& e) const;
  // The package lists of an entry or of one of its [id.release.NAME] tables. `rule` and
  // `component` come in as the defaults and go out as the table's own.
  // `inherit` (for a release table): the entry's own lists, standing in for the categories the
  // table does not write, before the fallback. `lists_out`: the lists the table writes itself.
  std::optional<Failure> read_body(const toml::table& t, const std::string& id, const char* what, VersionRule& rule,
                                   std::string& component, std::map<Category, std::vector<Alternative>>& out,
                                   const Lists* inherit = nullptr, Lists* lists_out = nullptr) const;
  std::optional<Failure> read_releases(const toml::table& t, Entry& e, const VersionRule& rule,
                                       const std::string& component, const Lists& entry_lists) const;

  std::optional<Failure> read_lists(const toml::table& t, Lists& out) const;
  std::optional<Failure> check_from(const toml::table& t, const VersionRule& rule, const Lists& lists,
                                    const std::string& id) const;

  std::string path_;
  bool detector_ = false;
  // The table names a manager no provider of this build installs with (apt's table in a build
  // that leaves apt out, EXTDEPS_PROVIDER_APT=OFF): the version rules that provider would define
  // cannot be checked, and nothing reads its versions here, so a well-formed rule name is taken.
  bool foreign_ = false;
  bool known_rule(const std::string& kind) const {
    if (kind == "native" || kind == "none" || upstream_rule_named(kind)) return true;
    return foreign_ && !kind.empty() && kind != "regex" && kind != "map" &&
           std::all_of(kind.begin(), kind.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
  }
  std::vector<std::string_view> components_;  // what `component` may name; empty: anything
  std::string manager_;
  mutable std::map<std::string, std::shared_ptr<const re2::RE2>> regexes_;  // by pattern
  std::string table_release_;
  VersionRule default_rule_;
};

std::optional<Failure> Loader::check_keys(const toml::table& t, const std::vector<std::string>& allowed,
                                          const std::string& where) const {
  const toml::key* first = nullptr;
  for (auto&& [k, v] : t) {
    (void)v;
    if (std::find(allowed.begin(), allowed.end(), k.str()) != allowed.end()) continue;
    const auto& b = k.source().begin;
    if (!first || b.line < first->source().begin.line ||
        (b.line == first->source().begin.line && b.column < first->source().begin.column)) {
      first = &k;
    }
  }
  if (!first) return std::nullopt;
  const std::string name(first->str());
  std::string message = "unknown key '" + shorten(name) + "'" + where;
  if (!detector_ && name == "modules") {
    message += " ('modules' belongs in a detector's table, one that names no manager)";
  } else if (detector_ && (name == "build" || name == "host" || name == "run" || name == "alternative")) {
    message += " (a detector's table lists 'modules' for every category)";
  } else {
    std::string best;
    std::size_t best_d = 3;
    for (const auto& a : allowed) {
      if (name.size() > limits::kMaxSuggestLength) break;  // near no key; no matrix of its size
      const std::size_t d = edit_distance(name, a);
      if (d < best_d && d <= std::max<std::size_t>(1, a.size() / 2)) {
        best_d = d;
        best = a;
      }
    }
    if (!best.empty()) message += " (did you mean '" + best + "'?)";
  }
  return fail(first->source(), message);
}

std::optional<Failure> Loader::read_string(const toml::table& t, const char* key, std::string& out) const {
  const toml::node* n = t.get(key);
  if (!n) return std::nullopt;
  if (!n->is_string()) {
    return fail(n->source(), std::string("'") + key + "' must be a string, got " + type_name(*n));
  }
  out = n->as_string()->get();
  return std::nullopt;
}

std::optional<Failure> Loader::read_strings(const toml::table& t, const char* key,
                                            std::optional<std::vector<std::string>>& out) const {
  const toml::node* n = t.get(key);
  if (!n) return std::nullopt;
  const toml::array* arr = n->as_array();
  if (!arr) {
    return fail(n->source(), std::string("'") + key + "' must be an array of strings, got " + type_name(*n));
  }
  std::vector<std::string> values;
  for (const toml::node& item : *arr) {
    if (!item.is_string()) {
      return fail(item.source(),
                  std::string("'") + key + "' must be an array of strings, got " + type_name(item) + " in it");
    }
    const std::string& s = item.as_string()->get();
    if (s.empty()) return fail(item.source(), std::string("empty string in '") + key + "'");
    if (std::find(values.begin(), values.end(), s) != values.end()) {
      return fail(item.source(), "'" + s + "' is listed twice in '" + key + "'");
    }
    values.push_back(s);
  }
  out = std::move(values);
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

std::optional<Failure> Loader::read_component(const toml::table& t, std::string& out) const {
  const toml::node* n = t.get("component");
  if (!n) return std::nullopt;
  std::string value;
  if (auto f = read_string(t, "component", value)) return f;
  if (!components_.empty()) {
    if (std::find(components_.begin(), components_.end(), value) == components_.end()) {
      return fail(n->source(), "unknown component '" + value + "'", or_list(components_));
    }
  } else if (value.empty()) {
    return fail(n->source(), "'component' must not be empty");
  }
  out = value;
  return std::nullopt;
}

std::optional<Failure> Loader::check_package_names(const toml::table& t, const char* key,
                                                   const std::vector<std::string>& names) const {
  const toml::array* arr = t.get(key) ? t.get(key)->as_array() : nullptr;
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto problem = name_problem(manager_, names[i]);
    if (!problem) continue;
    const auto& where = arr && i < arr->size() ? (*arr)[i].source() : t.source();
    return fail(where, *problem);
  }
  return std::nullopt;
}

std::optional<Failure> Loader::read_lists(const toml::table& t, Lists& out) const {
  for (std::size_t i = 0; i < kCategories.size(); ++i) {
    const char* key = category_name(kCategories[i]).data();  // a literal: NUL-terminated
    if (auto f = read_strings(t, key, out.by[i])) return f;
    if (out.by[i]) {
      if (auto f = check_package_names(t, key, *out.by[i])) return f;
    }
  }
  return std::nullopt;
}

std::optional<Failure> Loader::check_from(const toml::table& t, const VersionRule& rule, const Lists& lists,
                                          const std::string& id) const {
  if (rule.from.empty()) return std::nullopt;
  for (const auto& l : lists.by) {
    if (l && std::find(l->begin(), l->end(), rule.from) != l->end()) return std::nullopt;
  }
  const toml::node* v = t.get("version");
  return fail(v ? v->source() : t.source(), "version rule reads '" + rule.from + "', which " + id + " does not list");
}

// The category fallback of schema/mapping.md: build <- host, host <- build, run <- host, build.
std::array<std::vector<std::string>, 3> with_fallback(const Lists& l) {
  const auto& b = l.by[0];
  const auto& h = l.by[1];
  const auto& r = l.by[2];
  return {b ? *b : (h ? *h : std::vector<std::string>{}), h ? *h : (b ? *b : std::vector<std::string>{}),
          r ? *r : (h ? *h : (b ? *b : std::vector<std::string>{}))};
}

std::optional<Failure> Loader::read_entry(const toml::table& t, Entry& e) const {
  const toml::node* idn = t.get("id");
  if (!idn) return fail(t.source(), "[[id]] table without 'id'");
  if (auto f = read_string(t, "id", e.id)) return f;
  if (e.id.rfind("dep:", 0) != 0 || e.id.find('/') == std::string::npos || e.id.back() == '/') {
    return fail(idn->source(), "id '" + e.id + "' is not a DepURL", "dep:TYPE/NAME");
  }
  e.where = span(t.source());
  const std::string in = " in [[id]] " + e.id;
  if (detector_) {
    if (auto f = check_keys(t, {"id", "aliases", "description", "note", "modules", "version", "versions", "unverified"},
                            in)) {
      return f;
    }
  } else {
    if (auto f = check_keys(t,
                            {"id", "aliases", "description", "note", "build", "host", "run", "version", "component",
                             "alternative", "release", "unverified"},
                            in)) {
      return f;
    }
  }
  std::optional<std::vector<std::string>> aliases;
  if (auto f = read_strings(t, "aliases", aliases)) return f;
  if (aliases) e.aliases = *aliases;
  if (auto f = read_string(t, "description", e.description)) return f;
  if (auto f = read_string(t, "note", e.note)) return f;
  if (const toml::node* u = t.get("unverified")) {
    // Only `true` is written: an entry without the key is one whose names a real index confirmed.
    if (!u->is_boolean() || !u->as_boolean()->get()) {
      return fail(u->source(), std::string("'unverified' is written as true (leave it out where a "
                                           "real index confirmed the names), got ") +
                                   (u->is_boolean() ? "false" : type_name(*u)));
    }
    e.unverified = true;
  }

  if (detector_) {
    std::optional<std::vector<std::string>> modules;
    if (auto f = read_strings(t, "modules", modules)) return f;
    if (!modules) return fail(t.source(), e.id + " lists no 'modules' (an empty list says none)");
    if (auto f = check_package_names(t, "modules", *modules)) return f;
    e.modules = *modules;
    if (e.modules.empty() && e.note.empty()) {
      return fail(t.source(), e.id + " has no module: add a note saying why");
    }
    return read_module_versions(t, e);
  }

  VersionRule rule = default_rule_;
  std::string component = "main";
  Lists lists;
  if (auto f = read_body(t, e.id, "", rule, component, e.by_category, nullptr, &lists)) return f;
  if (e.unavailable() && e.note.empty()) {
    return fail(t.source(), e.id +
                                " maps to no package: add a note saying why "
                                "(note = \"not packaged in ...\")");
  }
  return read_releases(t, e, rule, component, lists);
}

std::optional<Failure> Loader::read_body(const toml::table& t, const std::string& id, const char* what,
                                         VersionRule& rule, std::string& component,
                                         std::map<Category, std::vector<Alternative>>& out, const Lists* inherit,
                                         Lists* lists_out) const {
  if (const toml::node* v = t.get("version")) {
    if (auto f = read_rule(*v, rule)) return f;
  }
  if (auto f = read_component(t, component)) return f;
  const SourceSpan where = span(t.source());

  Lists top;
  if (auto f = read_lists(t, top)) return f;
  for (Category c : kCategories) out[c] = {};
  if (lists_out) *lists_out = top;
  if (inherit && !t.get("alternative")) {
    for (std::size_t i = 0; i < top.by.size(); ++i) {
      if (!top.by[i] && inherit->by[i] && !inherit->by[i]->empty()) top.by[i] = inherit->by[i];
    }
  }

  const toml::node* alts = t.get("alternative");
  if (!alts) {
    if (!top.any()) {
      return fail(t.source(), id + what +
                                  " gives no packages: set build, host or run "
                                  "(an empty list says the ecosystem has none)");
    }
    if (auto f = check_from(t, rule, top, id)) return f;
    const auto lists = with_fallback(top);
    for (std::size_t i = 0; i < kCategories.size(); ++i) {
      if (lists[i].empty()) continue;
      out[kCategories[i]].push_back(Alternative{lists[i], rule, component, "", where});
    }
    return std::nullopt;
  }

  if (top.any()) {
    return fail(t.source(), id + what +
                                " mixes build/host/run with [[id.alternative]]: "
                                "put every package list in an alternative");
  }
  const toml::array* arr = alts->as_array();
  if (!arr || !arr->is_array_of_tables()) {
    return fail(alts->source(), "'alternative' must be an array of tables ([[id.alternative]])");
  }
  if (arr->empty()) return fail(alts->source(), id + what + " has an empty 'alternative' list");
  const std::string in_alt = " in [[id.alternative]] of " + id + what;
  for (const toml::node& an : *arr) {
    const toml::table& at = *an.as_table();
    if (auto f = check_keys(at, {"build", "host", "run", "version", "component", "note"}, in_alt)) {
      return f;
    }
    VersionRule alt_rule = rule;
    if (const toml::node* v = at.get("version")) {
      if (auto f = read_rule(*v, alt_rule)) return f;
    }
    std::string alt_component = component;
    if (auto f = read_component(at, alt_component)) return f;
    std::string note;
    if (auto f = read_string(at, "note", note)) return f;
    Lists lists;
    if (auto f = read_lists(at, lists)) return f;
    if (!lists.any()) {
      return fail(at.source(), "an alternative of " + id + what + " lists no packages");
    }
    for (std::size_t i = 0; i < lists.by.size(); ++i) {
      if (lists.by[i] && lists.by[i]->empty()) {
        return fail(at.get(std::string(category_name(kCategories[i])))->source(),
                    "an alternative of " + id + what + " has an empty '" + std::string(category_name(kCategories[i])) +
                        "' list (say 'none' in the [[id]] itself, with a note)");
      }
    }
    if (auto f = check_from(at.get("version") ? at : t, alt_rule, lists, id)) return f;
    const auto resolved = with_fallback(lists);
    // An alternative that, after the fallback, names nothing for a category (one with `run`
    // alone: a program that meets a run need where the library is the first choice) is not an
    // alternative of that category.
    for (std::size_t i = 0; i < kCategories.size(); ++i) {
      if (resolved[i].empty()) continue;
      out[kCategories[i]].push_back(Alternative{resolved[i], alt_rule, alt_component, note, span(at.source())});
    }
  }
  return std::nullopt;
}

// [id.release.trixie], [id.release.noble], [id.release."24.04"]: what the entry is on another
// release than the table's own. Each takes the keys of an entry's body (build, host, run,
// alternative, version, component, note) and replaces the entry's packages there; version and
// component default to the entry's.
std::optional<Failure> Loader::read_releases(const toml::table& t, Entry& e, const VersionRule& rule,
                                             const std::string& component, const Lists& entry_lists) const {
  const toml::node* rn = t.get("release");
  if (!rn) return std::nullopt;
  const toml::table* releases = rn->as_table();
  if (!releases) {
    return fail(rn->source(), std::string("'release' must be a table of releases "
                                          "([id.release.trixie]), got ") +
                                  type_name(*rn));
  }
  static const std::regex kRelease(R"([a-z0-9][a-z0-9.+~-]*)");
  for (auto&& [key, node] : *releases) {
    const std::string name(key.str());
    if (!std::regex_match(name, kRelease)) {
      return fail(key.source(), "release '" + name + "' of " + e.id +
                                    " is not a release name (a codename such as trixie, or a "
                                    "version such as 24.04)");
    }
    if (!table_release_.empty() && name == table_release_) {
      return fail(key.source(),
                  "release '" + name + "' of " + e.id + " is the table's own release: write it in the entry itself");
    }
    const toml::table* rt = node.as_table();
    if (!rt) {
      return fail(node.source(), "[id.release." + name + "] of " + e.id + " must be a table, got " + type_name(node));
    }
    const std::string what = " (release " + name + ")";
    if (auto f = check_keys(*rt, {"build", "host", "run", "version", "component", "note", "alternative"},
                            " in [id.release." + name + "] of " + e.id)) {
      return f;
    }
    ReleaseOverride r;
    r.release = name;
    r.where = span(rt->source());
    if (auto f = read_string(*rt, "note", r.note)) return f;
    VersionRule release_rule = rule;
    std::string release_component = component;
    if (auto f = read_body(*rt, e.id, what.c_str(), release_rule, release_component, r.by_category, &entry_lists)) {
      return f;
    }
    // An empty list says the release has no package: the whole entry is none there.
    bool none = false;
    for (Category c : kCategories) {
      const auto* list = rt->get(std::string(category_name(c)));
      if (list && list->as_array() && list->as_array()->empty()) none = true;
    }
    if (none) {
      for (auto& [c, alts] : r.by_category) alts.clear();
      if (r.note.empty()) {
        return fail(rt->source(), e.id + what + " maps to no package: add a note saying why");
      }
    }
    e.releases.push_back(std::move(r));
  }
  // toml++ keeps a table's keys sorted; the file's order is the one people wrote.
  std::stable_sort(e.releases.begin(), e.releases.end(), [](const ReleaseOverride& a, const ReleaseOverride& b) {
    return std::tie(a.where.line, a.where.column) < std::tie(b.where.line, b.where.column);
  });
  return std::nullopt;
}

std::optional<Failure> Loader::run(const toml::table& root, Table& out) {
  if (auto f = check_keys(root, {"schema", "ecosystem", "manager", "description", "release", "version", "id"}, "")) {
    return f;
  }
  const toml::node* schema = root.get("schema");
  if (!schema) return Failure{path_ + ":1:1", "missing 'schema = 1'", {}};
  if (!schema->is_integer()) {
    return fail(schema->source(), std::string("'schema' must be an integer, got ") + type_name(*schema));
  }
  if (schema->as_integer()->get() != kSchema) {
    return fail(schema->source(),
                "unsupported schema " + std::to_string(schema->as_integer()->get()) + " (this extdeps reads schema 1)");
  }
  if (!root.get("ecosystem")) return Failure{path_ + ":1:1", "missing 'ecosystem'", {}};
  if (auto f = read_string(root, "ecosystem", out.ecosystem)) return f;
  static const std::regex kEcosystem(R"([a-z0-9\-_.]+(\+[a-z0-9\-_.]+)?)");
  if (!std::regex_match(out.ecosystem, kEcosystem)) {
    return fail(root.get("ecosystem")->source(),
                "ecosystem '" + out.ecosystem + "' must match [a-z0-9-_.]+(+[a-z0-9-_.]+)?");
  }
  if (auto f = read_string(root, "manager", out.manager)) return f;
  if (auto f = read_string(root, "description", out.description)) return f;
  if (auto f = read_string(root, "release", out.release)) return f;
  table_release_ = out.release;
  // A table that names no manager is a detector's (pkgconf's): its entries list `modules`, names
  // that prove a need present, for build and host alike.
  detector_ = out.manager.empty();
  const ProviderDescriptor* d = descriptor_for_manager(out.manager);
  if (d) components_ = d->components;
  foreign_ = !d && !out.manager.empty();
  manager_ = out.manager;
  if (const toml::node* v = root.get("version")) {
    if (detector_) return fail(v->source(), "a detector's table (one that names no manager) has no version rule");
    if (auto f = read_rule(*v, default_rule_)) return f;
    if (!default_rule_.from.empty()) {
      return fail(v->source(), "the table's default version rule cannot name a package in 'from'");
    }
  }

  const toml::node* ids = root.get("id");
  if (!ids) return std::nullopt;
  const toml::array* arr = ids->as_array();
  if (!arr || !arr->is_array_of_tables()) {
    return fail(ids->source(), "'id' must be an array of tables ([[id]])");
  }
  // Every id and alias seen so far: where, and which entry owns it as an alias.
  struct Seen {
    toml::source_position at;
    std::string alias_of;  // empty for an id
  };
  std::unordered_map<std::string, Seen> seen;
  for (const toml::node& n : *arr) {
    Entry e;
    if (auto f = read_entry(*n.as_table(), e)) return f;
    const toml::table& t = *n.as_table();
    const toml::node* idn = t.get("id");
    if (auto it = seen.find(e.id); it != seen.end()) {
      const std::string first = std::to_string(it->second.at.line);
      return fail(idn->source(),
                  it->second.alias_of.empty()
                      ? "duplicate id '" + e.id + "' (first at line " + first + ")"
                      : "id '" + e.id + "' is already an alias of " + it->second.alias_of + " (line " + first + ")");
    }
    seen[e.id] = Seen{idn->source().begin, ""};
    const toml::array* aliases = t.get("aliases") ? t.get("aliases")->as_array() : nullptr;
    for (std::size_t i = 0; i < e.aliases.size(); ++i) {
      const std::string& a = e.aliases[i];
      const auto& where = (*aliases)[i].source();
      if (a.rfind("dep:", 0) != 0 || a.find('/') == std::string::npos) {
        return fail(where, "alias '" + a + "' is not a DepURL", "dep:TYPE/NAME");
      }
      if (auto it = seen.find(a); it != seen.end()) {
        const std::string first = std::to_string(it->second.at.line);
        return fail(where, "alias '" + a + "' of " + e.id + " is already " +
                               (it->second.alias_of.empty() ? "an id" : "an alias of " + it->second.alias_of) +
                               " (line " + first + ")");
      }
      seen[a] = Seen{where.begin, e.id};
    }
    out.entries.push_back(std::move(e));
  }
  std::stable_sort(out.entries.begin(), out.entries.end(), [](const Entry& a, const Entry& b) { return a.id < b.id; });
  return std::nullopt;
}

}  // namespace

Result<Table> load_table(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error_at(ExitCode::bad_input, path, "cannot read the mapping table");
  std::stringstream ss;
  ss << in.rdbuf();
  return load_table_text(ss.str(), path);
}

Result<Table> load_table_text(const std::string& text, const std::string& path) {
  if (auto deep = toml_too_deep(text, path)) return *deep;
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    std::string what(e.description());  // "Error while parsing ...": our messages start lower-case
    if (!what.empty()) what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
    return error_at(ExitCode::bad_input, path + ":" + std::to_string(b.line) + ":" + std::to_string(b.column),
                    "invalid TOML: " + what);
  }
  Table table;
  table.path = path;
  Loader loader(path);
  if (auto f = loader.run(root, table)) return error_at(ExitCode::bad_input, f->place, f->what, f->expected);
  return table;
}

}  // namespace extdeps::mapping
