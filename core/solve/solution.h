// What a solve answers: per need, what meets it (installed or planned) and why, or why nothing
// does; the packages to install per manager; the problems and warnings. No command, no format:
// core/plan turns a Solution into steps with the providers' commands, core/cli and core/api
// render it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/declare/requirement.h"
#include "core/provider/provider.h"

namespace extdeps::solve {

enum class Status { satisfied, planned, unsatisfiable, unmapped };

struct Package {
  std::string manager;    // apt, pkgconf
  std::string ecosystem;  // debian, pkgconfig
  std::string name;
  std::string version;  // native
  bool installed = false;
  std::string where;  // for installed: the .pc file, "dpkg", ...
};

struct RequirementOutcome {
  Requirement requirement;  // as written in the declaration
  // The id the mapping tables key it on, when the declaration spells it otherwise (an alias,
  // another case, a PEP 503 spelling of a pypi name); empty when it is the id as written.
  std::string canonical_id;
  Status status = Status::unsatisfiable;
  std::vector<Package> packages;         // what meets it (installed or planned)
  std::string message;                   // for unsatisfiable and unmapped: why, in words
  std::vector<std::string> suggestions;  // did-you-mean ids for unmapped
  std::vector<std::string> candidates;   // what was considered, for --explain and show
  // Non-empty: no mapping table knows the id, and these packages or modules named after it were
  // found ("debian package libfoo-dev is in the index, named after dep:generic/foo (...)"). What
  // meets the need is then a guess, never a maintained mapping.
  std::vector<std::string> guess;
};

struct Problem {
  std::string requirement;  // the spec as written, or empty for a general problem
  std::string message;
  std::vector<std::string> details;  // candidates considered and why each failed
};

// The packages one manager is to install: the needs' packages, the installed ones to upgrade,
// or the whole closure for a provider that pins it (Provider::pins_closure); and the installed
// ones its transaction removes (Provider::plans_removals).
struct Planned {
  const Provider* provider = nullptr;
  std::vector<PlannedPackage> packages;
  std::vector<PlannedPackage> removals;
};

// An installed package the plan removes: one that conflicts with a package the plan installs,
// or one that cannot stay without a package removed.
struct Removal {
  std::string manager;  // apt
  std::string name;
  std::string version;             // native, as installed
  std::string reason;              // "libcurl4-gnutls-dev 7.88.1-10+deb12u15 (debian) conflicts with it"
  std::vector<std::string> needs;  // the specs that have a plan only with it removed
};

struct Solution {
  bool ok() const { return problems.empty(); }
  std::vector<RequirementOutcome> requirements;  // one per requirement, in order
  std::vector<Planned> planned;                  // per manager, in the providers' order
  std::vector<Removal> removals;                 // what the planned steps remove
  std::vector<Problem> problems;
  std::vector<std::string> warnings;  // the solution holds, but something deserves a look
};

}  // namespace extdeps::solve
