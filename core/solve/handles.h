// RAII owners for the libsolv objects extdeps uses. Internal to core/solve/: nothing outside this
// folder includes <solv/...>.
#pragma once

// libsolv names a Solvable field `requires`, a keyword since C++20: the headers are read with the
// field renamed to `requires_` (same layout). Standard headers come first so that none of them is
// read under the macro.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#define requires requires_
extern "C" {
#include <solv/evr.h>
#include <solv/pool.h>
#include <solv/poolarch.h>
#include <solv/problems.h>
#include <solv/queue.h>
#include <solv/repo.h>
#include <solv/repo_solv.h>
#include <solv/repo_write.h>
#include <solv/repodata.h>
#include <solv/rules.h>
#include <solv/selection.h>
#include <solv/solver.h>
#include <solv/testcase.h>
#include <solv/transaction.h>
}
#undef requires

namespace extdeps::solve {

struct PoolDeleter {
  void operator()(Pool* p) const { pool_free(p); }
};
struct SolverDeleter {
  void operator()(Solver* s) const { solver_free(s); }
};
struct TransactionDeleter {
  void operator()(Transaction* t) const { transaction_free(t); }
};
using PoolPtr = std::unique_ptr<Pool, PoolDeleter>;
using SolverPtr = std::unique_ptr<Solver, SolverDeleter>;
using TransactionPtr = std::unique_ptr<Transaction, TransactionDeleter>;

class SolvQueue {
 public:
  SolvQueue() { queue_init(&q_); }
  ~SolvQueue() { queue_free(&q_); }
  SolvQueue(const SolvQueue&) = delete;
  SolvQueue& operator=(const SolvQueue&) = delete;
  Queue* get() { return &q_; }
  Queue& operator*() { return q_; }
  Queue* operator->() { return &q_; }
  int size() const { return q_.count; }
  Id operator[](int i) const { return q_.elements[i]; }
  void push(Id id) { queue_push(&q_, id); }
  void push2(Id a, Id b) { queue_push2(&q_, a, b); }
  void clear() { queue_empty(&q_); }

 private:
  Queue q_;
};

}  // namespace extdeps::solve
