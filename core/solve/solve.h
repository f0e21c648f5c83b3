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
#include "core/solve/solution.h"
#include "core/provider/provider.h"
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
};

Result<Solution> resolve(const Context& ctx, const std::vector<Requirement>& requirements,
                              const mapping::Tables& tables,
                              std::vector<std::unique_ptr<Provider>>& providers,
                              const Options& options);

}  // namespace extdeps::solve
