// Runs a short-lived command (a compiler's --version) with a time limit and captures its stdout.
// Detection must never hang on a broken tool: a child that outlives the limit is killed.
#pragma once

#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/util/result.h"

namespace extdeps::detect {

struct Captured {
  int exit_status = 0;  // the exit code; 128 + signal when killed by one
  std::string out;      // stdout (stderr is discarded)
};

// The path of an executable `tool` in the Context's PATH (as given: no root prefix); empty when
// it is not there.
std::string find_on_path(const Context& ctx, std::string_view tool);

// argv[0] is a path (no PATH lookup). Fails with an environment error when the command cannot be
// started or runs past timeout_ms.
Result<Captured> run_capture(const std::vector<std::string>& argv, int timeout_ms);

struct RanToFile {
  int exit_status = 0;  // as Captured::exit_status
  std::string err;      // the end of stderr (its last 4 KiB), for messages
};

// Runs a long command whose output can be large (nix-env printing a whole nixpkgs index):
// argv[0] is a path, the environment is exactly `env` ("NAME=value" each), stdout goes to
// `out_path` (created or truncated). Fails with an environment error when the command cannot
// be started or runs past timeout_ms (its process group is then killed).
Result<RanToFile> run_to_file(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                              const std::string& out_path, int timeout_ms);

}  // namespace extdeps::detect
