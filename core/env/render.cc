#include "core/env/render.h"

#include <algorithm>

#include "core/plan/render.h"

namespace extdeps::env {

namespace {

bool plain(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("-_=.:/+,@%").find(c) != std::string_view::npos;
  });
}

// Names a shell and CMake accept as they are: a letter or '_', then letters, digits, '_'.
bool valid_name(std::string_view n) {
  if (n.empty() || std::isdigit(static_cast<unsigned char>(n.front()))) return false;
  return std::all_of(n.begin(), n.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// The CMake variable each search path also feeds.
std::string_view cmake_search_variable(std::string_view name) {
  if (name == "CMAKE_PREFIX_PATH") return "CMAKE_PREFIX_PATH";
  if (name == "CPATH") return "CMAKE_INCLUDE_PATH";
  if (name == "LIBRARY_PATH") return "CMAKE_LIBRARY_PATH";
  if (name == "PATH") return "CMAKE_PROGRAM_PATH";
  return {};
}

}  // namespace

std::string sh_quote(std::string_view text) {
  if (plain(text)) return std::string(text);
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

std::string cmake_quote(std::string_view text, CmakeValue kind) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '$': out += "\\$"; break;
      case ';': out += kind == CmakeValue::list_element ? "\\;" : ";"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  return out + "\"";
}

std::string render_sh(const BuildEnv& env) {
  std::string out;
  for (const auto& v : env.variables()) {
    if (!valid_name(v.name)) continue;
    if (v.path_list) {
      // The entries are quoted (no expansion in them); the old value is expanded inside double
      // quotes, so it stays one word too.
      out += "export " + v.name + "=" + sh_quote(v.joined()) + "\"${" + v.name + ":+:$" + v.name + "}\"\n";
    } else {
      out += "export " + v.name + "=" + sh_quote(v.value) + "\n";
    }
  }
  return out;
}

std::string render_cmake(const BuildEnv& env) {
  std::string out = "# written by extdeps env --format cmake\n";
  std::string names;
  for (const auto& v : env.variables())
    if (valid_name(v.name)) names += (names.empty() ? "" : ";") + v.name;
  out += "set(EXTDEPS_ENV_VARIABLES \"" + names + "\")\n";
  for (const auto& v : env.variables()) {
    if (!valid_name(v.name)) continue;
    if (!v.path_list) {
      out += "set(EXTDEPS_ENV_" + v.name + " " + cmake_quote(v.value) + ")\n";
      out += "set(ENV{" + v.name + "} " + cmake_quote(v.value) + ")\n";
      if (v.name == "CUDAToolkit_ROOT") out += "set(CUDAToolkit_ROOT " + cmake_quote(v.value) + ")\n";
      continue;
    }
    std::string items;
    for (const auto& e : v.entries) items += " " + cmake_quote(e, CmakeValue::list_element);
    out += "set(EXTDEPS_ENV_" + v.name + items + ")\n";
    // $ENV{X} is read when this line runs: what the configure step was started with, or what
    // an earlier include() set.
    std::string joined = cmake_quote(v.joined());
    joined.pop_back();
    out += "if(\"$ENV{" + v.name + "}\" STREQUAL \"\")\n  set(ENV{" + v.name + "} " + cmake_quote(v.joined()) +
           ")\nelse()\n  set(ENV{" + v.name + "} " + joined + ":$ENV{" + v.name + "}\")\nendif()\n";
    if (auto search = cmake_search_variable(v.name); !search.empty())
      out += "list(PREPEND " + std::string(search) + items + ")\n";
  }
  return out;
}

nlohmann::json to_json(const BuildEnv& env) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& v : env.variables()) {
    nlohmann::json j{{"name", v.name}, {"kind", v.path_list ? "path-list" : "value"}};
    if (v.path_list) j["entries"] = v.entries;
    else j["value"] = v.value;
    j["needs"] = v.needs;
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json report_json(const plan::Outcome& o, const std::string& declaration, const BuildEnv& env,
                           const std::string& sudo) {
  nlohmann::json j;
  j["declaration"] = declaration;
  j["satisfied"] = std::all_of(o.requirements.begin(), o.requirements.end(),
                               [](const auto& r) { return r.status == plan::Status::satisfied; });
  j["variables"] = to_json(env);
  auto plan = plan::to_json(o);
  nlohmann::json missing = nlohmann::json::array();
  for (const auto& r : plan["requirements"])
    if (r["status"] != "satisfied") missing.push_back(r);
  j["missing"] = std::move(missing);
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : o.steps) {
    auto argv = plan::command_line(s, sudo);
    steps.push_back({{"manager", s.manager},
                     {"command", argv},
                     {"line", plan::shell_line(argv)},
                     {"requires_elevation", s.requires_elevation}});
  }
  j["steps"] = std::move(steps);
  j["problems"] = plan["problems"];
  j["warnings"] = o.warnings;
  return j;
}

}  // namespace extdeps::env
