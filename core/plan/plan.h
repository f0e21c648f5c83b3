// What a resolve produces: per-requirement outcomes, ordered install steps per manager, and the
// problems that explain an unsatisfiable request. Rendered as text or JSON (schema/plan.schema.json).
#pragma once

#include <string>
#include <vector>

#include "core/declare/requirement.h"
#include "core/provider/provider.h"

namespace extdeps::plan {

enum class Status { satisfied, planned, unsatisfiable, unmapped };
std::string_view status_name(Status s);

struct Package {
  std::string manager;    // apt, pkgconf
  std::string ecosystem;  // debian, pkgconfig
  std::string name;
  std::string version;    // native
  bool installed = false;
  std::string where;      // for installed: the .pc file, "dpkg", ...
};

struct RequirementOutcome {
  Requirement requirement;  // as written in the declaration
  // The id the mapping tables key it on, when the declaration spells it otherwise (an alias,
  // another case, a PEP 503 spelling of a pypi name); empty when it is the id as written.
  std::string canonical_id;
  Status status = Status::unsatisfiable;
  std::vector<Package> packages;  // what meets it (installed or planned)
  std::string message;            // for unsatisfiable and unmapped: why, in words
  std::vector<std::string> suggestions;  // did-you-mean ids for unmapped
  std::vector<std::string> candidates;   // what was considered, for --explain and show
  // Non-empty: no mapping table knows the id, and these packages or modules named after it were
  // found ("debian package libfoo-dev is in the index, named after dep:generic/foo (...)"). What
  // meets the need is then a guess, never a maintained mapping.
  std::vector<std::string> guess;
};

struct Step {
  std::string manager;
  std::vector<PlannedPackage> packages;
  std::vector<std::string> command;  // argv
  bool requires_elevation = false;
};

struct Problem {
  std::string requirement;  // the spec as written, or empty for a general problem
  std::string message;
  std::vector<std::string> details;  // candidates considered and why each failed
};

struct Outcome {
  bool ok() const { return problems.empty(); }
  std::vector<RequirementOutcome> requirements;
  std::vector<Step> steps;
  std::vector<Problem> problems;
  std::vector<std::string> warnings;  // the plan holds, but something deserves a look
};

}  // namespace extdeps::plan
