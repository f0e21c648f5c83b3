// Mapping tables: canonical DepURL ids to native package names, one TOML file per ecosystem
// (format: schema/mapping.md). A table answers "which native packages give dep:generic/gdal for
// the host category, in which order of preference, and how is the upstream version read".
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/context/context.h"
#include "core/declare/requirement.h"
#include "core/util/result.h"

namespace extdeps::mapping {

// How the upstream version is read from a native one. "deb-upstream" strips the epoch, the
// Debian revision and repack suffixes (+dfsg, +ds, ~...); a regex with one group takes that group.
struct VersionRule {
  std::string kind = "native";   // native | deb-upstream | regex
  std::string pattern;           // for regex
  std::string from;              // which package's version is read; default: the first one listed
};

// One way of meeting an id for one category: all of these packages together.
struct Alternative {
  std::vector<std::string> packages;
  VersionRule version;
};

struct Entry {
  std::string id;                    // dep:generic/libxml2
  std::vector<std::string> aliases;  // other spellings that mean the same id
  std::string description;
  // Ordered alternatives per category (first preferred). Empty: the ecosystem has no package.
  std::map<Category, std::vector<Alternative>> by_category;
  // For the pkgconfig ecosystem: module names (any of them, first preferred).
  std::vector<std::string> pkgconfig;
  SourceSpan where;
};

struct Table {
  std::string ecosystem;   // debian, pkgconfig
  std::string manager;     // apt; empty for detectors
  std::string path;
  std::vector<Entry> entries;  // sorted by id
  const Entry* find(std::string_view id) const;  // id or alias
};

Result<Table> load_table(const std::string& path);

// The tables for this machine: the shipped mappings dir plus extra dirs (later ones override
// entries of earlier ones with the same id).
struct Tables {
  std::vector<Table> tables;
  const Table* find_ecosystem(std::string_view ecosystem) const;
  // Ids known in any table, for "did you mean".
  std::vector<std::string> known_ids() const;
};
Result<Tables> load_tables(const Context& ctx, const std::vector<std::string>& dirs);

// The shipped mappings folder: $EXTDEPS_MAPPINGS_DIR, else the installed share/ folder, else the
// source tree's mappings/.
std::string default_mappings_dir(const Context& ctx);

// Upstream version from a native one by a rule ("1:3.6.2+dfsg-1+b2" -> "3.6.2").
std::string upstream_version(const VersionRule& rule, std::string_view native);

// Close matches for an unknown id (edit distance on the name part).
std::vector<std::string> did_you_mean(std::string_view id, const std::vector<std::string>& known);

}  // namespace extdeps::mapping
