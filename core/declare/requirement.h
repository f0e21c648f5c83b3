// The declaration model: DepURLs, version ranges, markers, and the Requirements read from a
// pyproject.toml [external] table or an extdeps.toml (PEP 725).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/record.h"

namespace extdeps {

// A place in a file, for messages: "pyproject.toml:14:5".
struct SourceSpan {
  std::string file;
  int line = 0;             // 1-based; 0 when unknown
  int column = 0;           // 1-based
  std::string str() const;  // "file:line:col", "file:line" or "file"
};

// dep:type/namespace/name@version?qualifiers#subpath, percent-decoded.
struct DepUrl {
  std::string type;  // generic, virtual, github, pypi, ...
  std::string ns;    // namespace path ("compiler", "apache"), may be empty
  std::string name;
  std::string version;  // the raw text after '@', may be a range (">=2.0")
  std::map<std::string, std::string> qualifiers;
  std::string subpath;
  // The canonical id, without version, qualifiers or subpath: "dep:generic/gdal",
  // "dep:virtual/compiler/c". Mapping tables are keyed on this.
  std::string id() const;
  std::string str() const;  // the full DepURL, re-encoded
};

// One comparison of a range, in PEP 440 terms. "~=" is expanded by parse_range into ge + a
// wildcard eq; "!=1.2.*" is op ne with wildcard.
struct VersionConstraint {
  DepOp op = DepOp::any;
  std::string version;    // as written, without the ".*"
  bool wildcard = false;  // "==1.2.*", "!=1.2.*"
};

// A conjunction ("comma = and"). Empty means any version.
struct VersionRange {
  std::vector<VersionConstraint> constraints;
  bool any() const { return constraints.empty(); }
  std::string str() const;  // ">=3.4,<4"
};

enum class Category { build, host, run };

// "build", "host", "run": the words the declaration, the tables and the output use.
constexpr std::string_view category_name(Category c) {
  return c == Category::build ? "build" : c == Category::run ? "run" : "host";
}

struct Requirement {
  DepUrl url;
  VersionRange range;
  Category category = Category::host;
  std::optional<std::string> group;  // optional-* table key or dependency-group name
  std::string marker;                // PEP 508 marker text after ';', empty when none
  std::string spec;                  // the string as written in the file
  SourceSpan where;
};

// Everything read from one declaration file.
struct Declaration {
  std::string path;                          // the file read
  std::vector<Requirement> requirements;     // every entry, all categories and groups
  std::vector<std::string> optional_groups;  // names seen in optional-* tables
  std::vector<std::string> dependency_groups;
};

}  // namespace extdeps
