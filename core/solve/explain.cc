#include "core/solve/explain.h"

#include "core/detect/cuda_table.h"

#include <algorithm>

namespace extdeps::solve {

std::string Explainer::solvable(Id p) const {
  Pool* pool = b_.pool();
  if (p == SYSTEMSOLVABLE) return "the system";
  Solvable* s = pool_id2solvable(pool, p);
  if (const Bundle* bundle = bundles_.find(p)) {
    std::string out = "the " + bundle->ecosystem + " mapping of " + bundle->id + " (";
    for (size_t i = 0; i < bundle->names.size(); ++i) {
      if (i) out += ", ";
      out += PoolBuilder::native_name(pool_id2str(pool, bundle->names[i]));
    }
    return out + ")";
  }
  std::string name = pool_id2str(pool, s->name);
  std::string eco(PoolBuilder::ecosystem_of(name));
  std::string out = std::string(PoolBuilder::native_name(name)) + " " + b_.native_version(p);
  out += s->repo == pool->installed ? " (" + eco + ", installed)" : " (" + eco + ")";
  return out;
}

std::string Explainer::dep(Id d) const {
  Pool* pool = b_.pool();
  if (!ISRELDEP(d)) {
    std::string n = pool_id2str(pool, d);
    return std::string(PoolBuilder::native_name(n));
  }
  Reldep* rd = GETRELDEP(pool, d);
  if (rd->flags == REL_OR || rd->flags == REL_WITH || rd->flags == REL_AND) {
    // The operands of a chain of one operator, in order, without recursion; the first few are
    // named (a Depends of 50,000 alternatives is no sentence).
    constexpr size_t kShown = 20;
    const int flags = rd->flags;
    const std::string sep = flags == REL_OR ? " | " : flags == REL_WITH ? ", " : " and ";
    std::vector<Id> stack{d}, operands;
    while (!stack.empty()) {
      Id x = stack.back();
      stack.pop_back();
      if (ISRELDEP(x) && GETRELDEP(pool, x)->flags == flags) {
        stack.push_back(GETRELDEP(pool, x)->evr);
        stack.push_back(GETRELDEP(pool, x)->name);
      } else {
        operands.push_back(x);
      }
    }
    std::string out;
    for (size_t i = 0; i < operands.size() && i < kShown; ++i) out += (i ? sep : "") + dep(operands[i]);
    if (operands.size() > kShown) out += sep + "and " + std::to_string(operands.size() - kShown) + " more";
    return out;
  }
  // rpm's boolean relations: "(plugin if host)", "(a without b)".
  if (rd->flags == REL_COND || rd->flags == REL_UNLESS || rd->flags == REL_ELSE || rd->flags == REL_WITHOUT) {
    const char* word = rd->flags == REL_COND     ? " if "
                       : rd->flags == REL_UNLESS ? " unless "
                       : rd->flags == REL_ELSE   ? " else "
                                                 : " without ";
    return "(" + dep(rd->name) + word + dep(rd->evr) + ")";
  }
  if (rd->flags == REL_NAMESPACE && b_.is_spec_namespace(rd->name)) {
    // "conda-forge:numpy >=1.20,<2" -> "numpy >=1.20,<2"
    std::string arg = PoolBuilder::decode_spec_arg(pool_id2str(pool, rd->evr));
    auto space = arg.find(' ');
    std::string name(PoolBuilder::native_name(arg.substr(0, space)));
    std::string spec = space == std::string::npos ? "" : arg.substr(space + 1);
    if (b_.is_unmatched_namespace(rd->name)) return name + " other than " + (spec.empty() ? "any version" : spec);
    return spec.empty() ? name : name + " " + spec;
  }
  std::string name = dep(rd->name);
  std::string op;
  switch (rd->flags) {
    case REL_EQ: op = "="; break;
    case REL_LT: op = "<<"; break;
    case REL_GT: op = ">>"; break;
    case REL_LT | REL_EQ: op = "<="; break;
    case REL_GT | REL_EQ: op = ">="; break;
    case REL_LT | REL_GT: op = "!="; break;
    default: op = pool_id2rel(pool, d); break;
  }
  // The evr is in pool order; show the native text of a package that has exactly it.
  std::string version = b_.native_of_evr(rd->evr);
  Id plain = b_.unversioned(rd->name);
  Id p, pp;
  FOR_PROVIDES(p, pp, rd->name) {
    Solvable* s = pool_id2solvable(pool, p);
    if (s->name == plain && s->evr == rd->evr) {
      version = b_.native_version(p);
      break;
    }
  }
  return name + " (" + op + " " + version + ")";
}

std::string Explainer::driver_needed(Id source, Id d) const {
  Pool* pool = b_.pool();
  std::string needed = "a newer one";
  if (ISRELDEP(d)) {
    Reldep* rd = GETRELDEP(pool, d);
    needed = "CUDA " + std::string(pool_id2str(pool, rd->evr));
    // The evr is in pool order; the table's versions are plain "12.0", which normalise to "0:12".
    auto colon = needed.find(':');
    if (colon != std::string::npos) needed = "CUDA " + needed.substr(colon + 1);
  }
  std::string have = "none";
  if (host_) {
    const auto& c = host_->cuda;
    if (c.state == detect::CudaState::ok) {
      have = "a driver supporting CUDA " + c.cuda_version;
      if (!c.kernel_driver.empty()) have += " (" + c.kernel_driver + ")";
    } else {
      have = "none (" + (c.detail.empty() ? std::string(detect::cuda_state_name(c.state)) : c.detail) + ")";
    }
  }
  std::string plan_for = "12.4";
  if (const Bundle* bundle = bundles_.find(source)) {
    if (auto tk = detect::cuda_toolkit(bundle->upstream)) needed = "CUDA " + std::string(tk->min_cuda);
    std::string v = bundle->upstream;
    auto dot = v.find('.');
    auto dot2 = dot == std::string::npos ? dot : v.find('.', dot + 1);
    plan_for = v.substr(0, dot2);
  }
  return "this plan needs an NVIDIA driver supporting " + needed + " or newer; this machine has " + have +
         "; set EXTDEPS_OVERRIDE_CUDA=" + plan_for + " to plan for another machine";
}

// A relation on the host's C library ("__glibc >=2.17", a manylinux wheel's need), in words.
std::string Explainer::libc_needed(Id source, const std::string& relation) const {
  std::string need =
      relation.substr(relation.find(' ') == std::string::npos ? relation.size() : relation.find(' ') + 1);
  std::string have = host_ && host_->libc == "glibc" && !host_->libc_version.empty() ? "glibc " + host_->libc_version
                     : host_ && !host_->libc.empty() ? host_->libc + " " + host_->libc_version
                                                     : "no glibc";
  return solvable(source) + " needs glibc " + (need.empty() ? "" : need + " ") + "and this machine has " + have +
         " (EXTDEPS_OVERRIDE_GLIBC plans for another machine)";
}

// A relation on the host's OS ("__osx >=15", a formula's macOS requirement; "__linux"), in words.
std::string Explainer::os_needed(Id source, const std::string& relation) const {
  const bool osx = relation.starts_with("__osx");
  std::string need =
      relation.substr(relation.find(' ') == std::string::npos ? relation.size() : relation.find(' ') + 1);
  std::string have = "an unknown system";
  if (host_) {
    if (host_->os.id == "macos") have = "macOS " + host_->os.version_id;
    else if (!host_->os.pretty_name.empty()) have = host_->os.pretty_name;
    else if (!host_->os.id.empty()) have = host_->os.id;
  }
  return solvable(source) + " needs " + (osx ? "macOS" : "Linux") + (need.empty() ? "" : " " + need) +
         " and this plan is for " + have + (osx ? " (--system macos:VERSION plans for another mac)" : "");
}

Reason Explainer::rule(Solver* solv, Id r) const {
  using K = ReasonKind;
  Id source = 0, target = 0, d = 0;
  SolverRuleinfo type = solver_ruleinfo(solv, r, &source, &target, &d);
  if ((type == SOLVER_RULE_PKG_NOTHING_PROVIDES_DEP || type == SOLVER_RULE_PKG_REQUIRES) && d) {
    std::string text = dep(d);
    if (text == "__glibc" || text.starts_with("__glibc ")) return {libc_needed(source, text)};
    if (text == "__osx" || text.starts_with("__osx ") || text == "__linux" || text.starts_with("__linux "))
      return {os_needed(source, text)};
    Id name = d;
    while (ISRELDEP(name)) name = GETRELDEP(b_.pool(), name)->name;
    std::string n = pool_id2str(b_.pool(), name);
    if (n == "__cuda") return {driver_needed(source, d), K::driver};
    if (n == "__cuda_arch")
      return {solvable(source) + " does not build for this machine's GPU (compute capability " +
              (host_ && !host_->cuda.devices.empty()
                   ? std::to_string(host_->cuda.min_compute_capability().first) + "." +
                         std::to_string(host_->cuda.min_compute_capability().second)
                   : std::string("unknown")) +
              ")"};
  }
  switch (type) {
    case SOLVER_RULE_PKG_NOTHING_PROVIDES_DEP:
      return {solvable(source) + " depends on " + dep(d) + ", which nothing here provides", K::conflict};
    case SOLVER_RULE_PKG_REQUIRES:
      // A mapping bundle requiring its own packages says nothing the next line does not.
      if (bundles_.find(source)) return {};
      return {solvable(source) + " depends on " + dep(d), K::conflict};
    case SOLVER_RULE_PKG_CONFLICTS:
      return {solvable(source) + " conflicts with " + solvable(target) + " (" + dep(d) + ")", K::conflict};
    case SOLVER_RULE_PKG_SAME_NAME:
      return {"only one of " + solvable(source) + " and " + solvable(target) + " can be installed"};
    case SOLVER_RULE_PKG_OBSOLETES:
    case SOLVER_RULE_PKG_IMPLICIT_OBSOLETES:
    case SOLVER_RULE_PKG_INSTALLED_OBSOLETES: return {solvable(source) + " replaces " + solvable(target)};
    case SOLVER_RULE_PKG_SELF_CONFLICT:
      return {solvable(source) + " conflicts with itself (" + dep(d) + ")", K::conflict};
    case SOLVER_RULE_PKG_NOT_INSTALLABLE: return {solvable(source) + " cannot be installed on this machine"};
    case SOLVER_RULE_JOB_NOTHING_PROVIDES_DEP: return {"nothing here provides " + dep(d)};
    case SOLVER_RULE_JOB_UNKNOWN_PACKAGE: return {"no package is named " + dep(d)};
    case SOLVER_RULE_JOB: return {};  // the request itself: the requirement is already named by the caller
    case SOLVER_RULE_UPDATE:
    case SOLVER_RULE_FEATURE:
    case SOLVER_RULE_INFARCH:
    case SOLVER_RULE_DISTUPGRADE:
      if (removable_ && std::find(removable_->begin(), removable_->end(), source) != removable_->end())
        return {solvable(source) +
                " is installed and would have to be removed, and no plan that removes it keeps every need met now"};
      return {solvable(source) + " is installed and would have to be removed, which its manager's plans never do"};
    default: return {solver_problemruleinfo2str(solv, type, source, target, d)};
  }
}

// Whether `out` holds a reason of that text already.
static bool holds(const std::vector<Reason>& out, const std::string& text) {
  return std::any_of(out.begin(), out.end(), [&](const Reason& r) { return r.text == text; });
}

std::vector<Reason> Explainer::problem(Solver* solv, Id problem) const {
  Queue rules;
  queue_init(&rules);
  solver_findallproblemrules(solv, problem, &rules);
  std::vector<Reason> out;
  for (int i = 0; i < rules.count; ++i) {
    Reason line = rule(solv, rules.elements[i]);
    if (!line.text.empty() && !holds(out, line.text)) out.push_back(std::move(line));
  }
  queue_free(&rules);
  return out;
}

void Explainer::try_together(const std::vector<Id>& candidates) {
  if (candidates.size() < 2) return;  // one candidate is tried alone anyway
  if (!alone_) alone_.reset(solver_create(b_.pool()));
  SolvQueue job;
  for (Id c : candidates) job.push2(SOLVER_INSTALL | SOLVER_SOLVABLE | SOLVER_WEAK, c);
  solver_solve(alone_.get(), job.get());
  for (Id c : candidates)
    if (solver_get_decisionlevel(alone_.get(), c) > 0) installable_.insert(c);
}

std::vector<Reason> Explainer::why_not_installable(Id candidate) const {
  // Installed in a solve beside others: that solve's packages less the others install it alone.
  if (installable_.count(candidate)) return {};
  if (!alone_) alone_.reset(solver_create(b_.pool()));
  SolvQueue job;
  job.push2(SOLVER_INSTALL | SOLVER_SOLVABLE, candidate);
  std::vector<Reason> out;
  int n = solver_solve(alone_.get(), job.get());
  for (int i = 1; i <= n; ++i) {
    for (auto& line : problem(alone_.get(), i))
      if (!holds(out, line.text)) out.push_back(std::move(line));
  }
  return out;
}

}  // namespace extdeps::solve
