// The pacman provider: pacman.conf, the sync databases of its repositories and the local database
// under the context's root, a cache key on them, and the pacman -S command.
#include "providers/pacman/pacman_provider.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>

#include "core/detect/os_release.h"
#include "core/fetch/fetch.h"
#include "core/util/file_stamp.h"
#include "providers/pacman/pacman_version.h"

namespace extdeps::pacman {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kConfig = "/etc/pacman.conf";

// "/var/lib/pacman/" + "sync/core.db", under the root.
std::string under(const Context& ctx, const std::string& dbpath, std::string_view rest) {
  std::string p = dbpath;
  if (p.empty() || p.back() != '/') p += '/';
  return ctx.host_path(p + std::string(rest));
}

bool arch_like(const detect::OsRelease& os) {
  if (os.id == "arch") return true;
  for (const auto& l : os.id_like)
    if (l == "arch") return true;
  return false;
}

class PacmanProvider final : public Provider {
 public:
  PacmanProvider(Config config, std::string config_path, std::vector<std::string> dbs, bool arch_host, bool named)
      : config_(std::move(config)),
        config_path_(std::move(config_path)),
        dbs_(std::move(dbs)),
        arch_host_(arch_host),
        named_(named) {}

  std::string_view ecosystem() const override { return "arch"; }
  std::string_view manager() const override { return "pacman"; }
  bool system_wide() const override { return true; }
  const version::Scheme& scheme() const override { return version::pacman_scheme; }

  // An Arch-like system with pacman's local database; elsewhere only when named (--manager
  // pacman): Debian packages pacman too, for building Arch packages, not for this machine's.
  bool available(const Context& ctx) const override {
    std::error_code ec;
    return named_ || (arch_host_ && fs::is_directory(under(ctx, config_.dbpath, "local"), ec));
  }

  // A repository whose sync database pacman -Sy has not fetched (a fresh container, a root made
  // for another machine) is downloaded from its mirrors, in order, through the fetcher's cache.
  Result<void> prepare(const Context& ctx, fetch::Fetcher& fetcher) override {
    if (!dbs_.empty()) return {};
    const std::string a = arch(ctx);
    for (const auto& repo : config_.repos) {
      std::error_code ec;
      if (fs::exists(under(ctx, config_.dbpath, "sync/" + repo.name + ".db"), ec) || repo.servers.empty()) continue;
      std::optional<Error> last;
      for (const auto& server : repo.servers) {
        auto got = fetcher.fetch({.url = db_url(server, repo.name, a)});
        if (got) {
          fetched_[repo.name] = got->body_path;
          last.reset();
          break;
        }
        last = got.error();  // the next mirror, as pacman tries them
      }
      if (last) return at_place(*last, "pacman repository [" + repo.name + "]");
    }
    return {};
  }

  Result<SourceId> identity(const Context& ctx) const override {
    std::string key = "pacman arch=" + arch(ctx) + '\n';
    std::vector<std::string> files = sync_dbs(ctx);
    files.push_back(under(ctx, config_.dbpath, "local"));
    for (const auto& f : files) {
      struct stat st {};
      if (::stat(f.c_str(), &st) != 0) {
        if (errno == ENOENT) {
          key += f + " absent\n";
          continue;
        }
        return error_at(ExitCode::environment, f, std::string("cannot stat: ") + std::strerror(errno));
      }
      // The local folder changes its mtime when a package is installed or removed.
      key += f + ' ' + std::to_string(st.st_size) + ' ' + std::to_string(mtime_ns(st)) + '\n';
    }
    return SourceId{std::move(key)};
  }

  Result<void> load(const Context& ctx, const RecordSink& available, const RecordSink& installed) override {
    const std::string a = arch(ctx);
    std::vector<std::string> files = sync_dbs(ctx);
    std::size_t read = 0;
    for (const auto& f : files) {
      std::error_code ec;
      if (!fs::exists(f, ec)) {
        if (!dbs_.empty()) return error_at(ExitCode::environment, f, "no such sync database", "", "check --pacman-db");
        continue;  // a repository pacman -Sy has not fetched yet
      }
      if (auto r = read_sync_db(f, a, available); !r) return r;
      ++read;
    }
    if (read == 0)
      ctx.warn("no pacman sync databases under " + under(ctx, config_.dbpath, "sync") +
               " (only installed packages are known; run 'pacman -Sy' to fetch them)");
    const std::string local = under(ctx, config_.dbpath, "local");
    std::error_code ec;
    if (!fs::is_directory(local, ec)) return {};
    return read_local_db(local, installed);
  }

  std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages) const override {
    return pacman::install_commands(packages);
  }

 private:
  // pacman.conf's Architecture, else the machine's (uname -m, as pacman's "auto").
  std::string arch(const Context& ctx) const {
    if (!config_.architecture.empty()) return config_.architecture;
    if (auto o = ctx.env("EXTDEPS_OVERRIDE_ARCH"); o && !o->empty()) {
      // The override names a Debian architecture; pacman's names for the common ones.
      if (*o == "amd64") return "x86_64";
      if (*o == "arm64") return "aarch64";
      return *o;
    }
    const std::string& machine = ctx.uname().machine;
    return machine.empty() ? "x86_64" : machine;
  }

  // --pacman-db's files, else DBPath/sync/REPO.db for each repository of pacman.conf (or the copy
  // prepare() downloaded), else (no pacman.conf) every *.db there.
  std::vector<std::string> sync_dbs(const Context& ctx) const {
    if (!dbs_.empty()) return dbs_;
    std::vector<std::string> out;
    if (config_.found) {
      for (const auto& r : config_.repos) {
        auto f = fetched_.find(r.name);
        out.push_back(f != fetched_.end() ? f->second : under(ctx, config_.dbpath, "sync/" + r.name + ".db"));
      }
      return out;
    }
    std::error_code ec;
    for (fs::directory_iterator it(under(ctx, config_.dbpath, "sync"), ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".db") out.push_back(it->path().string());
    std::sort(out.begin(), out.end());
    return out;
  }

  Config config_;
  std::string config_path_;
  std::vector<std::string> dbs_;
  bool arch_host_;
  bool named_;
  std::map<std::string, std::string> fetched_;  // repository -> its downloaded sync database
};

}  // namespace

std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages) {
  if (packages.empty()) return {};
  // --needed: an installed package the plan upgrades is still named, and one already current is
  // skipped; --noconfirm: extdeps asks before it runs anything. "--": what follows is a target.
  Command c;
  c.argv = {"pacman", "-S", "--needed", "--noconfirm", "--"};
  for (const auto& p : packages) c.argv.push_back(p.name);
  c.requires_elevation = true;
  return {std::move(c)};
}

std::unique_ptr<Provider> make_provider(const Context& ctx, const ProviderSettings& settings) {
  std::string path = settings.option_text("pacman-config");
  path = path.empty() ? ctx.host_path(std::string(kConfig)) : path;
  auto config = read_config(path, ctx.root());
  // A pacman.conf that cannot be read leaves the defaults; load() reports nothing from it, and a
  // malformed one is reported by the solve through an unavailable provider's empty load.
  Config c = config ? *config : Config{};
  if (!config) ctx.warn(config.error().message + " (pacman.conf ignored)");
  return std::make_unique<PacmanProvider>(std::move(c), path, settings.option_list("pacman-db"),
                                          arch_like(detect::read_os_release(ctx)), settings.names("pacman"));
}

}  // namespace extdeps::pacman
