// The dnf provider: the rpm-md repositories of /etc/yum.repos.d (or zypper's), downloaded through
// the fetcher; the rpm database under the root, asked of rpm; dnf, yum or zypper commands.
#include "providers/dnf/dnf_provider.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/detect/os_release.h"
#include "core/detect/process.h"
#include "core/fetch/fetch.h"
#include "core/fetch/url.h"
#include "core/util/file_stamp.h"
#include "core/util/subprocess.h"
#include "core/version/version.h"

namespace extdeps::dnf {

namespace fs = std::filesystem;

namespace {

bool suse_like(const detect::OsRelease& os) {
  auto suse = [](std::string_view id) { return id.starts_with("opensuse") || id == "suse" || id == "sles"; };
  if (suse(os.id)) return true;
  for (const auto& l : os.id_like)
    if (suse(l)) return true;
  return false;
}

bool rpm_like(const detect::OsRelease& os) {
  static const char* kIds[] = {"fedora", "rhel", "centos", "rocky", "almalinux", "ol"};
  for (const char* id : kIds) {
    if (os.id == id) return true;
    for (const auto& l : os.id_like)
      if (l == id) return true;
  }
  return suse_like(os);
}

// Where the root's rpm database is: rpm >= 4.16 keeps it in /usr/lib/sysimage/rpm (Fedora links
// /var/lib/rpm there), older ones in /var/lib/rpm. Empty when neither holds one.
std::string rpm_dbpath(const Context& ctx) {
  for (const char* p : {"/usr/lib/sysimage/rpm", "/var/lib/rpm"}) {
    std::error_code ec;
    for (const char* f : {"rpmdb.sqlite", "Packages", "Packages.db"})
      if (fs::exists(ctx.host_path(std::string(p) + "/" + f), ec)) return p;
  }
  return {};
}

struct Primary {
  std::string repo;
  std::string url;                            // of primary.xml.*, for messages
  std::string path;                           // the fetched body
  std::vector<std::string> exclude, include;  // the repository's and dnf.conf's globs
};

class DnfProvider final : public Provider {
 public:
  DnfProvider(std::string ecosystem, Frontend frontend, std::vector<RepoConfig> repos, MainConfig main,
              std::string releasever, std::string basearch, bool rpm_host, bool named)
      : ecosystem_(std::move(ecosystem)),
        frontend_(frontend),
        repos_(std::move(repos)),
        main_(std::move(main)),
        releasever_(std::move(releasever)),
        basearch_(std::move(basearch)),
        rpm_host_(rpm_host),
        named_(named) {}

  std::string_view ecosystem() const override { return ecosystem_; }
  std::string_view manager() const override { return "dnf"; }
  bool system_wide() const override { return true; }
  const version::Scheme& scheme() const override { return rpm_scheme; }
  bool unversioned_provides_meet_versions() const override { return true; }

  // A Fedora-, RHEL- or SUSE-like root with an rpm database; anywhere when named (--manager dnf):
  // a plan for another machine's repositories, or a root without a database yet.
  bool available(const Context& ctx) const override { return named_ || (rpm_host_ && !rpm_dbpath(ctx).empty()); }

  // Each enabled repository's repomd.xml, then its primary metadata, from its first baseurl that
  // answers.
  Result<void> prepare(const Context& ctx, fetch::Fetcher& fetcher) override {
    primaries_.clear();
    modules_ = ModuleIndex{};
    module_files_.clear();
    for (const auto& repo : repos_) {
      if (!repo.enabled) continue;
      auto mirrors = mirrors_of(repo, fetcher);
      if (!mirrors) return mirrors.error();
      std::vector<std::string> exclude = main_.exclude;
      exclude.insert(exclude.end(), repo.exclude.begin(), repo.exclude.end());
      std::optional<Error> last;
      for (const auto& raw : *mirrors) {
        std::string base = expand(raw, releasever_, basearch_);
        while (!base.empty() && base.back() == '/') base.pop_back();
        auto repomd = fetcher.fetch({.url = base + "/repodata/repomd.xml"});
        if (!repomd) {
          last = repomd.error();
          continue;
        }
        auto text = read_file(repomd->body_path);
        if (!text) return text.error();
        auto href = primary_location(*text, base + "/repodata/repomd.xml");
        if (!href) return href.error();
        auto primary = fetcher.fetch({.url = base + "/" + *href});
        if (!primary) {
          last = primary.error();
          continue;
        }
        primaries_.push_back({repo.id, base + "/" + *href, primary->body_path, exclude, repo.include});
        // Module metadata, where the repository has some (RHEL's AppStream).
        auto modules = modules_location(*text, base + "/repodata/repomd.xml");
        if (!modules) return modules.error();
        if (!modules->empty()) {
          auto got = fetcher.fetch({.url = base + "/" + *modules});
          if (!got) return at_place(got.error(), "repository '" + repo.id + "' (" + repo.origin + ")");
          auto reader = CompressedReader::open_sniffed(got->body_path);
          if (!reader) return reader.error();
          auto yaml = read_all(**reader);
          if (!yaml) return yaml.error();
          if (auto r = read_modules(*yaml, base + "/" + *modules, modules_); !r) return r;
          module_files_.push_back(got->body_path);
        }
        last.reset();
        break;
      }
      if (last) return at_place(*last, "repository '" + repo.id + "' (" + repo.origin + ")");
    }
    filter_ = modules_.streams.empty()
                  ? ModularFilter{}
                  : ModularFilter(modules_, read_module_states(ctx.host_path("/etc/dnf/modules.d")));
    return {};
  }

