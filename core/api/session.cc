// The public C++ API (core/include/extdeps/extdeps.h): a Session is a Context plus the questions
// the command line asks, put to the same engine (core/engine/engine.h), answered in plain structs.
#include <dlfcn.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "core/config/command_options.h"
#include "core/declare/declare.h"
#include "core/detect/host_json.h"
#include "core/engine/engine.h"
#include "core/env/collect.h"
#include "core/env/render.h"
#include "core/json/document.h"
#include "core/plan/render.h"
#include "extdeps/extdeps.h"

#ifndef EXTDEPS_RELATIVE_BINDIR
#define EXTDEPS_RELATIVE_BINDIR "../bin"
#endif

namespace extdeps::api {

namespace fs = std::filesystem;

namespace {

bool is_executable(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

// The extdeps program installed beside this library: <libdir>/<relative bindir>/extdeps. Only
// when the library is a shared object of its own (not linked into a program).
std::string program_beside_library() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&version), &info) == 0 || !info.dli_fname) return {};
  fs::path lib = info.dli_fname;
  if (lib.filename().string().find(".so") == std::string::npos) return {};
  std::error_code ec;
  fs::path dir = fs::canonical(lib, ec).parent_path();
  if (ec) return {};
  for (const fs::path& candidate : {dir / EXTDEPS_RELATIVE_BINDIR / "extdeps", dir / "extdeps"})
    if (is_executable(candidate.string())) return fs::weakly_canonical(candidate, ec).string();
  return {};
}

Context make_context(const SessionOptions& o) {
  Context ctx = Context::from_process();
  ctx.set_root(o.root);
  auto env = o.environment;
  bool inherit = o.inherit_environment;
  ctx.set_env([env, inherit](std::string_view name) -> std::optional<std::string> {
    auto it = env.find(std::string(name));
    if (it != env.end()) return it->second;
    if (!inherit) return std::nullopt;
    const char* v = std::getenv(std::string(name).c_str());
    return v ? std::optional<std::string>(v) : std::nullopt;
  });
  // A library never prints, asks or installs: warnings are collected, questions have no one to
  // answer them.
  ctx.set_warning_sink(nullptr);
  ctx.set_input(nullptr);
  std::string cache = o.cache_dir;
  if (cache.empty()) {
    if (auto x = ctx.env("XDG_CACHE_HOME"); x && !x->empty()) cache = *x + "/extdeps";
    else if (auto h = ctx.env("HOME"); h && !h->empty()) cache = *h + "/.cache/extdeps";
  }
  ctx.set_cache_dir(cache);
  std::string program = o.program;
  if (program.empty())
    if (auto b = ctx.env("EXTDEPS_BIN"); b && !b->empty()) program = *b;
  if (program.empty()) program = program_beside_library();
  ctx.set_self_exe(program);
  return ctx;
}

engine::Request request_of(const std::string& path, const Options& o) {
  engine::Request r;
  r.path = path.empty() ? "." : path;
  config::copy_library_options(o, r);
  return r;
}

Need need_of(const Requirement& r) {
  Need n;
  n.id = r.url.id();
  n.spec = r.spec;
  n.category = std::string(category_name(r.category));
  n.range = r.range.str();
  n.group = r.group.value_or("");
  n.marker = r.marker;
  n.where = r.where.str();
  return n;
}

Status status_of(plan::Status s) {
  switch (s) {
    case plan::Status::satisfied: return Status::satisfied;
    case plan::Status::planned: return Status::planned;
    case plan::Status::unsatisfiable: return Status::unsatisfiable;
    case plan::Status::unmapped: return Status::unmapped;
  }
  return Status::unsatisfiable;
}

NeedOutcome outcome_of(const plan::RequirementOutcome& r) {
  NeedOutcome o;
  o.need = need_of(r.requirement);
  o.status = status_of(r.status);
  for (const auto& p : r.packages)
    o.packages.push_back({p.manager, p.ecosystem, p.name, p.version, p.installed, p.where});
  o.message = r.message;
  o.candidates = r.candidates;
  return o;
}

std::string sudo_for(const Context& ctx) { return ctx.is_root() ? "" : "sudo"; }

std::vector<Step> steps_of(const Context& ctx, const plan::Outcome& outcome) {
  std::vector<Step> out;
  for (const auto& s : outcome.steps)
    out.push_back({s.manager, s.command, s.requires_elevation, plan::shell_line(plan::command_line(s, sudo_for(ctx)))});
  return out;
}

enum class TextStyle { resolve, check };

Report report_of(const Context& ctx, const engine::Planned& p, TextStyle style) {
  Report r;
  r.declaration = p.declaration_path;
  r.host = p.host_text;
  for (const auto& o : p.outcome.requirements) r.needs.push_back(outcome_of(o));
  r.steps = steps_of(ctx, p.outcome);
  for (const auto& x : p.outcome.removals) r.removals.push_back({x.manager, x.name, x.version, x.reason});
  for (const auto& pr : p.outcome.problems) r.problems.push_back(pr.message);
  r.warnings = p.outcome.warnings;
  r.plan_found = p.outcome.ok();
  r.all_satisfied = env::all_satisfied(p.outcome);
  auto j = plan::to_json(p.outcome);
  j["declaration"] = p.declaration_path;
  j["satisfied"] = r.all_satisfied;
  r.json = extdeps::json::dump(j, 2);
  std::ostringstream text;
  plan::TextOptions t;
  t.sudo = sudo_for(ctx);
  if (style == TextStyle::check && r.all_satisfied) {
    text << "ok: every need of " << p.declaration_path << " is met (" << p.outcome.requirements.size() << " checked)\n";
  } else if (style == TextStyle::check) {
    text << plan::missing_text(p.outcome, p.declaration_path, sudo_for(ctx));
  } else {
    text << "extdeps: " << p.declaration_path << " on " << p.host_text << "\n\n";
    plan::print_text(p.outcome, t, text);
  }
  r.text = text.str();
  return r;
}

