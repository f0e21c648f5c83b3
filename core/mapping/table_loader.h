// The mapping-table loader's parts (load.cc, version_rule_load.cc): the Loader that reads one
// table's TOML and the failures it reports. Internal to core/mapping/.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "core/mapping/mapping.h"
#include "core/provider/descriptor.h"

namespace re2 {
class RE2;
}

namespace extdeps::mapping::load_detail {

// Why a version regex is refused before RE2 compiles it (version_rule_load.cc).
std::optional<std::string> regex_too_big(std::string_view pattern);

inline constexpr int kSchema = 1;
inline constexpr std::array<Category, 3> kCategories = {Category::build, Category::host, Category::run};

// The TOML type of a node, for messages ("string", "table").
const char* type_name(const toml::node& n);

// The first problem found; every check returns one or nothing, and the first one ends the load.
// A table's error, at its place (an Error of bad input once load_table hands it over).
struct Failure {
  std::string place;  // file:line:col
  std::string what;
  std::string expected;  // what the table should have there, if there is one thing to say
};

// One set of build/host/run lists as written, before the fallback.
struct Lists {
  std::array<std::optional<std::vector<std::string>>, 3> by;  // build, host, run
  bool any() const { return by[0] || by[1] || by[2]; }
};

class Loader {
 public:
  explicit Loader(std::string path) : path_(std::move(path)) {}

  std::optional<Failure> run(const toml::table& root, Table& out);

 private:
  SourceSpan span(const toml::source_region& r) const {
    return SourceSpan{path_, static_cast<int>(r.begin.line), static_cast<int>(r.begin.column)};
  }
  std::string at(const toml::source_region& r) const {
    return path_ + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
  }
  Failure fail(const toml::source_region& r, const std::string& what, const std::string& expected = {}) const {
    return Failure{at(r), what, expected};
  }

  std::optional<Failure> check_keys(const toml::table& t, const std::vector<std::string>& allowed,
                                    const std::string& where) const;
  std::optional<Failure> read_string(const toml::table& t, const char* key, std::string& out) const;
  std::optional<Failure> read_strings(const toml::table& t, const char* key,
                                      std::optional<std::vector<std::string>>& out) const;
  std::optional<Failure> read_rule(const toml::node& n, VersionRule& out) const;
  std::optional<Failure> read_version_map(const toml::table& t, VersionRule& rule) const;
  std::optional<Failure> read_module_versions(const toml::table& t, Entry& e) const;
  std::optional<Failure> read_component(const toml::table& t, std::string& out) const;
  std::optional<Failure> check_package_names(const toml::table& t, const char* key,
                                             const std::vector<std::string>& names) const;
  std::optional<Failure> read_entry(const toml::table& t, Entry& e) const;
  // The package lists of an entry or of one of its [id.release.NAME] tables. `rule` and
  // `component` come in as the defaults and go out as the table's own.
  // `inherit` (for a release table): the entry's own lists, standing in for the categories the
  // table does not write, before the fallback. `lists_out`: the lists the table writes itself.
  std::optional<Failure> read_body(const toml::table& t, const std::string& id, const char* what, VersionRule& rule,
                                   std::string& component, std::map<Category, std::vector<Alternative>>& out,
                                   const Lists* inherit = nullptr, Lists* lists_out = nullptr) const;
  std::optional<Failure> read_releases(const toml::table& t, Entry& e, const VersionRule& rule,
                                       const std::string& component, const Lists& entry_lists) const;

  std::optional<Failure> read_lists(const toml::table& t, Lists& out) const;
  std::optional<Failure> check_from(const toml::table& t, const VersionRule& rule, const Lists& lists,
                                    const std::string& id) const;

  std::string path_;
  bool detector_ = false;
  // The table names a manager no provider of this build installs with (apt's table in a build
  // that leaves apt out, EXTDEPS_PROVIDER_APT=OFF): the version rules that provider would define
  // cannot be checked, and nothing reads its versions here, so a well-formed rule name is taken.
  bool foreign_ = false;
  bool known_rule(const std::string& kind) const {
    if (kind == "native" || kind == "none" || upstream_rule_named(kind)) return true;
    return foreign_ && !kind.empty() && kind != "regex" && kind != "map" &&
           std::all_of(kind.begin(), kind.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
  }
  std::vector<std::string_view> components_;  // what `component` may name; empty: anything
  std::string manager_;
  mutable std::map<std::string, std::shared_ptr<const re2::RE2>> regexes_;  // by pattern
  std::string table_release_;
  VersionRule default_rule_;
};

}  // namespace extdeps::mapping::load_detail
