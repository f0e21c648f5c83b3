// The engine: one entry per question a user asks (plan the needs of a declaration; show what one
// DepURL maps to here), used alike by the command line (core/cli, which parses arguments and
// renders) and the library (core/api, which wraps the answers in plain structs). Data flows one
// way: declaration -> settings -> mapping tables -> host facts -> providers (prepare, load) ->
// solve -> plan; rendering is the caller's.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/detect/host.h"
#include "core/plan/plan.h"
#include "core/util/result.h"

namespace extdeps::fetch {
class Fetcher;
}

namespace extdeps::engine {

// What the providers are told by the caller (the command line, the library's options).
struct SourceOptions {
  bool offline = false;  // downloads come from the cache only
  std::string python;    // the interpreter the plan is for (default: python3 on PATH)
  // --system ID[:VERSION] ("fedora:41", "macos:14"): plan for that system instead of this one's
  // os-release or sw_vers; the command line's EXTDEPS_OVERRIDE_OS (core option "system").
  std::string system;
  // Mapping overrides for this run, each "[ECOSYSTEM=]FILE" (mapping/overrides.h): the command
  // line's --use-mapping, --patch-mapping, --extend-mapping (core options of those names).
  std::vector<std::string> use_mappings;
  std::vector<std::string> patch_mappings;
  std::vector<std::string> extend_mappings;
  // The providers' options (ProviderDescriptor::options) by name ("channel" -> names): above
  // the environment and the configuration files.
  std::map<std::string, std::vector<std::string>, std::less<>> provider_options;
};

// A request to plan the needs of a declaration (resolve, check, install and env ask it).
struct Request {
  std::string path = ".";             // project folder or declaration file
  std::vector<std::string> managers;  // in order of preference; empty: the configuration's
  SourceOptions sources;
  std::vector<std::string> categories;  // build, host, run; empty: all three
  std::vector<std::string> optional;    // optional or dependency groups to plan too
  bool all_optional = false;
  bool use_cache = true;  // the index and host caches
  bool guess = true;      // guess packages for ids no table maps
  std::string cache_dir;  // empty: the Context's
  std::vector<std::string> mapping_dirs;
  // --root or EXTDEPS_ROOT already set the Context's root: a configuration's `root` yields.
  bool root_given = false;
  std::string host_file;  // plan for the machine whose `detect --save` facts these are
  // Also the Requires-External-Dep of what sources.python has installed; without a declaration
  // at `path` ("."), only those (check --python).
  bool audit_python = false;
  // An environment file a provider renders from the plan ("shell.nix"); empty: none. Checked
  // before any download.
  std::string environment_format;
  // Not empty: what a bug report needs is written there (`resolve --dump-testcase DIR`): the
  // libsolv testcase of the final solve (testcase.t, its repos, the result), and request.json
  // (the request, the declaration's text, the host facts, the tables' sizes and hashes, the
  // plan). `extdeps debug replay DIR` solves it again without the indexes.
  std::string dump_testcase_dir;
};

// A provider left out of a plan: its prepare() failed for the machine's sake (a download, an
// index it could not read: ExitCode::environment) while another manager answered.
struct FailedProvider {
  std::string manager;    // "conda"
  std::string ecosystem;  // "conda-forge": the table whose mappings it would have met
  Error error;
};

// The providers a plan came from, their downloads done. The fetcher lives as long as they do.
struct Sources {
  Sources();
  Sources(Sources&&) noexcept;
  Sources& operator=(Sources&&) noexcept;
  ~Sources();
  std::unique_ptr<fetch::Fetcher> fetcher;
  std::vector<std::unique_ptr<Provider>> providers;
  const Provider* renderer = nullptr;  // of Request::environment_format
  std::vector<FailedProvider> failed;  // left out, in the order they were prepared
};

struct Planned {
  std::string declaration_path;
  std::string host_text;  // "Debian GNU/Linux 12 (bookworm), amd64"
  plan::Outcome outcome;
  std::string environment_file;      // Request::environment_format rendered; empty when none asked
  detect::HostFacts host;            // the facts the plan was made for
  std::shared_ptr<Sources> sources;  // the providers it came from (env asks them)
};

Result<Planned> plan(Context& ctx, const Request& request);

// A --root, EXTDEPS_ROOT or `root` value: an existing folder, without trailing '/'.
Result<std::string> check_root(const std::string& dir);

// What one DepURL maps to in each table and what would meet it here, per category.
struct ShowRequest {
  std::string depurl;  // "dep:generic/openssl@>=3"
  std::vector<std::string> managers;
  SourceOptions sources;
  bool use_cache = true;
  std::string cache_dir;
  std::vector<std::string> mapping_dirs;
};

struct ShownMapping {
  std::string ecosystem;
  std::string table;  // the file
  std::string where;  // file:line:col of the entry
  // Per category present in the entry: its alternatives, each a list of packages.
  std::vector<std::pair<Category, std::vector<std::vector<std::string>>>> categories;
  std::vector<std::string> modules;  // pkg-config modules
  std::string note;
  bool unverified = false;
};

struct Shown {
  std::string id;                        // as written
  std::string canonical_id;              // the id the tables key it on
  std::vector<ShownMapping> mappings;    // empty: no table knows it
  std::vector<std::string> suggestions;  // did-you-mean ids, when no table knows it
  // One outcome per category (build, host, run), each a resolve of the DepURL alone; empty
  // when no table knows it.
  std::vector<plan::Outcome> here;
};

Result<Shown> show(Context& ctx, const ShowRequest& request);

// A place in a mapping table where a word was found (`extdeps show PACKAGE`, `extdeps search`).
struct Found {
  std::string ecosystem;
  std::string id;       // the entry's id
  std::string field;    // "host", "run", "build", "pkg-config", "id", "alias", "note"
  std::string release;  // the [id.release.X] table it is in; empty: the entry's own names
  std::string text;     // what matched: the package, the alias, the note
  std::string where;    // file:line:col of the entry
};

// The tables' entries that name `word`, every table the settings load (ShowRequest's managers,
// mapping folders, overrides; its depurl is not read), every release. `package`: a native
// package or pkg-config module spelled exactly so (`show libpq-dev`); else `word` anywhere,
// ignoring case, in ids, aliases, package and module names and notes (`search`).
Result<std::vector<Found>> find_in_tables(Context& ctx, const ShowRequest& request, std::string_view word,
                                          bool package);

}  // namespace extdeps::engine
