#include "core/cli/env_command.h"

#include <ostream>
#include <sstream>

#include "core/env/collect.h"
#include "core/env/render.h"
#include "core/json/document.h"
#include "core/plan/render.h"

namespace extdeps::cli {

nlohmann::json env_json(const Context& ctx, const Prepared& p, const BuildEnv& env) {
  nlohmann::json j;
  j["declaration"] = p.declaration_path;
  j["satisfied"] = env::all_satisfied(p.outcome);
  j["variables"] = env::to_json(env);
  auto plan = plan::to_json(p.outcome);
  nlohmann::json missing = nlohmann::json::array();
  for (const auto& r : plan["requirements"])
    if (r["status"] != "satisfied") missing.push_back(r);
  j["missing"] = std::move(missing);
  // The commands as a person would type them: through sudo when not root and needed.
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : p.outcome.steps) {
    std::vector<std::string> argv;
    if (s.requires_elevation && !ctx.is_root()) argv.push_back("sudo");
    argv.insert(argv.end(), s.command.begin(), s.command.end());
    steps.push_back({{"manager", s.manager}, {"command", argv}, {"line", plan::shell_line(argv)},
                     {"requires_elevation", s.requires_elevation}});
  }
  j["steps"] = std::move(steps);
  j["problems"] = plan["problems"];
  j["warnings"] = p.outcome.warnings;
  return j;
}

std::string missing_text(const Context& ctx, const Prepared& p) {
  size_t missing = 0;
  for (const auto& r : p.outcome.requirements)
    if (r.status != plan::Status::satisfied) ++missing;
  std::ostringstream out;
  out << "error: " << missing << " of " << p.outcome.requirements.size() << " needs of "
      << p.declaration_path << " are not met; a build would not find them\n\n";
  plan::TextOptions t;
  t.show_satisfied = false;
  t.sudo = ctx.is_root() ? "" : "sudo";
  plan::print_text(p.outcome, t, out);
  return out.str();
}

int cmd_env(Context& ctx, const RunOptions& o, const std::string& format, std::ostream& out,
            std::ostream& err) {
  if (format != "sh" && format != "json" && format != "cmake") {
    err << "error: unknown format '" << format << "' (expected sh, json or cmake)\n";
    return 2;
  }
  auto p = prepare(ctx, o);
  if (!p.ok()) {
    err << "error: " << p.error().message << '\n';
    return static_cast<int>(p.error().code);
  }
  BuildEnv env = env::collect(ctx, p->outcome, p->sources->providers, &p->host);
  bool satisfied = env::all_satisfied(p->outcome);
  if (format == "json") {
    out << extdeps::json::dump(env_json(ctx, *p, env), 2) << '\n';
    return satisfied ? 0 : 1;
  }
  // What deserves a look although the needs are met (a toolkit built for without a driver).
  for (const auto& w : p->outcome.warnings) err << "warning: " << w << '\n';
  if (format == "sh") {
    out << env::render_sh(env);
  } else {
    out << env::render_cmake(env);
    out << "set(EXTDEPS_DECLARATION " << env::cmake_quote(p->declaration_path) << ")\n";
    out << "set(EXTDEPS_SATISFIED " << (satisfied ? "TRUE" : "FALSE") << ")\n";
  }
  if (satisfied) return 0;
  err << missing_text(ctx, *p);
  return 1;
}

}  // namespace extdeps::cli
