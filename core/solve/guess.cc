#include "core/solve/guess.h"

#include <algorithm>
#include <set>

#include "core/mapping/guess.h"
#include "core/provider/descriptor.h"

namespace extdeps::solve {

namespace {

using Kind = mapping::GuessCandidate::Kind;

// The name a candidate is found under in the pool: source packages as their "src:" provide
// (providers/apt/stanza.cc).
std::string lookup_name(const mapping::GuessCandidate& c) { return c.kind == Kind::source ? "src:" + c.name : c.name; }

bool is_dev(std::string_view name) { return name.size() > 4 && name.substr(name.size() - 4) == "-dev"; }

// Names of the provider's solvables (available or installed) that provide `wanted` without
// being named so, sorted, each once.
std::vector<std::string> providers_of(Id wanted, const LoadedProvider& lp, PoolBuilder& b) {
  Pool* pool = b.pool();
  std::set<std::string> out;
  auto scan = [&](Repo* repo, Id from, Id to) {
    for (Id p = from; p < to; ++p) {
      Solvable* s = pool_id2solvable(pool, p);
      if (s->repo != repo || !s->provides || s->name == wanted) continue;
      for (Id* d = repo->idarraydata + s->provides; *d; ++d) {
        Id n = *d;
        while (ISRELDEP(n)) n = GETRELDEP(pool, n)->name;
        if (n != wanted) continue;
        out.insert(std::string(PoolBuilder::native_name(pool_id2str(pool, s->name))));
        break;
      }
    }
  };
  scan(lp.available, lp.available->start, lp.available->end);
  scan(b.installed(), lp.installed_start, lp.installed_end);
  return {out.begin(), out.end()};
}

}  // namespace

std::vector<std::string> guess_names(const Requirement& requirement, const Provider& provider) {
  std::vector<std::string> out;
  for (const auto& c :
       mapping::guess_candidates(requirement.url.id(), provider.ecosystem(), provider.manager(), requirement.category))
    out.push_back(lookup_name(c));
  return out;
}

std::vector<std::string> guess_packages(const Requirement& requirement, const LoadedProvider& lp, PoolBuilder& b) {
  std::vector<std::string> out;
  const std::string eco(lp.provider->ecosystem());
  for (const auto& c :
       mapping::guess_candidates(requirement.url.id(), eco, lp.provider->manager(), requirement.category)) {
    if (c.kind == Kind::package) {
      out.push_back(c.name);
      continue;
    }
    if (Id name = b.name_id(eco, lookup_name(c), false))
      for (auto& pkg : providers_of(name, lp, b)) out.push_back(std::move(pkg));
  }
  return out;
}

std::optional<GuessedEntry> guess_entry(const Requirement& requirement, const LoadedProvider& lp, PoolBuilder& b,
                                        const BundleSet& bundles) {
  const std::string id = requirement.url.id();
  const std::string eco(lp.provider->ecosystem());
  const bool module = lp.provider->manager().empty();
  const std::string version_rule = version_rule_of(lp.provider->manager());
  GuessedEntry g;
  g.entry.id = id;
  g.entry.note = "a guess: no mapping table knows " + id;
  for (Category c : {Category::build, Category::host, Category::run}) g.entry.by_category[c] = {};
  auto& alternatives = g.entry.by_category[requirement.category];
  std::set<std::string> taken;
  auto add = [&](const std::string& package, const std::string& why, const std::string& how) {
    if (!taken.insert(package).second) return;
    Id name = b.name_id(eco, package, false);
    std::string where;
    bool installed = false;
    if (name)
      for (Id p : bundles.solvables_named(name)) {
        if (pool_id2solvable(b.pool(), p)->repo != b.installed()) continue;
        installed = true;
        where = b.origin(p);
      }
    mapping::Alternative a;
    a.packages = {package};
    a.version.kind = version_rule;
    a.note = why;
    alternatives.push_back(std::move(a));
    g.evidence.push_back(eco + (module ? " module " : " package ") + package + " " +
                         (installed ? "is installed" + (where.empty() ? "" : " (" + where + ")") : "is in the index") +
                         how + ", " + why);
  };
  for (const auto& c : mapping::guess_candidates(id, eco, lp.provider->manager(), requirement.category)) {
    Id name = b.name_id(eco, lookup_name(c), false);
    if (!name) continue;
    if (c.kind == Kind::package) {
      if (bundles.solvables_named(name).empty()) continue;
      add(c.name, c.why, "");
      continue;
    }
    // Several packages may come from one source or provide one name: each is an alternative,
    // in name order (the index has no better one); at most a few, the rest is noise.
    int n = 0;
    auto found = providers_of(name, lp, b);
    // For a run need, a runtime library (lib*) before a program of the same source.
    if (requirement.category == Category::run)
      std::stable_partition(found.begin(), found.end(), [](const std::string& p) { return p.rfind("lib", 0) == 0; });
    for (const auto& pkg : found) {
      if (c.kind == Kind::source && is_dev(pkg) != c.dev_packages) continue;
      Id own = b.name_id(eco, pkg, false);
      if (!own || bundles.solvables_named(own).empty()) continue;
      if (n++ == 3) break;
      add(pkg, c.why, c.kind == Kind::source ? " (built from " + c.name + ")" : " (provides " + c.name + ")");
    }
  }
  if (alternatives.empty()) return std::nullopt;
  return g;
}

}  // namespace extdeps::solve
