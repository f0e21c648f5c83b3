#include "core/cli/env_command.h"
#include "core/cli/fail.h"

#include <ostream>

#include "core/env/collect.h"
#include "core/env/render.h"
#include "core/json/document.h"
#include "core/plan/render.h"

namespace extdeps::cli {

namespace {
std::string sudo_for(const Context& ctx) { return ctx.is_root() ? "" : "sudo"; }
}  // namespace

int cmd_env(Context& ctx, const RunOptions& o, const std::string& format, std::ostream& out, std::ostream& err) {
  if (format != "sh" && format != "json" && format != "cmake") {
    err << "error: unknown format '" << format << "' (expected sh, json or cmake)\n";
    return 2;
  }
  auto p = engine::plan(ctx, request_of(o));
  if (!p.ok()) return fail(err, p.error(), format == "json" ? &out : nullptr);
  BuildEnv env = env::collect(ctx, p->outcome, p->sources->providers, &p->host);
  bool satisfied = env::all_satisfied(p->outcome);
  if (format == "json") {
    out << extdeps::json::dump(env::report_json(p->outcome, p->declaration_path, env, sudo_for(ctx)), 2) << '\n';
    return satisfied ? 0 : 1;
  }
  // What deserves a look although the needs are met (a toolkit built for without a driver).
  for (const auto& w : p->outcome.warnings) warn(err, w);
  if (format == "sh") {
    out << env::render_sh(env);
  } else {
    out << env::render_cmake(env);
    out << "set(EXTDEPS_DECLARATION " << env::cmake_quote(p->declaration_path) << ")\n";
    out << "set(EXTDEPS_SATISFIED " << (satisfied ? "TRUE" : "FALSE") << ")\n";
  }
  if (satisfied) return 0;
  err << plan::missing_text(p->outcome, p->declaration_path, sudo_for(ctx));
  return 1;
}

}  // namespace extdeps::cli
