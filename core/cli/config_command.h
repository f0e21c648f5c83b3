// `extdeps config [PATH] [--variables] [--json]`: the settings as the resolver decided them for
// a project (or none), each with where its value came from (a flag, a variable, a file's
// line:column), as `git config --show-origin` does; --variables lists every environment variable
// extdeps reads (config/variables.h), who reads it, the setting it stands for and whether it is
// set here.
#pragma once

#include <iosfwd>
#include <string>

#include "core/context/context.h"

namespace extdeps::cli {

int cmd_config(Context& ctx, const std::string& path, bool variables, bool json, std::ostream& out, std::ostream& err);

}  // namespace extdeps::cli
