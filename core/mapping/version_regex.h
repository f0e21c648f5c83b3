// How a mapping table's version regex is compiled (load_table, upstream_version): RE2, whose
// matching time is linear in the version whatever the pattern. std::regex backtracks: a table
// with `.**…*(go\d+)` took longer than any run should (found by the mapping_table fuzz harness).
#pragma once

#include <re2/re2.h>

namespace extdeps::mapping {

// Perl-like syntax as the tables are written (\d, (?:...), +?), no logging to stderr: a pattern
// that does not compile is load_table's error, with RE2's reason.
inline re2::RE2::Options version_regex_options() {
  re2::RE2::Options o;
  o.set_log_errors(false);
  return o;
}

}  // namespace extdeps::mapping
