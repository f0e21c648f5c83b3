#include "core/mapping/diff.h"

#include <algorithm>
#include <ostream>

namespace extdeps::mapping {

namespace {

std::string join(const std::vector<std::string>& xs, std::string_view sep) {
  std::string s;
  for (std::size_t i = 0; i < xs.size(); ++i) s += (i == 0 ? "" : std::string(sep)) + xs[i];
  return s;
}

std::string describe_rule(const VersionRule& r) {
  std::string s = r.kind;
  if (r.kind == "regex") s += " " + r.pattern;
  if (r.kind == "map") {
    std::vector<std::string> pairs;
    for (const auto& [native, upstream] : r.map) pairs.push_back(native + "=" + upstream);
    s += " {" + join(pairs, ", ") + "}";
  }
  if (!r.from.empty()) s += " from " + r.from;
  return s;
}

// The version rules of one category's alternatives, in order, or the one rule they share ("" when
// there is no alternative).
std::string describe_rules(const std::vector<Alternative>& alternatives) {
  std::vector<std::string> rules;
  for (const auto& a : alternatives) rules.push_back(describe_rule(a.version));
  if (std::all_of(rules.begin(), rules.end(), [&](const std::string& r) { return r == rules.front(); }))
    rules.resize(std::min<std::size_t>(rules.size(), 1));
  return join(rules, " | ");
}

std::string describe_components(const std::vector<Alternative>& alternatives) {
  std::vector<std::string> c;
  bool all_main = true;
  for (const auto& a : alternatives) {
    c.push_back(a.component);
    all_main = all_main && a.component == "main";
  }
  return all_main ? std::string() : join(c, " | ");
}

void compare(std::vector<FieldChange>& out, std::string field, std::string before, std::string after) {
  if (before != after) out.push_back({std::move(field), std::move(before), std::move(after)});
}

// One field of every category: a single line named `field` when the three change alike (a table's
// default version rule, written once), else one line per category.
void compare_per_category(std::vector<FieldChange>& out, const std::string& prefix, const std::string& field,
                          const std::vector<std::string>& before, const std::vector<std::string>& after) {
  const bool alike = before[0] == before[1] && before[1] == before[2] && after[0] == after[1] && after[1] == after[2];
  if (alike && before[0] != after[0]) {
    out.push_back({prefix + field, before[0], after[0]});
    return;
  }
  if (alike) return;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string category(category_name(static_cast<Category>(i)));
    compare(out, prefix + category + " " + field, before[i], after[i]);
  }
}

// The fields of one set of packages per category, named with `prefix` ("" or "release trixie ").
void compare_categories(std::vector<FieldChange>& out, const std::string& prefix,
                        const std::map<Category, std::vector<Alternative>>& a,
                        const std::map<Category, std::vector<Alternative>>& b) {
  static const std::vector<Alternative> none;
  auto of = [](const auto& m, Category c) -> const std::vector<Alternative>& {
    auto i = m.find(c);
    return i == m.end() ? none : i->second;
  };
  std::vector<std::string> rules_a, rules_b, components_a, components_b;
  for (Category c : {Category::build, Category::host, Category::run}) {
    compare(out, prefix + std::string(category_name(c)), describe_alternatives(of(a, c)),
            describe_alternatives(of(b, c)));
    // A rule matters where both sides have packages: the packages' line says the rest.
    const bool both = !of(a, c).empty() && !of(b, c).empty();
    rules_a.push_back(both ? describe_rules(of(a, c)) : "");
    rules_b.push_back(both ? describe_rules(of(b, c)) : "");
    components_a.push_back(describe_components(of(a, c)));
    components_b.push_back(describe_components(of(b, c)));
  }
  compare_per_category(out, prefix, "version", rules_a, rules_b);
  compare_per_category(out, prefix, "component", components_a, components_b);
}

const ReleaseOverride* release_named(const Entry& e, const std::string& release) {
  for (const auto& r : e.releases)
    if (r.release == release) return &r;
  return nullptr;
}

// A release one side has and the other lacks, on one line: "host: a; run: b" or its note.
std::string describe_release(const ReleaseOverride& r) {
  std::vector<std::string> parts;
  for (const auto& [c, alternatives] : r.by_category) {
    const std::string packages = describe_alternatives(alternatives);
    if (!packages.empty()) parts.push_back(std::string(category_name(c)) + ": " + packages);
  }
  if (parts.empty()) parts.push_back("nothing (" + r.note + ")");
  return join(parts, "; ");
}

void compare_releases(std::vector<FieldChange>& out, const Entry& a, const Entry& b) {
  std::vector<std::string> names;
  for (const auto* e : {&a, &b})
    for (const auto& r : e->releases)
      if (std::find(names.begin(), names.end(), r.release) == names.end()) names.push_back(r.release);
  static const std::map<Category, std::vector<Alternative>> nothing;
  for (const auto& name : names) {
    const ReleaseOverride* ra = release_named(a, name);
    const ReleaseOverride* rb = release_named(b, name);
    const std::string prefix = "release " + name + " ";
    if (!ra || !rb) {
      compare(out, "release " + name, ra ? describe_release(*ra) : "", rb ? describe_release(*rb) : "");
      continue;
    }
    compare_categories(out, prefix, ra->by_category, rb->by_category);
    compare(out, prefix + "note", ra->note, rb->note);
  }
}

void compare_modules(std::vector<FieldChange>& out, const Entry& a, const Entry& b) {
  compare(out, "modules", join(a.modules, ", "), join(b.modules, ", "));
  std::vector<std::string> names;
  for (const auto* e : {&a, &b})
    for (const auto& [m, rule] : e->module_versions)
      if (std::find(names.begin(), names.end(), m) == names.end()) names.push_back(m);
  std::sort(names.begin(), names.end());
  for (const auto& m : names)
    compare(out, "module " + m + " version", describe_rule(a.module_version(m)), describe_rule(b.module_version(m)));
}

std::vector<FieldChange> compare_entries(const Entry& a, const Entry& b) {
  std::vector<FieldChange> out;
  compare(out, "aliases", join(a.aliases, ", "), join(b.aliases, ", "));
  compare(out, "description", a.description, b.description);
  compare_categories(out, "", a.by_category, b.by_category);
  compare_modules(out, a, b);
  compare(out, "note", a.note, b.note);
  compare(out, "unverified", a.unverified ? "true" : "", b.unverified ? "true" : "");
  compare_releases(out, a, b);
  return out;
}

}  // namespace

