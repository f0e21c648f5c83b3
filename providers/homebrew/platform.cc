// The host as Homebrew sees it (its bottle tag), the bottle brew would pour there, and a formula
// turned into a record for that host.
#include <array>
#include <charconv>

#include "providers/homebrew/homebrew_provider.h"
#include "providers/homebrew/homebrew_version.h"

namespace extdeps::homebrew {

namespace {

// Homebrew's names of the macOS releases (MacOSVersion::SYMBOLS in Library/Homebrew/macos_version.rb),
// newest first.
constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kReleases = {{
    {"tahoe", "26"},
    {"sequoia", "15"},
    {"sonoma", "14"},
    {"ventura", "13"},
    {"monterey", "12"},
    {"big_sur", "11"},
    {"catalina", "10.15"},
    {"mojave", "10.14"},
    {"high_sierra", "10.13"},
    {"sierra", "10.12"},
    {"el_capitan", "10.11"},
    {"yosemite", "10.10"},
}};

// "14.5" -> {14, 0}; "10.15.7" -> {10, 15}: what names a release (the minor only before 11).
std::pair<int, int> release_key(std::string_view v) {
  int major = 0, minor = 0;
  auto r = std::from_chars(v.data(), v.data() + v.size(), major);
  if (r.ec != std::errc()) return {0, 0};
  if (major == 10 && r.ptr < v.data() + v.size() && *r.ptr == '.')
    std::from_chars(r.ptr + 1, v.data() + v.size(), minor);
  return {major, major == 10 ? minor : 0};
}

// The position of a codename in kReleases (0: the newest); -1 when unknown.
int release_index(std::string_view codename) {
  for (std::size_t i = 0; i < kReleases.size(); ++i)
    if (kReleases[i].first == codename) return static_cast<int>(i);
  return -1;
}

// "arm64_sonoma" -> {"arm64", "sonoma"}; "sonoma" -> {"x86_64", "sonoma"}; "x86_64_linux" ->
// {"x86_64", "linux"}.
std::pair<std::string_view, std::string_view> split_tag(std::string_view tag) {
  for (std::string_view arch : {"arm64_", "x86_64_"})
    if (tag.starts_with(arch)) return {arch.substr(0, arch.size() - 1), tag.substr(arch.size())};
  return {"x86_64", tag};
}

bool pours_into(const Bottle& b, const Platform& host) {
  return b.cellar.empty() || b.cellar == ":any" || b.cellar == ":any_skip_relocation" || b.cellar == host.cellar();
}

}  // namespace

std::string macos_codename(std::string_view version) {
  auto key = release_key(version);
  for (const auto& [name, v] : kReleases)
    if (release_key(v) == key) return std::string(name);
  return {};
}

std::string macos_version_of(std::string_view codename) {
  int i = release_index(codename);
  return i < 0 ? std::string() : std::string(kReleases[static_cast<std::size_t>(i)].second);
}

std::string default_prefix(bool macos, std::string_view arch) {
  if (!macos) return "/home/linuxbrew/.linuxbrew";
  return arch == "arm64" ? "/opt/homebrew" : "/usr/local";
}

std::string Platform::tag() const {
  if (!macos) return arch == "arm64" ? "arm64_linux" : "x86_64_linux";
  std::string name = macos_codename(macos_version);
  if (name.empty()) return {};
  return arch == "arm64" ? "arm64_" + name : name;
}

const Bottle* choose_bottle(const Formula& f, const Platform& host) {
  const std::string tag = host.tag();
  auto find = [&](std::string_view t) -> const Bottle* {
    for (const auto& b : f.bottles)
      if (b.tag == t) return &b;
    return nullptr;
  };
  const Bottle* chosen = nullptr;
  if (!tag.empty()) chosen = find(tag);
  if (!chosen) chosen = find("all");
  if (!chosen && host.macos) {
    // A bottle for an older macOS of the same CPU pours on a newer one; the newest such.
    auto [arch, codename] = split_tag(tag);
    int mine = release_index(codename);
    if (tag.empty()) {  // a release newer than any Homebrew names: every named one is older
      arch = host.arch == "arm64" ? "arm64" : "x86_64";
      mine = -1;
    }
    int best = -1;
    for (const auto& b : f.bottles) {
      auto [barch, bname] = split_tag(b.tag);
      int i = release_index(bname);
      if (barch != arch || i < 0 || i <= mine) continue;
      if (best < 0 || i < release_index(split_tag(f.bottles[static_cast<std::size_t>(best)].tag).second))
        best = static_cast<int>(&b - f.bottles.data());
    }
    if (best >= 0) chosen = &f.bottles[static_cast<std::size_t>(best)];
  }
  if (chosen && !pours_into(*chosen, host)) return nullptr;
  return chosen;
}

std::optional<PackageRecord> to_record(const Formula& f, const Platform& host, const std::string& origin) {
  if (f.disabled) return std::nullopt;
  // The variation of the host's tag replaces the fields it names (the API loader's merge).
  Fields fields = f.fields;
  const std::string tag = host.tag();
  if (auto v = f.variations.find(tag); v != f.variations.end()) {
    const Fields& o = v->second;
    if (o.dependencies) fields.dependencies = o.dependencies;
    if (o.build_dependencies) fields.build_dependencies = o.build_dependencies;
    if (o.conflicts_with) fields.conflicts_with = o.conflicts_with;
    if (o.uses_from_macos) fields.uses_from_macos = o.uses_from_macos;
    if (o.requirements) fields.requirements = o.requirements;
  }
  const Bottle* bottle = choose_bottle(f, host);
  const bool from_source = bottle == nullptr;

  PackageRecord r;
  r.name = f.name;
  r.version = f.pkg_version();
  r.build = from_source ? "source" : bottle->tag;
  r.origin = origin;
  for (const auto* names : {&f.aliases, &f.oldnames})
    for (const auto& a : *names)
      if (a != f.name) r.provides.push_back({a, DepOp::eq, r.version});
  if (f.full_name != f.name) r.provides.push_back({f.full_name, DepOp::eq, r.version});
  auto need = [&](const std::string& name) { r.depends.push_back({NativeDep{name, DepOp::any, {}}}); };
  if (fields.dependencies)
    for (const auto& d : *fields.dependencies) need(d);
  if (from_source && fields.build_dependencies)
    for (const auto& d : *fields.build_dependencies) need(d);
  if (fields.uses_from_macos) {
    for (const auto& u : *fields.uses_from_macos) {
      if (u.test_only || (u.build_only && !from_source)) continue;
      if (host.macos) {
        // macOS ships it, from `since` on (all of the releases Homebrew supports when none).
        std::string since = u.since.empty() ? std::string() : macos_version_of(u.since);
        if (u.since.empty() || since.empty()) continue;
        if (version::homebrew_compare(host.macos_version, since) >= 0) continue;
      }
      need(u.name);
    }
  }
  if (fields.requirements) {
    for (const auto& q : *fields.requirements) {
      if (q.build_only && !from_source) continue;
      if (q.name == "macos") {
        // "macos" with a version is that release or newer, a name ("sonoma") or a number.
        std::string v = q.version.empty() ? "" : macos_version_of(q.version);
        if (v.empty()) v = q.version;
        r.depends.push_back({NativeDep{"__osx", v.empty() ? DepOp::any : DepOp::spec, v.empty() ? "" : ">=" + v}});
      } else if (q.name == "maximum_macos") {
        std::string v = macos_version_of(q.version);
        if (v.empty()) v = q.version;
        if (host.macos && !v.empty()) r.depends.push_back({NativeDep{"__osx", DepOp::spec, "<=" + v}});
      } else if (q.name == "linux") {
        r.depends.push_back({NativeDep{"__linux", DepOp::any, {}}});
      } else if (q.name == "arch") {
        // "arm64" or "x86_64" (Homebrew's names; intel is x86_64).
        std::string want = q.version == "intel" ? "x86_64" : q.version;
        if (!want.empty() && want != host.arch) return std::nullopt;
      }
      // Others (xcode, a cask, java) are the build machine's business or brew's own checks.
    }
  }
  if (fields.conflicts_with)
    for (const auto& c : *fields.conflicts_with)
      if (c != f.name) r.conflicts.push_back({c, DepOp::any, {}});
  return r;
}

}  // namespace extdeps::homebrew
