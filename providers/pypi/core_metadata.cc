#include "providers/pypi/core_metadata.h"

#include <cctype>

#include "core/util/text.h"

namespace extdeps::pypi {

namespace {

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; }

}  // namespace

Result<CoreMetadata> parse_core_metadata(std::string_view text, const std::string& where) {
  CoreMetadata m;
  std::string key, value;
  int line_no = 0;
  auto flush = [&] {
    if (key.empty()) return;
    std::string k = to_lower(key);
    std::string v(trim(value));
    if (k == "name") m.name = v;
    else if (k == "version") m.version = v;
    else if (k == "requires-python") m.requires_python = v;
    else if (k == "requires-dist") m.requires_dist.push_back(v);
    key.clear();
    value.clear();
  };
  while (!text.empty()) {
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;  // the description follows
    if (line.front() == ' ' || line.front() == '\t') {
      if (key.empty())
        return error_at(ExitCode::environment, where + ":" + std::to_string(line_no),
                        "a continuation line before any field", "'Key: value'");
      value += ' ';
      value += trim(line);
      continue;
    }
    flush();
    auto colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0)
      return error_at(ExitCode::environment, where + ":" + std::to_string(line_no),
                      "'" + std::string(line.substr(0, 60)) + "' is not a metadata field", "'Key: value'");
    key = line.substr(0, colon);
    value = line.substr(colon + 1);
  }
  flush();
  if (m.name.empty() || m.version.empty())
    return error_at(ExitCode::environment, where, "no " + std::string(m.name.empty() ? "Name" : "Version") + " field",
                    "core metadata with Name and Version");
  return m;
}

Result<PyRequirement> parse_requirement(std::string_view text) {
  PyRequirement r;
  std::string_view s = trim(text);
  auto semi = s.find(';');
  if (semi != std::string_view::npos) {
    r.marker = std::string(trim(s.substr(semi + 1)));
    s = trim(s.substr(0, semi));
  }
  size_t i = 0;
  while (i < s.size() && name_char(s[i])) ++i;
  if (i == 0 || !std::isalnum(static_cast<unsigned char>(s[0])))
    return error_at(ExitCode::bad_input, "'" + std::string(text) + "'", "expected a distribution name first");
  r.name = normalize_name(s.substr(0, i));
  std::string_view rest = trim(s.substr(i));
  if (!rest.empty() && rest.front() == '[') {
    auto close = rest.find(']');
    if (close == std::string_view::npos)
      return error_at(ExitCode::bad_input, "'" + std::string(text) + "'", "'[' without ']'");
    std::string_view extras = rest.substr(1, close - 1);
    while (!extras.empty()) {
      auto comma = extras.find(',');
      auto e = trim(extras.substr(0, comma));
      if (!e.empty()) r.extras.push_back(normalize_name(e));
      if (comma == std::string_view::npos) break;
      extras.remove_prefix(comma + 1);
    }
    rest = trim(rest.substr(close + 1));
  }
  if (!rest.empty() && rest.front() == '@') return r;  // a direct reference: any version
  if (!rest.empty() && rest.front() == '(') {
    if (rest.back() != ')') return error_at(ExitCode::bad_input, "'" + std::string(text) + "'", "'(' without ')'");
    rest = trim(rest.substr(1, rest.size() - 2));
  }
  std::string spec;
  for (char c : rest)
    if (!std::isspace(static_cast<unsigned char>(c))) spec += c;
  if (!spec.empty()) {
    if (auto parsed = declare::parse_range(spec); !parsed) {
      Error e = at_place(parsed.error(), "'" + std::string(text) + "'");
      e.code = ExitCode::bad_input;
      return e;
    }
  }
  r.specifier = spec;
  return r;
}

std::vector<PyRequirement> active_requirements(const std::vector<std::string>& requires_dist,
                                               const declare::MarkerEnv& env, int* skipped) {
  std::vector<PyRequirement> out;
  declare::MarkerEnv e = env;
  e["extra"] = "";
  for (const auto& line : requires_dist) {
    auto r = parse_requirement(line);
    if (!r) {
      if (skipped) ++*skipped;
      continue;
    }
    if (!r->marker.empty()) {
      auto holds = declare::evaluate_marker(r->marker, e);
      if (!holds) {
        if (skipped) ++*skipped;
        continue;
      }
      if (!*holds) continue;
    }
    out.push_back(std::move(*r));
  }
  return out;
}

}  // namespace extdeps::pypi
