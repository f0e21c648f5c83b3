#include "core/solve/guess.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include "core/mapping/guess.h"
#include "core/provider/descriptor.h"

namespace extdeps::solve {

namespace {

using Kind = mapping::GuessCandidate::Kind;

// The name a candidate is found under in the pool: source packages as their "src:" provide
// (providers/apt/stanza.cc).
std::string lookup_name(const mapping::GuessCandidate& c) { return c.kind == Kind::source ? "src:" + c.name : c.name; }

using Role = mapping::PackageRole;

Role role_of(const Provider& provider, std::string_view package) {
  const ProviderDescriptor* d = descriptor_for_manager(provider.manager());
  return d && d->package_role ? d->package_role(package) : Role::runtime;
}

// Whether a package of this role may meet a need of this category when it is guessed from its
// source: headers for a host need; for a build need what is not a plugin or a support package;
// for a run need only a runtime package.
bool role_meets(Role role, Category category) {
  switch (category) {
    case Category::host: return role == Role::dev;
    case Category::build: return role == Role::runtime || role == Role::tool;
    case Category::run: return role == Role::runtime;
  }
  return false;
}

// The letters of `name` past what it shares with `dev` from the start: of the libraries one
// development package requires, its own has the fewest ("libcogl-dev" requires "libcogl20", 0,
// and "libcogl-path20", 4).
std::size_t letters_past_common_prefix(std::string_view name, std::string_view dev) {
  std::size_t i = 0;
  while (i < name.size() && i < dev.size() && name[i] == dev[i]) ++i;
  return static_cast<std::size_t>(std::count_if(name.begin() + static_cast<std::ptrdiff_t>(i), name.end(),
                                                [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)); }));
}

// The name ids that a package named `name` of the provider requires, alternatives included (an
// index may hold several versions of it: each one's).
std::set<Id> requires_of(Id name, const LoadedProvider& lp, PoolBuilder& b, const BundleSet& bundles) {
  Pool* pool = b.pool();
  std::set<Id> out;
  std::vector<Id> todo;
  for (Id p : bundles.solvables_named(name)) {
    Solvable* s = pool_id2solvable(pool, p);
    if (s->repo != lp.available && s->repo != b.installed()) continue;
    if (!s->requires_) continue;
    for (Id* d = s->repo->idarraydata + s->requires_; *d; ++d) todo.push_back(*d);
  }
  while (!todo.empty()) {
    Id dep = todo.back();
    todo.pop_back();
    if (!ISRELDEP(dep)) {
      out.insert(b.unversioned(dep));  // a versioned relation names "debian:libfoo1#v"
      continue;
    }
    const Reldep* r = GETRELDEP(pool, dep);
    if (r->flags == REL_OR || r->flags == REL_AND || r->flags == REL_WITH) {
      todo.push_back(r->name);
      todo.push_back(r->evr);
    } else {
      todo.push_back(r->name);
    }
  }
  return out;
}

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

struct Found {
  std::string package, how;  // how: " (built from cglm; libcglm-dev depends on it)"
  std::size_t rank = 0;      // what a dev package requires, in the devs' order; then lib*; then the rest
  std::size_t off = 0;       // for what a dev package requires: how far its name strays from the dev's
};

// The development packages among `found` (one source's packages) in the order a host need would
// guess them (the forms named after the id, lib<name>-dev, first), then the others, the closest
// to the first form's name first ("liballegro4-dev" before "liballeggl4-dev" for allegro4.4,
// whose liballegro4.4-dev does not exist).
std::vector<std::string> dev_packages(const std::vector<std::string>& found, std::string_view id,
                                      const LoadedProvider& lp) {
  std::vector<std::string> devs;
  std::string first_form;
  for (const auto& h :
       mapping::guess_candidates(id, lp.provider->ecosystem(), lp.provider->manager(), Category::host)) {
    if (h.kind != Kind::package || role_of(*lp.provider, h.name) != Role::dev) continue;
    if (first_form.empty()) first_form = h.name;
    if (std::find(found.begin(), found.end(), h.name) != found.end()) devs.push_back(h.name);
  }
  const std::size_t named = devs.size();
  for (const auto& pkg : found)
    if (role_of(*lp.provider, pkg) == Role::dev && std::find(devs.begin(), devs.end(), pkg) == devs.end())
      devs.push_back(pkg);
  std::stable_sort(devs.begin() + static_cast<std::ptrdiff_t>(named), devs.end(),
                   [&](const std::string& a, const std::string& b) {
                     return letters_past_common_prefix(a, first_form) < letters_past_common_prefix(b, first_form);
                   });
  return devs;
}

// What candidate `c` (a source or a provided name, `name` in the pool) finds that may meet a need
// of `category`, best first. Of a source, the packages whose role meets the need (a host need
// its headers; never its documentation). For a run need, first what the source's own
// development packages require (Debian policy 8.4: the -dev package of a library depends on the
// shared library of the same source, so that is the library a program built against the headers
// runs with), then its other runtime packages, lib* first.
std::vector<Found> found_packages(const mapping::GuessCandidate& c, Id name, Category category, std::string_view id,
                                  const LoadedProvider& lp, PoolBuilder& b, const BundleSet& bundles) {
  const std::string eco(lp.provider->ecosystem());
  std::vector<Found> out;
  auto found = providers_of(name, lp, b);
  if (c.kind == Kind::provides) {
    for (const auto& pkg : found) {
      Id own = b.name_id(eco, pkg, false);
      if (own && !bundles.solvables_named(own).empty()) out.push_back({pkg, " (provides " + c.name + ")"});
    }
    return out;
  }
  std::vector<std::string> devs;
  if (category == Category::run) devs = dev_packages(found, id, lp);
  std::map<Id, std::size_t> dev_rank;  // a package a dev package requires: that dev's place
  for (std::size_t i = 0; i < devs.size(); ++i)
    if (Id dev = b.name_id(eco, devs[i], false))
      for (Id r : requires_of(dev, lp, b, bundles)) dev_rank.emplace(r, i);
  for (const auto& pkg : found) {
    if (!role_meets(role_of(*lp.provider, pkg), category)) continue;
    Id own = b.name_id(eco, pkg, false);
    if (!own || bundles.solvables_named(own).empty()) continue;
    const std::size_t lib = category == Category::run && pkg.rfind("lib", 0) == 0 ? 0 : 1;
    auto d = dev_rank.find(own);
    if (d != dev_rank.end())
      out.push_back({pkg, " (built from " + c.name + "; " + devs[d->second] + " depends on it)", 2 * d->second + lib,
                     letters_past_common_prefix(pkg, devs[d->second])});
    else out.push_back({pkg, " (built from " + c.name + ")", 2 * devs.size() + lib});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Found& x, const Found& y) { return std::tie(x.rank, x.off) < std::tie(y.rank, y.off); });
  return out;
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
    // best first; at most a few, the rest is noise.
    int n = 0;
    for (const Found& f : found_packages(c, name, requirement.category, id, lp, b, bundles)) {
      if (n++ == 3) break;
      add(f.package, c.why, f.how);
    }
  }
  if (alternatives.empty()) return std::nullopt;
  return g;
}

}  // namespace extdeps::solve
