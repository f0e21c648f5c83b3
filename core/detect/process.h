// Runs a short-lived command (a compiler's --version) with a time limit and captures its stdout.
// Detection must never hang on a broken tool: a child that outlives the limit is killed.
#pragma once

#include <string>
#include <vector>

#include "core/util/result.h"

namespace extdeps::detect {

struct Captured {
  int exit_status = 0;  // the exit code; 128 + signal when killed by one
  std::string out;      // stdout (stderr is discarded)
};

// argv[0] is a path (no PATH lookup). Fails with an environment error when the command cannot be
// started or runs past timeout_ms.
Result<Captured> run_capture(const std::vector<std::string>& argv, int timeout_ms);

}  // namespace extdeps::detect
