// The nix provider: finding the index and the profile, keying a cache on them, loading records,
// the install command, and the environment files.
#include "providers/nix/nix_provider.h"

#include "core/util/file_stamp.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_set>

#include "core/detect/os_release.h"
#include "core/detect/process.h"
#include "core/fetch/fetch.h"
#include "core/json/byte_source.h"
#include "providers/nix/environment.h"
#include "providers/nix/index.h"
#include "providers/nix/index_source.h"
#include "providers/nix/names.h"
#include "providers/nix/nix_version.h"
#include "providers/nix/platform.h"
#include "providers/nix/profile.h"

namespace extdeps::nix {

namespace {

namespace fs = std::filesystem;

// Bump when records are read differently: a cache keyed on the old reading is then unused.
constexpr std::string_view kReaderFormat = "nix-records-2";  // 2: channel prefixes cut

// What was done about an error (a damaged cached copy removed), after its text and as its hint.
void add_note(Error& e, const std::string& note) {
  e.message += " (" + note + ")";
  e.hint = e.hint.empty() ? note : e.hint + "; " + note;
}

// "path size mtime" of a file, or "path missing".
std::string stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return path + " missing";
  return path + " " + std::to_string(st.st_size) + " " + std::to_string(mtime_ns(st));
}

// The machine's channel names: the second word of each line of ~/.nix-channels ("URL NAME").
std::vector<std::string> machine_channels(const Context& ctx) {
  std::vector<std::string> out;
  auto home = ctx.env("HOME");
  if (!home || home->empty()) return out;
  std::ifstream in(ctx.host_path(*home + "/.nix-channels"));
  std::string url, name;
  while (in >> url >> name) out.push_back(name);
  return out;
}

// The channel the index's first key starts with, for commands (`nix-env -iA <channel>.gdal`),
// read from the file's first few KiB. Compressed indexes are channels' packages.json, whose keys
// have no channel; "" then, and for an index without one.
std::string index_channel(const IndexFile& index, const std::vector<std::string>& known) {
  if (index.name.size() > 3 && (index.name.ends_with(".br") || index.name.ends_with(".zst"))) return {};
  std::ifstream in(index.path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  const auto brace = head.find('{');
  if (brace == std::string::npos) return {};
  const auto open = head.find_first_not_of(" \t\r\n", brace + 1);
  if (open == std::string::npos || head[open] != '"') return {};
  const auto close = head.find('"', open + 1);
  if (close == std::string::npos) return {};
  return channel_of_key(std::string_view(head).substr(open + 1, close - open - 1), known);
}

class NixProvider final : public Provider {
 public:
  NixProvider(ProviderOptions options, bool used) : options_(std::move(options)), used_(used) {}

  std::string_view ecosystem() const override { return "nixpkgs"; }
  std::string_view manager() const override { return "nix"; }
  const version::Scheme& scheme() const override { return version::nix_scheme; }
  bool available(const Context&) const override { return used_; }

  Result<void> prepare(const Context& ctx, fetch::Fetcher& fetcher) override {
    fetcher_ = &fetcher;
    if (options_.system) {
      system_ = *options_.system;
    } else if (auto s = machine_system(ctx)) {
      system_ = *s;
    } else {
      return error_at(ExitCode::environment, "", "nix has no system for this machine (" + detect::machine(ctx) + ")",
                      "", "set EXTDEPS_NIX_SYSTEM, e.g. EXTDEPS_NIX_SYSTEM=x86_64-linux");
    }
    auto index = options_.index.empty() ? generate_index(ctx, system_, options_.timeout_ms)
                                        : locate_index(fetcher, options_.index);
    if (!index) return index.error();
    index_ = std::move(*index);
    channels_ = machine_channels(ctx);
    channel_ = index_channel(index_, channels_);
    profile_ = options_.profile.empty() ? default_profile(ctx) : options_.profile;
    command_profile_ = options_.profile.empty() ? ctx.env("EXTDEPS_NIX_PROFILE").value_or("") : options_.profile;
    kind_ = profile_kind(profile_);
    frontend_ = options_.frontend               ? *options_.frontend
                : kind_ == ProfileKind::nix_env ? Frontend::env
                                                : Frontend::profile;
    return {};
  }

  Result<SourceId> identity(const Context&) const override {
    std::string key = std::string(kReaderFormat) + "\nsystem " + system_ + "\nindex " + index_.name + " " +
                      stamp(index_.path) + "\nprofile " + profile_;
    if (kind_ != ProfileKind::none) {
      // The profile is a link to its current generation: a new generation is a new key.
      std::error_code ec;
      std::string current = fs::canonical(profile_, ec).string();
      std::string manifest = kind_ == ProfileKind::nix_profile ? "/manifest.json" : "/manifest.nix";
      key += " " + current + " " + stamp(profile_ + manifest);
    }
    return SourceId{key + "\n"};
  }

  Result<void> load(const Context& ctx, const RecordSink& available, const RecordSink& installed) override {
    installed_names_.clear();
    RecordSink keep_names = [&](PackageRecord&& r) {
      installed_names_.insert(r.name);
      installed(std::move(r));
    };
    if (auto r = load_profile(ctx, keep_names); !r) return r;
    return load_index(ctx, available);
  }

  // nix records have no relations: what the solve can reach of the index is the attributes it
  // names, the members of their families and what is installed. The rest is never added to the
  // pool (a 100,000-attribute index then loads in a fraction of the time).
  void restrict_to(const std::vector<std::string>& names) override { wanted_.insert(names.begin(), names.end()); }

  std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages) const override {
    return nix::install_commands(packages, {frontend_, command_profile_, index_.revision, channel_});
  }

  Result<std::string> render_environment(const EnvironmentRequest& request) const override {
    std::vector<ShellPackage> packages;
    for (const auto& p : request.packages) packages.push_back({p.name, p.version, p.category, p.need});
    ShellOptions o{request.declaration, system_, index_.revision, {}};
    for (const auto& e : request.elsewhere) o.notes.push_back("met elsewhere, not in this shell: " + e);
    for (const auto& u : request.unmet) o.notes.push_back("not met: " + u);
    if (request.format == "shell.nix") return render_shell_nix(packages, o);
    if (request.format == "flake.nix") return render_flake(packages, o);
    return Provider::render_environment(request);
  }

 private:
  static std::string default_profile(const Context& ctx) {
    if (auto p = ctx.env("EXTDEPS_NIX_PROFILE"); p && !p->empty()) return *p;
    auto home = ctx.env("HOME");
    return home && !home->empty() ? ctx.host_path(*home + "/.nix-profile") : std::string();
  }

  Result<void> load_index(const Context& ctx, const RecordSink& available) {
    auto source = json::open_file(index_.path, index_.name);
    if (!source) return source.error();
    Platform platform(system_);
    IndexOptions io{&platform, channels_};
    auto add = [&](std::string path, std::string version, std::string pname) {
      PackageRecord r;
      r.name = std::move(path);
      r.version = std::move(version);
      r.set = std::string(package_set(r.name));
      r.family = std::move(pname);
      available(std::move(r));
    };
    // With names to restrict to, the other attributes wait until the families of the named ones
    // are known (an attribute may come before the one it stands in for).
    struct Held {
      std::string path, version, pname;
    };
    std::vector<Held> held;
    std::unordered_set<std::string> families;
    auto summary = read_index(**source, io, [&](Attribute&& a) {
      if (wanted_.empty() || wanted_.count(a.path) || installed_names_.count(a.path)) {
        if (wanted_.count(a.path)) families.insert(a.pname);
        add(std::move(a.path), std::move(a.version), std::move(a.pname));
      } else {
        held.push_back({std::move(a.path), std::move(a.version), std::move(a.pname)});
      }
    });
    for (auto& h : held)
      if (families.count(h.pname)) add(std::move(h.path), std::move(h.version), std::move(h.pname));
    if (!summary) {
      // A damaged download is dropped from the cache so that the next run fetches it again.
      Error e = summary.error();
      if (!index_.url.empty() && fetcher_ && index_.url.rfind("file:", 0) != 0 && fetcher_->forget(index_.url).ok())
        add_note(e, "the cached copy was removed; the next run downloads it again");
      // So is an index nix made for the cache (cut by a full disk, say): the next run makes it again.
      else if (options_.index.empty() && ctx.cache_enabled() && index_.path.rfind(ctx.cache_dir() + "/nix/", 0) == 0 &&
               ::unlink(index_.path.c_str()) == 0)
        add_note(e, "the cached index was removed; the next run makes it again");
      return e;
    }
    if (summary->candidates == 0 && summary->other_platform > 0 && !summary->other_system.empty())
      ctx.warn(index_.name + " is an index for " + summary->other_system + ", not " + system_ + ": none of its " +
               std::to_string(summary->attributes) + " attributes is a candidate here");
    return {};
  }

  Result<void> load_profile(const Context& ctx, const RecordSink& installed) {
    if (kind_ == ProfileKind::nix_profile) {
      auto source = json::open_file(profile_ + "/manifest.json");
      if (!source) return source.error();
      auto r = read_profile_manifest(**source, profile_, installed);
      if (!r) return r.error();
      return {};
    }
    if (kind_ != ProfileKind::nix_env) return {};
    // manifest.nix is a Nix expression: nix-env reads it.
    if (detect::find_on_path(ctx, "nix-env").empty()) {
      ctx.warn(profile_ + " is a nix-env profile, and nix-env is not on PATH: its packages are not read");
      return {};
    }
    std::string out =
        (fs::temp_directory_path() / ("extdeps-nix-env-q-" + std::to_string(::getpid()) + ".json")).string();
    auto ran = detect::run_to_file(ctx, {detect::find_on_path(ctx, "nix-env"), "-q", "--json", "-p", profile_},
                                   nix_environment(ctx), out, 120 * 1000);
    struct Remove {
      std::string path;
      ~Remove() { std::remove(path.c_str()); }
    } remove{out};
    if (!ran) return ran.error();
    if (ran->exit_status != 0)
      return error_at(ExitCode::environment, "",
                      "nix-env -q --json -p " + profile_ + " failed with exit code " +
                          std::to_string(ran->exit_status) + ": " + ran->err_tail);
    auto source = json::open_file(out, "nix-env -q --json -p " + profile_);
    if (!source) return source.error();
    auto r = read_nix_env_installed(**source, profile_, installed);
    if (!r) return r.error();
    return {};
  }

  ProviderOptions options_;
  bool used_;
  std::string system_;
  IndexFile index_;
  std::vector<std::string> channels_;  // the machine's (~/.nix-channels)
  std::string channel_;                // the index's keys start with it; named in nix-env commands
  std::string profile_;
  std::string command_profile_;  // named in commands: the one given, not the default
  ProfileKind kind_ = ProfileKind::none;
  Frontend frontend_ = Frontend::profile;
  fetch::Fetcher* fetcher_ = nullptr;                // from prepare(); outlives load()
  std::unordered_set<std::string> wanted_;           // restrict_to(): empty keeps every attribute
  std::unordered_set<std::string> installed_names_;  // of the last load()
};

}  // namespace

