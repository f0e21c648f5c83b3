// Modularity (RHEL 8/9 and their rebuilds' AppStream, EPEL 8): a repository's modules.yaml says
// which of its packages belong to which module stream; dnf offers a stream's packages only while
// the stream is active (enabled in /etc/dnf/modules.d, or the module's default stream while the
// module is neither enabled nor disabled), and hides the non-modular packages whose names an
// active stream ships ("modular filtering", libdnf's dnf_sack_filter_modules).
#include <filesystem>
#include <sstream>
#include <utility>

#include "core/util/regular_file.h"
#include "core/util/text.h"
#include "providers/dnf/dnf_provider.h"
#include "providers/dnf/modulemd_yaml.h"

namespace extdeps::dnf {

namespace fs = std::filesystem;
using modulemd::Node;

Result<void> read_modules(std::string_view yaml, const std::string& name, ModuleIndex& into) {
  try {
    modulemd::read_documents(yaml, [&](const Node& d) {
      if (d.kind != Node::Kind::map) return;
      const Node* kind = d.get("document");
      const Node* data = d.get("data");
      if (!kind || !data || data->kind != Node::Kind::map) return;
      if (kind->scalar() == "modulemd") {
        ModuleStream s;
        if (const Node* n = data->get("name")) s.name = n->scalar();
        if (const Node* n = data->get("stream")) s.stream = n->scalar();
        if (s.name.empty() || s.stream.empty()) return;
        if (const Node* a = data->get("artifacts"))
          if (const Node* rpms = a->get("rpms"))
            for (const auto& r : rpms->items)
              if (r.kind == Node::Kind::scalar) s.artifacts.push_back(r.text);
        into.streams.push_back(std::move(s));
      } else if (kind->scalar() == "modulemd-defaults") {
        const Node* m = data->get("module");
        const Node* s = data->get("stream");
        if (m && s && !m->scalar().empty() && !s->scalar().empty()) into.defaults[m->scalar()] = s->scalar();
      }
    });
  } catch (const modulemd::Bad& bad) {
    return error_at(ExitCode::environment, name + ":" + std::to_string(bad.line) + ":" + std::to_string(bad.column),
                    "not YAML: " + bad.what, "modulemd documents, as modifyrepo_c adds them");
  }
  return {};
}

std::map<std::string, ModuleState> read_module_states(const std::string& dir) {
  std::map<std::string, ModuleState> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".module") continue;
    std::istringstream in(read_small_file_or_empty(it->path().string()));
    std::string raw, section;
    ModuleState st;
    while (std::getline(in, raw)) {
      std::string_view line = trim(raw);
      if (line.empty() || line.front() == '#') continue;
      if (line.front() == '[' && line.back() == ']') {
        if (!section.empty()) out[section] = st;
        section = std::string(line.substr(1, line.size() - 2));
        st = ModuleState{};
        continue;
      }
      auto eq = line.find('=');
      if (eq == std::string_view::npos) continue;
      const std::string_view key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
      if (key == "stream") st.stream = std::string(value);
      if (key == "state") st.state = std::string(value);
    }
    if (!section.empty()) out[section] = st;
  }
  return out;
}

ModularFilter::ModularFilter(const ModuleIndex& index, const std::map<std::string, ModuleState>& states) {
  // The active stream of each module: enabled, else (neither enabled nor disabled) its default.
  std::map<std::string, std::string> active;
  for (const auto& s : index.streams) {
    if (active.count(s.name)) continue;
    auto st = states.find(s.name);
    if (st != states.end() && st->second.state == "disabled") continue;
    if (st != states.end() && st->second.state == "enabled" && !st->second.stream.empty()) {
      active[s.name] = st->second.stream;
      continue;
    }
    if (auto d = index.defaults.find(s.name); d != index.defaults.end()) active[s.name] = d->second;
  }
  for (const auto& s : index.streams) {
    const bool on = active.count(s.name) && active.at(s.name) == s.stream;
    for (const auto& a : s.artifacts) {
      if (a.find(".src") != std::string::npos && a.ends_with(".src")) continue;
      if (on) {
        allowed_.insert(a);
        // NAME-EPOCH:VERSION-RELEASE.ARCH: the name is what precedes the second '-' from the end.
        auto dash = a.rfind('-');
        if (dash != std::string::npos) dash = a.rfind('-', dash - 1);
        if (dash != std::string::npos) active_names_.insert(a.substr(0, dash));
      }
      modular_.insert(a);
    }
  }
  for (const auto& a : allowed_) modular_.erase(a);
}

bool ModularFilter::hides(const PackageRecord& r) const {
  if (empty()) return false;
  // The record's version is [EPOCH:]VERSION-RELEASE; artifacts always write the epoch.
  std::string evr = r.version.find(':') == std::string::npos ? "0:" + r.version : r.version;
  const std::string nevra = r.name + "-" + evr + "." + r.arch;
  if (allowed_.count(nevra)) return false;
  if (modular_.count(nevra)) return true;  // a stream that is not active
  return active_names_.count(r.name) > 0;  // non-modular, shadowed by an active stream
}

}  // namespace extdeps::dnf
