#include "core/plan/plan.h"

namespace extdeps::plan {

Result<Outcome> make_plan(solve::Solution solution) {
  Outcome out;
  for (const auto& planned : solution.planned) {
    const Provider& provider = *planned.provider;
    const std::string manager(provider.manager());
    if (manager.empty() || (planned.packages.empty() && planned.removals.empty())) continue;
    // A name goes into argv only when its manager's rule accepts it, whatever the table or the
    // index said: '-oDPkg::Pre-Invoke::=...' would be an option of apt-get.
    for (const auto* list : {&planned.packages, &planned.removals})
      for (const auto& pkg : *list)
        if (auto problem = provider.command_problem(pkg))
          return error_at(ExitCode::bad_input, "",
                          manager + ": " + *problem +
                              "; refusing to put it in the install command (it came from a "
                              "mapping table or the " +
                              std::string(provider.ecosystem()) + " index)");
    Result<std::vector<Command>> commands =
        planned.removals.empty()
            ? provider.plan_commands(planned.packages)
            : Result<std::vector<Command>>(provider.swap_commands(planned.packages, planned.removals));
    if (!commands) return commands.error();
    for (auto& cmd : *commands)
      out.steps.push_back({manager, planned.packages, planned.removals, std::move(cmd.argv), cmd.requires_elevation});
  }
  out.requirements = std::move(solution.requirements);
  out.removals = std::move(solution.removals);
  out.problems = std::move(solution.problems);
  out.warnings = std::move(solution.warnings);
  return out;
}

Result<Outcome> make_plan(Result<solve::Solution> solution) {
  if (!solution) return solution.error();
  return make_plan(std::move(*solution));
}

}  // namespace extdeps::plan
