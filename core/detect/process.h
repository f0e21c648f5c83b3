// Short and long commands run to learn something about the machine (a compiler's --version,
// python's answers, nix-env's index), through the Context's ProcessRunner
// (core/util/subprocess.h), so tests can fake them. Detection must never hang on a broken tool: a
// child that outlives its limit is killed with its process group.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/context/context.h"
#include "core/util/result.h"
#include "core/util/subprocess.h"

namespace extdeps::detect {

// The path of an executable `tool` in the Context's PATH (as given: no root prefix); empty when
// it is not there.
std::string find_on_path(const Context& ctx, std::string_view tool);

// Runs a short command (argv[0] a path) with stdout captured (at most max_output bytes). An
// environment error when it cannot be started, runs past timeout_ms or prints more.
Result<ProcessResult> run_capture(const Context& ctx, std::vector<std::string> argv, int timeout_ms,
                                  std::size_t max_output = std::size_t{1} << 20);

// Runs a long command whose output can be large (nix-env printing a whole nixpkgs index): the
// environment is exactly `env` ("NAME=value" each), stdout goes to `out_path` (created or
// truncated), the end of stderr is kept (ProcessResult::err_tail). An environment error when it
// cannot be started or runs past timeout_ms.
Result<ProcessResult> run_to_file(const Context& ctx, std::vector<std::string> argv, std::vector<std::string> env,
                                  const std::string& out_path, int timeout_ms);

}  // namespace extdeps::detect
