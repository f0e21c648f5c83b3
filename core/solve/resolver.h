// The resolver behind solve::resolve (internal to core/solve): the needs on their way through
// one solve, and the steps, split by concept: solve.cc loads the pool, maps the needs and
// solves; outcome.cc says what became of each need (the plan's records, why a need failed, the
// testcase).
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/solve/bundles.h"
#include "core/solve/explain.h"
#include "core/solve/pool_builder.h"
#include "core/solve/solve.h"

namespace extdeps::solve::detail {

// One requirement on its way through the solve.
struct Need {
  const Requirement* req = nullptr;
  RequirementOutcome outcome;
  Id name = 0;                          // host(dep:generic/x)
  std::vector<Id> in_range;             // its bundles whose upstream version is in the range (PEP 440 rules)
  std::unordered_set<Id> in_range_set;  // the same, to look up
  Id selection = 0;                     // the same as a whatprovides offset, for the job
  std::vector<std::pair<const LoadedProvider*, MappingView>> views;
  bool in_job = false;
  bool failed = false;
  // No table maps the id: it is worth a guess, and what was found named after it.
  bool unmapped = false;
  std::vector<std::string> guess_evidence;
  // The id is a pkg-config module name a table knows ("libcurl" is dep:generic/curl's): the
  // need was mapped through that entry, as a guess; the evidence says so.
  std::string module_guess;
  std::vector<Reason> conflict_lines;  // from the combined solve
  std::vector<Need*> dropped_for;      // the other needs of the problems that dropped it
};

class Resolver {
 public:
  Resolver(const Context& ctx, const mapping::Tables& tables)
      : ctx_(ctx), tables_(tables), b_(ctx), bundles_(b_), explain_(b_, bundles_) {}

  Result<Solution> run(const std::vector<Requirement>& reqs, std::vector<std::unique_ptr<Provider>>& providers,
                       const Options& opt);

 private:
  Result<void> load(std::vector<std::unique_ptr<Provider>>& providers, const Options& opt);
  void add_host(const detect::HostFacts& host);
  void canonicalize(Requirement& r, Need& n);
  void map_needs();
  void guess(Need& n);
  void guess_warnings();
  void cuda_warnings();
  void solve();
  // The steps of solve(), solve.cc.
  void mark_disfavored();
  void select_in_range(Need& n);
  void list_candidates(Need& n);
  int solve_with(Solver* solv, Need* extra);
  std::vector<Need*> involved_in(Solver* solv, int problem) const;
  bool met(const Need* n) const;
  bool drops_first(const Need* a, const Need* b) const;
  void charge(Solver* solv, Need* d, int problem, const std::vector<Need*>& involved);
  bool drop_until_solved(Solver* solv);
  void retry_dropped(Solver* solv);
  void try_removals(Solver* solv);
  std::map<std::string, std::vector<PlannedPackage>> record_removals(Solver* solv);
  void explain_failure(Need& n);
  Package package_of(Id p, const Bundle& bundle) const;
  void record_result(Solver* solv);
  void write_testcase(Solver* solv);

  const Context& ctx_;
  const mapping::Tables& tables_;
  PoolBuilder b_;
  BundleSet bundles_;
  Explainer explain_;
  std::vector<LoadedProvider> loaded_;
  std::vector<int> priority_;
  std::vector<int> installed_priority_;  // per loaded provider, for BundleSet::add
  std::vector<Need> needs_;
  // The requirements with the id the tables key on (an alias or another spelling replaced by
  // the entry's id); Need::req points here, the outcome keeps the requirement as written.
  std::vector<Requirement> canonical_;
  std::vector<Id> host_solvables_;
  std::vector<Id> disfavored_;
  std::unordered_set<Id> disfavored_set_;  // the same, to look up
  Id toolkit_ = 0;                         // an nvcc found on the machine, as an installed solvable
  std::string nvcc_version_;
  const detect::HostFacts* host_ = nullptr;
  bool guess_ = true;
  // Entries made up for unmapped ids (guess()); a deque, so MappingViews may point into it.
  std::deque<mapping::Entry> guesses_;
  Solution out_;
  std::string testcase_dir_;             // Options::testcase_dir
  std::optional<Error> testcase_error_;  // writing it failed
  std::vector<Need*> of_job_;            // the needs of the last solve's jobs, in job order
  // The installed packages of the managers that plan removals (Provider::plans_removals), and
  // whether the solve may take them out (try_removals).
  std::vector<Id> removable_;
  Id removable_selection_ = 0;  // the same as a whatprovides offset, for the job
  bool allow_removals_ = false;
  std::vector<const Need*> planned_by_removal_;  // failed without removals, planned with them
};

}  // namespace extdeps::solve::detail
