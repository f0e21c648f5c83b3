// `extdeps mappings diff A B`: what changes from one mapping table to another, entry by entry:
// the ids only one of them has, and for the ids both have, each field that differs (packages per
// category, versions, notes, aliases, modules, releases). For a maintainer reviewing an import or
// a hand edit before it lands.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/mapping/mapping.h"

namespace extdeps::mapping {

// One field of an entry that reads differently in B than in A. `before` or `after` is empty
// where the field is absent on that side.
struct FieldChange {
  std::string field;  // "host", "run", "note", "aliases", "release trixie", "unverified", ...
  std::string before;
  std::string after;
};

struct EntryDiff {
  std::string id;
  std::vector<FieldChange> changes;
};

struct TableDiff {
  std::string path_a, path_b;
  std::string ecosystem_a, ecosystem_b;
  std::vector<std::string> added;    // ids only B has, sorted
  std::vector<std::string> removed;  // ids only A has, sorted
  std::vector<EntryDiff> changed;    // ids both have that differ, sorted
  std::size_t same = 0;              // ids both have, alike
  bool empty() const { return added.empty() && removed.empty() && changed.empty(); }
};

TableDiff diff(const Table& a, const Table& b);

// `--- A`, `+++ B`, then `+ id`, `- id`, `~ id` with one indented line per field, then a count.
void print_diff(const TableDiff& d, std::ostream& out);
nlohmann::json diff_json(const TableDiff& d);

// How one category's alternatives read: packages of one alternative joined by " + ",
// alternatives by " | ", a version rule other than the table's default in brackets.
std::string describe_alternatives(const std::vector<Alternative>& alternatives);

}  // namespace extdeps::mapping
