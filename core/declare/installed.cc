// Reads the Requires-External-Dep fields of the distributions a Python interpreter has installed.
#include "core/declare/installed.h"
#include "core/json/document.h"

#include <nlohmann/json.hpp>

#include "core/declare/declare.h"
#include "core/detect/process.h"

namespace extdeps::declare {

namespace {

// Run by the interpreter: one JSON list, distributions sorted by name. Python 3.8+.
constexpr const char* kScript = R"PY(
import json, importlib.metadata as m
out = []
for d in m.distributions():
    reqs = d.metadata.get_all("Requires-External-Dep") or []
    if reqs:
        out.append({"name": d.metadata["Name"] or "", "version": d.version or "", "requires": list(reqs)})
out.sort(key=lambda e: e["name"].lower())
print(json.dumps(out))
)PY";

bool names_an_extra(const std::string& marker) { return marker.find("extra") != std::string::npos; }

}  // namespace

Result<std::vector<Requirement>> external_needs_from_json(std::string_view text) {
  auto j = json::parse_or_discarded(text);
  if (j.is_discarded() || !j.is_array())
    return error_at(ExitCode::environment, "", "the interpreter did not list its distributions as expected");
  std::vector<Requirement> out;
  try {
    for (const auto& d : j) {
      std::string where = d.at("name").get<std::string>() + " " + d.at("version").get<std::string>() + " (METADATA)";
      for (const auto& spec : d.at("requires")) {
        const std::string s = spec.get<std::string>();
        auto r = parse_requirement(s);
        if (!r.ok()) {
          Error e = at_place(r.error(), where + ": Requires-External-Dep: " + s);
          e.code = ExitCode::bad_input;
          return e;
        }
        if (names_an_extra(r->marker)) continue;
        r->category = Category::run;
        r->spec = s;
        r->where = SourceSpan{where, 0, 0};
        out.push_back(std::move(*r));
      }
    }
  } catch (const nlohmann::json::exception& e) {
    return error_at(ExitCode::environment, "",
                    std::string("the interpreter's list of distributions is malformed: ") + e.what());
  }
  return out;
}

Result<std::vector<Requirement>> installed_external_needs(const Context& ctx, const std::string& python) {
  std::string program = python;
  if (program.find('/') == std::string::npos) program = detect::find_on_path(ctx, python);
  if (program.empty()) return error_at(ExitCode::environment, "", "python interpreter '" + python + "' is not on PATH");
  auto ran = detect::run_capture(ctx, {program, "-I", "-c", kScript}, 30000, std::size_t{64} << 20);
  if (!ran.ok())
    return error_at(ExitCode::environment, "",
                    "cannot ask " + python + " for its distributions: " + ran.error().message);
  if (ran->exit_status != 0) {
    // "python3 could not list ...": the interpreter is the place, as a plugin's name is.
    Error e = environment_error(python + " could not list its distributions (exit status " +
                                std::to_string(ran->exit_status) + ")");
    e.place = python;
    e.what = "could not list its distributions (exit status " + std::to_string(ran->exit_status) + ")";
    return e;
  }
  return external_needs_from_json(ran->out);
}

}  // namespace extdeps::declare
