// The dnf provider as the rest of extdeps sees it (core/provider/descriptor.h).
#include <algorithm>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "core/fetch/fetch.h"
#include "core/fetch/options.h"
#include "core/mapping/mapping.h"
#include "core/mapping/names.h"
#include "core/mapping/verify.h"
#include "core/util/regular_file.h"
#include "core/version/version.h"
#include "providers/dnf/dnf_provider.h"
#include "providers/dnf/rpm_upstream.h"

namespace extdeps::dnf {

const version::Scheme rpm_scheme{"rpm", version::evr_compare, version::evr_check};

namespace {

// rpm's rule for a package name: no blank or control character, no leading '-'; letters, digits
// and -._+ in practice (rpmbuild refuses others).
std::optional<std::string> name_problem(std::string_view name) {
  if (name.empty()) return "an empty package name";
  if (name.front() == '-') return "'" + mapping::printable(name) + "' starts with '-'";
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("-._+").find(c) != std::string_view::npos;
    if (!ok) return "'" + mapping::printable(name) + "' is not an rpm package name (letters, digits and -._+ only)";
  }
  return std::nullopt;
}

// RHEL and its rebuilds (Rocky, Alma, CentOS Stream: like rhel in their os-release, or in
// derived_systems below for --system; Oracle Linux, whose ID_LIKE names only fedora) use
// Fedora's table: their release is "elN" (N: VERSION_ID's major), where EPEL's and RHEL's names
// are written.
void release_names(const mapping::HostRelease& host, std::vector<std::string>& names) {
  std::vector<std::string> like = known_id_like(host.id);
  like.insert(like.end(), host.id_like.begin(), host.id_like.end());
  const bool rhel = host.id == "rhel" || host.id == "ol" || std::find(like.begin(), like.end(), "rhel") != like.end();
  if (!rhel || host.version_id.empty()) return;
  const std::string major = host.version_id.substr(0, host.version_id.find('.'));
  if (!major.empty() && major.find_first_not_of("0123456789") == std::string::npos) names.push_back("el" + major);
}

// `mappings verify` of a fedora or opensuse table: the package names of rpm-md repositories
// (--index: a repository's base URL, whose repodata/repomd.xml names its primary metadata, or a
// primary.xml file, compressed or not), and the names only others provide (Provides:).
Result<mapping::NameIndex> verify_index(Context& ctx, const VerifyInput& input) {
  if (input.sources.empty())
    return environment_error("name rpm-md repositories with --index (a repository's base URL or a primary.xml file)");
  mapping::NameIndex index;
  std::unordered_map<std::string, std::string> provided;
  std::size_t packages = 0;
  auto sink = [&](PackageRecord&& r) {
    for (const auto& p : r.provides)
      if (p.name.find('/') == std::string::npos) provided.emplace(p.name, r.name);
    index.names.insert(std::move(r.name));
    ++packages;
  };
  std::unique_ptr<fetch::Fetcher> fetcher;
  for (const auto& src : input.sources) {
    std::string path = src, name = src;
    if (src.starts_with("http://") || src.starts_with("https://") || src.starts_with("file://")) {
      if (!fetcher) {
        fetch::FetchFlags flags;
        flags.offline = input.offline;
        auto fo = fetch::options_for(ctx, flags);
        if (!fo) return fo.error();
        fetcher = std::make_unique<fetch::Fetcher>(ctx, *fo);
      }
      std::string base = src;
      while (!base.empty() && base.back() == '/') base.pop_back();
      auto repomd = fetcher->fetch({.url = base + "/repodata/repomd.xml"});
      if (!repomd) return repomd.error();
      auto text = read_regular_file(repomd->body_path, std::size_t{16} << 20, Links::follow);
      if (!text) return text.error();
      auto href = primary_location(*text, base + "/repodata/repomd.xml");
      if (!href) return href.error();
      auto primary = fetcher->fetch({.url = base + "/" + *href});
      if (!primary) return primary.error();
      path = primary->body_path;
      name = base + "/" + *href;
    }
    auto reader = CompressedReader::open_sniffed(path);
    if (!reader) return reader.error();
    // Every architecture: a table names packages, whichever machine installs them.
    if (auto r = read_primary(**reader, name, "", sink); !r) return r.error();
  }
  for (auto& [name, by] : provided)
    if (!index.names.count(name)) index.provided_by.emplace(name, std::move(by));
  index.description = "the given rpm-md repositories (" + std::to_string(input.sources.size()) +
                      (input.sources.size() == 1 ? " source, " : " sources, ") + std::to_string(packages) +
                      " packages)";
  return index;
}

// Fedora's and openSUSE's forms of a project's name: python3-<name> for a Python module; for
// headers, what ships the .pc file (rpm's automatic Provides: pkgconfig(NAME) is the evidence),
// then <name>-devel and lib<name>-devel; then the name itself.
std::vector<mapping::GuessForm> guess(const mapping::GuessSubject& s) {
  using Kind = mapping::GuessCandidate::Kind;
  const std::string name(s.name);
  if (s.type == "pypi") return {{"python3-" + name, "the python3-<name> form"}};
  const std::string base = mapping::without_lib(name);
  std::vector<mapping::GuessForm> out;
  if (s.category == Category::host) {
    out.push_back({"pkgconfig(" + name + ")", "a package that provides pkgconfig(<name>)", Kind::provides});
    if (base != name)
      out.push_back(
          {"pkgconfig(" + base + ")", "a package that provides pkgconfig(<name> without 'lib')", Kind::provides});
    else out.push_back({"pkgconfig(lib" + base + ")", "a package that provides pkgconfig(lib<name>)", Kind::provides});
    out.push_back({name + "-devel", "the <name>-devel form"});
    out.push_back({"lib" + base + "-devel", "the lib<name>-devel form"});
  }
  out.push_back({name, "a package of exactly that name"});
  // The binary packages built from the source rpm of that name (primary.xml's sourcerpm, read as
  // the provide src:NAME): for a host need its -devel ones; otherwise the others, and for a run
  // need first the library its -devel package requires (Fedora's -devel requires the -libs or
  // lib<name> package of the same source).
  const bool host = s.category == Category::host;
  out.push_back({name,
                 std::string("binary packages built from the source rpm of that name, ") +
                     (host ? "the -devel ones" : "not the -devel ones"),
                 Kind::source, host});
  if (s.category == Category::run) {
    out.push_back({name + "-libs", "the <name>-libs form of a runtime library"});
    out.push_back({"lib" + base, "the lib<name> form of a runtime library"});
  }
  out.push_back({name, "a package that provides that name", Kind::provides});
  return out;
}

// What a binary rpm is for, by Fedora's and openSUSE's naming (Fedora's packaging guidelines:
// -devel, -static, -doc, -debuginfo, -debugsource, -langpack-*; the -libs split): headers, the
// documentation and debugging packages, programs beside a library, plugins.
mapping::PackageRole package_role(std::string_view name) {
  using R = mapping::PackageRole;
  if (name.ends_with("-devel") || name.ends_with("-static")) return R::dev;
  for (std::string_view t : {"-doc", "-docs", "-debuginfo", "-debugsource", "-data", "-common", "-examples", "-demos",
                             "-tests", "-test", "-lang", "-help", "-manual", "-javadoc"})
    if (name.ends_with(t)) return R::support;
  if (name.find("-langpack-") != std::string_view::npos) return R::support;
  for (std::string_view t : {"-tools", "-utils", "-util", "-progs", "-bin", "-cli", "-client"})
    if (name.ends_with(t)) return R::tool;
  if (name.rfind("nss-", 0) == 0 || name.rfind("pam_", 0) == 0 || name.find("-plugin") != std::string_view::npos ||
      name.ends_with("-module") || name.ends_with("-modules"))
    return R::plugin;
  return R::runtime;
}

}  // namespace

