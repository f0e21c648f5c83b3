// The solver: one libsolv pool for every provider, versions normalised into one order, mapping
// tables turned into provides, the host's installed set, and jobs from the requirements. Only
// core/solve/ includes <solv/...>.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/declare/requirement.h"
#include "core/detect/host.h"
#include "core/mapping/mapping.h"
#include "core/provider/provider.h"
#include "core/solve/solution.h"
#include "core/util/result.h"

namespace extdeps::solve {

struct Options {
  // Managers in order of preference ("apt"); empty: every available one, default order.
  std::vector<std::string> managers;
  bool use_cache = true;  // the .solv cache under ctx.cache_dir()/solv
  // The machine the plan is for. Null: no host repo, no driver constraints (a plan for anywhere).
  const detect::HostFacts* host = nullptr;
  // For an id no table maps, look for packages and pkg-config modules named after it; what is
  // found is planned as a guess, marked as such (with "did you mean" when it is close to a known
  // id: a typo can match a real package too).
  bool guess_unmapped = true;
  // Not empty: the final solve is also written there as a libsolv testcase (testcase.t, its
  // repos and the solver's result), for `extdeps debug replay` (replay_testcase).
  std::string testcase_dir;
};

// `extdeps debug replay DIR`: the testcase a resolve wrote with Options::testcase_dir, solved
// again by libsolv alone (no index, no provider), and its result beside the recorded one.
struct Replay {
  std::string recorded;  // the solver's result as written then (libsolv's testcase result lines)
  std::string now;       // the same, solved here
  int problems = 0;      // problems of the solve here
  std::size_t jobs = 0;  // jobs of the testcase
  bool same() const { return recorded == now; }
};
Result<Replay> replay_testcase(const std::string& dir);

Result<Solution> resolve(const Context& ctx, const std::vector<Requirement>& requirements,
                         const mapping::Tables& tables, std::vector<std::unique_ptr<Provider>>& providers,
                         const Options& options);

}  // namespace extdeps::solve
