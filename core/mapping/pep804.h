// PEP 804 name-mapping files ({ecosystem}.mapping.json, the external-mapping schema) to and from
// mapping tables. PEP 804 lists "specs" per id, a string, a list or {build, host, run}; a
// repeated id is an ordered alternative; "specs_from" says "the same as that id"; an empty list
// says "nothing". Here the same facts are entries, alternatives and aliases.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/mapping/mapping.h"
#include "core/mapping/write_table.h"
#include "core/util/result.h"

namespace extdeps::mapping {

struct ImportResult {
  DraftTable table;
  // What could not be carried over, one line each ("dep:x: '{{ compiler('c') }}' is not a
  // conda package name; left out").
  std::vector<std::string> warnings;
};

// Reads a PEP 804 mapping file. `ecosystem`: the table's ecosystem; empty: from the file name
// (ubuntu.mapping.json -> ubuntu). The manager is the file's first package manager. A spec that
// is a MatchSpec ("libblas * *_openblas") gives its package name, the spec kept in a note; a
// spec that is no valid name for the manager is left out with a warning. Errors (not JSON, not
// the schema's shape) name the file and the byte offset or the mapping's index.
// `shown`: the name the messages and the table's comment give the file (the URL of a body the
// download cache holds); empty: `path`. `manager`: the manager when the file names none (an
// override takes the overridden table's); a file without either is bad input (PEP 804's schema
// requires package_managers, and a table without a manager lists no packages).
Result<ImportResult> import_pep804(const std::string& path, std::string ecosystem = {}, const std::string& shown = {},
                                   const std::string& manager = {});

// A table as a PEP 804 mapping file: every alternative as a mapping of its own (repeated id),
// aliases as "specs_from", an entry without packages as "specs": [], and the package managers
// extdeps would use. Tables of detectors (pkgconfig) have no PEP 804 form: bad input.
// `ecosystem_id`: the file's ecosystem id ("debian+13" for the table as select_for_host adapted
// it to Debian 13); empty: the table's own.
Result<nlohmann::json> export_pep804(const Table& table, const std::string& ecosystem_id = {});

// PEP 804's versioned ecosystem id ("debian" and "13": "debian+13"). The second field is the
// release's os-release VERSION_ID, which starts with a digit (13, 24.04, 15.6, 20241201): a
// codename ("trixie") is bad input that says so.
Result<std::string> versioned_ecosystem(const std::string& ecosystem, const std::string& release);

// A known-ecosystems.json (PEP 804's list of ecosystems and the URL of each one's mapping) with
// `ecosystem`'s mapping set to `url`: the file at `path` when there is one, its other ecosystems
// kept; else a new one. A file that is not JSON, or not of that file's shape, is bad input
// naming the file and the byte offset or the key.
Result<nlohmann::json> known_ecosystems_with(const std::string& path, const std::string& ecosystem,
                                             const std::string& url);

}  // namespace extdeps::mapping
