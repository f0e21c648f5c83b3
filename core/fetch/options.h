// Fetch options from the command line and the environment, for every command that downloads:
// `--cache-dir DIR` (the extdeps cache root, as for resolve; downloads go to DIR/http) and
// `--offline` (or EXTDEPS_OFFLINE=1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/config/command_options.h"
#include "core/context/context.h"
#include "core/fetch/fetch.h"
#include "core/util/result.h"

namespace CLI {
class App;
}

namespace extdeps::fetch {

struct FetchFlags {
  std::string cache_dir;            // --cache-dir; empty: the Context's
  bool offline = false;             // --offline
  bool stderr_is_terminal = false;  // draw the progress line (also when the Context says so)
};

// "2G", "2GiB", "512M", "100k", "1048576": a size in bytes (K, M, G, T are powers of 1024).
// nullopt for anything else, or 0.
std::optional<std::uint64_t> parse_size(std::string_view text);

// Registers --cache-dir and --offline on command `c` (core/config/command_options.h gives it both).
void add_fetch_flags(CLI::App& command, config::Command c, FetchFlags& flags);

// Sets the Context's cache folder from --cache-dir (so the other caches follow it) and returns
// the Options, with core's options offline, max-download-size, max-download-total,
// download-deadline and allow-insecure-http as config::load resolved them (core/config/values.h).
// A bad value is bad input, named where it came from.
Result<Options> options_for(Context& ctx, const FetchFlags& flags);

}  // namespace extdeps::fetch
