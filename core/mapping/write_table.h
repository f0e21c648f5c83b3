// Writing a mapping table (schema/mapping.md) from a draft: what the importers produce. The
// text is sorted by id, loads with load_table and lints clean when the names are valid.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace extdeps::mapping {

// One way of meeting an id, as written: absent categories take the fallback.
struct DraftAlternative {
  std::optional<std::vector<std::string>> build, host, run;
  std::string note;
};

struct DraftEntry {
  std::string id;
  std::vector<std::string> aliases;
  std::string description;
  std::string note;  // required when there is no alternative
  // Empty: the ecosystem has no package for it (written `host = []` with the note). One:
  // written in the [[id]] itself. More: [[id.alternative]] tables, in this order.
  std::vector<DraftAlternative> alternatives;
  std::vector<std::string> modules;  // pkgconfig tables only
};

struct DraftTable {
  std::vector<std::string> comments;  // "# ..." lines at the top, without the "# "
  std::string ecosystem;
  std::string manager;
  std::string release;
  std::string description;
  std::string version;  // the default version rule ("native", "deb-upstream"); empty: none
  std::vector<DraftEntry> entries;
};

std::string write_table(DraftTable table);

// A TOML basic string with its quotes: "a \"b\"".
std::string toml_string(const std::string& s);

}  // namespace extdeps::mapping
