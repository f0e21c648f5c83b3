// A user's mapping overrides for one run (PEP 804's client-side affordances, "Inheritance and
// cross-referenced mappings"): --use-mapping replaces an ecosystem's table, --patch-mapping
// replaces the entries it names and adds the others, --extend-mapping adds its alternatives after
// the table's own (more options, nothing replaced). Each names a local mapping table (.toml) or
// a PEP 804 mapping file (.json), optionally after the ecosystem it is for: "debian=my.json";
// the file may be a URL (https://, http://, file://), read through the download cache.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/mapping/mapping.h"
#include "core/util/result.h"

namespace extdeps::mapping {

enum class OverrideMode { use, patch, extend };

struct MappingOverride {
  OverrideMode mode = OverrideMode::patch;
  std::string spec;  // "[ECOSYSTEM=]FILE"
  std::string from;  // where it was set: "--patch-mapping", "EXTDEPS_PATCH_MAPPING", "extdeps.toml:3:1"
};

// Applies the overrides to the loaded tables: every use first, then every patch, then every
// extend, each kind in the order given. The ecosystem is the spec's prefix, else a .toml table's
// own, else a .json file's name ({ecosystem}.mapping.json) when a table of that ecosystem is
// loaded. A PEP 804 file takes the manager of the table it overrides. Bad input (a missing file,
// a table that does not load, an ecosystem that cannot be told) names the setting that gave it.
// The import's warnings (a spec left out) go to ctx.warn.
// `download`: the local file holding a URL's body (the engine's fetcher, with its cache and
// --offline); without it a URL is bad input.
using Download = std::function<Result<std::string>(const std::string& url)>;
Result<void> apply_overrides(const Context& ctx, Tables& tables, const std::vector<MappingOverride>& overrides,
                             const Download& download = {});

}  // namespace extdeps::mapping
