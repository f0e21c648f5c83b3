// The pypi provider: the interpreter, the crawl of the indexes, records from the chosen wheels,
// the installed set, and the pip / uv command.
#include "providers/pypi/pypi_provider.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <limits>

#include "core/declare/declare.h"
#include "core/detect/process.h"
#include "core/fetch/fetch.h"
#include "core/util/text.h"
#include "core/version/pep440.h"
#include "core/version/version.h"
#include "extdeps/build_env.h"
#include "providers/pypi/index_crawl.h"
#include "providers/pypi/interpreter.h"
#include "providers/pypi/site_packages.h"

namespace extdeps::pypi {

namespace {

// Bump when records are made differently: a cache keyed on the old making is then unused.
constexpr std::string_view kRecordFormat = "pypi-records-1";

class RangeMatcher final : public SpecMatcher {
 public:
  explicit RangeMatcher(VersionRange range) : range_(std::move(range)) {}
  bool matches(std::string_view version, std::string_view) const override {
    return declare::range_contains(range_, version);
  }

 private:
  VersionRange range_;
};

class PypiProvider final : public Provider {
 public:
  PypiProvider(ProviderSettings settings) : settings_(std::move(settings)) {}

  std::string_view ecosystem() const override { return "pypi"; }
  std::string_view manager() const override { return "pypi"; }
  const version::Scheme& scheme() const override { return version::pep440_scheme; }
  bool pins_closure() const override { return true; }
  bool available(const Context&) const override { return settings_.names(manager()); }

  Result<void> prepare(const Context& ctx, fetch::Fetcher& fetcher) override {
    auto in = find_interpreter(ctx, settings_.python);
    if (!in) return in.error();
    interpreter_ = std::move(*in);
    env_ = marker_env(*interpreter_);
    indexes_ = index_urls(ctx, settings_);
    // The pypi-frontend option, checked by config::load: pip or uv.
    if (const std::string f = settings_.option_text("pypi-frontend"); f == "pip" || f == "uv") {
      frontend_ = f == "pip" ? Frontend::pip : Frontend::uv;
    } else {
      frontend_ = interpreter_->has_pip || detect::find_on_path(ctx, "uv").empty() ? Frontend::pip : Frontend::uv;
    }
    if (interpreter_->externally_managed)
      ctx.warn(interpreter_->path + " is externally managed (PEP 668, " + interpreter_->externally_managed_file +
               "): pip and uv will refuse to install into it, and extdeps will not force them. Choose one: "
               "a virtual environment (python3 -m venv .venv, then --python .venv/bin/python), the "
               "distribution's own packages (--manager apt), or pip's --break-system-packages at your own risk");

    CrawlInput input;
    input.roots = settings_.names_for("pypi");
    input.index_urls = indexes_;
    const detect::HostFacts* host = settings_.host;
    input.tags = compatible_tags(tag_target(*interpreter_, host));
    input.python_version = interpreter_->version;
    input.env = env_;
    if (host && host->libc == "glibc") {
      int a = 0, b = 0;
      if (std::sscanf(host->libc_version.c_str(), "%d.%d", &a, &b) == 2) input.glibc = std::make_pair(a, b);
    }
    if (ctx.cache_enabled() && settings_.use_cache) input.memo_dir = ctx.cache_dir() + "/pypi/crawls";
    auto result = crawl(fetcher, input);
    if (!result) return result.error();
    crawl_ = std::move(*result);
    for (const auto& name : crawl_.no_metadata)
      ctx.warn("pypi: no PEP 658 metadata is served for some wheels of " + name +
               "; their dependencies are not known to the plan");
    glibc_key_ = host ? host->libc + " " + host->libc_version : "unknown";
    return {};
  }

  Result<SourceId> identity(const Context&) const override {
    std::string key = std::string(kRecordFormat) + "\n";
    if (!interpreter_) return SourceId{key + "not prepared\n"};
    key += "python " + interpreter_->executable + " " + interpreter_->version + " " + interpreter_->abiflags + " " +
           interpreter_->machine + "\nlibc " + glibc_key_ + "\n";
    // The stamps the crawl read (or its memo kept): what the records are made from.
    for (size_t i = 0; i < crawl_.fetched.size(); ++i) key += crawl_.fetched[i] + " " + crawl_.stamps[i] + "\n";
    key += site_packages_identity(interpreter_->site_dirs);
    return SourceId{std::move(key)};
  }

  Result<void> load(const Context&, const RecordSink& available, const RecordSink& installed) override {
    if (!interpreter_) return {};
    for (const auto& c : crawl_.candidates) {
      PackageRecord r;
      r.name = c.name;
      r.version = c.version;
      r.arch = c.platform;
      r.depends = relations_of(c.requires_dist, env_);
      // A manylinux wheel runs only on a glibc at least that new: the host's __glibc says.
      if (c.glibc)
        r.depends.push_back(
            {{"__glibc", DepOp::spec, ">=" + std::to_string(c.glibc->first) + "." + std::to_string(c.glibc->second)}});
      // A CUDA wheel cannot run on a driver older than its CUDA major release (a machine without
      // a driver may still install it, to build with).
      if (auto major = cuda_major_of(c.name, c.version))
        r.constrains.push_back({"__cuda", DepOp::spec, ">=" + std::to_string(*major)});
      r.origin = c.url;
      available(std::move(r));
    }
    auto site = read_site_packages(interpreter_->site_dirs, env_);
    if (!site) return site.error();
    for (auto& r : *site) installed(std::move(r));
    return {};
  }

