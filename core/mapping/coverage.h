// `extdeps mappings coverage`: which ids each ecosystem's table maps, says it has nothing for, or
// does not know, as a table for people and as JSON.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/mapping/mapping.h"

namespace extdeps::mapping {

enum class Cover { mapped, none, absent };  // packages; an explicit "none" with a note; not there

struct CoverageRow {
  std::string id;
  std::vector<Cover> cells;                        // one per Coverage::ecosystems
  std::vector<std::vector<std::string>> releases;  // per ecosystem: [id.release.X] names
  std::vector<bool> unverified;                    // per ecosystem: the entry says `unverified = true`
};

struct Coverage {
  std::vector<std::string> ecosystems;  // debian, conda-forge, pkgconfig first, then by name
  std::vector<CoverageRow> rows;        // every id of every table, sorted
  std::size_t count(std::size_t ecosystem, Cover c) const;
  // Of those, the entries marked `unverified = true` (no real index confirmed their names).
  std::size_t count_unverified(std::size_t ecosystem, Cover c) const;
};

Coverage coverage(const Tables& tables);
std::string_view cover_name(Cover c);  // "mapped", "none", "absent"

// One line per id ("yes", "none", "-" per ecosystem; "?" after an unverified entry's cell), then
// the totals per ecosystem ("M mapped (U unverified)").
void print_coverage(const Coverage& c, std::ostream& out);
// {"ecosystems": [...], "ids": [{"id", "mappings": {"<ecosystem>": "mapped"|"none"|"absent"},
//  "releases": {"<ecosystem>": [...]} where an entry has [id.release.X],
//  "unverified": ["<ecosystem>", ...] where an entry says unverified = true}],
//  "totals": {"<ecosystem>": {"mapped", "none", "absent", "unverified"}}, "count": n}
nlohmann::json coverage_json(const Coverage& c);

}  // namespace extdeps::mapping
