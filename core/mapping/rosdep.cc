#include "core/mapping/rosdep.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "core/declare/declare.h"
#include "core/mapping/names.h"
#include "core/provider/descriptor.h"

namespace extdeps::mapping {

namespace {

enum class Outcome { packages, unavailable, undefined, other_installer, invalid };

struct Rule {
  Outcome outcome = Outcome::undefined;
  std::string installer;
  std::vector<std::string> packages;
  std::string why;
};

bool has_key(const YAML::Node& map, std::string_view key) { return map.IsMap() && map[std::string(key)].IsDefined(); }

// The rule of one key for (os, version), as rosdep2's get_rule_for_platform finds it.
Rule rule_for(const YAML::Node& data, const RosdepPlatform& p, const std::string& version) {
  Rule r;
  if (!data.IsMap()) return {Outcome::invalid, "", {}, "its value is not a map of OSes"};
  // Nodes are rebound with reset(): yaml-cpp's operator= would write into the document.
  YAML::Node d;
  if (has_key(data, p.os)) {
    d.reset(data[std::string(p.os)]);
  } else if (has_key(data, "*")) {
    d.reset(data["*"]);
    if (!d.IsMap()) return {Outcome::invalid, "", {}, "its '*' OS rule names no installer"};
  } else {
    return {Outcome::undefined, "", {}, "no rule for " + std::string(p.os)};
  }
  std::string installer(p.installer);  // a rule that names no installer is the default's
  auto pick_installer = [&](YAML::Node& n) {
    if (!n.IsMap()) return false;
    const YAML::Node map = n;
    for (auto key : p.installers) {
      if (has_key(map, key)) {
        n.reset(map[std::string(key)]);
        installer = std::string(key);
        return true;
      }
    }
    return false;
  };
  if (d.IsMap() && !pick_installer(d)) {
    if (!has_key(d, version) && !has_key(d, "*")) {
      return {Outcome::undefined, "", {}, "no rule for " + std::string(p.os) + " " + version};
    }
    const YAML::Node versions = d;
    if (has_key(versions, version) && versions[version].IsNull()) {
      return {Outcome::unavailable, "", {}, "not available on " + std::string(p.os) + " " + version};
    }
    d.reset(has_key(versions, version) ? versions[version] : versions["*"]);
    pick_installer(d);
  }
  if (!d.IsDefined() || d.IsNull()) {
    return {Outcome::unavailable, "", {}, "not available on " + std::string(p.os) + " " + version};
  }
  r.installer = installer;
  if (installer != p.installer) {
    r.outcome = Outcome::other_installer;
    r.why = "its rule is for " + installer;
    return r;
  }
  // The package installer's arguments: {packages: [...] | "a b"}, "a b", or [a, b].
  auto words = [](const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
  };
  try {
    if (d.IsMap()) {
      const YAML::Node args = d;
      const YAML::Node pk = args["packages"];
      if (pk.IsScalar()) r.packages = words(pk.as<std::string>());
      else if (pk.IsSequence()) r.packages = pk.as<std::vector<std::string>>();
    } else if (d.IsScalar()) {
      r.packages = words(d.as<std::string>());
    } else if (d.IsSequence()) {
      r.packages = d.as<std::vector<std::string>>();
    }
  } catch (const YAML::Exception& e) {
    return {Outcome::invalid, installer, {}, std::string("its packages are not strings: ") + e.what()};
  }
  r.outcome = Outcome::packages;
  return r;
}

// The rosdep file as YAML, a map of keys to rules; errors name the file (and line:column).
Result<YAML::Node> read_rosdep_yaml(const std::string& path) {
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    return error_at(ExitCode::bad_input, path, "cannot read the rosdep file");
  } catch (const YAML::ParserException& e) {
    return error_at(ExitCode::bad_input,
                    path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1),
                    "invalid YAML: " + e.msg);
  }
  if (!doc.IsMap()) {
    Error e = error_at(ExitCode::bad_input, path, "expected a rosdep table (a map of keys to rules)");
    e.expected = "a rosdep table (a map of keys to rules)";
    return e;
  }
  return doc;
}

