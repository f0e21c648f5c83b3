// `extdeps mappings lint`: what a maintainer should fix in a set of mapping tables, each problem
// with its file:line:col. The loader's own checks (schema, types, duplicate ids and aliases, names
// a manager would refuse) come first; then what the loader does not refuse: entries out of order,
// ids that are not valid DepURLs, an id spelled one way in one table and another way in another,
// a detector's ids no package table knows, the same id in two files of one folder, repeated
// alternatives, pkg-config modules written as file names.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace extdeps::mapping {

struct LintProblem {
  std::string file;
  int line = 0;
  int column = 0;
  std::string message;
  std::string str() const;  // "file:line:col: message"
};

struct LintReport {
  std::vector<LintProblem> problems;  // by file, then line
  std::size_t tables = 0;             // tables read
  std::size_t ids = 0;                // entries in them
};

// Lints every table of `paths` (a .toml file, or a folder whose *.toml files are read) together,
// so that cross-table checks see them all. A path that does not exist is a problem too.
LintReport lint(const std::vector<std::string>& paths);

}  // namespace extdeps::mapping