  Result<SourceId> identity(const Context& ctx) const override {
    std::string key = "dnf arch=" + basearch_ + "\n";
    std::vector<std::string> files;
    for (const auto& p : primaries_) files.push_back(p.path);
    for (const auto& m : module_files_) files.push_back(m);
    const std::string db = rpm_dbpath(ctx);
    if (!db.empty()) files.push_back(ctx.host_path(db));
    for (const auto& f : files) {
      struct stat st {};
      if (::stat(f.c_str(), &st) != 0)
        return error_at(ExitCode::environment, f, std::string("cannot stat: ") + std::strerror(errno));
      key += f + ' ' + std::to_string(st.st_size) + ' ' + std::to_string(mtime_ns(st)) + '\n';
    }
    // What modules are enabled: /etc/dnf/modules.d's files.
    if (!module_files_.empty()) {
      std::error_code ec;
      for (fs::directory_iterator it(ctx.host_path("/etc/dnf/modules.d"), ec), end; !ec && it != end;
           it.increment(ec)) {
        struct stat st {};
        if (::stat(it->path().c_str(), &st) == 0)
          key += it->path().string() + ' ' + std::to_string(st.st_size) + ' ' + std::to_string(mtime_ns(st)) + '\n';
      }
    }
    // The database folder's mtime moves with every transaction (its -wal, its Packages file).
    if (!db.empty()) {
      std::error_code ec;  // never an exception: a folder that cannot be listed keys on its stat alone
      for (fs::directory_iterator it(ctx.host_path(db), ec), end; !ec && it != end; it.increment(ec)) {
        struct stat st {};
        if (::stat(it->path().c_str(), &st) == 0)
          key += it->path().string() + ' ' + std::to_string(st.st_size) + ' ' + std::to_string(mtime_ns(st)) + '\n';
      }
    }
    return SourceId{std::move(key)};
  }

  Result<void> load(const Context& ctx, const RecordSink& available, const RecordSink& installed) override {
    for (const auto& p : primaries_) {
      auto reader = CompressedReader::open_sniffed(p.path);
      if (!reader) return reader.error();
      // excludepkgs / includepkgs: what dnf leaves out of the repository is not offered.
      // Modular filtering: what dnf hides of the module streams that are not active.
      const bool filtered = !p.exclude.empty() || !p.include.empty() || !filter_.empty();
      RecordSink keep = [&](PackageRecord&& rec) {
        if (!excluded(rec.name, p.exclude, p.include) && !filter_.hides(rec)) available(std::move(rec));
      };
      if (auto r = read_primary(**reader, p.url, basearch_, filtered ? keep : available); !r) return r;
    }
    const std::string db = rpm_dbpath(ctx);
    if (db.empty()) return {};
    const std::string rpm = detect::find_on_path(ctx, "rpm");
    if (rpm.empty())
      return error_at(ExitCode::environment, ctx.host_path(db), "an rpm database, and no rpm on PATH to read it", "",
                      "install rpm");
    ProcessRequest req;
    req.argv = {rpm,         "--root", ctx.root().empty() ? "/" : ctx.root(), "--dbpath", db, "-qa", "--queryformat",
                kQueryFormat};
    req.timeout_ms = 60000;
    req.max_output = std::size_t{1} << 30;
    auto ran = ctx.processes().run(req);
    if (!ran) return ran.error();
    if (!ran->ok()) return error_at(ExitCode::environment, ctx.host_path(db), "rpm -qa failed: " + ran->err_tail);
    return parse_rpm_query(ran->out, ctx.host_path(db), installed);
  }

  std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages) const override {
    return dnf::install_commands(frontend_, packages);
  }
  // dnf names no package to remove: --allowerasing lets it take out what conflicts with the
  // packages named, as the plan did. yum (EL 7) has no such option, zypper asks instead.
  bool plans_removals() const override { return frontend_ == Frontend::dnf; }
  std::vector<Command> swap_commands(const std::vector<PlannedPackage>& packages,
                                     const std::vector<PlannedPackage>& removals) const override {
    return dnf::install_commands(frontend_, packages, !removals.empty());
  }

