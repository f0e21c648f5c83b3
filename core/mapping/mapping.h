// Mapping tables: canonical DepURL ids to native package names, one TOML file per ecosystem
// (format: schema/mapping.md). A table answers "which native packages give dep:generic/gdal for
// the host category, in which order of preference, and how is the upstream version read".
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/context/context.h"
#include "core/declare/requirement.h"
#include "core/util/result.h"

namespace re2 {
class RE2;
}

namespace extdeps::mapping {

// How the upstream version is read from a native one. "deb-upstream" strips the epoch, the
// Debian revision and repack suffixes (+dfsg, +ds, ~...); a regex with one group takes that group.
struct VersionRule {
  std::string kind = "native";  // native | none | map | regex | a provider's (deb-upstream)
  std::string pattern;          // for regex
  std::string from;             // which package's version is read; default: the first one listed
  // For map: native version -> upstream version, exactly as written; a native version not listed
  // is unknown (FreeType's freetype2.pc says 24.3.18, its libtool number, for release 2.12.1).
  std::map<std::string, std::string> map;
  // The pattern compiled once by load_table (RE2: matching takes time linear in the version,
  // whatever the pattern); null for rules built by hand, which compile on use.
  std::shared_ptr<const re2::RE2> compiled;
};

// One way of meeting an id for one category: all of these packages together.
struct Alternative {
  std::vector<std::string> packages;
  VersionRule version;
  // The archive component the packages come from ("main" unless the table says otherwise).
  // Packages outside main (contrib, non-free) are absent from a default apt index; verification
  // skips them and a plan can say which component has to be enabled.
  std::string component = "main";
  std::string note{};  // why this alternative exists or what to know about it; may be empty
  SourceSpan where{};  // the [[id]] or [[id.alternative]] table it came from
};

// What an entry is on another release than its table's own ([id.release.trixie] in debian.toml,
// whose names are bookworm's): it replaces the entry's packages when the machine runs that
// release (select_for_host).
struct ReleaseOverride {
  std::string release;                                       // a codename (trixie, noble) or a VERSION_ID (13, 24.04)
  std::map<Category, std::vector<Alternative>> by_category;  // every category, fallback applied
  std::string note;                                          // required when it maps to no package
  SourceSpan where;
};

struct Entry {
  std::string id;                    // dep:generic/libxml2
  std::vector<std::string> aliases;  // other spellings that mean the same id
  std::string description;
  // Why the entry is as it is; always set when the ecosystem has no package ("not packaged in
  // Debian bookworm"), so a plan can say so.
  std::string note;
  // Ordered alternatives per category (first preferred). Empty: the ecosystem has no package.
  // After loading, every category is present for package-manager tables (the defaults of
  // schema/mapping.md, "category fallback", are already applied); empty for a detector's tables.
  std::map<Category, std::vector<Alternative>> by_category;
  // For a detector's table (one that names no manager, as pkgconf's): the names that prove the
  // need present, for build and host alike (any of them, first preferred).
  std::vector<std::string> modules;
  // How a module's version reads as the project's (a detector's table), for the modules whose
  // rule is not native: "none" where the number is an API's, a bundled part's or a placeholder
  // (the module proves presence only), a map where it is a libtool number (freetype2).
  std::map<std::string, VersionRule> module_versions;
  // The rule of module `m`: its own, else native.
  const VersionRule& module_version(const std::string& m) const;
  // Other releases, in the order written; select_for_host applies the one the machine runs.
  std::vector<ReleaseOverride> releases;
  // `unverified = true`: no real index of the ecosystem confirmed these names (written from
  // upstream or another project's table); coverage counts such entries apart.
  bool unverified = false;
  SourceSpan where;

