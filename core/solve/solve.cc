#include "core/solve/solve.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_set>

#include "core/declare/declare.h"
#include "core/detect/cuda_table.h"
#include "core/mapping/guess.h"
#include "core/mapping/spelling.h"
#include "core/provider/descriptor.h"
#include "core/solve/bundles.h"
#include "core/solve/explain.h"
#include "core/solve/guess.h"
#include "core/solve/pool_builder.h"
#include "core/solve/resolver.h"
#include "core/solve/testcase.h"
#include "core/util/text.h"
#include "core/util/timings.h"
#include "core/version/version.h"

namespace extdeps::solve {

namespace detail {

Result<void> Resolver::load(std::vector<std::unique_ptr<Provider>>& providers, const Options& opt) {
  // Installers in the user's order of preference, then every detector.
  std::vector<Provider*> order;
  std::set<std::string> known;
  for (auto& p : providers)
    if (!p->manager().empty()) known.insert(std::string(p->manager()));
  for (const auto& m : opt.managers) {
    if (!known.count(m)) {
      std::vector<std::string> k(known.begin(), known.end());
      Error e = bad_input("unknown package manager '" + m + "' (known here: " + join(k, ", ") + ")");
      e.what = "unknown package manager '" + m + "'";
      e.expected = "one of " + join(k, ", ");
      return e;
    }
    for (auto& p : providers)
      if (p->manager() == m) order.push_back(p.get());
  }
  if (opt.managers.empty())
    for (auto& p : providers)
      if (!p->manager().empty()) order.push_back(p.get());
  for (auto& p : providers)
    if (p->manager().empty()) order.push_back(p.get());

  int rank = 0;
  int system_priority = 0;  // of the system-wide manager, when named
  for (Provider* p : order) {
    if (!p->available(ctx_)) continue;
    int priority = p->manager().empty() ? 0 : 100 - 10 * rank++;
    if (p->system_wide() && !opt.managers.empty()) system_priority = priority;
    // The packages the tables name for these needs (the pool is pruned to their closure; the
    // .solv cache is kept per set of roots, so each project's warm run reads only its own).
    std::vector<std::string> roots;
    if (const mapping::Table* t = tables_.find_ecosystem(p->ecosystem()))
      for (const auto& n : needs_)
        if (const mapping::Entry* e = t->find(n.req->url.id()))
          for (const auto& name : e->all_packages()) roots.push_back(name);
    // The names a guess may look up must survive the pruning (an index without a table is not
    // pruned at all).
    if (!roots.empty())
      for (const auto& n : needs_)
        if (n.unmapped)
          for (auto& name : guess_names(*n.req, *p)) roots.push_back(std::move(name));
    auto lp = b_.add_provider(*p, priority, opt.use_cache, roots);
    if (!lp.ok()) return lp.error();
    loaded_.push_back(*lp);
    priority_.push_back(priority);
    // Without named managers whatever is installed meets a need. With them, what a manager
    // installed ranks with it; what a detector found (a pkg-config module) with the system's
    // manager, or below every manager when that is not named.
    if (opt.managers.empty()) installed_priority_.push_back(-1);
    else installed_priority_.push_back(p->manager().empty() ? system_priority : priority);
  }
  return {};
}

// The host as installed, locked virtual packages (DESIGN.md decision 4): __unix, __linux and
// __glibc (or __osx on macOS), __archspec, and __cuda / __cuda_arch when a driver is there.
void Resolver::add_host(const detect::HostFacts& h) {
  Pool* pool = b_.pool();
  Repo* repo = b_.installed();
  auto add = [&](const char* name, const std::string& version, std::vector<std::string> extra = {}) {
    Id p = repo_add_solvable(repo);
    Solvable* s = pool_id2solvable(pool, p);
    s->name = pool_str2id(pool, name, 1);
    s->evr = pool_str2id(pool, version::normalize_upstream(version.empty() ? "0" : version).c_str(), 1);
    s->arch = ARCH_NOARCH;
    s->provides = repo_addid_dep(repo, s->provides, pool_rel2id(pool, s->name, s->evr, REL_EQ, 1), 0);
    Repodata* data = repo_last_repodata(repo);
    repodata_set_poolstr(data, p, b_.native_version_key(), version.empty() ? "0" : version.c_str());
    for (const auto& e : extra) {
      Id evr = pool_str2id(pool, version::normalize_upstream(e).c_str(), 1);
      s->provides = repo_addid_dep(repo, s->provides, pool_rel2id(pool, s->name, evr, REL_EQ, 1), 0);
    }
    host_solvables_.push_back(p);
  };
  add("__unix", "0");
  if (h.os.id == "macos") {
    // conda's __osx: the macOS release (sw_vers -productVersion, or EXTDEPS_OVERRIDE_OS=macos:14).
    add("__osx", h.os.version_id);
  } else {
    std::string kernel = h.kernel.substr(0, h.kernel.find_first_not_of("0123456789."));
    if (!kernel.empty()) add("__linux", kernel);
    if (h.libc == "glibc" && !h.libc_version.empty()) add("__glibc", h.libc_version);
  }
  add("__archspec", "1");
  if (h.cuda.state == detect::CudaState::ok && !h.cuda.cuda_version.empty()) {
    add("__cuda", h.cuda.cuda_version);
    // conda's __cuda_arch (CEP 46): the oldest compute capability over the devices, the one a
    // package must still build for. Every device's stays in the facts.
    if (!h.cuda.devices.empty()) {
      auto [major, minor] = h.cuda.min_compute_capability();
      add("__cuda_arch", std::to_string(major) + "." + std::to_string(minor));
    }
  }
  // A CUDA toolkit on the machine (nvcc on PATH or under /usr/local/cuda*) is installed, as is.
  for (const auto& c : h.compilers) {
    if (c.name != "nvcc" || c.version.empty()) continue;
    Id p = repo_add_solvable(repo);
    Solvable* s = pool_id2solvable(pool, p);
    s->name = b_.name_id("host", "nvcc");
    s->evr = pool_str2id(pool, version::normalize_upstream(c.version).c_str(), 1);
    s->arch = ARCH_NOARCH;
    s->provides = repo_addid_dep(repo, s->provides, pool_rel2id(pool, s->name, s->evr, REL_EQ, 1), 0);
    Repodata* data = repo_last_repodata(repo);
    repodata_set_poolstr(data, p, b_.native_version_key(), c.version.c_str());
    repodata_set_poolstr(data, p, b_.origin_key(), c.path.c_str());
    repodata_internalize(data);
    toolkit_ = p;
    nvcc_version_ = c.version;
    break;
  }
  repodata_internalize(repo_last_repodata(repo));
}

// An alias, another case or another PURL spelling of a table's id becomes that id, so every
// table, bundle and guess sees one name; the outcome says which (canonical_id). A match that
// only ignored case where the type does not (generic) is worth a warning naming the spelling.
void Resolver::canonicalize(Requirement& r, Need& n) {
  const std::string written = r.url.id();
  const mapping::Entry* e = tables_.find(written);
  if (!e && guess_) {
    // Not an id, but maybe the name of a pkg-config module a table maps: the entry that ships
    // <name>.pc, found by the tables' own module lists.
    const std::string name = mapping::guess_name(written);
    for (const auto& t : tables_.tables) {
      for (const auto& entry : t.entries)
        for (const auto& m : entry.modules)
          if (!name.empty() && m == name && !e) {
            e = &entry;
            n.module_guess = "the pkg-config module " + m + ".pc is " + entry.id + "'s (" + t.ecosystem +
                             " table), so " + written + " is taken to be " + entry.id;
          }
    }
    if (e) e = tables_.find(e->id);  // the canonical entry, whichever table knows it first
  }
  if (!e || e->id == written) return;
  auto url = declare::parse_depurl(e->id);
  if (!url.ok()) return;  // the loader checked every id; nothing to do for one it let through
  r.url.type = url->type;
  r.url.ns = url->ns;
  r.url.name = url->name;
  n.outcome.canonical_id = e->id;
  if (!n.module_guess.empty() || e->spelled(written) || mapping::type_folds_case(written)) return;
  const std::string spelling = e->spelling_of(written);
  std::string w =
      written + " is spelled " + (spelling.empty() ? e->id : spelling) + " in the mapping tables; write it so";
  if (std::find(out_.warnings.begin(), out_.warnings.end(), w) == out_.warnings.end())
    out_.warnings.push_back(std::move(w));
}

void Resolver::map_needs() {
  std::vector<Id> names;
  for (auto& n : needs_) {
    const std::string id = n.req->url.id();
    for (const auto& lp : loaded_) {
      const mapping::Table* t = tables_.find_ecosystem(lp.provider->ecosystem());
      const mapping::Entry* e = t ? t->find(id) : nullptr;
      if (!e) continue;
      for (const auto& alt : alternatives_for(*e, n.req->category)) {
        for (const auto& pkg : alt.packages)
          if (Id x = b_.name_id(lp.provider->ecosystem(), pkg, false)) names.push_back(x);
        if (!alt.version.from.empty())
          if (Id x = b_.name_id(lp.provider->ecosystem(), alt.version.from, false)) names.push_back(x);
      }
    }
  }
  for (const auto& n : needs_) {
    if (!n.unmapped) continue;
    for (const auto& lp : loaded_)
      for (const auto& name : guess_packages(*n.req, lp, b_))
        if (Id x = b_.name_id(lp.provider->ecosystem(), name, false)) names.push_back(x);
  }
  bundles_.index_names(names);

  std::map<std::tuple<size_t, const mapping::Entry*, Category>, MappingView> views;
  std::set<std::pair<Category, std::string>> tools;  // installed-tool bundles made

  for (auto& n : needs_) {
    const std::string id = n.req->url.id();
    n.name = bundles_.need_name(n.req->category, id);
    for (size_t i = 0; i < loaded_.size(); ++i) {
      const auto& lp = loaded_[i];
      const mapping::Table* t = tables_.find_ecosystem(lp.provider->ecosystem());
      const mapping::Entry* e = t ? t->find(id) : nullptr;
      if (!e) continue;
      // Needs of one id and category share their bundles (made once, whatever the ranges).
      auto key = std::make_tuple(i, e, n.req->category);
      auto made = views.find(key);
      if (made == views.end())
        made = views.emplace(key, bundles_.add(lp, *e, n.req->category, priority_[i], installed_priority_[i])).first;
      n.views.emplace_back(&lp, made->second);
    }
    if (n.unmapped) guess(n);
    if (n.req->category != Category::run && toolkit_ && detect::is_cuda_toolkit_id(id) &&
        tools.emplace(n.req->category, id).second)
      bundles_.add_installed_tool(toolkit_, n.req->category, id, nvcc_version_);
  }
}

// An id no table maps: a made-up entry per provider whose indexes have names for it (guess.h).
void Resolver::guess(Need& n) {
  for (size_t i = 0; i < loaded_.size(); ++i) {
    auto g = guess_entry(*n.req, loaded_[i], b_, bundles_);
    if (!g) continue;
    n.guess_evidence.insert(n.guess_evidence.end(), g->evidence.begin(), g->evidence.end());
    guesses_.push_back(std::move(g->entry));
    n.views.emplace_back(
        &loaded_[i], bundles_.add(loaded_[i], guesses_.back(), n.req->category, priority_[i], installed_priority_[i]));
  }
}

// A need met by a guess holds, with a warning that says so, and what to do about it.
void Resolver::guess_warnings() {
  for (auto& n : needs_) {
    if (!n.module_guess.empty()) {
      n.outcome.guess = {n.module_guess};
      out_.warnings.push_back(n.outcome.requirement.url.id() + " is in no mapping table: " + n.module_guess +
                              "; check it, and add the id as an alias (docs/maintainers.md)");
      continue;
    }
    if (!n.unmapped || n.guess_evidence.empty()) continue;
    auto& o = n.outcome;
    o.guess = n.guess_evidence;
    if (o.status != Status::planned && o.status != Status::satisfied) continue;
    std::string chosen;
    for (const auto& p : o.packages) chosen += (chosen.empty() ? "" : ", ") + p.name;
    // A typo of a known id can match a real package too: say what it may have meant.
    o.suggestions = mapping::did_you_mean(n.req->url.id(), tables_.known_ids());
    out_.warnings.push_back(n.req->url.id() + " is in no mapping table: " + chosen +
                            " is a guess from its name, not a maintained mapping; check it, and add "
                            "the id to a mapping table (docs/maintainers.md)" +
                            (o.suggestions.empty() ? "" : " (did you mean " + join(o.suggestions, ", ") + "?)"));
  }
}

// Only some providers' records carry track_features (Provider::has_track_features: conda).
// Asking is a repodata lookup per solvable (13 ms of a warm apt resolve when tried for every
// provider), so the others are not asked.
void Resolver::mark_disfavored() {
  Pool* pool = b_.pool();
  for (const auto& lp : loaded_) {
    if (!lp.available || !lp.provider->has_track_features()) continue;
    for (Id p = lp.available->start; p < lp.available->end; ++p)
      if (pool_id2solvable(pool, p)->repo == lp.available && b_.track_features(p)) {
        disfavored_.push_back(p);
        disfavored_set_.insert(p);
      }
  }
}

// The need's bundles in its range, as the job's selection. The range is checked here with PEP
// 440's own rules (declare::range_contains: wildcards, pre-releases of an exclusive bound, local
// labels), not turned into pool relations, whose order can only approximate them at the edges.
void Resolver::select_in_range(Need& n) {
  Pool* pool = b_.pool();
  Id p, pp;
  SolvQueue sel;
  FOR_PROVIDES(p, pp, n.name) {
    const Bundle* bundle = bundles_.find(p);
    // A bundle whose version is unknown (a rule that reads none, a regex that did not match)
    // meets only a need without a range: 0, which an empty version compares as, is no version.
    if (bundle && (n.req->range.any() || !bundle->upstream.empty()) &&
        declare::range_contains(n.req->range, version::upstream_as_pep440(bundle->upstream))) {
      n.in_range.push_back(p);
      n.in_range_set.insert(p);
      sel.push(p);
    }
  }
  if (n.in_range.empty()) n.failed = true;
  else n.selection = pool_queuetowhatprovides(pool, sel.get());
  // A mapping bundle over a disfavored package is disfavored too: the job chooses bundles.
  for (Id x : n.in_range)
    if (disfavored_set_.count(bundles_.find(x)->from) && disfavored_set_.insert(x).second) disfavored_.push_back(x);
}

// What the need's candidates are, for the outcome: one line per package version, the installed
// one when the index has it too. By package name, then newest first: the order of the pool
// differs between a run that read the indexes and one that read the .solv cache, and what is
// said must not.
void Resolver::list_candidates(Need& n) {
  Pool* pool = b_.pool();
  std::map<std::string, size_t> line_of;
  std::vector<std::pair<Id, std::string>> lines;  // the package's solvable, its line
  Id p, pp;
  FOR_PROVIDES(p, pp, n.name) {
    const Bundle* bundle = bundles_.find(p);
    if (!bundle) continue;
    std::string line = explain_.solvable(bundle->from) + " gives " + bundle->upstream;
    Solvable* from = pool_id2solvable(pool, bundle->from);
    std::string key = std::string(pool_id2str(pool, from->name)) + " " + pool_id2str(pool, from->evr);
    auto it = line_of.find(key);
    if (it == line_of.end()) {
      line_of.emplace(key, lines.size());
      lines.emplace_back(bundle->from, std::move(line));
    } else if (from->repo == pool->installed) {
      lines[it->second] = {bundle->from, std::move(line)};
    }
  }
  std::stable_sort(lines.begin(), lines.end(), [&](const auto& a, const auto& b) {
    Solvable* sa = pool_id2solvable(pool, a.first);
    Solvable* sb = pool_id2solvable(pool, b.first);
    if (sa->name != sb->name) return std::strcmp(pool_id2str(pool, sa->name), pool_id2str(pool, sb->name)) < 0;
    return pool_evrcmp(pool, sa->evr, sb->evr, EVRCMP_COMPARE) > 0;
  });
  for (auto& [from, line] : lines) n.outcome.candidates.push_back(std::move(line));
}

// Solves the jobs of the needs not dropped (and `extra`), in the declaration's order; of_job_
// maps a job's index back to its need. Returns the number of problems.
int Resolver::solve_with(Solver* solv, Need* extra) {
  Pool* pool = b_.pool();
  SolvQueue job;
  of_job_.clear();
  for (auto& n : needs_) {
    if (!n.in_job || (n.failed && &n != extra)) continue;
    job.push2(SOLVER_INSTALL | SOLVER_SOLVABLE_ONE_OF, n.selection);
    of_job_.push_back(&n);
  }
  // Installed mapping bundles may go when a package they pin is upgraded for another need.
  SolvQueue inst;
  for (Id p = b_.installed()->start; p < b_.installed()->end; ++p)
    if (bundles_.find(p)) inst.push(p);
  if (inst.size()) {
    Id sel = pool_queuetowhatprovides(pool, inst.get());
    job.push2(SOLVER_ALLOWUNINSTALL | SOLVER_SOLVABLE_ONE_OF, sel);
  }
  if (allow_removals_ && removable_selection_)
    job.push2(SOLVER_ALLOWUNINSTALL | SOLVER_SOLVABLE_ONE_OF, removable_selection_);
  for (Id h : host_solvables_) job.push2(SOLVER_LOCK | SOLVER_SOLVABLE, h);
  // conda's track_features: a package that has them is chosen only when nothing else will do.
  for (Id p : disfavored_) job.push2(SOLVER_DISFAVOR | SOLVER_SOLVABLE, p);
  return solver_solve(solv, job.get());
}

// The needs whose jobs a problem's rules name.
std::vector<Need*> Resolver::involved_in(Solver* solv, int problem) const {
  SolvQueue rules;
  solver_findallproblemrules(solv, problem, rules.get());
  std::vector<Need*> involved;
  for (int r = 0; r < rules.size(); ++r) {
    if (solver_ruleclass(solv, rules[r]) != SOLVER_RULE_JOB) continue;
    int idx = solver_rule2jobidx(solv, rules[r]);
    if (idx < 0 || idx / 2 >= static_cast<int>(of_job_.size())) continue;
    Need* n = of_job_[idx / 2];
    if (std::find(involved.begin(), involved.end(), n) == involved.end()) involved.push_back(n);
  }
  return involved;
}

// Whether the machine already meets the need.
bool Resolver::met(const Need* n) const {
  for (Id p : n->in_range)
    if (bundles_.find(p)->installed) return true;
  return false;
}

// The victim of a problem: a need not met yet before one that is, the later one in the
// declaration first; the order the second look (retry_dropped) goes the other way.
bool Resolver::drops_first(const Need* a, const Need* b) const {
  return (met(b) && !met(a)) || (met(a) == met(b) && a->req > b->req);
}

// A problem charged to the need it drops: its rules in words (each line once), and the other
// needs it names.
void Resolver::charge(Solver* solv, Need* d, int problem, const std::vector<Need*>& involved) {
  for (auto& l : explain_.problem(solv, problem))
    if (std::none_of(d->conflict_lines.begin(), d->conflict_lines.end(),
                     [&](const Reason& r) { return r.text == l.text; }))
      d->conflict_lines.push_back(std::move(l));
  for (Need* n : involved)
    if (n != d && std::find(d->dropped_for.begin(), d->dropped_for.end(), n) == d->dropped_for.end()) {
      d->conflict_lines.push_back({"it cannot be planned together with " + n->req->spec, ReasonKind::conflict});
      d->dropped_for.push_back(n);
    }
}

// Solves, dropping one need per problem until none is left: two needs that conflict fail one,
// not both, and a need that is already met is the last to be dropped. False when a problem
// could not be tied to a need (then the solve stops there).
bool Resolver::drop_until_solved(Solver* solv) {
  for (size_t round = 0; round <= needs_.size(); ++round) {
    int problems = solve_with(solv, nullptr);
    if (problems == 0) return true;
    bool marked = false;
    for (int i = 1; i <= problems; ++i) {
      std::vector<Need*> involved = involved_in(solv, i);
      if (involved.empty()) continue;
      Need* victim = nullptr;
      for (Need* n : involved)
        if (n->failed) victim = n;  // already dropped by an earlier problem of this round
      if (!victim) {
        for (Need* n : involved)
          if (!victim || drops_first(n, victim)) victim = n;
        victim->failed = true;
        marked = true;
      }
      charge(solv, victim, i, involved);
    }
    if (!marked) {
      out_.problems.push_back({"", "the solver found a problem it could not tie to one requirement", {}});
      return false;
    }
  }
  return true;
}

// libsolv's proof of a problem names every job whose unit decisions it used, not only those that
// conflict: a need dropped beside one that failed for reasons of its own (a package the machine
// has that its candidate conflicts with) may fit the plan after all. Such a need is tried again
// with the needs kept, most wanted first; one that still fails is explained by that solve,
// against what is planned.
void Resolver::retry_dropped(Solver* solv) {
  std::vector<Need*> second;
  for (auto& n : needs_)
    if (n.in_job && n.failed &&
        std::any_of(n.dropped_for.begin(), n.dropped_for.end(), [](const Need* o) { return o->failed; }))
      second.push_back(&n);
  std::sort(second.begin(), second.end(), [&](const Need* a, const Need* b) { return drops_first(b, a); });
  bool last_failed = false;
  for (Need* d : second) {
    int problems = solve_with(solv, d);
    last_failed = problems != 0;
    d->conflict_lines.clear();
    d->dropped_for.clear();
    if (!last_failed) {
      d->failed = false;
      continue;
    }
    for (int i = 1; i <= problems; ++i) charge(solv, d, i, involved_in(solv, i));
  }
  // The solver holds the last solve: when that was a failed try, the plan is solved again.
  if (last_failed) solve_with(solv, nullptr);
}

// Needs still failed after the solve that keeps every installed package may have a plan that
// removes some, as the manager itself would offer (apt: libhts-dev needs libcurl4-gnutls-dev,
// which conflicts with an installed libcurl4-openssl-dev). They are solved again, with the
// installed packages of the managers that plan removals allowed to go (libsolv still keeps
// every one it can). That plan is taken only when it meets every need the first one met and
// more; otherwise the first plan stands, as it was.
void Resolver::try_removals(Solver* solv) {
  auto dropped = [](const Need& n) { return n.in_job && n.failed && !n.in_range.empty(); };
  if (std::none_of(needs_.begin(), needs_.end(), dropped)) return;
  // The installed packages a manager may plan away: never a mapping bundle nor the host, nor
  // one its manager keeps (Provider::never_removed).
  Pool* pool = b_.pool();
  for (const auto& lp : loaded_) {
    if (!lp.provider->plans_removals()) continue;
    const std::vector<std::string> kept = lp.provider->never_removed(ctx_);
    const std::unordered_set<std::string_view> keep(kept.begin(), kept.end());
    for (Id p = lp.installed_start; p < lp.installed_end; ++p) {
      Solvable* s = pool_id2solvable(pool, p);
      if (s->repo == b_.installed() && !bundles_.find(p) &&
          !keep.count(PoolBuilder::native_name(pool_id2str(pool, s->name))))
        removable_.push_back(p);
    }
  }
  if (removable_.empty()) return;
  SolvQueue removable;
  for (Id p : removable_) removable.push(p);
  removable_selection_ = pool_queuetowhatprovides(pool, removable.get());
  struct Saved {
    bool failed;
    std::vector<Reason> conflict_lines;
    std::vector<Need*> dropped_for;
  };
  std::vector<Saved> saved;
  saved.reserve(needs_.size());
  for (auto& n : needs_) {
    saved.push_back({n.failed, n.conflict_lines, n.dropped_for});
    if (!dropped(n)) continue;
    n.failed = false;  // tried again
    n.conflict_lines.clear();
    n.dropped_for.clear();
  }
  const std::size_t problems_before = out_.problems.size();
  allow_removals_ = true;
  if (drop_until_solved(solv)) retry_dropped(solv);
  bool better = out_.problems.size() == problems_before;
  bool gained = false;
  for (std::size_t i = 0; i < needs_.size(); ++i) {
    if (needs_[i].failed && !saved[i].failed) better = false;  // one the first plan met is lost
    if (!needs_[i].failed && saved[i].failed) gained = true;
  }
  if (better && gained) {
    for (std::size_t i = 0; i < needs_.size(); ++i)
      if (!needs_[i].failed && saved[i].failed) planned_by_removal_.push_back(&needs_[i]);
    return;
  }
  out_.problems.resize(problems_before);
  for (std::size_t i = 0; i < needs_.size(); ++i) {
    needs_[i].failed = saved[i].failed;
    needs_[i].conflict_lines = std::move(saved[i].conflict_lines);
    needs_[i].dropped_for = std::move(saved[i].dropped_for);
  }
  allow_removals_ = false;
  solve_with(solv, nullptr);  // the solver holds the first plan again
}

void Resolver::solve() {
  for (auto& n : needs_)
    if (n.outcome.status != Status::unmapped && !n.views.empty()) n.in_job = true;
  mark_disfavored();
  pool_createwhatprovides(b_.pool());
  for (auto& n : needs_) {
    if (!n.in_job) continue;
    select_in_range(n);
    list_candidates(n);
  }
  // One solver for every solve: libsolv keeps its package rules between solves, and a later
  // solve's jobs are those of the first less the dropped needs, so only the first makes them.
  SolverPtr solv(solver_create(b_.pool()));
  const bool solved = drop_until_solved(solv.get());
  if (solved) retry_dropped(solv.get());
  explain_.set_removable(&removable_);
  if (solved) try_removals(solv.get());
  if (!testcase_dir_.empty()) write_testcase(solv.get());
  record_result(solv.get());
  // Why each candidate of a failed need cannot be installed is asked of libsolv one candidate at a
  // time; one solve of them all first answers for every candidate that can be.
  std::vector<Id> candidates;
  for (auto& n : needs_)
    if (n.in_job && n.failed) candidates.insert(candidates.end(), n.in_range.begin(), n.in_range.end());
  explain_.try_together(candidates);
  for (auto& n : needs_)
    if (n.in_job && n.failed) explain_failure(n);
}

// A build-only plan for CUDA needs no driver, but what it builds will.
void Resolver::cuda_warnings() {
  if (!host_ || host_->cuda.state == detect::CudaState::ok) return;
  for (const auto& n : needs_) {
    const auto& o = n.outcome;
    if (n.req->category == Category::run || !detect::is_cuda_id(n.req->url.id())) continue;
    if (o.status != Status::planned && o.status != Status::satisfied) continue;
    std::string need;
    if (!o.packages.empty()) {
      const Package& p = o.packages[0];
      if (auto tk =
              detect::cuda_toolkit(mapping::upstream_version({version_rule_of(p.manager), "", "", {}}, p.version)))
        need = " supporting CUDA " + std::string(tk->min_cuda) + " or newer";
    }
    out_.warnings.push_back(n.req->url.id() +
                            " is planned for building only: this machine has no usable NVIDIA driver (" +
                            std::string(detect::cuda_state_name(host_->cuda.state)) +
                            "); what is built will need a driver" + need + " where it runs");
  }
}

Result<Solution> Resolver::run(const std::vector<Requirement>& reqs, std::vector<std::unique_ptr<Provider>>& providers,
                               const Options& opt) {
  guess_ = opt.guess_unmapped;
  testcase_dir_ = opt.testcase_dir;
  canonical_ = reqs;
  // A need written more than once (same DepURL, range, category, group and marker) is solved
  // once and reported at each place it was written: 8,000 copies cost what one does.
  std::map<std::tuple<std::string, std::string, Category, std::optional<std::string>, std::string>, size_t> first;
  std::vector<size_t> need_of(reqs.size());
  needs_.reserve(reqs.size());
  for (size_t i = 0; i < reqs.size(); ++i) {
    const Requirement& r = reqs[i];
    auto [it, fresh] =
        first.emplace(std::make_tuple(r.url.str(), r.range.str(), r.category, r.group, r.marker), needs_.size());
    need_of[i] = it->second;
    if (!fresh) continue;
    Need& n = needs_.emplace_back();
    canonicalize(canonical_[i], n);
    n.req = &canonical_[i];
    n.outcome.requirement = r;
    const std::string id = canonical_[i].url.id();
    n.unmapped = guess_ && std::none_of(tables_.tables.begin(), tables_.tables.end(),
                                        [&](const mapping::Table& t) { return t.find(id) != nullptr; });
  }
  {
    timings::Phase t("pool-load");
    if (auto r = load(providers, opt); !r.ok()) return r.error();
  }
  host_ = opt.host;
  if (host_) {
    add_host(*host_);
    bundles_.set_host(host_);
    explain_.set_host(host_);
  }
  std::optional<timings::Phase> mapping_phase;
  mapping_phase.emplace("mapping");
  map_needs();
  std::optional<std::vector<std::string>> known;
  for (auto& n : needs_) {
    if (!n.views.empty()) continue;
    const std::string id = n.req->url.id();
    std::vector<std::string> elsewhere;
    for (const auto& t : tables_.tables)
      if (t.find(id)) elsewhere.push_back(t.ecosystem);
    if (elsewhere.empty()) {
      n.outcome.status = Status::unmapped;
      // Every id of every table: asked for only when a need is unmapped (it grows with the tables).
      if (!known) known = tables_.known_ids();
      n.outcome.suggestions = mapping::did_you_mean(id, *known);
      n.outcome.message = "no mapping table knows " + id;
      if (!n.outcome.suggestions.empty())
        n.outcome.message += " (did you mean " + join(n.outcome.suggestions, ", ") + "?)";
      else if (n.unmapped) {
        // Which rules were tried, per manager, so the user knows what "named after" covered.
        std::string tried;
        for (const auto& lp : loaded_) {
          std::string rules =
              mapping::guess_rules(id, lp.provider->ecosystem(), lp.provider->manager(), n.req->category);
          if (rules.empty()) continue;
          std::string who(lp.provider->manager().empty() ? lp.provider->ecosystem() : lp.provider->manager());
          tried += (tried.empty() ? "" : "; ") + who + ": " + rules;
        }
        if (!tried.empty()) n.outcome.message += ", and nothing here is named after it (tried " + tried + ")";
      }
    } else {
      n.outcome.status = Status::unsatisfiable;
      n.outcome.message = "no package manager here maps " + id + " (it is mapped for " + join(elsewhere, ", ") +
                          ", which is not in use here)";
    }
    out_.problems.push_back({n.req->spec, n.outcome.message, {}});
  }
  mapping_phase.reset();
  {
    timings::Phase t("solve");
    solve();
  }
  if (testcase_error_) return *testcase_error_;
  cuda_warnings();
  guess_warnings();
  for (size_t i = 0; i < reqs.size(); ++i) {
    out_.requirements.push_back(needs_[need_of[i]].outcome);
    out_.requirements.back().requirement = reqs[i];
  }
  return std::move(out_);
}

}  // namespace detail

Result<Solution> resolve(const Context& ctx, const std::vector<Requirement>& requirements,
                         const mapping::Tables& tables, std::vector<std::unique_ptr<Provider>>& providers,
                         const Options& options) {
  detail::Resolver r(ctx, tables);
  return r.run(requirements, providers, options);
}

}  // namespace extdeps::solve
