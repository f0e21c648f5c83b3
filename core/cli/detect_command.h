// `extdeps detect`: what extdeps knows about this machine, as text or JSON
// (schema/detect.schema.json).
#pragma once

#include <iosfwd>

#include "core/context/context.h"

namespace extdeps::cli {

struct DetectCommandOptions {
  bool json = false;
  bool refresh = false;   // detect again and rewrite the cache
  bool no_cache = false;  // neither read nor write the cache
  std::string save;       // --save FILE: the JSON facts, for `--host FILE` elsewhere
  std::string format;     // text, json, conda, uv, variants
  std::string host_file;  // --host FILE: those facts instead of this machine's
};

// 0, or the detection error's exit code (3 when the machine could not be examined, 2 for a
// malformed override).
int cmd_detect(const Context& ctx, const DetectCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace extdeps::cli
