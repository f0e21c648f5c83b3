// `extdeps mappings verify`: does every name a table gives exist in a real index of its
// ecosystem? The model is rosdistro's repository check: a name that the release's index lacks is
// a broken mapping, whatever else is right about it. The index is read by the caller (the apt
// provider's lists, a conda channel's repodata) into a NameIndex; this file knows no format.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/mapping/lint.h"
#include "core/mapping/mapping.h"

namespace extdeps::mapping {

struct NameIndex {
  std::string description;                // what was read, for the report
  std::unordered_set<std::string> names;  // real packages
  // Names only other packages provide (Debian virtual packages): name -> one provider.
  std::unordered_map<std::string, std::string> provided_by;
  // The archive components the index holds (main, contrib, non-free); empty: every component,
  // so nothing is skipped for its component.
  std::set<std::string> components;
};

struct VerifyReport {
  std::vector<LintProblem> problems;  // one per missing name, at its alternative
  std::size_t ids = 0;                // entries with at least one name checked
  std::size_t checked = 0;            // distinct (alternative, name) pairs looked up
  std::size_t found = 0;
  std::size_t skipped = 0;  // in a component the index does not hold
  std::set<std::string> skipped_components;
  std::size_t other_releases = 0;  // names of [id.release.X] for other releases, not checked
  // Entries marked `unverified = true`: the missing names among them, and the entries whose
  // names this index all has (their mark can go).
  std::size_t missing_unverified = 0;
  std::vector<std::string> confirmed_unverified;
};

// Every package of every alternative of every entry (as selected for the index's release), each
// alternative once. A name that only a virtual package has is a problem too: apt cannot install
// it by that name.
VerifyReport verify(const Table& table, const NameIndex& index);

// "checked N names of M ids against ...: F found, K missing" and the problems above it.
void print_verify(const Table& table, const NameIndex& index, const VerifyReport& r, std::ostream& out);

}  // namespace extdeps::mapping
