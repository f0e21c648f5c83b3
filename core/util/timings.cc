#include "core/util/timings.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace extdeps::timings {

namespace {

struct Sum {
  const char* name;
  double ms;
};

struct State {
  bool on = false;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  std::vector<Sum> sums;
};

void print_all();

State& state() {
  static State* s = [] {
    auto* st = new State;  // never freed: printed by atexit, after static destructors may have run
    const char* v = std::getenv("EXTDEPS_TIMINGS");
    st->on = v && *v;
    if (st->on) std::atexit(print_all);
    return st;
  }();
  return *s;
}

void print_all() {
  State& s = state();
  for (const auto& x : s.sums) std::fprintf(stderr, "extdeps: timing: %s %.3f\n", x.name, x.ms);
  std::chrono::duration<double, std::milli> total = std::chrono::steady_clock::now() - s.t0;
  std::fprintf(stderr, "extdeps: timing: main %.3f\n", total.count());
}

}  // namespace

bool enabled() { return state().on; }

void start() { state(); }

void enable() {
  State& s = state();
  if (s.on) return;
  s.on = true;
  std::atexit(print_all);
}

void Phase::add(const char* name, std::chrono::steady_clock::duration d) {
  const double ms = std::chrono::duration<double, std::milli>(d).count();
  static std::mutex mutex;  // phases of sessions in several threads
  std::lock_guard lock(mutex);
  for (auto& x : state().sums)
    if (std::strcmp(x.name, name) == 0) {
      x.ms += ms;
      return;
    }
  state().sums.push_back({name, ms});
}

}  // namespace extdeps::timings
