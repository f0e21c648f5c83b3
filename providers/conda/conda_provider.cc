// The conda provider: choosing the front end, keying a cache on the index files and the
// environment, loading records, and rendering the install command.
#include "providers/conda/conda_provider.h"

#include "core/util/file_stamp.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/detect/os_release.h"
#include "core/detect/process.h"
#include "core/fetch/fetch.h"
#include "providers/conda/conda_version.h"
#include "providers/conda/index_fetch.h"
#include "providers/conda/matchspec.h"
#include "providers/conda/prefix.h"
#include "providers/conda/repodata.h"

namespace extdeps::conda {

namespace {

namespace fs = std::filesystem;

// Bump when records are read differently: a cache keyed on the old reading is then unused.
constexpr std::string_view kReaderFormat = "conda-records-1";

bool on_path(const Context& ctx, std::string_view tool) { return !detect::find_on_path(ctx, tool).empty(); }

class CondaProvider final : public Provider {
 public:
  CondaProvider(ProviderOptions options, std::string env_prefix, Frontend frontend)
      : options_(std::move(options)), env_prefix_(std::move(env_prefix)), frontend_(frontend) {}
  CondaProvider(ProviderOptions options, std::string env_prefix, Frontend frontend, ProviderSettings settings)
      : CondaProvider(std::move(options), std::move(env_prefix), frontend) {
    settings_ = std::move(settings);
  }

  std::string_view ecosystem() const override { return "conda-forge"; }
  std::string_view manager() const override { return "conda"; }
  const version::Scheme& scheme() const override { return version::conda_scheme; }
  bool pins_closure() const override { return true; }
  bool has_track_features() const override { return true; }

  // A configured index or a given --prefix counts even when missing, so load() says what is wrong;
  // so does being named in --manager: prepare() then downloads the channels' indexes.
  bool available(const Context&) const override {
    return !options_.repodata.empty() || !options_.prefix.empty() || is_conda_prefix(env_prefix_) ||
           settings_.names(manager());
  }

  // The channels' indexes, unless the caller gave index files: channels from --channel,
  // EXTDEPS_CONDA_CHANNELS, the configuration or .condarc; the machine's subdir and noarch.
  Result<void> prepare(const Context& ctx, fetch::Fetcher& fetcher) override {
    fetcher_ = &fetcher;
    if (!options_.repodata.empty()) return {};
    auto config = channel_config(ctx, settings_.option("channel"));
    if (!config) return config.error();
    auto subdir = native_subdir(ctx);
    if (!subdir)
      return error_at(ExitCode::environment, "", "conda has no subdir for this machine (" + detect::machine(ctx) + ")",
                      "", "set CONDA_SUBDIR, e.g. CONDA_SUBDIR=linux-64");
    auto files = fetch_repodata(fetcher, repodata_locations(config->channels, subdirs_for(*subdir)));
    if (!files) return files.error();
    options_.channels = std::move(config->channels);
    options_.repodata = std::move(*files);
    return {};
  }

  Result<SourceId> identity(const Context&) const override {
    std::string key = std::string(kReaderFormat) + "\n";
    for (const auto& f : options_.repodata) {
      struct stat st {};
      if (::stat(f.path.c_str(), &st) != 0)
        return error_at(ExitCode::environment, f.path, std::string("cannot stat: ") + std::strerror(errno));
      key += "repodata " + f.channel_url + " " + f.subdir + " " + f.path + " " + std::to_string(st.st_size) + " " +
             std::to_string(mtime_ns(st)) + "\n";
    }
    std::string prefix = this->prefix();
    if (prefix.empty() || !is_conda_prefix(prefix)) {
      key += "prefix " + (prefix.empty() ? std::string("none") : prefix + " missing") + "\n";
      return SourceId{std::move(key)};
    }
    key += "prefix " + prefix + "\n";
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(fs::path(prefix) / "conda-meta", ec), end; !ec && it != end; it.increment(ec))
      names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    for (const auto& n : names) {
      struct stat st {};
      std::string path = prefix + "/conda-meta/" + n;
      if (::stat(path.c_str(), &st) != 0) continue;  // gone since the listing
      key += n + " " + std::to_string(st.st_size) + " " + std::to_string(mtime_ns(st)) + "\n";
    }
    return SourceId{std::move(key)};
  }

  Result<void> load(const Context& ctx, const RecordSink& available, const RecordSink& installed) override {
    for (const auto& f : options_.repodata) {
      RepodataOptions ro{f.channel_url.empty() ? std::string() : f.channel_url + "/" + f.subdir + "/", f.subdir};
      auto r = read_repodata_file(f.path, ro, available, f.url);
      if (r) continue;
      // A damaged download is dropped from the cache so that the next run fetches it again.
      Error e = r.error();
      if (!f.url.empty() && fetcher_ && !f.url.starts_with("file:")) {
        if (fetcher_->forget(f.url).ok()) {
          // What was done, after the text and as the hint.
          const std::string note = "the cached copy was removed; the next run downloads it again";
          e.message += " (" + note + ")";
          e.hint = e.hint.empty() ? note : e.hint + "; " + note;
        }
      }
      return e;
    }
    std::string prefix = this->prefix();
    if (prefix.empty()) return {};
    if (!is_conda_prefix(prefix)) {
      if (!options_.prefix.empty()) {
        Error e = environment_error(prefix + ": not a conda environment (no conda-meta folder; check --prefix)");
        e.place = prefix;
        e.what = "not a conda environment (no conda-meta folder)";
        e.hint = "check --prefix";
        return e;
      }
      ctx.warn("CONDA_PREFIX=" + prefix +
               " is not a conda environment (no conda-meta folder); "
               "no installed conda packages are read");
      return {};
    }
    auto packages = read_prefix(prefix);
    if (!packages) return packages.error();
    for (auto& p : *packages) installed(std::move(p.record));
    return {};
  }

