// A provider's descriptor: everything the rest of extdeps knows about a provider, in one value
// the provider's folder defines and one line registers (EXTDEPS_PROVIDERS in CMakeLists.txt,
// from which the build writes the list provider_descriptors() returns). The command line, the
// configuration reader, the library's options, `mappings lint/coverage/verify` and --help are
// made from the descriptors; core names no provider.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/context/context.h"
#include "core/mapping/guess.h"
#include "core/model/record.h"
#include "core/util/result.h"
#include "core/version/version.h"

namespace extdeps {

class Provider;
struct ProviderSettings;
namespace mapping {
struct NameIndex;
struct HostRelease;
}  // namespace mapping
namespace detect {
struct OsRelease;
struct HostFacts;
}  // namespace detect

// What an option's value is. config::load checks every value it resolves against its option's
// kind, once, and names where a bad one came from (the flag, the variable, the file:line:col);
// readers then take it as checked (config::seconds, ProviderSettings::option_text, ...).
enum class OptionKind {
  text,         // any text that is not empty
  choice,       // one of `choices`
  seconds,      // a number of seconds (0.5 and 30 alike), from min_seconds to max_seconds
  size,         // bytes: 1048576, or 512K, 512M, 2G (read as 1024-based); kept as the byte count
  flag,         // 1 or 0 (true/false, yes/no; true or false in a file); kept as "1" or "0"
  path,         // a file or folder; a relative one in a configuration file is made relative to it
  url,          // an http://, https:// or file:// URL
  path_or_url,  // a URL as above, or a local file (made relative to its configuration file too)
};

// The kind's name, for `extdeps config --variables` and the plugin protocol ("seconds").
std::string_view option_kind_name(OptionKind kind);
std::optional<OptionKind> option_kind_named(std::string_view name);

// One setting a provider takes. Its value comes, highest first, from the command line
// (--NAME), the environment (the first of `env` that is set), the project's [tool.extdeps]
// CONFIG_KEY, then the user's configuration file; the provider reads it with
// ProviderSettings::option(NAME), core with config::value(ctx, NAME).
struct ProviderOption {
  std::string_view name;        // "channel": the flag --channel, the library's key "channel"
  std::string_view value_name;  // "NAME", for --help; a choice's is its choices joined by '|'
  std::string_view help;
  bool list = false;                           // repeatable; an array in a file; a list in a variable
  std::string_view config_key;                 // "conda-channels"; empty: not in configuration files
  std::vector<std::string_view> env;           // "EXTDEPS_CONDA_CHANNELS"; also foreign ones ("PIP_INDEX_URL")
  std::string_view env_separators = ", \t\n";  // what splits a list in a variable
  OptionKind kind = OptionKind::text;          // what each value must be
  std::vector<std::string_view> choices;       // a choice's values
  double min_seconds = 0;                      // a number of seconds' range
  double max_seconds = 7 * 24 * 3600;
};

// Checks each of `value`'s values against the option's kind and makes it canonical: a flag
// "1" or "0", a size its byte count, a relative path from a configuration file relative to that
// file's folder `base` (empty: left as it is). The error is "FROM: expected WHAT, got 'VALUE'".
Result<void> check_option_value(const ProviderOption& option, OptionValue& value, std::string_view base = {});
// A checked value read back: "0.5" → 0.5 s; "1" → true.
std::optional<double> parse_seconds(std::string_view text);
std::optional<bool> parse_flag(std::string_view text);

// What `extdeps mappings verify` hands a provider's verify reader.
struct VerifyInput {
  std::vector<std::string> sources;  // --index (and --repodata): files or URLs; empty: the machine's
  std::string release;               // the release whose names are checked, for the report
  bool offline = false;              // downloads from the cache only
};

// A rule a mapping table's `version` key may name for reading the upstream version from a
// native one, beyond core's "native" and regex: apt's "deb-upstream" (Debian's epoch, revision
// and repack suffixes off).
struct UpstreamRule {
  std::string_view name;
  std::string (*upstream)(std::string_view native) = nullptr;
};

// A form of the host facts another tool reads, written by `extdeps detect --format NAME`: conda's
// CONDA_OVERRIDE_* lines, the variable uv reads. What it writes is `NAME=value` lines whose
// values detect::plain_value accepts (the facts may come from anyone's --host file).
struct HostFormat {
  std::string_view name;  // "conda"
  std::string_view help;  // "CONDA_OVERRIDE_* lines", for detect's --help and `extdeps providers`
  std::string (*write)(const detect::HostFacts& facts) = nullptr;
};

// A file a provider renders from a plan for its manager's users to keep instead of installing
// (`extdeps resolve --format NAME`: nix's shell.nix); Provider::render_environment writes it.
struct EnvironmentFormat {
  std::string_view name;  // "shell.nix"
  // "a nix-shell file with the plan's nix packages": for resolve's --help and `extdeps providers`
  std::string_view help;
};

// An OS of rosdep's (REP 111) whose default package installer is this provider's manager:
// `extdeps mappings import rosdep --os OS:RELEASE` keeps, of each key's rule, the packages for
// that installer and leaves the other installers' rules out.
struct RosdepPlatform {
  std::string_view os;                       // "ubuntu", as rosdep names it
  std::string_view ecosystem;                // the table the import writes ("ubuntu")
  std::string_view installer;                // rosdep's key for this manager, the OS's default: "apt"
  std::vector<std::string_view> installers;  // all rosdep registers for the OS, in its order (the first in a rule wins)
  std::string_view release_form;             // how rosdep names its releases, for messages: "CODENAME"
  std::string_view example_release;          // "noble"
};

// A system known by more than its os-release ID: the ID_LIKE its os-release gives ("rocky":
// "rhel centos fedora"), for a system named by --system or EXTDEPS_OVERRIDE_OS, whose
// os-release extdeps cannot read.
struct DerivedSystem {
  std::string_view id;
  std::vector<std::string_view> like;
};

// A variable of a manager's own that states a host fact, as EXTDEPS_OVERRIDE_<FACT> does:
// conda's CONDA_OVERRIDE_CUDA. The fact is named as HostFacts::overridden names it ("cuda",
// "cuda-arch", "glibc").
struct FactOverride {
  std::string_view fact;
  std::string_view variable;
};

// A folder a provider keeps under the cache root (pypi's "pypi/crawls"): `extdeps cache info`
// summarises it and `cache clean` removes from it the files `ours` says the provider wrote
// (core/fetch/cache_names.h has the usual name rules), nothing else.
struct CacheFolder {
  std::string_view folder;
  bool (*ours)(const std::string& path, std::string_view file_name) = nullptr;
};

struct ProviderDescriptor {
  std::string_view name;       // "conda"; what --manager names when it has a manager
  std::string_view ecosystem;  // "conda-forge": its solvables' namespace, its mapping table
  std::string_view manager;    // "conda"; empty for a detector (pkgconf)
  // Other names of the manager a mapping table's `manager` key may give ("mamba").
  std::vector<std::string_view> manager_aliases;
  // How its native versions are ordered: core's (version::segments_scheme, version::pep440_scheme) or
  // one the provider's folder defines.
  const version::Scheme* scheme = &version::segments_scheme;
  std::string_view summary;  // one line, for `extdeps providers` and the docs
  // Why `name` is not a package name of the manager, nothing when it is; null: the generic rule
  // (no leading '-', no blank or control character), which applies to every manager anyway.
  std::optional<std::string> (*name_problem)(std::string_view name) = nullptr;
  // The names an id no table maps would have in this manager's index if it were named after its
  // project (core/mapping/guess.h), in order of preference; null: it guesses nothing.
  std::vector<mapping::GuessForm> (*guess)(const mapping::GuessSubject& subject) = nullptr;
  // What a package is for, from its name (mapping::PackageRole); null: every package is runtime.
  mapping::PackageRole (*package_role)(std::string_view name) = nullptr;
  // The archive components a mapping table's `component` key may name ("main", "non-free");
  // empty: any name but the empty one.
  std::vector<std::string_view> components;
  // PEP 804's `package_managers` list for this manager's tables (`mappings export --pep804`), as
  // JSON text: the commands that install and query a package and how a version is written.
  // Empty: one generic entry made from the manager's name.
  std::string_view pep804_managers;
  // The version rules it defines for its tables (apt: deb-upstream).
  std::vector<UpstreamRule> upstream_rules;
  // How a table for this manager reads an upstream version from a native one when it says
  // nothing: the rule a table imported from PEP 804 starts with, and the one a guessed package
  // (solve/guess.cc) gets. Empty: "native".
  std::string_view imported_version_rule;
  std::vector<ProviderOption> options;
  // Environment variables it reads that are not options (CONDA_PREFIX, PKG_CONFIG_PATH), for
  // the docs and `extdeps providers`.
  std::vector<std::string_view> reads_env;
  // `mappings verify`: the names of a real index; null when it cannot verify its table.
  Result<mapping::NameIndex> (*verify_index)(Context& ctx, const VerifyInput& input) = nullptr;
  std::string_view verify_reads;  // "apt lists (apt tables)", for messages
  // Another name of `mappings verify --index` for its index, as its users call it ("repodata":
  // --repodata FILE|URL); empty: none.
  std::string_view verify_index_flag;
  // The CPU as this provider's manager names it where it is the system's own manager (dpkg's
  // amd64 on Debian and its derivatives, arm64 on a mac): what a plan says it is for, after the
  // system's name. Empty where it is not that system's manager; null: never.
  std::string (*system_cpu)(const detect::OsRelease& os, std::string_view machine) = nullptr;
  // The systems whose own manager this is that derive from another (Ubuntu from Debian, Rocky
  // from RHEL), with the ID_LIKE each one's os-release gives: a system named by --system then
  // plans with the tables and the manager its machine would.
  std::vector<DerivedSystem> derived_systems;
  // Its manager's variables that state a host fact; an EXTDEPS_OVERRIDE_ one set wins over them.
  std::vector<FactOverride> fact_overrides;
  // The forms of the host facts its manager's tools read (`extdeps detect --format`).
  std::vector<HostFormat> host_formats;
  // The files it renders from a plan (`extdeps resolve --format`).
  std::vector<EnvironmentFormat> environment_formats;
  // Adds the names a table's [id.release.X] may use for a machine of one of its systems beyond
  // os-release's VERSION_CODENAME and VERSION_ID (the codename of a Debian release named by its
  // number, RHEL's elN) to `names`, most specific first; null: none.
  void (*release_names)(const mapping::HostRelease& host, std::vector<std::string>& names) = nullptr;
  // The folders it keeps under the cache root besides solv/ (which core writes for it).
  std::vector<CacheFolder> cache_folders;
  // rosdep's OSes whose rules this manager installs (`mappings import rosdep`).
  std::vector<RosdepPlatform> rosdep_platforms;
  std::function<std::unique_ptr<Provider>(const Context& ctx, const ProviderSettings& settings)> make;
  // A provider plugin's program (core/plugin/plugin.h); empty for a compiled-in provider.
  std::string_view plugin_path;

