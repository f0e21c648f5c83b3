// Adapting loaded tables to the machine: a derivative's own table over its parent's (ubuntu.toml
// over debian.toml), then each entry's [id.release.X] for the release the machine runs.
#include <algorithm>
#include <array>
#include <utility>

#include "core/detect/os_release.h"
#include "core/mapping/mapping.h"

namespace extdeps::mapping {

namespace {

// VERSION_ID -> VERSION_CODENAME of the Debian and Ubuntu releases a table is likely to name, so
// that an override such as EXTDEPS_OVERRIDE_OS=debian:13 (which has no codename) still finds
// [id.release.trixie]. From os-release(5) of each release.
constexpr std::array<std::pair<std::string_view, std::string_view>, 16> kCodenames = {{
    {"linuxmint:21", "jammy"},
    {"linuxmint:22", "noble"},
    {"pop:22.04", "jammy"},
    {"pop:24.04", "noble"},
    {"debian:10", "buster"},
    {"debian:11", "bullseye"},
    {"debian:12", "bookworm"},
    {"debian:13", "trixie"},
    {"debian:14", "forky"},
    {"ubuntu:20.04", "focal"},
    {"ubuntu:22.04", "jammy"},
    {"ubuntu:23.10", "mantic"},
    {"ubuntu:24.04", "noble"},
    {"ubuntu:24.10", "oracular"},
    {"ubuntu:25.04", "plucky"},
    {"ubuntu:25.10", "questing"},
}};

void apply_release(Table& t, const std::vector<std::string>& names) {
  for (auto& e : t.entries) {
    for (const auto& name : names) {
      auto it = std::find_if(e.releases.begin(), e.releases.end(),
                             [&](const ReleaseOverride& r) { return r.release == name; });
      if (it == e.releases.end()) continue;
      e.by_category = it->by_category;
      if (!it->note.empty()) e.note = it->note;
      t.selected_release = name;
      break;
    }
  }
}

}  // namespace

std::vector<std::string> HostRelease::release_names() const {
  std::vector<std::string> out;
  auto add = [&out](std::string_view v) {
    if (!v.empty() && std::find(out.begin(), out.end(), v) == out.end()) out.emplace_back(v);
  };
  add(codename);
  add(version_id);
  if (codename.empty() && !version_id.empty()) {
    for (const auto& [key, name] : kCodenames) {
      if (key == id + ":" + version_id) add(name);
    }
  }
  // RHEL and its rebuilds (Rocky, Alma, CentOS Stream, Oracle Linux) use Fedora's table: their
  // release is "elN" (N: VERSION_ID's major), where EPEL's and RHEL's names are written.
  bool rhel = id == "rhel" || id == "centos" || id == "rocky" || id == "almalinux" || id == "ol";
  for (const auto& l : id_like) rhel = rhel || l == "rhel" || l == "centos";
  if (rhel && !version_id.empty()) {
    std::string major = version_id.substr(0, version_id.find('.'));
    if (!major.empty() && major.find_first_not_of("0123456789") == std::string::npos) add("el" + major);
  }
  return out;
}

HostRelease host_release(const Context& ctx) {
  auto os = detect::read_os_release(ctx);
  return HostRelease{os.id, os.id_like, os.version_codename, os.version_id};
}

void select_for_host(Tables& tables, const HostRelease& host) {
  if (!host.id.empty()) {
    auto own = std::find_if(tables.tables.begin(), tables.tables.end(),
                            [&](const Table& t) { return t.ecosystem == host.id; });
    if (own != tables.tables.end()) {
      for (const auto& like : host.id_like) {
        if (like == host.id) continue;
        for (auto& t : tables.tables) {
          // merge_table consumes its overlay: a copy, made only where there is a table to
          // overlay (on Debian itself, whose os-release has no ID_LIKE, none is).
          if (t.ecosystem == like) merge_table(t, Table(*own));
        }
      }
    }
  }
  const auto names = host.release_names();
  if (names.empty()) return;
  for (auto& t : tables.tables) apply_release(t, names);
}

}  // namespace extdeps::mapping
