// What a resolve produces: per-requirement outcomes (the solve's), ordered install steps per
// manager (made here from the providers' commands), and the problems that explain an
// unsatisfiable request. Rendered as text or JSON (schema/plan.schema.json).
#pragma once

#include <string>
#include <vector>

#include "core/declare/requirement.h"
#include "core/provider/provider.h"
#include "core/solve/solution.h"
#include "core/util/result.h"

namespace extdeps::plan {

using Status = solve::Status;
std::string_view status_name(Status s);
using Package = solve::Package;
using RequirementOutcome = solve::RequirementOutcome;
using Problem = solve::Problem;
using Removal = solve::Removal;

struct Step {
  std::string manager;
  std::vector<PlannedPackage> packages;
  std::vector<PlannedPackage> removals;  // installed packages this step removes
  std::vector<std::string> command;      // argv
  bool requires_elevation = false;
};

struct Outcome {
  bool ok() const { return problems.empty(); }
  std::vector<RequirementOutcome> requirements;
  std::vector<Step> steps;
  std::vector<Removal> removals;  // installed packages the steps remove, and why
  std::vector<Problem> problems;
  std::vector<std::string> warnings;  // the plan holds, but something deserves a look
};

// The plan of a solution: its needs, problems and warnings, and a step per manager made by its
// provider (Provider::plan_commands). Every planned package is first checked as an argument of
// its manager's command (Provider::command_problem: a name outside the manager's rule such as
// '-oDPkg::Pre-Invoke::=...' is refused, whatever the table or the index said): bad input.
Result<Outcome> make_plan(solve::Solution solution);
// The same for a solve's result, its error passed on.
Result<Outcome> make_plan(Result<solve::Solution> solution);

}  // namespace extdeps::plan
