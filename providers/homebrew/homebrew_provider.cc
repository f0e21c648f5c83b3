// The Homebrew provider: the formula index (a file, brew's own cached copy, or the API's, through
// the fetcher), the Cellar under the prefix, the host's bottle tag, `brew install`, and the search
// paths `extdeps env` gives for a keg.
#include "providers/homebrew/homebrew_provider.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/detect/host.h"
#include "core/fetch/fetch.h"
#include "core/util/file_stamp.h"
#include "providers/homebrew/homebrew_version.h"

namespace extdeps::homebrew {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kDefaultApi = "https://formulae.brew.sh/api";

std::string stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return path + " absent\n";
  return path + ' ' + std::to_string(st.st_size) + ' ' + std::to_string(mtime_ns(st)) + '\n';
}

bool is_url(std::string_view s) {
  return s.starts_with("http://") || s.starts_with("https://") || s.starts_with("file://");
}

// A relation on the macOS release (">=12", "<=13"), matched against __osx's version.
class OsxMatcher final : public SpecMatcher {
 public:
  OsxMatcher(std::string op, std::string version) : op_(std::move(op)), version_(std::move(version)) {}
  bool matches(std::string_view version, std::string_view) const override {
    int c = version::homebrew_compare(version, version_);
    if (op_ == ">=") return c >= 0;
    if (op_ == "<=") return c <= 0;
    if (op_ == ">") return c > 0;
    if (op_ == "<") return c < 0;
    return c == 0;
  }

 private:
  std::string op_, version_;
};

class HomebrewProvider final : public Provider {
 public:
  HomebrewProvider(Platform platform, std::string api, std::string brew_cache, std::string api_domain, bool named,
                   bool macos_host)
      : platform_(std::move(platform)),
        api_(std::move(api)),
        brew_cache_(std::move(brew_cache)),
        api_domain_(std::move(api_domain)),
        named_(named),
        macos_host_(macos_host) {}

  std::string_view ecosystem() const override { return "homebrew"; }
  std::string_view manager() const override { return "brew"; }
  const version::Scheme& scheme() const override { return version::homebrew_scheme; }

  // A mac with Homebrew (its prefix's bin/brew), or a Linux with Homebrew installed; anywhere
  // when named (--manager brew): a plan for a mac made on another machine.
  bool available(const Context& ctx) const override {
    std::error_code ec;
    if (named_) return true;
    if (!fs::exists(ctx.host_path(platform_.prefix + "/bin/brew"), ec)) return false;
    return macos_host_ || fs::is_directory(ctx.host_path(platform_.cellar()), ec);
  }

  // The index: --homebrew-api's file or URL; else the copy brew keeps in its cache (brew update
  // refreshes it); else the API's formula.jws.json, through the fetcher's cache.
  Result<void> prepare(const Context& ctx, fetch::Fetcher& fetcher) override {
    index_.clear();
    index_name_.clear();
    std::string url;
    if (!api_.empty()) {
      if (!is_url(api_)) {
        index_ = api_;
        index_name_ = api_;
        return {};
      }
      url = api_;
    } else {
      std::error_code ec;
      const std::string cached = ctx.host_path(brew_cache_ + "/api/formula.jws.json");
      if (!brew_cache_.empty() && fs::is_regular_file(cached, ec)) {
        index_ = cached;
        index_name_ = cached;
        return {};
      }
      std::string domain = api_domain_.empty() ? std::string(kDefaultApi) : api_domain_;
      while (!domain.empty() && domain.back() == '/') domain.pop_back();
      url = domain + "/formula.jws.json";
    }
    auto got = fetcher.fetch({.url = url});
    if (!got) return at_place(got.error(), "the Homebrew formula index");
    index_ = got->body_path;
    index_name_ = url;
    return {};
  }

  Result<SourceId> identity(const Context& ctx) const override {
    std::string key = "homebrew tag=" + platform_.tag() + " macos=" + platform_.macos_version +
                      " arch=" + platform_.arch + " prefix=" + platform_.prefix + "\n";
    key += stamp(index_);
    const std::string prefix = ctx.host_path(platform_.prefix);
    // A keg installed or removed changes its formula's folder; a link, opt/ or linked/.
    for (const char* d : {"/Cellar", "/opt", "/var/homebrew/linked"}) key += stamp(prefix + d);
    std::error_code ec;
    for (fs::directory_iterator it(prefix + "/Cellar", ec), end; !ec && it != end; it.increment(ec))
      key += stamp(it->path().string());
    return SourceId{std::move(key)};
  }

  Result<void> load(const Context& ctx, const RecordSink& available, const RecordSink& installed) override {
    if (index_.empty())
      return error_at(ExitCode::environment, "", "no Homebrew formula index", "",
                      "name one with --homebrew-api FILE|URL");
    if (platform_.macos && platform_.tag().empty())
      ctx.warn("macOS " + platform_.macos_version +
               " has no Homebrew bottle tag extdeps knows; bottles for the newest known release are chosen");
    auto source = json::open_file(index_, index_name_);
    if (!source) return source.error();
    auto n = read_formulae(**source, [&](Formula&& f) {
      // A disabled formula, or one for another CPU, gives no record: brew would not install it.
      if (auto r = to_record(f, platform_, index_name_)) available(std::move(*r));
    });
    if (!n) return n.error();
    auto kegs = read_cellar(ctx.host_path(platform_.prefix));
    if (!kegs) return kegs.error();
    for (auto& k : *kegs) {
      PackageRecord r;
      r.name = k.name;
      r.version = k.pkg_version;
      r.installed = true;
      r.origin = k.receipt;
      for (const auto& a : k.aliases)
        if (a != k.name) r.provides.push_back({a, DepOp::eq, r.version});
      for (const auto& d : k.runtime_dependencies) r.depends.push_back({NativeDep{d, DepOp::any, {}}});
      installed(std::move(r));
    }
    return {};
  }

