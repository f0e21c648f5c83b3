// Where a run's time goes, for the benchmarks (bench/run.sh --phases): with EXTDEPS_TIMINGS set
// to a non-empty value, each Phase's wall time is added up under its name and, when the process
// ends, printed to stderr as `extdeps: timing: NAME MS` lines in the order the phases began, then
// `extdeps: timing: main MS` (from main() to exit). Unset, a Phase costs one branch on a cached
// flag. `extdeps -v` turns the same lines on. Not timed by any test; the numbers are for people.
#pragma once

#include <chrono>

namespace extdeps::timings {

bool enabled();

// Called first thing in main(): the origin of the `main` line.
void start();

// Turns the lines on for this process from now, as EXTDEPS_TIMINGS does (`extdeps -v`): the
// phases that began before are not in them.
void enable();

class Phase {
 public:
  explicit Phase(const char* name) : name_(enabled() ? name : nullptr) {
    if (name_) t0_ = std::chrono::steady_clock::now();
  }
  ~Phase() {
    if (name_) add(name_, std::chrono::steady_clock::now() - t0_);
  }
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;

 private:
  static void add(const char* name, std::chrono::steady_clock::duration d);
  const char* name_;
  std::chrono::steady_clock::time_point t0_{};
};

}  // namespace extdeps::timings
