// libsolvext's testcase functions, loaded when a testcase is written or replayed. libsolvext
// links librpm, Lua, SQLite and more (a dozen libraries, about a millisecond of dynamic linking
// on every run), and only `resolve --dump-testcase` and `debug replay` use it; so nothing links
// it and these three functions come from libsolvext.so.1 through dlopen. It loads against the
// libsolv.so.1 extdeps already uses, so the pools are the same.
#pragma once

#include "core/solve/handles.h"
#include "core/util/result.h"

namespace extdeps::solve {

struct SolvExt {
  decltype(&::testcase_write) write;
  decltype(&::testcase_read) read;
  decltype(&::testcase_solverresult) solverresult;
};

// Loaded once per process; an environment error naming the library and the Debian package when
// it cannot be.
Result<const SolvExt*> load_solvext();

}  // namespace extdeps::solve
