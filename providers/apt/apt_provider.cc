// The apt provider: finding apt's lists and dpkg's database under the context's root, keying a
// cache on them, loading records, and rendering the apt-get command.
#include "providers/apt/apt_provider.h"

#include "core/mapping/names.h"

#include "core/util/file_stamp.h"
#include "core/util/regular_file.h"
#include "providers/apt/deb_version.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

namespace extdeps::apt {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kListsDir = "/var/lib/apt/lists";
constexpr std::string_view kStatusFile = "/var/lib/dpkg/status";

bool contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool arch_wanted(const Architectures& archs, std::string_view arch) {
  return arch == "all" || arch == archs.native || contains(archs.foreign, arch);
}

// "…_Packages" with one of the extensions read_index_file knows; the stem is everything up to
// and including "_Packages". Other compressions apt may keep (bz2, lzma) are reported.
enum class ListKind { none, supported, unsupported };

ListKind classify(std::string_view name, std::string_view& stem) {
  constexpr std::string_view kTag = "_Packages";
  size_t at = name.rfind(kTag);
  if (at == std::string_view::npos) return ListKind::none;
  stem = name.substr(0, at + kTag.size());
  std::string_view ext = name.substr(at + kTag.size());
  if (ext.empty() || ext == ".lz4" || ext == ".gz" || ext == ".xz" || ext == ".zst") return ListKind::supported;
  if (ext == ".bz2" || ext == ".lzma") return ListKind::unsupported;
  return ListKind::none;  // Packages.diff_Index and the like
}

class AptProvider final : public Provider {
 public:
  AptProvider(std::string ecosystem, Architectures archs)
      : ecosystem_(std::move(ecosystem)), archs_(std::move(archs)) {}

  std::string_view ecosystem() const override { return ecosystem_; }
  std::string_view manager() const override { return "apt"; }
  bool system_wide() const override { return true; }
  const version::Scheme& scheme() const override { return version::deb_scheme; }
  std::string missing_component(std::string_view package, std::string_view component) const override {
    return std::string(package) + " is in the " + std::string(component) +
           " component, which this machine's apt sources do not list";
  }

  bool available(const Context& ctx) const override {
    std::error_code ec;
    return fs::is_regular_file(ctx.host_path(kStatusFile), ec);
  }

  Result<SourceId> identity(const Context& ctx) const override {
    Architectures archs = architectures(ctx);
    std::string key = "apt archs=" + archs.native;
    for (const auto& a : archs.foreign) key += "," + a;
    key += '\n';
    std::vector<std::string> files = list_index_files(ctx, archs);
    files.push_back(ctx.host_path(kStatusFile));
    for (const auto& f : files) {
      struct stat st {};
      if (::stat(f.c_str(), &st) != 0)
        return error_at(ExitCode::environment, f, std::string("cannot stat: ") + std::strerror(errno));
      key += f + ' ' + std::to_string(st.st_size) + ' ' + std::to_string(mtime_ns(st)) + '\n';
    }
    return SourceId{std::move(key)};
  }

  Result<void> load(const Context& ctx, const RecordSink& available, const RecordSink& installed) override {
    Architectures archs = architectures(ctx);
    std::string status = ctx.host_path(kStatusFile);
    std::vector<std::string> files = list_index_files(ctx, archs);
    if (files.empty())
      ctx.warn("no apt package lists under " + ctx.host_path(kListsDir) +
               " (only installed packages are known; run 'apt-get update' to fetch them)");
    for (const auto& f : files)
      if (auto r = parse_index_file(f, archs, false, available); !r) return r;
    return parse_index_file(status, archs, true, installed);
  }

  std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages) const override {
    return apt::install_commands(packages, archs_);
  }
  bool plans_removals() const override { return true; }
  // The installed stanzas of dpkg's status file that say Essential: yes or Protected: yes.
  std::vector<std::string> never_removed(const Context& ctx) const override {
    std::vector<std::string> out;
    std::ifstream in(ctx.host_path(kStatusFile));
    std::string line, name;
    bool kept = false, installed = false;
    auto end_stanza = [&] {
      if (kept && installed && !name.empty()) out.push_back(name);
      name.clear();
      kept = installed = false;
    };
    while (std::getline(in, line)) {
      if (line.empty()) end_stanza();
      else if (line.starts_with("Package: ")) name = line.substr(9);
      else if (line == "Essential: yes" || line == "Protected: yes") kept = true;
      else if (line.starts_with("Status: ")) installed = line.ends_with(" installed");
    }
    end_stanza();
    return out;
  }
  // dpkg's list of the package's files: /var/lib/dpkg/info/NAME:ARCH.list for a Multi-Arch:
  // same package, NAME.list for the others.
  std::vector<std::string> package_files(const Context& ctx, const PlannedPackage& package) const override {
    std::vector<std::string> out;
    for (const std::string& file : {package.name + ":" + package.arch + ".list", package.name + ".list"}) {
      std::ifstream in(ctx.host_path("/var/lib/dpkg/info/" + file));
      if (!in) continue;
      for (std::string line; std::getline(in, line);)
        if (line.starts_with("/")) out.push_back(ctx.host_path(line));
      break;
    }
    return out;
  }
  std::vector<Command> swap_commands(const std::vector<PlannedPackage>& packages,
                                     const std::vector<PlannedPackage>& removals) const override {
    return apt::install_commands(packages, archs_, removals);
  }

