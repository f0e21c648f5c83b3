// One provider per folder under providers/: it turns a package manager's data into plain
// PackageRecords and renders the commands that install a plan's packages. Providers know nothing
// of libsolv (DESIGN.md decision 6).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/context/context.h"
#include "core/model/record.h"
#include "core/provider/descriptor.h"
#include "core/util/result.h"
#include "extdeps/build_env.h"

namespace extdeps {

namespace fetch {
class Fetcher;
}
namespace detect {
struct HostFacts;
}

// What the command line and the configuration tell the providers; each reads its own part.
struct ProviderSettings {
  // The managers the user named (--manager, EXTDEPS_MANAGERS, configuration), in order of
  // preference; empty when none was named. A provider whose manager is named is used even
  // where it would not be by default (conda without an active environment).
  std::vector<std::string> managers;
  // The providers' options (ProviderDescriptor::options) that are set, by name, resolved by
  // precedence (command line > environment > project > user configuration).
  std::map<std::string, OptionValue, std::less<>> options;
  // The Python interpreter the plan is for (--python; empty: python3 on PATH).
  std::string python;

  // The native names the request's needs map to, per ecosystem (every alternative of every
  // category): where a provider fetches per package (pypi), what it starts from. Shared, and
  // filled after the providers are made (which of them are in use decides which tables are
  // read): a provider reads it from prepare() on, through names_for().
  std::shared_ptr<const std::map<std::string, std::vector<std::string>>> request_names;
  // request_names of one ecosystem; empty when there are none.
  const std::vector<std::string>& names_for(std::string_view ecosystem) const;
  // The machine the plan is for (glibc, CUDA driver); null when not detected.
  const detect::HostFacts* host = nullptr;
  // Whether a provider may read and write its own caches of what it read (pypi's crawl memo);
  // false with --no-cache, which rebuilds the records from what the indexes serve.
  bool use_cache = true;

  bool names(std::string_view manager) const;
  // An option's value; null when it is not set.
  const OptionValue* option(std::string_view name) const;
  // Its first value, or "" when it is not set.
  std::string option_text(std::string_view name) const;
  // Its values, or none when it is not set.
  std::vector<std::string> option_list(std::string_view name) const;
  // A seconds option's value (config::load checked it); nullopt when it is not set.
  std::optional<double> option_seconds(std::string_view name) const;
};

struct PlannedPackage {
  std::string name;
  std::string version;  // native
  std::string arch;
  std::string build;  // conda's build string; empty elsewhere
};

struct Command {
  std::vector<std::string> argv;
  bool requires_elevation = false;  // needs root: run through sudo when not root
};

// What `extdeps resolve --format NAME` hands the provider that renders that format: a file a
// manager's users keep instead of installing into a profile (nix: shell.nix, flake.nix).
struct EnvironmentPackage {
  std::string name;      // native name
  std::string version;   // native version
  std::string category;  // build, host or run: of the need it meets
  std::string need;      // the need as written: "dep:generic/openssl >=3"
  bool installed = false;
};
struct EnvironmentRequest {
  std::string format;                        // one of its descriptor's environment_formats
  std::string declaration;                   // the declaration file the plan is for
  std::vector<EnvironmentPackage> packages;  // what this provider's manager meets, installed or planned
  std::vector<std::string> elsewhere;        // needs another manager meets: "dep:generic/zlib (apt: zlib1g-dev)"
  std::vector<std::string> unmet;            // needs nothing meets, with why
};

// An installed package that meets a need, as `extdeps env` asks its provider about it.
struct InstalledRef {
  std::string_view name;
  std::string_view version;   // native
  std::string_view where;     // its origin: the dpkg status file, the .pc file, the conda-meta file
  std::string_view need;      // the DepURL id it meets
  std::string_view category;  // build, host or run
};

// A compiled DepOp::spec relation: does a candidate with this native version and build string
// (PackageRecord::version, ::build) meet it?
class SpecMatcher {
 public:
  virtual ~SpecMatcher() = default;
  virtual bool matches(std::string_view version, std::string_view build) const = 0;
};

// What a cache of loaded records is keyed on: the sources' paths, sizes and mtimes.
struct SourceId {
  std::string key;  // stable text; equal keys mean equal data
};

class Provider {
 public:
  virtual ~Provider() = default;
  // The namespace of its solvables and the name of its mapping table: "debian", "pkgconfig".
  virtual std::string_view ecosystem() const = 0;
  // The manager that installs what it offers ("apt"); empty for a detector such as pkgconf.
  virtual std::string_view manager() const = 0;
  virtual const version::Scheme& scheme() const = 0;
  // Whether it installs into the system's own prefixes (apt into /usr), where the libraries a
  // detector finds on the default search path live: those rank with it when managers are named.
  virtual bool system_wide() const { return false; }
  // Whether its plans name every package of the closure the solve chose, pinned (conda, pip:
  // their own resolvers would otherwise pick other versions than the ones checked here), or only
  // the packages a need maps to and the installed ones to upgrade (apt resolves the rest the
  // same way, from the same lists).
  virtual bool pins_closure() const { return false; }
  // Whether its records carry track_features (PackageRecord::track_features; conda): the solver
  // then disfavours each record that has them. Others are not asked, which saves a lookup per
  // record.
  virtual bool has_track_features() const { return false; }
  // Whether an unversioned provide of its records meets a versioned relation (rpm: Provides: foo
  // meets Requires: foo >= 1). Debian's rule, and pacman's, is that it does not: the default.
  virtual bool unversioned_provides_meet_versions() const { return false; }
  // Whether this provider can work on this machine (apt: a dpkg database is there).
  virtual bool available(const Context& ctx) const = 0;
  virtual Result<SourceId> identity(const Context& ctx) const = 0;
  virtual Result<void> load(const Context& ctx, const RecordSink& available, const RecordSink& installed) = 0;
  virtual std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages) const = 0;
  // Whether one transaction of this manager can install packages and remove installed ones
  // (swap_commands): a plan may then take out an installed package that conflicts with what a
  // need installs, as the manager itself would (apt's "The following packages will be
  // REMOVED"). False, the default: its installed packages stay, and such a need has no plan.
  virtual bool plans_removals() const { return false; }
  // Installed packages no plan removes, whatever a need asks (apt: dpkg's Essential: yes and
  // Protected: yes, which apt-get -y refuses to remove). Asked only when a plan with removals is
  // tried. The default: none.
  virtual std::vector<std::string> never_removed(const Context& ctx) const {
    (void)ctx;
    return {};
  }
  // The commands that install `packages` and remove `removals` in one transaction. Asked only of
  // a manager that plans_removals(), and only with removals; the default is install_commands().
  virtual std::vector<Command> swap_commands(const std::vector<PlannedPackage>& packages,
                                             const std::vector<PlannedPackage>& removals) const {
    (void)removals;
    return install_commands(packages);
  }
  // The files an installed package put on the machine, as this machine's paths
  // (Context::host_path); empty when the manager does not say (the default). Asked of the
  // packages a plan removes: a need met by one of those files (a pkg-config module) loses it.
  virtual std::vector<std::string> package_files(const Context& ctx, const PlannedPackage& package) const {
    (void)ctx;
    (void)package;
    return {};
  }
  // The commands as the solver asks for them: install_commands(), or why there are none (a
  // plugin that did not answer). The default cannot fail.
  virtual Result<std::vector<Command>> plan_commands(const std::vector<PlannedPackage>& packages) const {
    return install_commands(packages);
  }
  // What is wrong with a planned package as an argument of install_commands: a name outside the
  // manager's name rule ('-oDPkg::Pre-Invoke::=...'), a version or build that could read as an
  // option; nullopt when nothing. The solver asks before it renders a command, whatever the
  // mapping table (its manager key may be missing) or the index said. The default checks the
  // name with mapping::name_problem(manager(), ...) and the version and build with
  // mapping::argument_problem.
  virtual std::optional<std::string> command_problem(const PlannedPackage& package) const;