std::string_view frontend_name(Frontend frontend) { return frontend == Frontend::env ? "nix-env" : "nix profile"; }

std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages, const CommandOptions& o) {
  if (packages.empty()) return {};
  // No "--" here: nix-env's legacy parser is not documented to take it. Every argument is
  // "<flake>#<attr>" or an attribute path, which command_problem has checked against the
  // attribute path rule (no leading '-', no space), so none can read as an option.
  Command c;
  if (o.frontend == Frontend::profile) {
    c.argv = {"nix", "profile", "install"};
    if (!o.profile.empty()) c.argv.insert(c.argv.end(), {"--profile", o.profile});
    std::string flake = o.revision.empty() ? "nixpkgs" : "github:NixOS/nixpkgs/" + o.revision;
    for (const auto& p : packages) c.argv.push_back(flake + "#" + p.name);
  } else {
    c.argv = {"nix-env"};
    if (!o.profile.empty()) c.argv.insert(c.argv.end(), {"-p", o.profile});
    if (!o.revision.empty())
      c.argv.insert(c.argv.end(), {"-f", "https://github.com/NixOS/nixpkgs/archive/" + o.revision + ".tar.gz"});
    c.argv.push_back("-iA");
    const std::string channel = o.channel.empty() ? "nixpkgs" : o.channel;
    for (const auto& p : packages) c.argv.push_back(o.revision.empty() ? channel + "." + p.name : p.name);
  }
  return {std::move(c)};
}

std::unique_ptr<Provider> make_provider(const Context&, ProviderOptions options) {
  return std::make_unique<NixProvider>(std::move(options), true);
}

std::unique_ptr<Provider> make_provider(const Context&, const ProviderSettings& settings) {
  ProviderOptions options;
  options.index = settings.option_text("nix-index");  // --nix-index, else EXTDEPS_NIX_INDEX
  // The options as config::load checked them: profile, env or nix-env; 1 to 86400 seconds.
  if (const std::string f = settings.option_text("nix-frontend"); !f.empty())
    options.frontend = f == "profile" ? Frontend::profile : Frontend::env;
  if (auto s = settings.option_seconds("nix-timeout")) options.timeout_ms = static_cast<int>(*s * 1000);
  bool used = settings.names("nix") || !options.index.empty();
  return std::make_unique<NixProvider>(std::move(options), used);
}

}  // namespace extdeps::nix
