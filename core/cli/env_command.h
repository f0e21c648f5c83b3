// `extdeps env [PATH] [--format sh|json|cmake]`: for the needs that are met, what a build needs to
// find them (core/env/); exit 1 with what is missing when a need is not met.
#pragma once

#include <iosfwd>
#include <string>

#include "core/cli/run_options.h"
#include "core/context/context.h"

namespace extdeps::cli {

// format: sh, json or cmake (2 for another). stdout gets the variables of the needs that are
// met, also when some are not; what is missing and how to install it goes to stderr (sh,
// cmake) or into the JSON's "missing" and "steps" (env::report_json).
int cmd_env(Context& ctx, const RunOptions& options, const std::string& format, std::ostream& out, std::ostream& err);

}  // namespace extdeps::cli