  // Why a package a table places in a component (a table's `component`: Debian's contrib,
  // non-free) is missing from the index: the sources that would list it. The default says "the
  // sources read here"; apt says "this machine's apt sources".
  virtual std::string missing_component(std::string_view package, std::string_view component) const;

  // Compiles the text of a DepOp::spec relation (conda: ">=1.20,<2.0a0 py310*"). Only providers
  // whose records use DepOp::spec override it; the default refuses every spec.
  virtual Result<std::unique_ptr<SpecMatcher>> compile_spec(std::string_view spec) const;

  // Downloads what load() reads (a channel's indexes) through the fetcher, which outlives
  // load(). Called once, before identity() and load(), for each provider the solve will use
  // (see wanted()). The default has nothing to download.
  virtual Result<void> prepare(const Context& ctx, fetch::Fetcher& fetcher);

  // The native names the solve can ask for (what its mapping table names), told before load()
  // when the solver prunes the index to their closure. A provider may then leave out of the
  // available records what that closure cannot reach, to load faster; the default keeps all.
  virtual void restrict_to(const std::vector<std::string>& names) { (void)names; }

  // Renders one of its descriptor's environment_formats ("shell.nix") from a plan; the default
  // renders none.
  virtual Result<std::string> render_environment(const EnvironmentRequest& request) const;

  // What a build needs to find an installed package of this provider (`extdeps env`): the
  // search paths of its prefix. The default adds nothing: the system's own prefixes are
  // searched without help.
  virtual void add_build_env(const Context& ctx, const InstalledRef& package, BuildEnv& env) const;
};

// Whether a solve uses the provider: named in settings.managers when any is named (a detector,
// with no manager, always), else available by default.
bool wanted(const Provider& provider, const Context& ctx, const ProviderSettings& settings);

// Every compiled-in provider (provider_descriptors()), in default preference order.
std::vector<std::unique_ptr<Provider>> make_providers(const Context& ctx, const ProviderSettings& settings = {});

}  // namespace extdeps