  // The alternatives for one category; an empty list when there is none.
  const std::vector<Alternative>& alternatives(Category category) const;
  // True when the table says explicitly that the ecosystem has nothing for this id.
  bool unavailable() const;
  // Every native package name the entry mentions, each once, in first-seen order.
  std::vector<std::string> all_packages() const;
  // True when `id` (without version, qualifiers, subpath) is the entry's id or an alias as
  // written; false when only a case-insensitive or normalised comparison found it.
  bool spelled(std::string_view id) const;
  // The id or alias `id` matches by spelling_key (spelling.h), as the table writes it; empty
  // when none does.
  std::string spelling_of(std::string_view id) const;
};

struct Table {
  std::string ecosystem;  // debian, pkgconfig
  std::string manager;    // apt; empty for detectors
  std::string description;
  std::string release;  // bookworm; empty when the table is not tied to one release
  std::string path;
  std::vector<std::string> overlays;  // later files merged into this table by load_tables
  std::vector<Entry> entries;         // sorted by id
  // The release whose [id.release.X] overrides select_for_host applied; empty: none did.
  std::string selected_release;
  // The entry for an id or alias. Tries the exact string, then the id without version,
  // qualifiers and subpath ("dep:generic/cmake?repository_url=..." -> "dep:generic/cmake"), then
  // compares as the PURL type says (spelling.h): github, gitlab, bitbucket and npm names
  // case-insensitively, pypi names normalised (PEP 503), other types case-insensitively as a
  // fallback (Entry::spelled tells the caller, who warns).
  const Entry* find(std::string_view id) const;
  // find's lookup index (exact aliases, and the spelling keys of ids and aliases), built on first
  // use and rebuilt when the entries move or their number changes. Code that changes entries'
  // ids or aliases in place otherwise calls invalidate_index (merge_table, share_aliases do).
  struct FindIndex;
  void invalidate_index() const { find_index_.reset(); }
  mutable std::shared_ptr<const FindIndex> find_index_;
};

// Reads and checks one table. Errors name file:line:col.
Result<Table> load_table(const std::string& path);
// The same for a table's text, `path` naming it in errors.
Result<Table> load_table_text(const std::string& text, const std::string& path);

// The tables for this machine: the shipped mappings dir plus extra dirs (later ones override
// entries of earlier ones with the same id; a dir named twice is read once). Each dir's *.toml
// files are read in name order; files of the same ecosystem merge (merge_table). Aliases are
// shared: an alias one table gives to an id applies to that id in every table.
struct Tables {
  std::vector<Table> tables;
  const Table* find_ecosystem(std::string_view ecosystem) const;
  // The entry of the first table that knows `id` (an id or an alias, spelled as Table::find
  // accepts); its `id` is the canonical spelling every table is keyed on.
  const Entry* find(std::string_view id) const;
  // Ids known in any table, for "did you mean".
  std::vector<std::string> known_ids() const;
};
// `only_ids`: when the tables come from the cache, only the entries these ids name are built
// (table_cache::decode), for a run that asks about a few ids; the tables parsed from TOML are
// whole. nullptr: every entry. `only_ecosystems` (with only_ids): of those, only the entries of
// these ecosystems' tables; the other tables come with their header and no entry.
Result<Tables> load_tables(const Context& ctx, const std::vector<std::string>& dirs,
                           const std::vector<std::string>* only_ids = nullptr,
                           const std::set<std::string>* only_ecosystems = nullptr);

// The machine a set of tables is adapted to: /etc/os-release's ID, ID_LIKE, VERSION_CODENAME
// and VERSION_ID (after EXTDEPS_OVERRIDE_OS).
struct HostRelease {
  std::string id;                    // ubuntu
  std::vector<std::string> id_like;  // debian
  std::string codename;              // noble
  std::string version_id;            // 24.04
  // The names an [id.release.X] may use for this machine, most specific first: the codename,
  // the VERSION_ID, then those the providers know for their systems (ProviderDescriptor::
  // release_names: apt the codename of a Debian or Ubuntu VERSION_ID when os-release, or
  // --system, gave none; dnf RHEL's elN).
  std::vector<std::string> release_names() const;
};

// HostRelease from <root>/etc/os-release.
HostRelease host_release(const Context& ctx);

// Adapts loaded tables to one machine, in three steps:
// - a table for one release of the machine's ecosystem (PEP 804's versioned id: "debian+13",
//   "ubuntu+24.04", for a release name of the machine) overlays the plain table of that
//   ecosystem, entry by entry, or becomes it where there is none; applied ones leave `tables`;
// - a table named after the machine's ID overlays the table of each ID_LIKE ecosystem it derives
//   from, entry by entry (an ubuntu.toml over debian.toml on Ubuntu, where the apt provider uses
//   the debian table);
// - in every table, an entry's [id.release.X] for one of the machine's release names replaces
//   the entry's packages (and note, when it has one). Tables keep what they had otherwise.
void select_for_host(Tables& tables, const HostRelease& host);

// Merges `overlay` into `base` (same ecosystem): entries with the same id are replaced, new ones
// added; an id or alias of the overlay is taken away from older entries that had it as an alias.
void merge_table(Table& base, Table overlay);

// Whether a table may key an entry on `id` (an id or an alias): "dep:TYPE/NAME", a '/' after
// the type and a name after the last '/'. The loader and the importers ask the same.
bool is_table_id(std::string_view id);

// The shipped mappings folder: $EXTDEPS_MAPPINGS_DIR, else the installed share/ folder, else the
// source tree's mappings/.
std::string default_mappings_dir(const Context& ctx);

// Upstream version from a native one by a rule ("1:3.6.2+dfsg-1+b2" -> "3.6.2"). A regex that
// does not match gives "" (the version is unknown).
std::string upstream_version(const VersionRule& rule, std::string_view native);

// Close matches for an unknown id (edit distance on the whole id and on the name part), best
// first, at most `limit`.
std::vector<std::string> did_you_mean(std::string_view id, const std::vector<std::string>& known,
                                      std::size_t limit = 3);

// Levenshtein distance, a swap of two neighbours counting as one edit; for "did you mean" on
// ids and on keys.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace extdeps::mapping
