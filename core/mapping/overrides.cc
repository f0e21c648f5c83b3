#include "core/mapping/overrides.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/fetch/url.h"
#include "core/mapping/pep804.h"
#include "core/mapping/write_table.h"
#include "core/provider/descriptor.h"

namespace extdeps::mapping {

namespace {

// "FROM: MESSAGE" as bad input, the setting that named the file leading.
Error bad_override(const MappingOverride& o, const std::string& what) {
  Error e = bad_input(o.from + ": " + what);
  e.from = o.from;
  e.what = what;
  return e;
}

Table* table_named(Tables& tables, std::string_view ecosystem) {
  auto it = std::find_if(tables.tables.begin(), tables.tables.end(),
                         [&](const Table& t) { return t.ecosystem == ecosystem; });
  return it == tables.tables.end() ? nullptr : &*it;
}

std::string known_ecosystems(const Tables& tables) {
  std::string out;
  for (const auto& t : tables.tables) out += (out.empty() ? "" : ", ") + t.ecosystem;
  return out;
}

// The override's table, for its ecosystem. `path` is the spec's file or URL (which names it in
// messages and says its kind by its ending); `local`, the file read (a URL's cached body).
Result<Table> read_override(const Context& ctx, const Tables& tables, const MappingOverride& o,
                            const Download& download) {
  std::string ecosystem, path = o.spec;
  if (const auto eq = o.spec.find('='); eq != std::string::npos && !fetch::is_url(o.spec)) {
    ecosystem = o.spec.substr(0, eq);
    path = o.spec.substr(eq + 1);
  }
  std::string local = path;
  if (fetch::is_url(path)) {
    if (!download) return bad_override(o, path + ": a mapping by URL is read by the planning commands only");
    auto got = download(path);
    if (!got) return got.error();
    local = *got;
  }
  // What the URL's path ends with, its query and fragment aside.
  const std::string name = path.substr(0, path.find_first_of(fetch::is_url(path) ? "?#" : ""));
  std::error_code ec;
  if (path.empty() || !std::filesystem::is_regular_file(local, ec))
    return bad_override(o, "no mapping file " + (path.empty() ? std::string("named") : path));
  if (name.ends_with(".toml")) {
    std::ifstream in(local, std::ios::binary);
    std::stringstream text;
    if (!in || !(text << in.rdbuf())) return bad_override(o, "cannot read " + path);
    auto t = load_table_text(text.str(), path);
    if (!t) return t.error();
    if (!ecosystem.empty()) t->ecosystem = ecosystem;
    return t;
  }
  if (!name.ends_with(".json"))
    return bad_override(o, path + ": expected a mapping table (.toml) or a PEP 804 mapping file (.json)");
  if (ecosystem.empty()) {
    std::string file = std::filesystem::path(name).filename().string();
    for (std::string_view tail : {".mapping.json", ".json"})
      if (file.ends_with(tail)) {
        file.resize(file.size() - tail.size());
        break;
      }
    if (!tables.find_ecosystem(file))
      return bad_override(o, "which ecosystem's table does " + path + " override? Write ECOSYSTEM=" + path +
                                 " (the tables here: " + known_ecosystems(tables) + ")");
    ecosystem = file;
  }
  const Table* overridden = tables.find_ecosystem(ecosystem);
  auto imported = import_pep804(local, ecosystem, path, overridden ? overridden->manager : std::string());
  if (!imported) return imported.error();
  for (const auto& w : imported->warnings) ctx.warn(path + ": " + w);
  // The manager and version rule of the table it overrides: PEP 804 names the manager's command
  // ("apt-get"), not the provider's manager.
  DraftTable& draft = imported->table;
  if (const Table* target = tables.find_ecosystem(ecosystem); target && !target->manager.empty()) {
    draft.manager = target->manager;
    const ProviderDescriptor* d = descriptor_for_manager(target->manager);
    draft.version = d && !d->imported_version_rule.empty() ? std::string(d->imported_version_rule) : "native";
  }
  // Through the table loader as text: the one place every entry of a table is checked (names,
  // categories, version rules), for an imported file as for a written one.
  auto t = load_table_text(write_table(draft), path);
  if (!t) return t.error();
  return t;
}

// Each alternative of `more` that `e` does not already list, after `e`'s own; its aliases too.
void extend_entry(Entry& e, const Entry& more) {
  for (const auto& [category, alternatives] : more.by_category) {
    auto& own = e.by_category[category];
    for (const auto& a : alternatives)
      if (std::none_of(own.begin(), own.end(), [&](const Alternative& x) { return x.packages == a.packages; }))
        own.push_back(a);
  }
  for (const auto& m : more.modules)
    if (std::find(e.modules.begin(), e.modules.end(), m) == e.modules.end()) e.modules.push_back(m);
  for (const auto& a : more.aliases)
    if (a != e.id && std::find(e.aliases.begin(), e.aliases.end(), a) == e.aliases.end()) e.aliases.push_back(a);
  if (e.note.empty()) e.note = more.note;
}

void apply_one(Tables& tables, Table t, OverrideMode mode) {
  Table* target = table_named(tables, t.ecosystem);
  if (!target) {
    tables.tables.push_back(std::move(t));
    return;
  }
  switch (mode) {
    case OverrideMode::use: {
      if (t.manager.empty()) t.manager = target->manager;
      if (t.release.empty()) t.release = target->release;
      *target = std::move(t);
      target->invalidate_index();
      return;
    }
    case OverrideMode::patch: merge_table(*target, std::move(t)); return;
    case OverrideMode::extend: {
      Table added;
      added.ecosystem = t.ecosystem;
      added.path = t.path;
      for (auto& e : t.entries) {
        auto it = std::lower_bound(target->entries.begin(), target->entries.end(), e.id,
                                   [](const Entry& x, const std::string& v) { return x.id < v; });
        if (it != target->entries.end() && it->id == e.id) {
          extend_entry(*it, e);
        } else {
          added.entries.push_back(std::move(e));
        }
      }
      merge_table(*target, std::move(added));  // the new ids, and the file named among the overlays
      return;
    }
  }
}

}  // namespace

Result<void> apply_overrides(const Context& ctx, Tables& tables, const std::vector<MappingOverride>& overrides,
                             const Download& download) {
  for (OverrideMode mode : {OverrideMode::use, OverrideMode::patch, OverrideMode::extend}) {
    for (const auto& o : overrides) {
      if (o.mode != mode) continue;
      auto t = read_override(ctx, tables, o, download);
      if (!t) return t.error();
      apply_one(tables, std::move(*t), mode);
    }
  }
  return {};
}

}  // namespace extdeps::mapping