  std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages) const override {
    return conda::install_commands(packages, {frontend_, prefix(), options_.channels});
  }

  // Everything installed lives in the one prefix: its folders go on the search paths (only
  // those that exist), its bin/ on PATH for build tools. A prefix is not searched by default,
  // so LD_LIBRARY_PATH holds its lib/ for programs run from the build tree.
  void add_build_env(const Context&, const InstalledRef& pkg, BuildEnv& env) const override {
    std::string p = prefix();
    if (p.empty() && !pkg.where.empty()) p = fs::path(std::string(pkg.where)).parent_path().parent_path().string();
    if (p.empty()) return;
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    std::error_code ec;
    auto add = [&](std::string_view name, const std::string& dir) {
      if (fs::is_directory(dir, ec)) env.prepend_path(name, dir, pkg.need);
    };
    env.prepend_path("CMAKE_PREFIX_PATH", p, pkg.need);
    add("PKG_CONFIG_PATH", p + "/lib/pkgconfig");
    add("PKG_CONFIG_PATH", p + "/share/pkgconfig");
    add("CPATH", p + "/include");
    add("LIBRARY_PATH", p + "/lib");
    add("LD_LIBRARY_PATH", p + "/lib");
    if (pkg.category == "build") add("PATH", p + "/bin");
  }

  // depends and constrains hold "name rest" split by split_name; the rest is a MatchSpec's
  // version and build ("3.12.* *_cp312").
  Result<std::unique_ptr<SpecMatcher>> compile_spec(std::string_view spec) const override {
    return compile_conda_spec(spec);
  }

 private:
  std::string prefix() const { return options_.prefix.empty() ? env_prefix_ : options_.prefix; }

  ProviderOptions options_;
  std::string env_prefix_;  // $CONDA_PREFIX when the provider was made
  Frontend frontend_;
  ProviderSettings settings_;
  fetch::Fetcher* fetcher_ = nullptr;  // from prepare(); outlives load()
};

}  // namespace

std::string_view frontend_name(Frontend frontend) {
  switch (frontend) {
    case Frontend::conda: return "conda";
    case Frontend::mamba: return "mamba";
    case Frontend::micromamba: return "micromamba";
    case Frontend::pixi: return "pixi";
  }
  return "conda";
}

std::optional<Frontend> parse_frontend(std::string_view name) {
  for (Frontend f : {Frontend::conda, Frontend::mamba, Frontend::micromamba, Frontend::pixi})
    if (frontend_name(f) == name) return f;
  return std::nullopt;
}

Frontend choose_frontend(const Context& ctx, std::string_view chosen) {
  if (auto f = parse_frontend(chosen)) return *f;
  for (Frontend f : {Frontend::mamba, Frontend::micromamba, Frontend::conda, Frontend::pixi})
    if (on_path(ctx, frontend_name(f))) return f;
  return Frontend::conda;
}

std::string package_spec(Frontend frontend, std::string_view name, std::string_view version, std::string_view build) {
  std::string spec(name);
  if (version.empty()) return spec;
  if (build.empty() || frontend == Frontend::pixi) return spec + "==" + std::string(version);
  return spec + "=" + std::string(version) + "=" + std::string(build);
}

std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages, const CommandOptions& options) {
  if (packages.empty()) return {};
  Command c;
  c.argv.emplace_back(frontend_name(options.frontend));
  if (options.frontend == Frontend::pixi) {
    c.argv.emplace_back("add");
  } else {
    // -y: extdeps shows the plan and asks before it runs anything. --override-channels: the
    // plan was solved against exactly these channels, not whatever else .condarc adds.
    c.argv.insert(c.argv.end(), {"install", "-y"});
    if (!options.prefix.empty()) c.argv.insert(c.argv.end(), {"-p", options.prefix});
    if (!options.channels.empty()) c.argv.emplace_back("--override-channels");
    for (const auto& ch : options.channels) c.argv.insert(c.argv.end(), {"-c", ch.name});
  }
  // "--" ends the options for every frontend (conda's argparse, mamba's and micromamba's CLI11,
  // pixi's clap), so a spec is never read as an option; command_problem has already refused
  // names and versions that start with '-'.
  c.argv.emplace_back("--");
  for (const auto& p : packages) c.argv.push_back(package_spec(options.frontend, p.name, p.version, p.build));
  return {std::move(c)};
}

std::unique_ptr<Provider> make_provider(const Context& ctx, ProviderOptions options) {
  Frontend frontend = options.frontend ? *options.frontend : choose_frontend(ctx);
  std::string env_prefix = ctx.env("CONDA_PREFIX").value_or("");
  return std::make_unique<CondaProvider>(std::move(options), std::move(env_prefix), frontend);
}

std::unique_ptr<Provider> make_provider(const Context& ctx, const ProviderSettings& settings) {
  ProviderOptions options;
  options.prefix = settings.option_text("prefix");
  std::string env_prefix = ctx.env("CONDA_PREFIX").value_or("");
  bool used = settings.names("conda") || !options.prefix.empty() || is_conda_prefix(env_prefix);
  // Not used: no PATH walk, no warning.
  Frontend frontend = used ? choose_frontend(ctx, settings.option_text("conda-frontend")) : Frontend::conda;
  return std::make_unique<CondaProvider>(std::move(options), std::move(env_prefix), frontend, settings);
}

}  // namespace extdeps::conda