// Every call: no exception leaves the library.
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    return error_at(ExitCode::environment, "", std::string("internal error: ") + e.what());
  } catch (...) {
    return error_at(ExitCode::environment, "", "internal error");
  }
}

}  // namespace

const char* version() { return EXTDEPS_VERSION; }

std::string Environment::sh() const { return env::render_sh(variables); }
std::string Environment::cmake() const { return env::render_cmake(variables); }

struct Session::Impl {
  explicit Impl(const SessionOptions& o) : ctx(make_context(o)) {}
  Context ctx;
};

Session::Session(SessionOptions options) : impl_(std::make_unique<Impl>(options)) {}
Session::~Session() = default;
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;

std::vector<std::string> Session::warnings() const { return impl_->ctx.warnings(); }

Result<Declaration> Session::load(const std::string& path) const {
  return guarded([&]() -> Result<Declaration> {
    auto file = declare::find_declaration(path.empty() ? "." : path);
    if (!file.ok()) return file.error();
    auto decl = declare::read_declaration(impl_->ctx, *file);
    if (!decl.ok()) return decl.error();
    Declaration d;
    d.path = decl->path;
    nlohmann::json needs = nlohmann::json::array();
    for (const auto& r : decl->requirements) {
      Need n = need_of(r);
      nlohmann::json j{
          {"id", n.id}, {"spec", n.spec}, {"category", n.category}, {"range", n.range}, {"where", n.where}};
      if (!n.group.empty()) j["group"] = n.group;
      if (!n.marker.empty()) j["marker"] = n.marker;
      needs.push_back(std::move(j));
      d.needs.push_back(std::move(n));
    }
    d.optional_groups = decl->optional_groups;
    d.dependency_groups = decl->dependency_groups;
    d.json = extdeps::json::dump(nlohmann::json{{"path", d.path},
                                                {"needs", needs},
                                                {"optional_groups", d.optional_groups},
                                                {"dependency_groups", d.dependency_groups}},
                                 2);
    return d;
  });
}

Result<Report> Session::resolve(const std::string& path, const Options& options) {
  return guarded([&]() -> Result<Report> {
    auto p = engine::plan(impl_->ctx, request_of(path, options));
    if (!p.ok()) return p.error();
    return report_of(impl_->ctx, *p, TextStyle::resolve);
  });
}

Result<Report> Session::check(const std::string& path, const Options& options) {
  return guarded([&]() -> Result<Report> {
    auto request = request_of(path, options);
    request.audit_python = !options.python.empty();
    auto p = engine::plan(impl_->ctx, request);
    if (!p.ok()) return p.error();
    return report_of(impl_->ctx, *p, TextStyle::check);
  });
}

Result<Host> Session::detect(bool refresh) {
  return guarded([&]() -> Result<Host> {
    detect::DetectOptions o;
    o.refresh = refresh;
    auto facts = detect::detect_host(impl_->ctx, o);
    if (!facts.ok()) return facts.error();
    Host h;
    h.os = facts->os.pretty_name.empty() ? facts->os.id : facts->os.pretty_name;
    h.arch = detect::system_arch(*facts);
    h.machine = facts->machine;
    h.kernel = facts->kernel;
    h.libc = facts->libc;
    h.libc_version = facts->libc_version;
    h.x86_64_level = facts->x86_64_level;
    for (const auto& c : facts->compilers) h.compilers.push_back({c.name, c.path, c.version});
    h.cuda_state = std::string(detect::cuda_state_name(facts->cuda.state));
    h.cuda_version = facts->cuda.cuda_version;
    h.gpus = static_cast<int>(facts->cuda.devices.size());
    h.json = extdeps::json::dump(detect::to_json(*facts), 2);
    return h;
  });
}

Result<Environment> Session::env(const std::string& path, const Options& options) {
  return guarded([&]() -> Result<Environment> {
    auto p = engine::plan(impl_->ctx, request_of(path, options));
    if (!p.ok()) return p.error();
    Environment e;
    e.declaration = p->declaration_path;
    e.satisfied = env::all_satisfied(p->outcome);
    e.variables = env::collect(impl_->ctx, p->outcome, p->sources->providers, &p->host);
    for (const auto& r : p->outcome.requirements)
      if (r.status != plan::Status::satisfied) e.missing.push_back(outcome_of(r));
    e.steps = steps_of(impl_->ctx, p->outcome);
    if (!e.satisfied) e.explanation = plan::missing_text(p->outcome, p->declaration_path, sudo_for(impl_->ctx));
    e.json =
        extdeps::json::dump(env::report_json(p->outcome, p->declaration_path, e.variables, sudo_for(impl_->ctx)), 2);
    return e;
  });
}

}  // namespace extdeps::api
