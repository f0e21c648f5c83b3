// The parsed mapping tables, kept in the cache between runs. Reading five TOML tables of 900+
// ids each and checking every name costs more than the rest of a warm resolve together; the
// tables change only when a maintainer edits them. So load_tables keeps what it read in
// <cache>/tables/<16 hex>.tables: a sealed file (core/util/sealed_file.h: magic, version, CRC)
// whose body starts with the stamp of every table file it was read from (path, size,
// modification time, inode) and then the Tables, in a flat binary form. A later run lists the
// same folders, and when the stamp is the same it reads the file instead of the TOML. A damaged
// or foreign file is refused by the seal or by decode and rebuilt.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/mapping/mapping.h"

namespace extdeps::mapping::table_cache {

// What the tables were read from: each file's path, size, modification time (ns), inode and
// device, in reading order. Files that cannot be stat'ed give nullopt (no caching).
std::optional<std::string> stamp(const std::vector<std::string>& files);

// The body of a cache file: the stamp, then the tables.
std::string encode(std::string_view stamp, const Tables& tables);

// The tables of a body whose stamp is `stamp`; nullopt when the stamp or the layout differs, or
// when what it reads is damaged: then `damage`, when given, says what (every length and count is
// checked against what is left, and the head, each index block and each entry read against
// their own CRC-32).
// With `only_ids`, every table's header but only the entries those ids name (as Table::find
// matches them: the id or an alias, any spelling of it) are built, found through the body's
// index; the other entries are neither read nor checked, so a warm run pays for the ids it asks
// about, not for the size of the tables (a file read with mmap is not even paged in).
// With `only_ecosystems` too, only the entries of the tables of those ecosystems (a table
// "debian+x" counts as "debian"); the others keep their header and no entry.
std::optional<Tables> decode(std::string_view body, std::string_view stamp,
                             const std::vector<std::string>* only_ids = nullptr, std::string* damage = nullptr,
                             const std::set<std::string>* only_ecosystems = nullptr);

// The four-byte kind of the sealed cache files.
inline constexpr std::string_view kKind = "tabl";

}  // namespace extdeps::mapping::table_cache
