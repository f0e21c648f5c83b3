// The command line, run in-process: main() builds the Context and calls run(); tests call run()
// directly with their own streams.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "core/context/context.h"

namespace extdeps::cli {

// Returns the exit code (docs/exit-codes.md). args excludes argv[0].
int run(Context& ctx, const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace extdeps::cli
