// Modularity (RHEL 8/9 and their rebuilds' AppStream, EPEL 8): a repository's modules.yaml says
// which of its packages belong to which module stream; dnf offers a stream's packages only while
// the stream is active (enabled in /etc/dnf/modules.d, or the module's default stream while the
// module is neither enabled nor disabled), and hides the non-modular packages whose names an
// active stream ships ("modular filtering", libdnf's dnf_sack_filter_modules).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "core/util/regular_file.h"
#include "core/util/text.h"
#include "providers/dnf/dnf_provider.h"

namespace extdeps::dnf {

namespace fs = std::filesystem;

namespace {

std::string scalar(const YAML::Node& n, const char* key) {
  const YAML::Node v = n[key];
  return v && v.IsScalar() ? v.as<std::string>() : std::string();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// yaml-cpp 0.7 (Debian bookworm's) never returns, allocating without bound, on a ',' that
// starts no plain scalar outside [ ] and { }: "," alone, "--- ,", "&a ,", "&a," "'',", "- a\n,"
// (its parser loops on the flow-entry token). Found by tests/fuzz (dnf_primary, then dnf_modules,
// which found the shapes after a quote, an anchor, a tag and a NUL). No modules.yaml has one: so
// every such ',' is refused, with what YAML does not allow in a stream either (a control
// character, bytes that are not UTF-8). The place of the first (line and column, from 1; a byte
// order mark at a line's start is not counted), and what it is:
//  - a ',' outside quotes and flow collections at a line's start or after a blank, right after
//    a closing quote, or in an anchor, alias or tag (inside plain text, "a, b", it is text);
//  - a control character other than tab, CR and LF, or a byte that is not UTF-8.
// A block scalar's content ("key: |" and the lines indented under it) is text: a quote there
// opens nothing; a ',' at column 0 in a root block scalar ("--- |") is refused all the same.
struct NotYaml {
  std::size_t line = 0, column = 0;
  std::string what;
};

std::optional<NotYaml> unsafe_yaml(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  constexpr std::size_t kNoBlock = std::string_view::npos;
  std::size_t line = 1, depth = 0;
  char quote = 0;
  bool doc_start = true;  // at the root position of a document: nothing but "---" and properties yet
  std::size_t block = kNoBlock;  // in a block scalar: the indentation its content must pass (+1)
  for (std::size_t i = 0; i < text.size(); ++line) {
    const std::size_t eol = std::min(text.find('\n', i), text.size());
    std::string_view l = text.substr(i, eol - i);
    i = eol + 1;
    if (l.starts_with(kBom)) l.remove_prefix(kBom.size());
    for (std::size_t k = 0; k < l.size(); ++k) {
      const auto u = static_cast<unsigned char>(l[k]);
      if ((u < 0x20 && u != '\t' && u != '\r') || u == 0x7f)
        return NotYaml{line, k + 1, "a control character"};
      if (u >= 0x80) {
        const std::size_t n = utf8_valid_length(l.substr(k, 4));
        if (n == 0) return NotYaml{line, k + 1, "bytes that are not UTF-8"};
        k += (u & 0xe0) == 0xc0 ? 1 : (u & 0xf0) == 0xe0 ? 2 : 3;
      }
    }
    const bool marker = (l.starts_with("---") && (l.size() == 3 || l[3] == ' ' || l[3] == '\t')) ||
                        l.starts_with("...");
    if (block != kNoBlock) {
      const std::size_t indent = l.find_first_not_of(" \t");
      const bool content = indent == std::string_view::npos || (indent + 1 > block && !marker);
      if (content && !(block == 0 && indent == 0 && l[0] == ',')) continue;
      block = kNoBlock;
    }
    std::size_t root_at = std::string_view::npos;  // where this line's root node begins, if it does
    if (quote == 0 && depth == 0) {
      std::size_t at = 0;
      if (marker && l[0] == '-') {
        doc_start = true;
        at = 3;
      } else if (marker) {
        doc_start = true;
        at = l.size();
      }
      if (doc_start || at == 0) {
        // "--- &a !t ,": past the marker and the properties, a ',' is at the root position.
        while (at < l.size()) {
          while (at < l.size() && (l[at] == ' ' || l[at] == '\t')) ++at;
          if (doc_start && at < l.size() && (l[at] == '&' || l[at] == '!')) {
            while (at < l.size() && l[at] != ' ' && l[at] != '\t') {
              if (l[at] == ',') return NotYaml{line, at + 1, "a ',' where a document's node would begin"};
              ++at;
            }
            continue;
          }
          break;
        }
        if (at < l.size() && l[at] == ',' && (doc_start || at == 0))
          return NotYaml{line, at + 1, "a ',' where a document's node would begin"};
        if (doc_start) root_at = at;
        if (at < l.size() && l[at] != '#') doc_start = false;
      }
    }
    // Quotes and flow collections that span lines; '#' starts a comment at a blank or line start;
    // '|' or '>' with its indicators, last on a line outside quotes, starts a block scalar.
    bool token_start = true;
    bool after_quote = false;  // a quoted scalar just closed (blanks after it kept)
    bool property = false;     // in an anchor, alias or tag
    for (std::size_t k = 0; k < l.size(); ++k) {
      const char c = l[k];
      if (quote == '\'') {
        if (c == '\'') {
          if (k + 1 < l.size() && l[k + 1] == '\'') ++k;
          else quote = 0, after_quote = true;
        }
        continue;
      }
      if (quote == '"') {
        if (c == '\\') ++k;
        else if (c == '"') quote = 0, after_quote = true;
        continue;
      }
      if (c == '#' && token_start) break;
      if (depth == 0 && c == ',' && (k == 0 || l[k - 1] == ' ' || l[k - 1] == '\t' || after_quote || property))
        return NotYaml{line, k + 1, "a ',' where no plain text goes on"};
      if (token_start && depth == 0 && (c == '|' || c == '>')) {
        std::size_t end = l.find_first_not_of("0123456789+-", k + 1);
        end = end == std::string_view::npos ? l.size() : l.find_first_not_of(" \t", end);
        if (end == std::string_view::npos || end == l.size() || l[end] == '#') {
          block = k == root_at ? 0 : l.find_first_not_of(" \t") + 1;
          break;
        }
      }
      if (c != ' ' && c != '\t') after_quote = false;
      if (c == ' ' || c == '\t') property = false;
      else if (token_start && (c == '&' || c == '*' || c == '!')) property = true;
      if (token_start && (c == '\'' || c == '"')) quote = c;
      else if ((token_start || depth > 0) && (c == '[' || c == '{')) ++depth;
      else if (depth > 0 && (c == ']' || c == '}')) --depth;
      token_start = c == ' ' || c == '\t' || c == '-' || c == ':' || c == '?' || (depth > 0 && c == ',') ||
                    c == '[' || c == '{';
    }
  }
  return std::nullopt;
}

}  // namespace

Result<void> read_modules(std::string_view yaml, const std::string& name, ModuleIndex& into) {
  std::vector<YAML::Node> docs;
  if (auto bad = unsafe_yaml(yaml))
    return error_at(ExitCode::environment, name + ":" + std::to_string(bad->line) + ":" + std::to_string(bad->column),
                    "not YAML: " + bad->what, "modulemd documents, as modifyrepo_c adds them");
  try {
    docs = YAML::LoadAll(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return error_at(ExitCode::environment, name + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1),
                    "not YAML: " + e.msg, "modulemd documents, as modifyrepo_c adds them");
  }
  try {
    for (const auto& d : docs) {
      if (!d.IsMap()) continue;
      const std::string kind = scalar(d, "document");
      const YAML::Node data = d["data"];
      if (!data || !data.IsMap()) continue;
      if (kind == "modulemd") {
        ModuleStream s;
        s.name = scalar(data, "name");
        s.stream = scalar(data, "stream");
        if (s.name.empty() || s.stream.empty()) continue;
        const YAML::Node rpms = data["artifacts"] ? data["artifacts"]["rpms"] : YAML::Node();
        if (rpms && rpms.IsSequence())
          for (const auto& r : rpms)
            if (r.IsScalar()) s.artifacts.push_back(r.as<std::string>());
        into.streams.push_back(std::move(s));
      } else if (kind == "modulemd-defaults") {
        const std::string module = scalar(data, "module"), stream = scalar(data, "stream");
        if (!module.empty() && !stream.empty()) into.defaults[module] = stream;
      }
    }
  } catch (const YAML::Exception& e) {
    return error_at(ExitCode::environment, name, "a modulemd document that cannot be read: " + e.msg);
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
  if (modular_.count(nevra)) return true;           // a stream that is not active
  return active_names_.count(r.name) > 0;            // non-modular, shadowed by an active stream
}

}  // namespace extdeps::dnf