std::string describe_alternatives(const std::vector<Alternative>& alternatives) {
  std::vector<std::string> each;
  for (const auto& a : alternatives) each.push_back(join(a.packages, " + "));
  return join(each, " | ");
}

TableDiff diff(const Table& a, const Table& b) {
  TableDiff d;
  d.path_a = a.path;
  d.path_b = b.path;
  d.ecosystem_a = a.ecosystem;
  d.ecosystem_b = b.ecosystem;
  // Both lists are sorted by id (load_table): one walk, as a merge.
  auto ia = a.entries.begin();
  auto ib = b.entries.begin();
  while (ia != a.entries.end() || ib != b.entries.end()) {
    if (ib == b.entries.end() || (ia != a.entries.end() && ia->id < ib->id)) {
      d.removed.push_back((ia++)->id);
    } else if (ia == a.entries.end() || ib->id < ia->id) {
      d.added.push_back((ib++)->id);
    } else {
      auto changes = compare_entries(*ia, *ib);
      if (changes.empty()) ++d.same;
      else d.changed.push_back({ia->id, std::move(changes)});
      ++ia;
      ++ib;
    }
  }
  return d;
}

void print_diff(const TableDiff& d, std::ostream& out) {
  out << "--- " << d.path_a << " (" << d.ecosystem_a << ")\n";
  out << "+++ " << d.path_b << " (" << d.ecosystem_b << ")\n";
  // One list in id order, as a reader scans a table.
  struct Line {
    const std::string* id;
    char mark;
    const EntryDiff* entry;
  };
  std::vector<Line> lines;
  for (const auto& id : d.removed) lines.push_back({&id, '-', nullptr});
  for (const auto& id : d.added) lines.push_back({&id, '+', nullptr});
  for (const auto& e : d.changed) lines.push_back({&e.id, '~', &e});
  std::stable_sort(lines.begin(), lines.end(), [](const Line& x, const Line& y) { return *x.id < *y.id; });
  for (const Line& l : lines) {
    out << l.mark << ' ' << *l.id << '\n';
    if (!l.entry) continue;
    for (const auto& c : l.entry->changes) {
      out << "    " << c.field << ": " << (c.before.empty() ? "(none)" : c.before) << " -> "
          << (c.after.empty() ? "(none)" : c.after) << '\n';
    }
  }
  out << d.added.size() << " added, " << d.removed.size() << " removed, " << d.changed.size() << " changed, " << d.same
      << " the same\n";
}

nlohmann::json diff_json(const TableDiff& d) {
  nlohmann::json changed = nlohmann::json::array();
  for (const auto& e : d.changed) {
    nlohmann::json fields = nlohmann::json::array();
    for (const auto& c : e.changes) fields.push_back({{"field", c.field}, {"before", c.before}, {"after", c.after}});
    changed.push_back({{"id", e.id}, {"changes", fields}});
  }
  return {{"a", {{"path", d.path_a}, {"ecosystem", d.ecosystem_a}}},
          {"b", {{"path", d.path_b}, {"ecosystem", d.ecosystem_b}}},
          {"added", d.added},
          {"removed", d.removed},
          {"changed", changed},
          {"same", d.same}};
}

}  // namespace extdeps::mapping
