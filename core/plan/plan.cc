#include "core/plan/plan.h"

namespace extdeps::plan {

Result<Outcome> make_plan(solve::Solution solution) {
  Outcome out;
  for (const auto& planned : solution.planned) {
    const Provider& provider = *planned.provider;
    const std::string manager(provider.manager());
    if (manager.empty() || planned.packages.empty()) continue;
    // A name goes into argv only when its manager's rule accepts it, whatever the table or the
    // index said: '-oDPkg::Pre-Invoke::=...' would be an option of apt-get.
    for (const auto& pkg : planned.packages)
      if (auto problem = provider.command_problem(pkg))
        return error_at(ExitCode::bad_input, "",
                        manager + ": " + *problem +
                            "; refusing to put it in the install command (it came from a "
                            "mapping table or the " +
                            std::string(provider.ecosystem()) + " index)");
    auto commands = provider.plan_commands(planned.packages);
    if (!commands) return commands.error();
    for (auto& cmd : *commands)
      out.steps.push_back({manager, planned.packages, std::move(cmd.argv), cmd.requires_elevation});
  }
  out.requirements = std::move(solution.requirements);
  out.problems = std::move(solution.problems);
  out.warnings = std::move(solution.warnings);
  return out;
}

Result<Outcome> make_plan(Result<solve::Solution> solution) {
  if (!solution) return solution.error();
  return make_plan(std::move(*solution));
}

}  // namespace extdeps::plan
