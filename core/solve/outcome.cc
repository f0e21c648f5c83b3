// What became of each need after the solve: the packages the plan installs or finds installed,
// why a need failed (what each mapping said, what is out of range, why a candidate cannot be
// installed), and the libsolv testcase of the solve.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "core/detect/cuda_table.h"
#include "core/solve/resolver.h"
#include "core/solve/testcase.h"
#include "core/util/text.h"

namespace extdeps::solve::detail {

Package Resolver::package_of(Id p, const Bundle& bundle) const {
  Pool* pool = b_.pool();
  Solvable* s = pool_id2solvable(pool, p);
  Package pkg;
  pkg.ecosystem = bundle.ecosystem;
  pkg.manager = bundle.manager.empty() ? bundle.ecosystem : bundle.manager;
  pkg.name = PoolBuilder::native_name(pool_id2str(pool, s->name));
  pkg.version = b_.native_version(p);
  pkg.installed = s->repo == pool->installed;
  if (pkg.installed) pkg.where = b_.origin(p);
  return pkg;
}

void Resolver::explain_failure(Need& n) {
  Pool* pool = b_.pool();
  auto& o = n.outcome;
  o.status = Status::unsatisfiable;
  std::vector<Reason> details;
  std::map<std::size_t, std::size_t> driver_from;  // a detail -> where its driver sentence starts
  std::string spec = n.req->url.id() + (n.req->range.any() ? "" : " " + n.req->range.str());
  // What each mapping said, and what this machine's indexes lack.
  for (const auto& [lp, view] : n.views) {
    std::string m(lp->provider->manager().empty() ? lp->provider->ecosystem() : lp->provider->manager());
    if (view.alternatives.empty()) {
      std::string note = view.entry && !view.entry->note.empty() ? ": " + view.entry->note : "";
      details.push_back({m + ": the " + std::string(lp->provider->ecosystem()) + " mapping has no package for " +
                         std::string(category_name(n.req->category)) + note});
    }
    for (const auto& why : view.missing) details.push_back({m + ": " + why});
  }
  // Candidates that exist: outside the range (the newest of each package is named first), or
  // not installable, and why.
  Id p, pp;
  std::set<std::string> seen;
  std::map<Id, Id> newest_outside;  // package name -> its newest bundle outside the range
  std::vector<Id> inside;
  FOR_PROVIDES(p, pp, n.name) {
    const Bundle* bundle = bundles_.find(p);
    if (!bundle) continue;
    if (n.in_range_set.count(p)) {
      inside.push_back(p);
      continue;
    }
    Id name = pool_id2solvable(pool, bundle->from)->name;
    auto it = newest_outside.find(name);
    if (it == newest_outside.end() ||
        pool_evrcmp(pool, pool_id2solvable(pool, bundle->from)->evr,
                    pool_id2solvable(pool, bundles_.find(it->second)->from)->evr, EVRCMP_COMPARE) > 0)
      newest_outside[name] = p;
  }
  for (const auto& [name, b] : newest_outside) {
    const Bundle* bundle = bundles_.find(b);
    // An unknown version (the table's rule reads none, or its regex or map has no answer for
    // this one) proves presence only.
    details.push_back({explain_.solvable(bundle->from) +
                           (bundle->upstream.empty() ? " gives no version its mapping can read, so it cannot meet "
                                                     : " gives version " + bundle->upstream + ", which is not ") +
                           n.req->range.str(),
                       ReasonKind::out_of_range});
  }
  for (Id c : inside) {
    std::string who = explain_.solvable(bundles_.find(c)->from);
    if (!seen.insert(who).second) continue;
    auto why = explain_.why_not_installable(c);
    if (why.empty()) continue;
    // A driver among the reasons makes the line a driver's; the headline then starts there.
    Reason line{who + " cannot be installed: ", ReasonKind::not_installable};
    for (std::size_t i = 0; i < why.size(); ++i) {
      if (why[i].kind == ReasonKind::driver && line.kind != ReasonKind::driver) {
        line.kind = ReasonKind::driver;
        driver_from[details.size()] = line.text.size();
      }
      line.text += (i ? "; " : "") + why[i].text;
    }
    details.push_back(std::move(line));
  }
  for (const auto& line : n.conflict_lines) details.push_back(line);
  // A CUDA run need where no driver runs: whatever the indexes hold, nothing can meet it here,
  // and that is what the user can act on (install a driver, or ask for a build-only plan).
  if (host_ && n.req->category == Category::run && detect::is_cuda_id(n.req->url.id()) &&
      host_->cuda.state != detect::CudaState::ok &&
      std::none_of(details.begin(), details.end(), [](const Reason& d) { return d.kind == ReasonKind::driver; }))
    details.push_back({"this plan needs an NVIDIA driver to run CUDA code, and this machine has none (" +
                           std::string(detect::cuda_state_name(host_->cuda.state)) +
                           "); install one, or select only build and host needs (--category build,host)",
                       ReasonKind::driver});
  if (details.empty()) details.push_back({"no package manager here offers it"});
  // The headline is the strongest reason: a driver, then a candidate that cannot be installed,
  // then a conflict with the rest of the plan, then versions out of range, then what is absent.
  // A driver is the whole story only when it is what stops every candidate that could be
  // installed otherwise; where others fail for their own reasons (a glibc too old), those lead.
  bool other_reasons = std::any_of(details.begin(), details.end(),
                                   [](const Reason& d) { return d.kind == ReasonKind::not_installable; });
  auto strength = [other_reasons](const Reason& d) {
    if (d.kind == ReasonKind::driver) return other_reasons ? 3 : 5;
    return static_cast<int>(d.kind);
  };
  std::size_t best = 0;
  for (std::size_t i = 1; i < details.size(); ++i)
    if (strength(details[i]) > strength(details[best])) best = i;
  o.message = "no package manager here provides " + spec + " (" + details[best].text + ")";
  // A missing or old driver is the whole story: say it first, as it is.
  if (details[best].kind == ReasonKind::driver) {
    auto from = driver_from.find(best);
    o.message = details[best].text.substr(from == driver_from.end() ? 0 : from->second);
  }
  std::vector<std::string> lines;
  for (auto& d : details) lines.push_back(std::move(d.text));
  out_.problems.push_back({n.req->spec, o.message, std::move(lines)});
}

// The final solve as a libsolv testcase (core/solve/testcase.h).
void Resolver::write_testcase(Solver* solv) {
  if (auto written = solve::write_testcase(b_.pool(), solv, bundles_, testcase_dir_); !written.ok())
    testcase_error_ = written.error();
}

void Resolver::record_result(Solver* solv) {
  Pool* pool = b_.pool();
  std::map<std::string, std::vector<PlannedPackage>> planned;  // by manager
  std::set<Id> planned_ids;
  for (auto& n : needs_) {
    if (!n.in_job || n.failed) continue;
    // Of the bundles in the result, show the installed one, of the preferred manager, of the
    // first alternative (gcc before clang when both are there).
    Id chosen = 0;
    auto rank = [&](Id p) {
      const Bundle* b = bundles_.find(p);
      return std::make_tuple(!b->installed, -b->priority, b->alternative, b->stand_in);
    };
    for (Id p : n.in_range) {
      if (!bundles_.find(p) || solver_get_decisionlevel(solv, p) <= 0) continue;
      if (!chosen || rank(p) < rank(chosen)) chosen = p;
    }
    if (!chosen) continue;
    const Bundle& bundle = *bundles_.find(chosen);
    n.outcome.status = bundle.installed ? Status::satisfied : Status::planned;
    for (Id name : bundle.names) {
      // The package of that name in the result; failing that (a name the mapping gives that only
      // virtual packages provide), the provider the solve chose.
      Id q, qq, pick = 0, virtual_pick = 0;
      FOR_PROVIDES(q, qq, name) {
        Solvable* s = pool_id2solvable(pool, q);
        if (solver_get_decisionlevel(solv, q) <= 0) continue;
        if (s->name != name) {
          if (!virtual_pick) virtual_pick = q;
          continue;
        }
        pick = q;
        if (s->repo == pool->installed) break;
      }
      if (!pick) pick = virtual_pick;
      if (!pick) continue;
      auto pkg = package_of(pick, bundle);
      if (!pkg.installed && planned_ids.insert(pick).second)
        planned[pkg.manager].push_back(
            {pkg.name, pkg.version, pool_id2str(pool, pool_id2solvable(pool, pick)->arch), b_.build_string(pick)});
      n.outcome.packages.push_back(std::move(pkg));
    }
    // A bundle not installed whose every package is (a name only an installed package provides:
    // rpm's libcurl-minimal for libcurl) is met already; there is nothing to plan.
    if (n.outcome.status == Status::planned && !n.outcome.packages.empty() &&
        std::all_of(n.outcome.packages.begin(), n.outcome.packages.end(), [](const Package& p) { return p.installed; }))
      n.outcome.status = Status::satisfied;
  }
  // Installed packages the solve upgrades (libssl3 for a newer libssl-dev) are pinned too:
  // apt's own choice could be another version than the one the plan was checked with.
  std::set<Id> installed_names;
  for (Id p = b_.installed()->start; p < b_.installed()->end; ++p)
    if (pool_id2solvable(pool, p)->repo == b_.installed()) installed_names.insert(pool_id2solvable(pool, p)->name);
  // conda and pip plans are the whole environment change the solve made (every package of the
  // closure, pinned to name, version and build), so what they install is what was checked here.
  for (const auto& lp : loaded_) {
    if (lp.provider->manager().empty() || !lp.available) continue;
    bool whole = lp.provider->pins_closure();
    for (Id p = lp.available->start; p < lp.available->end; ++p) {
      Solvable* s = pool_id2solvable(pool, p);
      if (s->repo != lp.available || solver_get_decisionlevel(solv, p) <= 0) continue;
      if ((!whole && !installed_names.count(s->name)) || !planned_ids.insert(p).second) continue;
      planned[std::string(lp.provider->manager())].push_back(
          {std::string(PoolBuilder::native_name(pool_id2str(pool, s->name))), b_.native_version(p),
           pool_id2str(pool, s->arch), b_.build_string(p)});
    }
  }
  std::map<std::string, std::vector<PlannedPackage>> removed = record_removals(solv);
  for (const auto& lp : loaded_) {
    std::string m(lp.provider->manager());
    auto it = planned.find(m);
    auto gone = removed.find(m);
    if (m.empty() || (it == planned.end() && gone == removed.end())) continue;
    out_.planned.push_back({lp.provider, it == planned.end() ? std::vector<PlannedPackage>{} : it->second,
                            gone == removed.end() ? std::vector<PlannedPackage>{} : gone->second});
  }
}

// The installed packages the solve takes out (only when try_removals let it), per manager, each
// with why: the package the plan installs that conflicts with it (either way round), else the
// removed package it depends on. An installed package replaced by another version of itself is
// an upgrade, not a removal.
std::map<std::string, std::vector<PlannedPackage>> Resolver::record_removals(Solver* solv) {
  std::map<std::string, std::vector<PlannedPackage>> out;
  if (!allow_removals_) return out;
  Pool* pool = b_.pool();
  std::vector<Id> gone;
  for (Id p : removable_) {
    if (solver_get_decisionlevel(solv, p) >= 0) continue;
    Solvable* s = pool_id2solvable(pool, p);
    Id q, qq;
    bool upgraded = false;
    FOR_PROVIDES(q, qq, s->name) {
      if (pool_id2solvable(pool, q)->name == s->name && solver_get_decisionlevel(solv, q) > 0) upgraded = true;
    }
    if (!upgraded) gone.push_back(p);
  }
  if (gone.empty()) return out;
  // What the plan installs: the solvables decided in that are not installed.
  std::vector<Id> added;
  for (const auto& lp : loaded_)
    if (lp.available)
      for (Id q = lp.available->start; q < lp.available->end; ++q)
        if (pool_id2solvable(pool, q)->repo == lp.available && solver_get_decisionlevel(solv, q) > 0)
          added.push_back(q);
  // Whether a relation list of `from` (its conflicts) names `to`.
  auto names = [&](Id from, Offset list, Id to) {
    Solvable* f = pool_id2solvable(pool, from);
    for (Id* d = f->repo->idarraydata + list; list && *d; ++d)
      if (pool_match_nevr(pool, pool_id2solvable(pool, to), *d)) return true;
    return false;
  };
  std::vector<std::string> needs;
  for (const Need* n : planned_by_removal_) needs.push_back(n->req->spec);
  for (Id p : gone) {
    Solvable* s = pool_id2solvable(pool, p);
    std::string reason;
    for (Id q : added) {
      if (names(q, pool_id2solvable(pool, q)->conflicts, p)) reason = explain_.solvable(q) + " conflicts with it";
      else if (names(p, s->conflicts, q)) reason = "it conflicts with " + explain_.solvable(q);
      if (!reason.empty()) break;
    }
    for (Id r : gone) {
      if (!reason.empty()) break;
      Id* d = s->requires_ ? s->repo->idarraydata + s->requires_ : nullptr;
      for (; d && *d && reason.empty(); ++d)
        if (r != p && pool_match_nevr(pool, pool_id2solvable(pool, r), *d))
          reason = "it depends on " + explain_.dep(*d) + ", which the plan removes";
    }
    if (reason.empty()) reason = "the plan cannot keep it";
    const LoadedProvider* owner = nullptr;
    for (const auto& lp : loaded_)
      if (p >= lp.installed_start && p < lp.installed_end) owner = &lp;
    const std::string manager(owner ? owner->provider->manager() : std::string_view());
    std::string name(PoolBuilder::native_name(pool_id2str(pool, s->name)));
    std::string version = b_.native_version(p);
    PlannedPackage removed{name, version, pool_id2str(pool, s->arch), b_.build_string(p)};
    // A need met by a file of this package (a detector's .pc file) may not be met after the plan.
    if (owner)
      for (const std::string& file : owner->provider->package_files(ctx_, removed))
        for (const auto& n : needs_)
          for (const auto& pkg : n.outcome.packages)
            if (pkg.installed && pkg.where == file && n.outcome.status == Status::satisfied)
              out_.warnings.push_back(n.req->spec + " is met here by " + file + ", a file of " + name +
                                      ", which this plan removes: after the plan it is met only if a package "
                                      "the plan installs has that file too (extdeps check says)");
    out[manager].push_back(std::move(removed));
    out_.removals.push_back({manager, std::move(name), std::move(version), std::move(reason), needs});
  }
  return out;
}

}  // namespace extdeps::solve::detail
