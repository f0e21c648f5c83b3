// Fetch options from the command line and the environment, for every command that downloads:
// `--cache-dir DIR` (the extdeps cache root, as for resolve; downloads go to DIR/http) and
// `--offline` (or EXTDEPS_OFFLINE=1).
#pragma once

#include <string>

#include "core/context/context.h"
#include "core/fetch/fetch.h"
#include "core/util/result.h"

namespace CLI {
class App;
}

namespace extdeps::fetch {

struct FetchFlags {
  std::string cache_dir;         // --cache-dir; empty: the Context's
  bool offline = false;          // --offline
  bool stderr_is_terminal = false;  // draw the progress line (also when the Context says so)
};

// Registers --cache-dir and --offline on a subcommand.
void add_fetch_flags(CLI::App& command, FetchFlags& flags);

// Sets the Context's cache folder from --cache-dir (so the other caches follow it) and returns
// the Options. EXTDEPS_OFFLINE=1 (or true, yes) means --offline; another value is bad input.
Result<Options> options_for(Context& ctx, const FetchFlags& flags);

}  // namespace extdeps::fetch
