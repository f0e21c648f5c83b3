// Every child process extdeps starts (a compiler's --version, the CUDA driver probe, python for
// markers and site-packages, nix-env, a provider plugin) goes through one ProcessRunner, the
// Context's (Context::processes()). The real one, run_process, starts argv[0] in a process group
// of its own with default signal dispositions and an empty signal mask, writes `input` to its
// stdin and closes it, hands stdout over as lines, to a file or whole, keeps the end of stderr for
// messages, and holds a time limit and a size limit on the whole run: past either the group is
// killed. It never hangs on a child that neither reads nor writes, nor on one the kernel will not
// let go of (stuck in a driver), which is left behind. Tests install a fake runner
// (tests/support/fake_processes.h) and see every request.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace extdeps {

struct ProcessRequest {
  std::vector<std::string> argv;                // argv[0] is a path (no PATH lookup)
  std::optional<std::vector<std::string>> env;  // exactly these "NAME=value"; nullopt: this process's
  std::string input;                            // written to stdin, which is then closed
  int timeout_ms = 10000;
  std::size_t max_output = std::size_t{1} << 20;  // stdout bytes; past it the run is killed
  // Where stdout goes: each line (without '\n'; a last line without one too) to on_line, which
  // returns false to stop the run; else into the file stdout_file (created or truncated); else
  // into ProcessResult::out.
  std::function<bool(std::string_view line)> on_line;
  // With on_line: the longest line (0: max_output); past it the run is killed (line_too_long).
  std::size_t max_line = 0;
  std::string stdout_file;
};

struct ProcessResult {
  int exit_status = 0;         // the exit code; 128 + signal when killed by one
  int signal = 0;              // the signal that ended it; 0 when it exited
  bool timed_out = false;      // killed at the time limit
  bool too_big = false;        // killed at the size limit
  bool stopped = false;        // killed because on_line asked to stop
  bool line_too_long = false;  // killed at max_line (too_big is set too)
  std::string out;             // stdout, when neither on_line nor stdout_file took it
  std::string err_tail;        // the last 4 KiB of stderr
  // Exited with status 0, within the limits.
  bool ok() const { return exit_status == 0 && signal == 0 && !timed_out && !too_big && !stopped; }
};

// An error only when the program cannot be started (or stdout_file cannot be written).
Result<ProcessResult> run_process(const ProcessRequest& request);

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  virtual Result<ProcessResult> run(const ProcessRequest& request) const = 0;
};

// The runner that starts real processes with run_process.
std::shared_ptr<const ProcessRunner> system_process_runner();

// Waits for the child `pid`: its exit code, 128 + the signal that killed it, 127 when it cannot
// be waited for.
int wait_status(pid_t pid);

}  // namespace extdeps
