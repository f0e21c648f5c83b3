// Words for libsolv's problems: rules become sentences about native packages and mappings, never
// about solvable ids or namespaced names.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "core/solve/bundles.h"
#include "core/solve/handles.h"
#include "core/solve/pool_builder.h"

namespace extdeps::solve {

// How much a sentence says about why a need has no plan; the headline of a failure is its
// strongest sentence. Set where the sentence is made, so no one reads the words back.
enum class ReasonKind : unsigned char {
  other = 1,        // a mapping without a package, a name the index lacks, "only one of ..."
  out_of_range,     // "X gives version 1.2, which is not >=2"
  conflict,         // "X conflicts with Y", "X depends on Y", "it cannot be planned together with ..."
  not_installable,  // "X cannot be installed: ..."
  driver,           // "this plan needs an NVIDIA driver ..."
};

struct Reason {
  std::string text;
  ReasonKind kind = ReasonKind::other;
};

class Explainer {
 public:
  Explainer(PoolBuilder& builder, const BundleSet& bundles) : b_(builder), bundles_(bundles) {}
  void set_host(const detect::HostFacts* host) { host_ = host; }
  // The installed packages a plan may remove (Resolver::try_removals), said of differently.
  void set_removable(const std::vector<Id>* removable) { removable_ = removable; }

  // "this plan needs an NVIDIA driver supporting CUDA 12.0 or newer; this machine has none
  // (libcuda.so.1 not found); set EXTDEPS_OVERRIDE_CUDA=12.4 to plan for another machine"
  std::string driver_needed(Id source, Id dep) const;
  // "X needs glibc >=2.17 and this machine has glibc 2.12 (...)": a relation on __glibc in words.
  std::string os_needed(Id source, const std::string& relation) const;
  std::string libc_needed(Id source, const std::string& relation) const;

  // "libfoo-dev 1.2-3 (apt)", "the debian mapping of dep:generic/foo (libfoo-dev)".
  std::string solvable(Id p) const;
  // "libc6 (>= 2.36)" with native versions where they can be recovered.
  std::string dep(Id dep) const;
  // One sentence per rule of a problem.
  std::vector<Reason> problem(Solver* solv, Id problem) const;
  // Tries one candidate alone against the installed set; empty when it is installable.
  std::vector<Reason> why_not_installable(Id candidate) const;
  // Tries the candidates together, each a job that may fail: those the solve installs are
  // installable alone too, and why_not_installable answers for them without a solve of its own.
  void try_together(const std::vector<Id>& candidates);

 private:
  Reason rule(Solver* solv, Id rule) const;
  PoolBuilder& b_;
  const BundleSet& bundles_;
  const detect::HostFacts* host_ = nullptr;
  const std::vector<Id>* removable_ = nullptr;
  // The solver of those tries, kept: libsolv keeps the package rules of one solve for the next.
  mutable SolverPtr alone_;
  std::unordered_set<Id> installable_;  // found installable by try_together
};

}  // namespace extdeps::solve