  std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages) const override {
    return homebrew::install_commands(packages);
  }

  // Only the relations on the macOS release: ">=12", "<=13".
  Result<std::unique_ptr<SpecMatcher>> compile_spec(std::string_view spec) const override {
    for (std::string_view op : {">=", "<=", "==", ">", "<"}) {
      if (!spec.starts_with(op)) continue;
      std::string v(spec.substr(op.size()));
      if (v.empty()) break;
      return std::unique_ptr<SpecMatcher>(std::make_unique<OsxMatcher>(std::string(op), std::move(v)));
    }
    return error_at(ExitCode::bad_input, "", "cannot read the relation '" + std::string(spec) + "'",
                    "an operator and a macOS release, such as >=12");
  }

  // A keg-only formula is not linked into the prefix: a build finds it only through its opt
  // prefix, which brew's caveats tell users to add (LDFLAGS, CPPFLAGS, PKG_CONFIG_PATH). A linked
  // one is in the prefix, which only /usr/local is searched by default.
  void add_build_env(const Context& ctx, const InstalledRef& pkg, BuildEnv& env) const override {
    const std::string prefix = ctx.host_path(platform_.prefix);
    std::error_code ec;
    const bool linked = fs::exists(prefix + "/var/homebrew/linked/" + std::string(pkg.name), ec);
    std::string p = linked ? prefix : prefix + "/opt/" + std::string(pkg.name);
    if (linked && platform_.prefix == "/usr/local") return;
    auto add = [&](std::string_view name, const std::string& dir) {
      if (fs::is_directory(dir, ec)) env.prepend_path(name, dir, pkg.need);
    };
    env.prepend_path("CMAKE_PREFIX_PATH", p, pkg.need);
    add("PKG_CONFIG_PATH", p + "/lib/pkgconfig");
    add("PKG_CONFIG_PATH", p + "/share/pkgconfig");
    add("CPATH", p + "/include");
    add("LIBRARY_PATH", p + "/lib");
    if (pkg.category == "build") add("PATH", p + "/bin");
  }

 private:
  Platform platform_;
  std::string api_;         // --homebrew-api
  std::string brew_cache_;  // HOMEBREW_CACHE, as on the machine
  std::string api_domain_;  // HOMEBREW_API_DOMAIN
  bool named_;
  bool macos_host_;
  std::string index_;       // the file load() reads
  std::string index_name_;  // what messages call it
};

// "aarch64", "arm64" -> "arm64"; anything else is an Intel machine to Homebrew.
std::string brew_arch(std::string_view machine) {
  return machine == "aarch64" || machine == "arm64" ? "arm64" : "x86_64";
}

}  // namespace

std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages) {
  if (packages.empty()) return {};
  Command c;
  c.argv = {"env", "HOMEBREW_NO_AUTO_UPDATE=1", "HOMEBREW_NO_ASK=1", "brew", "install", "--formula"};
  for (const auto& p : packages) c.argv.push_back(p.name);
  c.requires_elevation = false;
  return {std::move(c)};
}

std::unique_ptr<Provider> make_provider(const Context& ctx, const ProviderSettings& settings) {
  Platform p;
  bool macos_host = false;
  if (settings.host) {
    macos_host = settings.host->os.id == "macos";
    p.macos = macos_host;
    p.macos_version = macos_host ? settings.host->os.version_id : "";
    p.arch = brew_arch(settings.host->machine);
  } else {
    std::string machine = ctx.uname().machine.empty() ? "x86_64" : ctx.uname().machine;
    if (auto o = ctx.env("EXTDEPS_OVERRIDE_ARCH"); o && !o->empty()) machine = *o;
    p.arch = brew_arch(machine);
    macos_host = ctx.uname().system == "Darwin";
    p.macos = macos_host;
  }
  p.prefix = settings.option_text("homebrew-prefix");
  if (p.prefix.empty()) p.prefix = default_prefix(p.macos, p.arch);
  while (p.prefix.size() > 1 && p.prefix.back() == '/') p.prefix.pop_back();
  // Where brew keeps its downloads: HOMEBREW_CACHE, else ~/Library/Caches/Homebrew (macOS) or
  // $XDG_CACHE_HOME/Homebrew, ~/.cache/Homebrew (Linux).
  std::string cache = ctx.env("HOMEBREW_CACHE").value_or("");
  if (cache.empty()) {
    std::string home = ctx.env("HOME").value_or("");
    std::string xdg = ctx.env("XDG_CACHE_HOME").value_or("");
    if (p.macos && !home.empty()) cache = home + "/Library/Caches/Homebrew";
    else if (!xdg.empty()) cache = xdg + "/Homebrew";
    else if (!home.empty()) cache = home + "/.cache/Homebrew";
  }
  return std::make_unique<HomebrewProvider>(std::move(p), settings.option_text("homebrew-api"), std::move(cache),
                                            ctx.env("HOMEBREW_API_DOMAIN").value_or(""),
                                            settings.names("brew") || settings.names("homebrew"), macos_host);
}

}  // namespace extdeps::homebrew
