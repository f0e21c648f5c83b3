// Runs a program that answers in lines (a provider plugin): the input is written to its stdin,
// which is then closed; each line of its stdout is handed over as it comes, so a long answer is
// never held whole; stderr's end is kept for messages. A time limit and a size limit hold the
// whole run; past either the process group is killed. Never hangs on a child that neither reads
// nor writes.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace extdeps {

struct LineRun {
  int exit_status = 0;     // the exit code; 128 + signal when killed by one
  bool timed_out = false;  // killed at the time limit
  bool too_big = false;    // killed at the size limit
  bool stopped = false;    // killed because on_line asked to stop
  std::string err_tail;    // the last 4 KiB of stderr
};

// Waits for the child `pid`: its exit code, 128 + the signal that killed it, 127 when it cannot
// be waited for.
int wait_status(pid_t pid);

// argv[0] is a path. on_line gets each line without its '\n' (a last line without one too) and
// returns false to stop the run. An error only when the program cannot be started.
Result<LineRun> run_lines(const std::vector<std::string>& argv, std::string_view input, int timeout_ms,
                          std::size_t max_bytes, const std::function<bool(std::string_view line)>& on_line);

}  // namespace extdeps