  // Whether a table's `manager` key names this provider's manager.
  bool installs_with(std::string_view manager_name) const;
};

// The providers, in default order of preference: the compiled-in ones (the order of
// EXTDEPS_PROVIDERS), then the plugins registered since the process started. Safe from several
// threads: the list returned is a snapshot that stays valid, and unchanged, for the whole
// process; a registration makes a new one (docs/library.md, "Threads").
const std::vector<const ProviderDescriptor*>& provider_descriptors();

// The compiled-in ones alone (provider_list.cc, written by CMake).
const std::vector<const ProviderDescriptor*>& compiled_in_descriptors();

// Adds a descriptor found at run time (a provider plugin), which lives as long as the process.
// false, and nothing added, when a provider of that name, ecosystem or manager, or an option of
// that name, is registered already.
bool register_descriptor(std::unique_ptr<ProviderDescriptor> descriptor);

// The descriptor whose manager (or an alias of it) is `manager`; null when none.
const ProviderDescriptor* descriptor_for_manager(std::string_view manager);

// The manager a name stands for: a descriptor's manager for one of its aliases ("zypper" ->
// "dnf", "homebrew" -> "brew"), else the name itself.
std::string canonical_manager(std::string_view name);
// The names canonical, each once, in order.
std::vector<std::string> canonical_managers(const std::vector<std::string>& names);

// The version schemes by name: core's (segments, pep440), then each descriptor's own in provider order,
// each once. What `version compare --scheme` and a plugin's "scheme" may name.
std::vector<const version::Scheme*> version_schemes();
const version::Scheme* version_scheme_named(std::string_view name);
// "segments, pep440, deb, ... or homebrew": for help texts and messages.
std::string version_scheme_names_text();

// The version rule of that name a descriptor defines; null when none does.
const UpstreamRule* upstream_rule_named(std::string_view name);
// What a table's `version` may be: "\"native\", \"deb-upstream\" or { regex = '...', from = \"package\" }".
std::string version_rule_forms_text();

// The rule that reads an upstream version from a native one of `manager`'s packages: its
// descriptor's imported_version_rule, "native" when it has none or no provider installs with it.
std::string version_rule_of(std::string_view manager);

// The host format of that name a descriptor defines; null when none does.
const HostFormat* host_format_named(std::string_view name);

// The descriptor whose rosdep_platforms has the OS `os` ("debian"), with that platform; null when
// none has it.
const ProviderDescriptor* descriptor_for_rosdep_os(std::string_view os, const RosdepPlatform** found = nullptr);
// "debian:CODENAME or ubuntu:CODENAME": the --os values `mappings import rosdep` takes here;
// `with_example` adds " (e.g. debian:bookworm)".
std::string rosdep_os_forms_text(bool with_example);

// The ID_LIKE of a system a descriptor knows (DerivedSystem); empty when none knows it.
std::vector<std::string> known_id_like(std::string_view id);

// The descriptor of an option name ("channel"); null when none. The option is returned too.
const ProviderDescriptor* descriptor_for_option(std::string_view option, const ProviderOption** found = nullptr);

}  // namespace extdeps