  // Foreign-architecture records are named "name:arch" (README.md); each part has its rule.
  std::optional<std::string> command_problem(const PlannedPackage& p) const override {
    std::string_view name = p.name, arch = p.arch;
    if (auto colon = name.find(':'); colon != std::string_view::npos) {
      arch = name.substr(colon + 1);
      name = name.substr(0, colon);
    }
    if (auto n = mapping::name_problem("apt", name)) return n;
    if (!arch.empty() && (arch.front() == '-' ||
                          arch.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string_view::npos))
      return "'" + mapping::printable(arch) + "' is not a valid Debian architecture";
    return mapping::argument_problem("Debian version", p.version);
  }

 private:
  std::string ecosystem_;
  Architectures archs_;
};

}  // namespace

std::string dpkg_arch_of(std::string_view machine) {
  if (machine == "x86_64") return "amd64";
  if (machine == "aarch64" || machine == "arm64") return "arm64";
  if (machine == "i386" || machine == "i486" || machine == "i586" || machine == "i686") return "i386";
  if (machine == "armv7l" || machine == "armv6l") return "armhf";
  if (machine == "ppc64le") return "ppc64el";
  if (machine == "mips64") return "mips64el";
  return std::string(machine);
}

std::string dpkg_architecture(const Context& ctx) { return dpkg_arch_of(detect::machine(ctx)); }

Architectures architectures(const Context& ctx) {
  Architectures archs;
  archs.native = dpkg_architecture(ctx);
  std::istringstream in(read_small_file_or_empty(ctx.host_path("/var/lib/dpkg/arch")));
  std::string line;
  while (std::getline(in, line)) {
    auto b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos) continue;
    auto e = line.find_last_not_of(" \t\r");
    std::string a = line.substr(b, e - b + 1);
    if (a != archs.native && !contains(archs.foreign, a)) archs.foreign.push_back(a);
  }
  return archs;
}

std::vector<std::string> list_index_files(const Context& ctx, const Architectures& archs) {
  std::string dir = ctx.host_path(kListsDir);
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  struct Pick {
    std::string path;
    fs::file_time_type mtime;
  };
  std::map<std::string, Pick, std::less<>> by_stem;  // apt keeps one file per list; be safe
  for (; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    std::string name = it->path().filename().string();
    std::string_view stem;
    ListKind kind = classify(name, stem);
    if (kind == ListKind::none) continue;
    constexpr std::string_view kBinary = "_binary-";
    if (size_t b = stem.rfind(kBinary); b != std::string_view::npos) {
      size_t from = b + kBinary.size();
      std::string_view arch = stem.substr(from, stem.size() - from - std::string_view("_Packages").size());
      if (!arch_wanted(archs, arch)) continue;
    }
    if (kind == ListKind::unsupported) {
      ctx.warn("skipping " + it->path().string() +
               ": bz2 and lzma lists are not read (configure apt to keep lz4, gz, xz or zst lists)");
      continue;
    }
    auto mtime = it->last_write_time(ec);
    auto [pos, inserted] = by_stem.try_emplace(std::string(stem), Pick{it->path().string(), mtime});
    if (!inserted && mtime > pos->second.mtime) pos->second = Pick{it->path().string(), mtime};
  }
  std::vector<std::string> out;
  out.reserve(by_stem.size());
  for (auto& [stem, pick] : by_stem) out.push_back(std::move(pick.path));
  return out;
}

std::string ecosystem_for(const detect::OsRelease& os) {
  auto debian_like = [](std::string_view id) { return id == "debian" || id == "ubuntu"; };
  if (debian_like(os.id)) return "debian";
  for (const auto& l : os.id_like)
    if (debian_like(l)) return "debian";
  return os.id.empty() ? "debian" : os.id;
}

std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages, const Architectures& archs,
                                      const std::vector<PlannedPackage>& removals) {
  if (packages.empty() && removals.empty()) return {};
  // -y: extdeps shows the plan and asks before it runs anything, so apt must not ask again
  // (and cannot, when extdeps runs it without a terminal).
  Command c;
  // DPkg::Lock::Timeout (apt >= 1.9.11; older apt ignores it): wait up to 5 minutes for the
  // dpkg lock that another apt holds (unattended-upgrades on a fresh cloud machine) instead of
  // failing at once. "--": what follows is a package, never an option, whatever its name
  // (command_problem has already refused names that start with '-'; this is the second wall).
  c.argv = {"apt-get", "install", "-y", "--no-install-recommends", "-o", "DPkg::Lock::Timeout=300", "--"};
  for (const auto& p : packages) {
    std::string arg = p.name;
    if (arg.find(':') == std::string::npos && !p.arch.empty() && p.arch != "all" && p.arch != archs.native)
      arg += ":" + p.arch;
    if (!p.version.empty()) arg += "=" + p.version;
    c.argv.push_back(std::move(arg));
  }
  for (const auto& p : removals) {
    std::string arg = p.name;
    if (arg.find(':') == std::string::npos && !p.arch.empty() && p.arch != "all" && p.arch != archs.native)
      arg += ":" + p.arch;
    c.argv.push_back(arg + "-");
  }
  c.requires_elevation = true;
  return {std::move(c)};
}

std::unique_ptr<Provider> make_provider(const Context& ctx) {
  return std::make_unique<AptProvider>(ecosystem_for(detect::read_os_release(ctx)), architectures(ctx));
}

}  // namespace extdeps::apt
