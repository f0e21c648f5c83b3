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
#include "core/mapping/table_loader.h"
#include "core/provider/descriptor.h"
#include "core/util/limits.h"
#include "core/util/text.h"
#include "core/util/toml_depth.h"

namespace extdeps::mapping {

bool is_table_id(std::string_view id) {
  return id.starts_with("dep:") && id.find('/') != std::string_view::npos && id.back() != '/';
}

namespace load_detail {

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
  if (!is_table_id(e.id)) {
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
      if (!is_table_id(a)) {
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

}  // namespace load_detail

using load_detail::Loader;

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
