// The apt provider as the rest of extdeps sees it (core/provider/descriptor.h).
#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "core/detect/os_release.h"
#include "core/mapping/mapping.h"
#include "core/mapping/names.h"
#include "core/mapping/verify.h"
#include "providers/apt/apt_provider.h"
#include "providers/apt/deb_upstream.h"
#include "providers/apt/deb_version.h"

namespace extdeps::apt {

namespace {

// dpkg's name of the CPU on Debian, Ubuntu and what says it is like Debian (and where os-release
// names no system at all, as on Debian's own minimal images): the architecture apt plans for.
std::string system_cpu(const detect::OsRelease& os, std::string_view machine) {
  bool debian_like = os.id == "debian" || os.id == "ubuntu" || os.id.empty();
  for (const auto& like : os.id_like) debian_like = debian_like || like == "debian";
  return debian_like ? dpkg_arch_of(machine) : std::string();
}

// VERSION_ID -> VERSION_CODENAME of the Debian and Ubuntu releases (and derivatives) a table is
// likely to name, so that --system debian:13 (which has no codename) still finds
// [id.release.trixie]. From os-release(5) of each release.
constexpr std::pair<std::string_view, std::string_view> kCodenames[] = {
    {"linuxmint:21", "jammy"}, {"linuxmint:22", "noble"},    {"pop:22.04", "jammy"},     {"pop:24.04", "noble"},
    {"debian:10", "buster"},   {"debian:11", "bullseye"},    {"debian:12", "bookworm"},  {"debian:13", "trixie"},
    {"debian:14", "forky"},    {"ubuntu:20.04", "focal"},    {"ubuntu:22.04", "jammy"},  {"ubuntu:23.10", "mantic"},
    {"ubuntu:24.04", "noble"}, {"ubuntu:24.10", "oracular"}, {"ubuntu:25.04", "plucky"}, {"ubuntu:25.10", "questing"},
};

// The codename of a release os-release (or --system) named by its number only.
void release_names(const mapping::HostRelease& host, std::vector<std::string>& names) {
  if (!host.codename.empty() || host.version_id.empty()) return;
  const std::string key = host.id + ":" + host.version_id;
  for (const auto& [release, codename] : kCodenames)
    if (release == key) names.emplace_back(codename);
}

// The archive component of an apt list file: "..._dists_bookworm_non-free_binary-amd64_Packages"
// -> "non-free"; empty when the name does not say.
std::string component_of(const std::string& path) {
  const std::string name = path.substr(path.find_last_of('/') + 1);
  const auto binary = name.find("_binary-");
  if (binary == std::string::npos) return {};
  const auto start = name.rfind('_', binary - 1);
  return start == std::string::npos ? std::string() : name.substr(start + 1, binary - start - 1);
}

// `mappings verify` of an apt table: the names (and the names only others provide) of the given
// Packages files, else of this machine's lists, with the components those lists hold.
Result<mapping::NameIndex> verify_index(Context& ctx, const VerifyInput& input) {
  const auto archs = architectures(ctx);
  std::vector<std::string> lists = input.sources;
  mapping::NameIndex index;
  if (lists.empty()) {
    lists = list_index_files(ctx, archs);
    if (lists.empty()) {
      Error e = environment_error("no apt lists under " + ctx.host_path("/var/lib/apt/lists") +
                                  " (run apt-get update, or name Packages files with --index)");
      e.what = "no apt lists under " + ctx.host_path("/var/lib/apt/lists");
      e.hint = "run apt-get update, or name Packages files with --index";
      return e;
    }
    for (const auto& l : lists) {
      std::string c = component_of(l);
      if (c.empty()) {
        index.components.clear();  // a flat repository: it may hold anything
        break;
      }
      index.components.insert(c);
    }
  }
  std::unordered_map<std::string, std::string> provided;
  for (const auto& l : lists) {
    auto r = parse_index_file(l, archs, false, [&](PackageRecord&& rec) {
      for (const auto& p : rec.provides) provided.emplace(p.name, rec.name);
      index.names.insert(std::move(rec.name));
    });
    if (!r) return r.error();
  }
  for (auto& [name, by] : provided) {
    if (!index.names.count(name)) index.provided_by.emplace(name, std::move(by));
  }
  index.description = (input.sources.empty() ? "this machine's apt lists" : "the given Packages files") +
                      std::string(" (") + (input.release.empty() ? "" : input.release + ", ") +
                      std::to_string(lists.size()) + (lists.size() == 1 ? " list, " : " lists, ") +
                      std::to_string(index.names.size()) + " packages)";
  return index;
}

// Debian's forms of a project's name: lower case with '-' where projects write '_' (policy
// 5.6.1); python3-<name> for a Python module (Debian Python policy 2.2); a source package of that
// name, maybe versioned (enchant-2, gtk+3.0's kin, libgd2); lib<name>[N]-dev for headers;
// lib<name>N for a runtime library.
std::vector<mapping::GuessForm> guess(const mapping::GuessSubject& s) {
  using Kind = mapping::GuessCandidate::Kind;
  std::string name(s.name);
  std::replace(name.begin(), name.end(), '_', '-');
  std::vector<mapping::GuessForm> out;
  auto add = [&](std::string n, std::string form, Kind kind = Kind::package, bool dev = false) {
    out.push_back({std::move(n), std::move(form), kind, dev});
  };
  if (s.type == "pypi") {
    add("python3-" + name, "Debian's python3-<name> form");
    return out;
  }
  const std::string base = mapping::without_lib(name);
  const bool host = s.category == Category::host;
  if (!host) add(name, "a package of exactly that name");
  const std::string from_source = std::string("binary packages built from the source package of that name, ") +
                                  (host ? "the -dev ones" : "not the -dev ones");
  add(name, from_source, Kind::source, host);
  for (char n = '1'; n <= '9'; ++n) {
    add(name + "-" + n, from_source, Kind::source, host);
    add(name + n, from_source, Kind::source, host);
  }
  if (s.category == Category::run) {
    for (char n = '0'; n <= '9'; ++n) add("lib" + base + n, "Debian's lib<name>N form of a runtime library");
  }
  add("lib" + base + "-dev", "Debian's lib<name>-dev form");
  for (char n = '0'; n <= '9'; ++n) add("lib" + base + n + "-dev", "Debian's lib<name>N-dev form");
  add(name + "-dev", "Debian's <name>-dev form");
  if (host) add(name, "a package of exactly that name");
  add(name, "a package that provides that name", Kind::provides);
  return out;
}

// What a binary package is for, by Debian's naming conventions: -dev (policy 8.4), -doc (12.3),
// -dbg, locale and data packages; programs shipped beside a library as -bin, -tools, -utils,
// -progs; NSS and PAM modules and plugin packages.
mapping::PackageRole package_role(std::string_view name) {
  using R = mapping::PackageRole;
  if (name.ends_with("-dev")) return R::dev;
  for (std::string_view t : {"-doc", "-dbg", "-dbgsym", "-data", "-common", "-l10n", "-locale", "-locales", "-examples",
                             "-dev-bin", "-dev-common", "-dev-doc", "-doc-html", "-manual", "-tests"})
    if (name.ends_with(t)) return R::support;
  if (name.find("-l10n-") != std::string_view::npos || name.find("-locale-") != std::string_view::npos)
    return R::support;
  if (name.rfind("gir1.2-", 0) == 0) return R::support;  // GObject introspection data
  for (std::string_view t : {"-bin", "-tools", "-utils", "-util", "-progs", "-programs", "-client", "-cli"})
    if (name.ends_with(t)) return R::tool;
  if (name.rfind("libnss-", 0) == 0 || name.rfind("libpam-", 0) == 0 ||
      name.find("-plugin") != std::string_view::npos || name.ends_with("-module") || name.ends_with("-modules"))
    return R::plugin;
  return R::runtime;
}

// Debian policy 5.6.1: lower case letters, digits, + - . ; at least two characters, starting
// with an alphanumeric.
bool is_debian_name(std::string_view s) {
  if (s.size() < 2 ||
      !(std::islower(static_cast<unsigned char>(s[0])) || std::isdigit(static_cast<unsigned char>(s[0])))) {
    return false;
  }
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '+' ||
           c == '-' || c == '.';
  });
}

