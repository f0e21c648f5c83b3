// The steps every planning command shares: find and read the declaration, merge configuration,
// pick the requirements asked for (categories, optional groups, markers), load the mapping tables
// and providers, resolve.
#pragma once

#include <iosfwd>
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

namespace extdeps::cli {

// What the providers that download or read environments take from the command line.
struct SourceOptions {
  std::vector<std::string> channels;  // --channel (conda), repeatable
  std::string prefix;                 // --prefix: a conda environment
  bool offline = false;               // --offline: downloads come from the cache only
  std::string python;                 // --python: the interpreter pypi plans for
  std::string index_url;              // --index-url (pypi)
  std::vector<std::string> extra_index_urls;  // --extra-index-url (pypi), repeatable
  std::string nix_index;              // --nix-index: a nixpkgs index, file or URL
};

struct RunOptions {
  std::string path = ".";
  std::vector<std::string> managers;
  SourceOptions sources;
  std::vector<std::string> categories;  // empty: build, host and run
  std::vector<std::string> optional;
  bool all_optional = false;
  bool json = false;
  std::string format;  // --format: text, json, or an environment file a provider renders (shell.nix)
  bool explain = false;
  bool no_cache = false;
  bool no_guess = false;  // --no-guess: an id no table maps stays unmapped
  std::string cache_dir;
  std::vector<std::string> mapping_dirs;
  bool root_given = false;  // --root or EXTDEPS_ROOT set the Context's root: the configuration's yields
  std::string host_file;  // --host: plan for the machine whose `detect --save` facts these are
  // check --python: also the Requires-External-Dep of what sources.python has installed; without
  // a declaration in `path`, only those.
  bool audit_python = false;
};

// A --root, EXTDEPS_ROOT or `root` value: an existing folder, without trailing '/'.
Result<std::string> check_root(const std::string& dir);

// The providers a solve used, their downloads done. The fetcher lives as long as they do.
struct Sources {
  Sources();
  Sources(Sources&&) noexcept;
  Sources& operator=(Sources&&) noexcept;
  ~Sources();
  std::unique_ptr<fetch::Fetcher> fetcher;
  std::vector<std::unique_ptr<Provider>> providers;
  const Provider* renderer = nullptr;  // of --format, checked before any download
};

struct Prepared {
  std::string declaration_path;
  std::string host_text;  // "Debian GNU/Linux 12 (bookworm), amd64"
  plan::Outcome outcome;
  std::string rendered;  // the environment file of --format, when one was asked for
  detect::HostFacts host;            // the facts the plan was made for
  std::shared_ptr<Sources> sources;  // the providers it came from (extdeps env asks them)
};

Result<Prepared> prepare(Context& ctx, const RunOptions& options);

struct ShowOptions {
  bool json = false;
  bool no_cache = false;
  std::string cache_dir;
  SourceOptions sources;
  std::vector<std::string> managers;
  std::vector<std::string> mapping_dirs;
};
int cmd_show(Context& ctx, const std::string& depurl, const ShowOptions& options, std::ostream& out,
             std::ostream& err);

}  // namespace extdeps::cli
