// libsolv testcases of a solve (internal to core/solve): written by resolve --dump-testcase
// (Options::testcase_dir), read again by replay_testcase (solve.h).
#pragma once

#include <string>

#include "core/solve/bundles.h"
#include "core/solve/handles.h"
#include "core/util/result.h"

namespace extdeps::solve {

// Writes the pool's repos, the solver's jobs and its result into `dir` (created), as libsolv's
// testcase_write does, with the names libsolv's reader will find again: bundles that share
// name, version, arch and repo get ".1", ".2" versions while the files are written, and zero
// epochs are dropped from solvable names in jobs and results.
Result<void> write_testcase(Pool* pool, Solver* solv, const BundleSet& bundles, const std::string& dir);

}  // namespace extdeps::solve
