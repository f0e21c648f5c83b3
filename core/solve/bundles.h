// Mapping tables in the pool. A mapping alternative ("host: libxml2-dev") becomes a bundle
// solvable per available or installed version of the package its version is read from: it
// provides "<category>(<id>)" at the upstream version and requires its native packages. A
// requirement is then one libsolv job: install something providing "host(dep:generic/libxml2)
// >= 2.9". Bundles whose packages are all installed live in the installed repo, so a need that is
// already met costs nothing and stays met; or, where the user named an order of managers, in a
// repo of their manager's rank, so an earlier manager is preferred to what a later one installed.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/declare/requirement.h"
#include "core/detect/host.h"
#include "core/mapping/mapping.h"
#include "core/solve/pool_builder.h"

namespace extdeps::solve {

struct Bundle {
  std::string ecosystem;
  std::string manager;  // empty for a detector (pkgconf)
  Category category = Category::host;
  std::string id;         // dep:generic/libxml2
  int alternative = 0;    // index in the mapping's ordered alternatives
  std::vector<Id> names;  // pooled names of the native packages it requires
  Id from = 0;            // the solvable its version is read from
  std::string upstream;   // the upstream version read from it
  bool installed = false;
  int priority = 0;       // of the provider's repo: higher is preferred
  bool stand_in = false;  // over another package of the family of the one the mapping names
};

// What the mapping tables say about one id for one provider, for messages.
struct MappingView {
  const mapping::Entry* entry = nullptr;
  std::vector<mapping::Alternative> alternatives;  // for the requirement's category
  std::vector<std::string> missing;                // why packages named by the mapping are not here, one each
};

class BundleSet {
 public:
  explicit BundleSet(PoolBuilder& builder);

  // With host facts, CUDA bundles for run needs require `__cuda >= X.0` (and one of the GPU
  // architectures their toolkit builds for, when the devices are known).
  void set_host(const detect::HostFacts* host) { host_ = host; }

  // The provides name of a requirement: "host(dep:generic/libxml2)".
  Id need_name(Category category, const std::string& id);

  // Adds the bundles of `entry` for one provider. priority: of the provider's repo. Where the
  // package a version is read from has a family (PackageRecord::family), every other member of
  // it stands in too, in a repo just below the named package's: the named one is preferred when
  // both fit. The other packages of the alternative are then taken from the stand-in's set.
  // installed_priority: where a bundle whose packages are all installed goes. Negative: the
  // installed repo, so whatever is installed meets the need whatever the manager. Else a repo
  // just above the available bundles of that priority and below the next manager's: a named
  // order of managers is a preference over what is installed too.
  MappingView add(const LoadedProvider& provider, const mapping::Entry& entry, Category category, int priority,
                  int installed_priority = -1);

  // A tool found on the machine outside any package manager (nvcc under /usr/local/cuda) meets
  // `id` for `category` at `upstream`: an installed bundle over the installed solvable `tool`.
  void add_installed_tool(Id tool, Category category, const std::string& id, const std::string& upstream);

  // Call once, before any add(): indexes the solvables of these pooled names
  // ("debian:libxml2-dev") in one pass over the pool, and the members of their families.
  void index_names(const std::vector<Id>& names);
  const Bundle* find(Id solvable) const;
  const std::vector<Id>& solvables_named(Id name) const;

 private:
  struct Over {  // what one bundle is made over
    std::vector<Id> names;
    Id from_name = 0;
    Id from = 0;
    bool stand_in = false;
  };
  Repo* repo_for(int priority);
  void add_bundle(const LoadedProvider& lp, const mapping::Entry& entry, Category category, size_t k,
                  const mapping::Alternative& alt, const Over& over, int priority, int installed_priority);
  // The name in `set` that stands for `name`: itself when it has a solvable there, else a member
  // of its family there; 0 when there is none.
  Id in_set(Id name, Id set) const;
  Id family_of_name(Id name) const;
  // The rank of `evr` among the versions of the packages named `name` (0: the oldest); the
  // sorted versions are kept per name, a conda package has thousands of builds.
  int version_rank(Id name, Id evr);

  PoolBuilder& b_;
  std::map<int, Repo*> repos_;  // by priority
  std::unordered_map<Id, Bundle> bundles_;
  std::unordered_map<Id, std::vector<Id>> by_name_;
  std::unordered_map<Id, std::vector<Id>> by_family_;
  std::unordered_map<Id, std::vector<Id>> versions_;  // by name: its distinct evrs, oldest first
  std::vector<Id> empty_;
  const detect::HostFacts* host_ = nullptr;
};

// The alternatives a table gives for a category, with the fallbacks of schema/mapping.md.
std::vector<mapping::Alternative> alternatives_for(const mapping::Entry& entry, Category category,
                                                   bool* explicitly_none = nullptr);

}  // namespace extdeps::solve
