// `extdeps env [PATH] [--format sh|json|cmake]`: for the needs that are met, what a build needs to
// find them (core/env/); exit 1 with what is missing when a need is not met.
#pragma once

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "core/cli/pipeline.h"
#include "core/context/context.h"
#include "extdeps/build_env.h"

namespace extdeps::cli {

// format: sh, json or cmake (2 for another). stdout gets the variables of the needs that are
// met, also when some are not; what is missing and how to install it goes to stderr (sh,
// cmake) or into the JSON's "missing" and "steps".
// What `extdeps env --format json` prints: {"declaration", "satisfied", "variables", "missing"
// (the plan's requirements that are not met), "steps" (with "line", through sudo when needed
// and not root), "problems", "warnings"}.
nlohmann::json env_json(const Context& ctx, const Prepared& prepared, const BuildEnv& env);

// For people: how many needs are not met, then each of them and the commands that install them.
std::string missing_text(const Context& ctx, const Prepared& prepared);

int cmd_env(Context& ctx, const RunOptions& options, const std::string& format, std::ostream& out,
            std::ostream& err);

}  // namespace extdeps::cli