// The entry of rosdep key `key` whose rules are `rules`, for the OS release (`os`, its
// `version`) whose package installer is `d`'s manager (platform `p`); nullopt when the table has
// none, with a warning in `r` where rosdep has one and the table cannot take it.
std::optional<DraftEntry> entry_for(const std::string& key, const YAML::Node& rules, const ProviderDescriptor& d,
                                    const RosdepPlatform& p, const std::string& os, const std::string& version,
                                    RosdepImport& r) {
  const std::string id = "dep:generic/" + key;
  if (auto url = declare::parse_depurl(id); !url || url->id() != id) {
    r.warnings.push_back(key + ": not usable in a DepURL; left out");
    return std::nullopt;
  }
  Rule rule = rule_for(rules, p, version);
  DraftEntry e;
  e.id = id;
  e.description = "rosdep key " + key;
  switch (rule.outcome) {
    case Outcome::undefined: return std::nullopt;  // rosdep cannot resolve it for this release either: no warning
    case Outcome::invalid:
    case Outcome::other_installer: r.warnings.push_back(key + ": " + rule.why + "; left out"); return std::nullopt;
    case Outcome::unavailable:
      e.note = "rosdep: " + rule.why;
      ++r.unavailable;
      break;
    case Outcome::packages: {
      if (rule.packages.empty()) {
        r.warnings.push_back(key + ": rosdep installs nothing for it on " + os +
                             " (no way to say that here); left out");
        return std::nullopt;
      }
      for (const auto& name : rule.packages) {
        if (auto problem = name_problem(d.manager, name)) {
          r.warnings.push_back(key + ": " + *problem + "; left out");
          return std::nullopt;
        }
      }
      std::vector<std::string> unique;
      for (const auto& name : rule.packages) {
        if (std::find(unique.begin(), unique.end(), name) == unique.end()) unique.push_back(name);
      }
      DraftAlternative a;
      a.host = unique;
      e.alternatives.push_back(std::move(a));
      ++r.mapped;
      break;
    }
  }
  return e;
}

}  // namespace

Result<RosdepImport> import_rosdep(const std::string& path, const std::string& os) {
  const auto colon = os.find(':');
  const std::string os_name = os.substr(0, colon);
  const std::string version = colon == std::string::npos ? "" : os.substr(colon + 1);
  // The provider whose manager is the OS's package installer (its descriptor's rosdep_platforms).
  const RosdepPlatform* platform = nullptr;
  const ProviderDescriptor* d = descriptor_for_rosdep_os(os_name, &platform);
  if (!d || version.empty()) {
    Error e = error_at(ExitCode::bad_input, "--os '" + os + "'", "expected " + rosdep_os_forms_text(true));
    e.expected = rosdep_os_forms_text(false);
    e.from = "--os";
    return e;
  }
  auto doc = read_rosdep_yaml(path);
  if (!doc) return doc.error();

  RosdepImport r;
  DraftTable& t = r.table;
  t.ecosystem = std::string(platform->ecosystem);
  t.manager = std::string(d->manager);
  t.release = version;
  t.version = version_rule_of(d->manager);
  t.description =
      "rosdep keys for " + os_name + " " + version + ", from " + std::filesystem::path(path).filename().string();
  t.comments = {"Imported from the rosdep table " + std::filesystem::path(path).filename().string() + " for " + os +
                    " by `extdeps mappings import rosdep`.",
                "rosdep keys are not DepURLs: each key K became dep:generic/K. rosdep has no",
                "build/host/run split, so the packages are written as host (the rest falls back)."};
  // A key given twice: YAML forbids it, but yaml-cpp reads both and rosdep's reader (PyYAML)
  // keeps the later, so the later is kept here too.
  std::map<std::string, std::size_t> times;
  for (const auto& kv : *doc) {
    try {
      ++times[kv.first.as<std::string>()];
    } catch (const YAML::Exception&) {
    }
  }
  for (const auto& kv : *doc) {
    std::string key;
    try {
      key = kv.first.as<std::string>();
    } catch (const YAML::Exception&) {
      ++r.keys;
      r.warnings.push_back("a key at line " + std::to_string(kv.first.Mark().line + 1) + " is not a string; left out");
      continue;
    }
    if (auto seen = times.find(key); seen != times.end() && --seen->second > 0) {
      r.warnings.push_back(key + ": given again later (line " + std::to_string(kv.first.Mark().line + 1) +
                           " is not the last); the last is kept, as rosdep keeps it");
      continue;
    }
    ++r.keys;
    if (auto e = entry_for(key, kv.second, *d, *platform, os, version, r)) t.entries.push_back(std::move(*e));
  }
  return r;
}

}  // namespace extdeps::mapping