  // The NVIDIA wheels put their libraries and headers under site-packages/nvidia/<part>/: a build
  // (and what it builds, at run time) finds them through these.
  void add_build_env(const Context&, const InstalledRef& pkg, BuildEnv& env) const override {
    if (pkg.where.empty()) return;
    auto files = installed_files(std::string(pkg.where));
    for (const auto& d : files.lib_dirs) {
      env.prepend_path("LD_LIBRARY_PATH", d, pkg.need);
      env.prepend_path("LIBRARY_PATH", d, pkg.need);
    }
    for (const auto& d : files.include_dirs) env.prepend_path("CPATH", d, pkg.need);
    if (pkg.category == "build")
      for (const auto& d : files.bin_dirs) env.prepend_path("PATH", d, pkg.need);
    if (!files.cuda_root.empty()) {
      env.set("CUDA_HOME", files.cuda_root, pkg.need);
      env.set("CUDAToolkit_ROOT", files.cuda_root, pkg.need);
    }
  }

  std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages) const override {
    std::string python = interpreter_ ? interpreter_->path : settings_.python.empty() ? "python3" : settings_.python;
    return pypi::install_commands(packages, frontend_, python, indexes_);
  }

  Result<std::unique_ptr<SpecMatcher>> compile_spec(std::string_view spec) const override {
    auto range = declare::parse_range(spec);
    if (!range) return range.error();
    return std::unique_ptr<SpecMatcher>(std::make_unique<RangeMatcher>(std::move(*range)));
  }

 private:
  ProviderSettings settings_;
  std::optional<Interpreter> interpreter_;
  declare::MarkerEnv env_;
  std::vector<std::string> indexes_;
  Frontend frontend_ = Frontend::pip;
  CrawlResult crawl_;
  std::string glibc_key_;
};

}  // namespace

// The CUDA major release an NVIDIA wheel is built for: nvidia-cublas-cu12 -> 12; the CUDA 13
// wheels without a suffix whose version is the CUDA release (nvidia-cuda-runtime 13.0.96,
// nvidia-cublas, nvidia-nvjitlink) -> their major version.
std::optional<int> cuda_major_of(const std::string& name, const std::string& version) {
  if (!name.starts_with("nvidia-")) return std::nullopt;
  auto cu = name.rfind("-cu");
  if (cu != std::string::npos && cu + 3 < name.size() &&
      std::all_of(name.begin() + static_cast<long>(cu) + 3, name.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    // nvidia-x-cu99999999999: past int, a CUDA release no driver has (issue 31: stoi threw).
    int major = 0;
    auto [end, ec] = std::from_chars(name.data() + cu + 3, name.data() + name.size(), major);
    (void)end;
    return ec == std::errc() ? major : std::numeric_limits<int>::max();
  }
  bool follows_cuda = name.starts_with("nvidia-cuda-") || name == "nvidia-cublas" || name == "nvidia-nvjitlink";
  if (!follows_cuda) return std::nullopt;
  int major = 0;
  auto [end, ec] = std::from_chars(version.data(), version.data() + version.size(), major);
  (void)end;
  if (ec == std::errc::result_out_of_range) return std::numeric_limits<int>::max();
  return ec == std::errc() && major >= 13 ? std::optional<int>(major) : std::nullopt;
}

std::vector<std::string> index_urls(const Context&, const ProviderSettings& settings) {
  std::vector<std::string> out;
  // The settings resolved --index-url over PIP_INDEX_URL, and --extra-index-url over
  // PIP_EXTRA_INDEX_URL (split on blanks, as pip does).
  if (auto url = settings.option_text("index-url"); !url.empty()) out.push_back(url);
  else out.emplace_back(kDefaultIndex);
  for (auto& e : settings.option_list("extra-index-url"))
    if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
  return out;
}

std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages, Frontend frontend,
                                      const std::string& python, const std::vector<std::string>& indexes) {
  if (packages.empty()) return {};
  Command c;
  if (frontend == Frontend::uv) c.argv = {"uv", "pip", "install", "--python", python};
  else c.argv = {python, "-m", "pip", "install"};
  if (!(indexes.size() == 1 && indexes[0] == kDefaultIndex)) {
    for (size_t i = 0; i < indexes.size(); ++i)
      c.argv.insert(c.argv.end(), {i == 0 ? "--index-url" : "--extra-index-url", indexes[i]});
  }
  // "--" ends the options for pip (optparse) and uv (clap): a requirement is never an option.
  c.argv.emplace_back("--");
  for (const auto& p : packages) c.argv.push_back(p.name + "==" + p.version);
  return {std::move(c)};
}

std::unique_ptr<Provider> make_provider(const Context&, const ProviderSettings& settings) {
  return std::make_unique<PypiProvider>(settings);
}

}  // namespace extdeps::pypi
