// `extdeps cache info` and `extdeps cache clean`: what the caches hold and removing it. The HTTP
// cache (cache_dir, normally <ctx.cache_dir()>/http) is listed entry by entry; the other caches
// under ctx.cache_dir() (solv/: provider indexes, detect/: host facts) are summarised.
#pragma once

#include <iosfwd>
#include <string>

#include "core/context/context.h"
#include "core/util/result.h"

namespace extdeps::fetch {

// Each download with its state (fresh, stale, not found), age and size; leftovers; the other
// caches; the total.
Result<void> cache_info(const Context& ctx, const std::string& cache_dir, std::ostream& out);

// Removes every download (under the cache's exclusive lock, so no other extdeps process sees a
// half-removed entry), leftovers, and the files of the other caches. A temporary file written in
// the last 10 minutes belongs to a download still running and is kept.
Result<void> cache_clean(const Context& ctx, const std::string& cache_dir, std::ostream& out);

}  // namespace extdeps::fetch
