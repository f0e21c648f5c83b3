#include "core/fetch/options.h"

#include <CLI/CLI.hpp>

namespace extdeps::fetch {

void add_fetch_flags(CLI::App& command, FetchFlags& flags) {
  command.add_option("--cache-dir", flags.cache_dir, "cache folder (default: $XDG_CACHE_HOME/extdeps)");
  command.add_flag("--offline", flags.offline, "use only cached downloads; fail where there is none");
}

Result<Options> options_for(Context& ctx, const FetchFlags& flags) {
  if (!flags.cache_dir.empty()) ctx.set_cache_dir(flags.cache_dir);
  Options o;
  if (ctx.cache_enabled()) o.cache_dir = ctx.cache_dir() + "/http";
  o.offline = flags.offline;
  if (auto v = ctx.env("EXTDEPS_OFFLINE"); v && !v->empty() && !o.offline) {
    if (*v == "1" || *v == "true" || *v == "yes")
      o.offline = true;
    else if (*v != "0" && *v != "false" && *v != "no")
      return bad_input("EXTDEPS_OFFLINE: expected 1 or 0, got '" + *v + "'");
  }
  o.progress = flags.stderr_is_terminal || ctx.stderr_is_terminal();
  return o;
}

}  // namespace extdeps::fetch
