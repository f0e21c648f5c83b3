#include "core/solve/bundles.h"

#include <algorithm>
#include <optional>
#include <unordered_set>

#include "core/detect/cuda_table.h"
#include "core/version/version.h"

namespace extdeps::solve {

std::vector<mapping::Alternative> alternatives_for(const mapping::Entry& entry, Category category,
                                                   bool* explicitly_none) {
  // A category the table does not list falls back: build <-> host (a library linked at build
  // time, a tool needed for the host build), run -> host -> build.
  static const std::map<Category, std::vector<Category>> order = {
      {Category::build, {Category::build, Category::host}},
      {Category::host, {Category::host, Category::build}},
      {Category::run, {Category::run, Category::host, Category::build}},
  };
  if (explicitly_none) *explicitly_none = false;
  for (Category c : order.at(category)) {
    auto it = entry.by_category.find(c);
    if (it == entry.by_category.end()) continue;
    if (it->second.empty() && explicitly_none) *explicitly_none = true;
    return it->second;
  }
  if (!entry.modules.empty() && category != Category::run) {
    std::vector<mapping::Alternative> out;
    for (const auto& m : entry.modules) out.push_back({{m}, entry.module_version(m)});
    return out;
  }
  return {};
}

BundleSet::BundleSet(PoolBuilder& builder) : b_(builder) {}

Id BundleSet::need_name(Category category, const std::string& id) {
  std::string n(category_name(category));
  n += '(';
  n += id;
  n += ')';
  return pool_str2id(b_.pool(), n.c_str(), 1);
}

Repo* BundleSet::repo_for(int priority) {
  auto it = repos_.find(priority);
  if (it != repos_.end()) return it->second;
  Repo* r = repo_create(b_.pool(), ("mapping-" + std::to_string(priority)).c_str());
  r->priority = priority;
  repos_.emplace(priority, r);
  return r;
}

void BundleSet::index_names(const std::vector<Id>& names) {
  std::unordered_set<Id> wanted(names.begin(), names.end());
  Pool* pool = b_.pool();
  for (Id p = 2; p < pool->nsolvables; ++p) {
    Solvable* s = pool_id2solvable(pool, p);
    if (!s->repo) continue;
    if (wanted.count(s->name)) by_name_[s->name].push_back(p);
  }
  // The families of those packages, and every member of each: the packages that can stand in.
  std::unordered_set<Id> families;
  for (const auto& [name, solvables] : by_name_)
    for (Id p : solvables)
      if (Id f = b_.family_of(p)) families.insert(f);
  if (families.empty()) return;
  for (Id p = 2; p < pool->nsolvables; ++p) {
    Solvable* s = pool_id2solvable(pool, p);
    if (!s->repo || !s->provides) continue;
    for (Id* d = s->repo->idarraydata + s->provides; *d; ++d) {
      if (ISRELDEP(*d) || !families.count(*d)) continue;
      by_family_[*d].push_back(p);
      if (!wanted.count(s->name)) by_name_[s->name].push_back(p);
      break;
    }
  }
}

Id BundleSet::family_of_name(Id name) const {
  for (Id p : solvables_named(name))
    if (Id f = b_.family_of(p)) return f;
  return 0;
}

Id BundleSet::in_set(Id name, Id set) const {
  for (Id p : solvables_named(name))
    if (b_.set_of(p) == set) return name;
  auto it = by_family_.find(family_of_name(name));
  if (it == by_family_.end()) return 0;
  for (Id p : it->second)
    if (b_.set_of(p) == set) return pool_id2solvable(b_.pool(), p)->name;
  return 0;
}

const Bundle* BundleSet::find(Id solvable) const {
  auto it = bundles_.find(solvable);
  return it == bundles_.end() ? nullptr : &it->second;
}

const std::vector<Id>& BundleSet::solvables_named(Id name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? empty_ : it->second;
}

void BundleSet::add_installed_tool(Id tool, Category category, const std::string& id, const std::string& upstream) {
  Pool* pool = b_.pool();
  Repo* repo = b_.installed();
  Id need = need_name(category, id);
  Id tool_name = pool_id2solvable(pool, tool)->name;
  Id tool_evr = pool_id2solvable(pool, tool)->evr;
  Id bp = repo_add_solvable(repo);
  Solvable* bs = pool_id2solvable(pool, bp);
  bs->name = pool_str2id(pool, ("mapping:host/" + std::string(category_name(category)) + "/" + id).c_str(), 1);
  bs->evr = pool_str2id(pool, version::normalize_upstream(upstream).c_str(), 1);
  bs->arch = ARCH_NOARCH;
  bs->provides = repo_addid_dep(repo, bs->provides, pool_rel2id(pool, bs->name, bs->evr, REL_EQ, 1), 0);
  bs->provides = repo_addid_dep(repo, bs->provides, pool_rel2id(pool, need, bs->evr, REL_EQ, 1), 0);
  bs->requires_ = repo_addid_dep(repo, bs->requires_, pool_rel2id(pool, tool_name, tool_evr, REL_EQ, 1), 0);
  bundles_.emplace(bp, Bundle{"host", "", category, id, 0, {tool_name}, tool, upstream, true, 0});
}

MappingView BundleSet::add(const LoadedProvider& lp, const mapping::Entry& entry, Category category, int priority,
                           int installed_priority) {
  MappingView view;
  view.entry = &entry;
  view.alternatives = alternatives_for(entry, category);
  Pool* pool = b_.pool();
  std::string eco(lp.provider->ecosystem());

  for (size_t k = 0; k < view.alternatives.size(); ++k) {
    const auto& alt = view.alternatives[k];
    if (alt.packages.empty()) continue;
    const std::string& from = alt.version.from.empty() ? alt.packages[0] : alt.version.from;
    std::vector<Id> names;
    bool all_known = true;
    for (const auto& pkg : alt.packages) {
      Id n = b_.name_id(eco, pkg, false);
      if (!n || solvables_named(n).empty()) {
        view.missing.push_back(alt.component.empty() || alt.component == "main"
                                   ? pkg + " is not in the index"
                                   : lp.provider->missing_component(pkg, alt.component));
        all_known = false;
      }
      names.push_back(n);
    }
    if (!all_known) continue;
    Id from_name = b_.name_id(eco, from, false);
    for (Id p : solvables_named(from_name))
      add_bundle(lp, entry, category, k, alt, {names, from_name, p, false}, priority, installed_priority);

    auto family = by_family_.find(family_of_name(from_name));
    if (family == by_family_.end()) continue;
    for (Id p : family->second) {
      Id name = pool_id2solvable(pool, p)->name;
      if (name == from_name) continue;
      Id set = b_.set_of(p);
      Over over{{}, name, p, true};
      for (Id n : names) {
        Id there = n == from_name ? name : in_set(n, set);
        if (!there) break;
        over.names.push_back(there);
      }
      if (over.names.size() != names.size()) continue;  // a package of the alternative has no stand-in there
      add_bundle(lp, entry, category, k, alt, over, priority, installed_priority);
    }
  }
  return view;
}

int BundleSet::version_rank(Id name, Id evr) {
  Pool* pool = b_.pool();
  auto [it, fresh] = versions_.try_emplace(name);
  std::vector<Id>& evrs = it->second;
  auto older = [pool](Id a, Id b) { return pool_evrcmp(pool, a, b, EVRCMP_COMPARE) < 0; };
  if (fresh) {
    for (Id q : solvables_named(name)) evrs.push_back(pool_id2solvable(pool, q)->evr);
    std::sort(evrs.begin(), evrs.end(), older);
    // One entry per version: two spellings libsolv orders equal are one version.
    evrs.erase(std::unique(evrs.begin(), evrs.end(), [&](Id a, Id b) { return !older(a, b) && !older(b, a); }),
               evrs.end());
  }
  return static_cast<int>(std::lower_bound(evrs.begin(), evrs.end(), evr, older) - evrs.begin());
}

void BundleSet::add_bundle(const LoadedProvider& lp, const mapping::Entry& entry, Category category, size_t k,
                           const mapping::Alternative& alt, const Over& over, int priority, int installed_priority) {
  Pool* pool = b_.pool();
  Repo* installed = b_.installed();
  std::string eco(lp.provider->ecosystem());
  Id need = need_name(category, entry.id);
  // Packages other than `from` are required at any version; installed only if one is.
  auto any_installed = [&](Id n) {
    for (Id p : solvables_named(n))
      if (pool_id2solvable(pool, p)->repo == installed) return true;
    return false;
  };
  // repo_add_solvable below may move pool->solvables: keep values, not pointers.
  const Id from_evr = pool_id2solvable(pool, over.from)->evr;
  const bool from_installed = pool_id2solvable(pool, over.from)->repo == installed;
  std::string native = b_.native_version(over.from);
  std::string upstream = mapping::upstream_version(alt.version, native);
  // Packages of one upstream version differ in their native one (libbluetooth-dev
  // 5.66-1+deb12u1 from the security archive, +deb12u2 from the point release): the bundle's
  // release is the rank of its native version among the package's, so the newest wins a tie as
  // it does for apt. Without it the bundles were equal and libsolv took the first in the pool.
  const int rank = version_rank(pool_id2solvable(pool, over.from)->name, from_evr);
  std::string evr = version::normalize_upstream(upstream) + "-" + std::to_string(rank);
  bool inst = from_installed;
  // A CUDA component run on this machine needs a driver new enough for its toolkit; without
  // one, an installed copy does not meet the need either.
  std::optional<detect::CudaToolkit> toolkit;
  if (host_ && category == Category::run && detect::is_cuda_id(entry.id)) toolkit = detect::cuda_toolkit(upstream);
  if (toolkit && !(host_->cuda.state == detect::CudaState::ok &&
                   version::compare(version::pep440_scheme, host_->cuda.cuda_version, toolkit->min_cuda) >= 0))
    inst = false;
  for (size_t i = 0; inst && i < over.names.size(); ++i)
    if (over.names[i] != over.from_name && !any_installed(over.names[i])) inst = false;

  // Alternatives rank in order within a manager (k < 16), a stand-in just below the package the
  // mapping names; installed ones above available ones, a manager's above a detector's.
  int kk = static_cast<int>(std::min<size_t>(k, 15));
  int detector = lp.provider->manager().empty() ? 16 : 0;
  Repo* repo = !inst                    ? repo_for(priority * 64 - 2 * kk - (over.stand_in ? 1 : 0))
               : installed_priority < 0 ? installed
                                        : repo_for(installed_priority * 64 + 32 - detector - kk);
  Id bp = repo_add_solvable(repo);
  Solvable* bs = pool_id2solvable(pool, bp);
  std::string bname =
      "mapping:" + eco + "/" + std::string(category_name(category)) + "/" + entry.id + "#" + std::to_string(k);
  bs->name = pool_str2id(pool, bname.c_str(), 1);
  bs->evr = pool_str2id(pool, evr.c_str(), 1);
  bs->arch = ARCH_NOARCH;
  bs->provides = repo_addid_dep(repo, bs->provides, pool_rel2id(pool, bs->name, bs->evr, REL_EQ, 1), 0);
  bs->provides = repo_addid_dep(repo, bs->provides, pool_rel2id(pool, need, bs->evr, REL_EQ, 1), 0);
  if (toolkit) {
    Id cuda = pool_str2id(pool, "__cuda", 1);
    Id min = pool_str2id(pool, version::normalize_upstream(toolkit->min_cuda).c_str(), 1);
    bs->requires_ = repo_addid_dep(repo, bs->requires_, pool_rel2id(pool, cuda, min, REL_GT | REL_EQ, 1), 0);
    // Every GPU here must be one the toolkit still builds for: __cuda_arch (the oldest device)
    // at or above the toolkit's oldest architecture. A GPU newer than its newest runs the PTX of
    // that one through the driver's JIT, so only the lower end refuses.
    if (!host_->cuda.devices.empty() && !toolkit->sm.empty()) {
      Id arch = pool_str2id(pool, "__cuda_arch", 1);
      Id lowest = pool_str2id(pool, version::normalize_upstream(toolkit->sm.front()).c_str(), 1);
      bs->requires_ = repo_addid_dep(repo, bs->requires_, pool_rel2id(pool, arch, lowest, REL_GT | REL_EQ, 1), 0);
    }
  }
  Bundle b{eco,
           std::string(lp.provider->manager()),
           category,
           entry.id,
           static_cast<int>(k),
           over.names,
           over.from,
           upstream,
           inst,
           priority,
           over.stand_in};
  for (Id n : over.names) {
    Id dep = n == over.from_name ? pool_rel2id(pool, b_.versioned(n), from_evr, REL_EQ, 1) : n;
    bs->requires_ = repo_addid_dep(repo, bs->requires_, dep, 0);
  }
  bundles_.emplace(bp, std::move(b));
}

}  // namespace extdeps::solve
