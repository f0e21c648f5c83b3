// Plans for people (text) and for programs (JSON, described by schema/plan.schema.json).
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "core/plan/plan.h"

namespace extdeps::plan {

// The argv as a shell line, quoting what needs it.
std::string shell_line(const std::vector<std::string>& argv);

// A removal in one line, printable: "libcurl4-openssl-dev 7.88.1-10+deb12u15 (apt): REASON".
std::string removal_text(const Removal& r);

nlohmann::json to_json(const Outcome& outcome);

struct TextOptions {
  bool explain = false;  // candidates and every problem detail
  bool show_satisfied = true;
  std::string sudo;  // "sudo" when steps need elevation and we are not root
  // ANSI colour (a terminal, --color): satisfied green, planned cyan, a need not met red,
  // "warning:" yellow, "error:" red. The columns line up as without it.
  bool colour = false;
};
void print_text(const Outcome& outcome, const TextOptions& options, std::ostream& out);

// For check and env when needs are not met: how many, then each of them and the steps that
// install them ("error: 2 of 5 needs of pyproject.toml are not met; a build would not find them").
std::string missing_text(const Outcome& outcome, const std::string& declaration, const std::string& sudo);

// A step's argv as a person types it: through sudo when it needs elevation and sudo is set.
std::vector<std::string> command_line(const Step& step, const std::string& sudo);

}  // namespace extdeps::plan
