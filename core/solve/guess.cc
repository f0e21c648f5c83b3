#include "core/solve/guess.h"

#include "core/mapping/guess.h"

namespace extdeps::solve {

std::vector<std::string> guess_names(const Requirement& requirement, const Provider& provider) {
  std::vector<std::string> out;
  for (const auto& c : mapping::guess_candidates(requirement.url.id(), provider.ecosystem(),
                                                 provider.manager(), requirement.category))
    out.push_back(c.name);
  return out;
}

std::optional<GuessedEntry> guess_entry(const Requirement& requirement, const LoadedProvider& lp,
                                        PoolBuilder& b, const BundleSet& bundles) {
  const std::string id = requirement.url.id();
  const std::string eco(lp.provider->ecosystem());
  const bool module = lp.provider->manager().empty();
  GuessedEntry g;
  g.entry.id = id;
  g.entry.note = "a guess: no mapping table knows " + id;
  for (Category c : {Category::build, Category::host, Category::run}) g.entry.by_category[c] = {};
  auto& alternatives = g.entry.by_category[requirement.category];
  for (const auto& c : mapping::guess_candidates(id, eco, lp.provider->manager(), requirement.category)) {
    Id name = b.name_id(eco, c.name, false);
    if (!name || bundles.solvables_named(name).empty()) continue;
    std::string where;
    bool installed = false;
    for (Id p : bundles.solvables_named(name)) {
      if (pool_id2solvable(b.pool(), p)->repo != b.installed()) continue;
      installed = true;
      where = b.origin(p);
    }
    mapping::Alternative a;
    a.packages = {c.name};
    a.version.kind = lp.provider->scheme() == VersionScheme::deb ? "deb-upstream" : "native";
    a.note = c.why;
    alternatives.push_back(std::move(a));
    g.evidence.push_back(eco + (module ? " module " : " package ") + c.name + " " +
                         (installed ? "is installed" + (where.empty() ? "" : " (" + where + ")") : "is in the index") +
                         ", " + c.why);
  }
  if (alternatives.empty()) return std::nullopt;
  return g;
}

}  // namespace extdeps::solve