const ProviderDescriptor& descriptor() {
  static const ProviderDescriptor d{
      .name = "dnf",
      .ecosystem = "fedora",
      .manager = "dnf",
      .manager_aliases = {"yum", "zypper"},
      .scheme = &rpm_scheme,
      .summary =
          "Fedora, RHEL and rebuilds, openSUSE: rpm-md repositories and the rpm database; dnf, yum or zypper commands",
      .name_problem = name_problem,
      .guess = guess,
      .package_role = package_role,
      .upstream_rules = {{"rpm-upstream", rpm_upstream}},
      .imported_version_rule = "rpm-upstream",
      .options =
          {
              {.name = "dnf-repo",
               .value_name = "URL",
               .help = "an rpm-md repository's base URL to read instead of /etc/yum.repos.d's (repeatable)",
               .list = true,
               .config_key = "dnf-repos",
               .env = {"EXTDEPS_DNF_REPOS"},
               .kind = OptionKind::path_or_url},
              {.name = "dnf-frontend",
               .value_name = "dnf|yum|zypper",
               .help = "what the plan's step runs (default: zypper on openSUSE, dnf elsewhere)",
               .config_key = "dnf-frontend",
               .env = {"EXTDEPS_DNF_FRONTEND"},
               .kind = OptionKind::choice,
               .choices = {"dnf", "yum", "zypper"}},
          },
      .reads_env = {},
      .verify_index = verify_index,
      .verify_reads = "rpm-md repositories (fedora and opensuse tables)",
      // ID_LIKE as each one's /etc/os-release gives it (zypper's systems too: dnf plans for them).
      .derived_systems = {{"rhel", {"fedora"}},
                          {"centos", {"rhel", "fedora"}},
                          {"rocky", {"rhel", "centos", "fedora"}},
                          {"almalinux", {"rhel", "centos", "fedora"}},
                          {"ol", {"fedora"}},
                          {"opensuse-tumbleweed", {"opensuse", "suse"}},
                          {"opensuse-leap", {"suse", "opensuse"}},
                          {"sles", {"suse"}}},
      .release_names = release_names,
      // rosdep2's platforms/redhat.py: its installers for fedora in its order, and dnf its default
      // from Fedora 22 on; a release is the VERSION_ID ("41").
      .rosdep_platforms = {{"fedora", "fedora", "dnf", {"pip", "dnf", "yum", "source"}, "VERSION", "41"}},
      .make = [](const Context& ctx, const ProviderSettings& settings) { return make_provider(ctx, settings); },
  };
  return d;
}

}  // namespace extdeps::dnf