 private:
  // The repository's base URLs: baseurl=, else the mirrors its mirrorlist= or metalink= names
  // (downloaded through the fetcher, variables replaced), as dnf tries them.
  Result<std::vector<std::string>> mirrors_of(const RepoConfig& repo, fetch::Fetcher& fetcher) const {
    if (!repo.baseurls.empty()) return repo.baseurls;
    for (const auto* source : {&repo.mirrorlist, &repo.metalink}) {
      if (source->empty()) continue;
      const std::string url = expand(*source, releasever_, basearch_);
      auto got = fetcher.fetch({.url = url});
      if (!got) return at_place(got.error(), "repository '" + repo.id + "' (" + repo.origin + ")");
      auto text = read_file(got->body_path);
      if (!text) return text.error();
      // A remote list names remote mirrors only (fetch::remote_may_name): file:///dev/zero from a
      // metalink served by anyone is passed over, as dnf passes over a protocol it cannot use.
      auto remote_only = [&](std::vector<std::string> urls) {
        std::erase_if(urls, [&](const std::string& u) { return !fetch::remote_may_name(url, u); });
        return urls;
      };
      if (source == &repo.metalink) {
        auto urls = metalink_urls(*text, url);
        if (!urls) return at_place(urls.error(), "repository '" + repo.id + "' (" + repo.origin + ")");
        auto remote = remote_only(std::move(*urls));
        if (remote.empty())
          return error_at(ExitCode::environment, url, "a metalink with no http or https mirror of repomd.xml",
                          "<url>https://.../repodata/repomd.xml</url>",
                          "repository '" + repo.id + "' (" + repo.origin + ")");
        return remote;
      }
      auto urls = remote_only(mirrorlist_urls(*text));
      if (urls.empty())
        return error_at(ExitCode::environment, url, "a mirrorlist with no URL",
                        "one base URL a line (http or https, from a remote list)",
                        "repository '" + repo.id + "' (" + repo.origin + ")");
      return urls;
    }
    return error_at(ExitCode::bad_input, repo.origin,
                    "repository '" + repo.id + "' has no baseurl, mirrorlist or metalink",
                    "baseurl=URL, mirrorlist=URL or metalink=URL");
  }

  static Result<std::string> read_file(const std::string& path) {
    auto reader = CompressedReader::open(path);
    if (!reader) return reader.error();
    return read_all(**reader);
  }

  std::string ecosystem_;
  Frontend frontend_;
  std::vector<RepoConfig> repos_;
  MainConfig main_;
  std::string releasever_, basearch_;
  bool rpm_host_;
  bool named_;
  std::vector<Primary> primaries_;
  ModuleIndex modules_;
  std::vector<std::string> module_files_;
  ModularFilter filter_;
};

}  // namespace

std::vector<Command> install_commands(Frontend frontend, const std::vector<PlannedPackage>& packages,
                                      bool allow_erasing) {
  if (packages.empty()) return {};
  Command c;
  if (frontend == Frontend::zypper) {
    c.argv = {"zypper", "--non-interactive", "install", "--"};
    for (const auto& p : packages) c.argv.push_back(p.name + "=" + p.version);
  } else {
    c.argv = {frontend == Frontend::yum ? "yum" : "dnf", "install", "-y"};
    if (allow_erasing && frontend == Frontend::dnf) c.argv.push_back("--allowerasing");
    c.argv.push_back("--");
    for (const auto& p : packages) c.argv.push_back(p.name + "-" + p.version + (p.arch.empty() ? "" : "." + p.arch));
  }
  c.requires_elevation = true;
  return {std::move(c)};
}

std::unique_ptr<Provider> make_provider(const Context& ctx, const ProviderSettings& settings) {
  const detect::OsRelease os = detect::read_os_release(ctx);
  const bool suse = suse_like(os);
  std::vector<RepoConfig> repos;
  const auto urls = settings.option_list("dnf-repo");
  if (!urls.empty()) {
    for (std::size_t i = 0; i < urls.size(); ++i) {
      RepoConfig repo;
      repo.id = "repo" + std::to_string(i + 1);
      repo.baseurls = {urls[i]};
      repo.origin = settings.option("dnf-repo")->from;
      repos.push_back(std::move(repo));
    }
  } else {
    auto read = read_repo_files({ctx.host_path("/etc/yum.repos.d"), ctx.host_path("/etc/zypp/repos.d")});
    if (read) repos = std::move(*read);
    else ctx.warn(read.error().message + " (the repository files are ignored)");
  }
  std::string basearch = ctx.uname().machine.empty() ? "x86_64" : ctx.uname().machine;
  Frontend frontend = suse ? Frontend::zypper : Frontend::dnf;
  // --manager yum or zypper names the front end too; --dnf-frontend decides over it.
  if (settings.names("yum") && !settings.names("dnf")) frontend = Frontend::yum;
  if (settings.names("zypper") && !settings.names("dnf")) frontend = Frontend::zypper;
  const std::string chosen = settings.option_text("dnf-frontend");
  if (chosen == "yum") frontend = Frontend::yum;
  if (chosen == "zypper") frontend = Frontend::zypper;
  if (chosen == "dnf") frontend = Frontend::dnf;
  auto main = read_dnf_conf(ctx.host_path("/etc/dnf/dnf.conf"));
  if (!main) ctx.warn(main.error().message + " (dnf.conf ignored)");
  return std::make_unique<DnfProvider>(suse ? "opensuse" : "fedora", frontend, std::move(repos),
                                       main ? std::move(*main) : MainConfig{}, os.version_id, basearch, rpm_like(os),
                                       settings.names("dnf") || settings.names("yum") || settings.names("zypper"));
}

}  // namespace extdeps::dnf
