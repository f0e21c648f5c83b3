// An import merged into a curated table (`extdeps mappings import ... --merge-into TABLE`): the
// ids the table lacks are added, in sorted place, written as the importer writes them; every
// entry the table has is kept byte for byte (its comments, releases, notes), and where the import
// says otherwise about one of them, the report says what it would have changed.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "core/mapping/diff.h"
#include "core/mapping/write_table.h"
#include "core/util/result.h"

namespace extdeps::mapping {

struct MergeResult {
  std::string text;  // the curated table's text with the added entries in place
  // Curated table (A) against the import (B): `added` are the ids written in; `changed` the
  // curated entries kept though the import maps them otherwise; `removed` the ids only the
  // table has (kept); `same` the ids both map alike.
  TableDiff report;
  // Ids of the import the table has as an alias of another id ("id", "the table's id"): kept.
  std::vector<std::pair<std::string, std::string>> aliased;
  std::vector<std::string> warnings;
};

// Merges `imported` into the table at `table_path`. Bad input: a table that does not load, an
// import of another ecosystem or manager. The merged text is loaded again before it is returned,
// so what comes back is a table that loads.
Result<MergeResult> merge_into(const std::string& table_path, const DraftTable& imported);

// The report for people: a first line with the counts, then `+ id` for each id added and
// `~ id (kept)` with the fields the import says otherwise, as `field: table -> import`.
void print_merge(const MergeResult& m, const std::string& table_path, std::ostream& out);

}  // namespace extdeps::mapping