std::optional<std::string> name_problem(std::string_view name) {
  if (is_debian_name(name)) return std::nullopt;
  return "'" + mapping::printable(name) + "' is not a valid Debian package name";
}

}  // namespace

const ProviderDescriptor& descriptor() {
  static const ProviderDescriptor d{
      .name = "apt",
      .ecosystem = "debian",
      .manager = "apt",
      .manager_aliases = {"apt-get"},
      .scheme = &version::deb_scheme,
      .summary = "Debian and Ubuntu: apt lists and the dpkg database; apt-get commands",
      .name_problem = name_problem,
      .guess = guess,
      .package_role = package_role,
      .components = {"main", "contrib", "non-free", "non-free-firmware"},
      .pep804_managers = R"([{
        "name": "apt-get",
        "commands": {
          "install": {"command": ["apt-get", "install", "--yes", "--no-install-recommends", "{}"],
                      "requires_elevation": true},
          "query": {"command": ["dpkg-query", "--show", "{}"]}},
        "specifier_syntax": {"name_only": ["{name}"], "exact_version": ["{name}={version}"],
                             "version_ranges": null}}])",
      .upstream_rules = {{"deb-upstream", deb_upstream}},
      .imported_version_rule = "deb-upstream",
      .options = {},
      .reads_env = {},
      .verify_index = verify_index,
      .verify_reads = "apt lists (apt tables)",
      .system_cpu = system_cpu,
      // ID_LIKE as each one's /etc/os-release gives it.
      .derived_systems = {{"ubuntu", {"debian"}},
                          {"linuxmint", {"ubuntu", "debian"}},
                          {"pop", {"ubuntu", "debian"}},
                          {"raspbian", {"debian"}}},
      .release_names = release_names,
      // rosdep2's platforms/debian.py registers these installers for both, apt the default.
      .rosdep_platforms = {{"debian", "debian", "apt", {"apt", "pip", "gem", "npm", "source"}, "CODENAME", "bookworm"},
                           {"ubuntu", "ubuntu", "apt", {"apt", "pip", "gem", "npm", "source"}, "CODENAME", "noble"}},
      .make = [](const Context& ctx, const ProviderSettings&) { return make_provider(ctx); },
  };
  return d;
}

}  // namespace extdeps::apt
