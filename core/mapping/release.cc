// Adapting loaded tables to the machine: a release's own table over its ecosystem's (PEP 804's
// debian+13 over debian), a derivative's own table over its parent's (ubuntu.toml over
// debian.toml), then each entry's [id.release.X] for the release the machine runs.
#include <algorithm>

#include "core/detect/os_release.h"
#include "core/mapping/mapping.h"
#include "core/provider/descriptor.h"

namespace extdeps::mapping {

namespace {

void apply_release(Table& t, const std::vector<std::string>& names) {
  for (auto& e : t.entries) {
    for (const auto& name : names) {
      auto it = std::find_if(e.releases.begin(), e.releases.end(),
                             [&](const ReleaseOverride& r) { return r.release == name; });
      if (it == e.releases.end()) continue;
      e.by_category = it->by_category;
      if (!it->note.empty()) e.note = it->note;
      t.selected_release = name;
      break;
    }
  }
}

// PEP 804's versioned ecosystem ids: a table whose ecosystem is "debian+13" is for that release
// of the ecosystem. On that release it lays its entries over the plain table ("debian"), or
// becomes it where there is none, so that the versioned id is tried first and the plain one is
// the fallback. `names`: the machine's release names, most specific first; a less specific
// match goes first, so that the more specific overlays it. Applied tables leave the set (their
// entries live on in the plain table); those of other releases stay, unused by any provider.
void apply_versioned(Tables& tables, const std::string& id, const std::vector<std::string>& names) {
  for (auto name = names.rbegin(); name != names.rend(); ++name) {
    const std::string ecosystem = id + "+" + *name;
    auto versioned = std::find_if(tables.tables.begin(), tables.tables.end(),
                                  [&](const Table& t) { return t.ecosystem == ecosystem; });
    if (versioned == tables.tables.end()) continue;
    Table own = std::move(*versioned);
    tables.tables.erase(versioned);
    auto plain =
        std::find_if(tables.tables.begin(), tables.tables.end(), [&](const Table& t) { return t.ecosystem == id; });
    if (plain != tables.tables.end()) {
      merge_table(*plain, std::move(own));
    } else {
      own.ecosystem = id;
      tables.tables.push_back(std::move(own));
    }
  }
}

}  // namespace

std::vector<std::string> HostRelease::release_names() const {
  std::vector<std::string> out;
  auto add = [&out](std::string_view v) {
    if (!v.empty() && std::find(out.begin(), out.end(), v) == out.end()) out.emplace_back(v);
  };
  add(codename);
  add(version_id);
  std::vector<std::string> known;
  for (const ProviderDescriptor* d : provider_descriptors())
    if (d->release_names) d->release_names(*this, known);
  for (const auto& name : known) add(name);
  return out;
}

HostRelease host_release(const Context& ctx) {
  auto os = detect::read_os_release(ctx);
  return HostRelease{os.id, os.id_like, os.version_codename, os.version_id};
}

void select_for_host(Tables& tables, const HostRelease& host) {
  const auto names = host.release_names();
  if (!host.id.empty()) apply_versioned(tables, host.id, names);
  if (!host.id.empty()) {
    auto own = std::find_if(tables.tables.begin(), tables.tables.end(),
                            [&](const Table& t) { return t.ecosystem == host.id; });
    if (own != tables.tables.end()) {
      for (const auto& like : host.id_like) {
        if (like == host.id) continue;
        for (auto& t : tables.tables) {
          // merge_table consumes its overlay: a copy, made only where there is a table to
          // overlay (on Debian itself, whose os-release has no ID_LIKE, none is).
          if (t.ecosystem == like) merge_table(t, Table(*own));
        }
      }
    }
  }
  if (names.empty()) return;
  for (auto& t : tables.tables) apply_release(t, names);
}

}  // namespace extdeps::mapping
