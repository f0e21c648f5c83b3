// The C API (core/include/extdeps/extdeps_c.h) over the C++ Session: handles own their strings,
// and nothing unwinds into C.
#include <new>
#include <optional>
#include <string>

#include "core/config/command_options.h"
#include "core/provider/descriptor.h"
#include "core/util/text.h"
#include "extdeps/extdeps.h"
#include "extdeps/extdeps_c.h"

struct extdeps_session {
  extdeps::api::SessionOptions session_options;
  extdeps::api::Options options;
  std::optional<extdeps::api::Session> session;  // made on first use, again after a session option
  std::string error;
  bool has_error = false;

  extdeps::api::Session& get() {
    if (!session) session.emplace(session_options);
    return *session;
  }
};

struct extdeps_result {
  int code = 0;
  std::optional<std::string> error, json, text, sh, cmake;
};

namespace {

const extdeps::ProviderOption* provider_option(const std::string& key) {
  const extdeps::ProviderOption* option = nullptr;
  return extdeps::descriptor_for_option(key, &option) ? option : nullptr;
}

// A provider's option: its values, split at ',' where it is a list.
void set_provider_option(extdeps_session* s, const std::string& key, const extdeps::ProviderOption& p,
                         std::string_view value) {
  auto& values = s->options.provider_options[key];
  if (!p.list) {
    values = {std::string(value)};
    return;
  }
  extdeps::append_split(value, ',', values);
}

// The keys are the rows of the table of command options that name a library field
// (core/config/command_options.cc), then the providers' options; no key is dispatched here.
int set_option(extdeps_session* s, const std::string& key, const char* value) {
  const std::string_view v = value ? value : "";
  if (const extdeps::config::CommandOption* row = extdeps::config::library_option(key)) {
    bool session_changed = false;
    s->error = extdeps::config::set_library_option(*row, v, s->options, s->session_options, session_changed);
    if (session_changed) s->session.reset();
    return s->error.empty() ? 0 : 2;
  }
  if (const extdeps::ProviderOption* p = provider_option(key)) {
    set_provider_option(s, key, *p, v);
    return 0;
  }
  std::string known;
  for (const auto& c : extdeps::config::command_options())
    if (c.library.any()) known += (known.empty() ? "" : ", ") + std::string(c.name);
  for (const auto* d : extdeps::provider_descriptors())
    for (const auto& p : d->options) known += ", " + std::string(p.name);
  s->error = "unknown option '" + key + "' (known: " + known + ")";
  return 2;
}

// Runs `fill` into a new result; the result's code is returned and the result handed over.
template <class F>
int run(extdeps_result** out, F&& fill) {
  extdeps_result* r = new (std::nothrow) extdeps_result;
  if (!r) {
    if (out) *out = nullptr;
    return 3;
  }
  try {
    fill(*r);
  } catch (const std::exception& e) {
    r->code = 3;
    r->error = std::string("internal error: ") + e.what();
  } catch (...) {
    r->code = 3;
    r->error = "internal error";
  }
  int code = r->code;
  if (out) *out = r;
  else delete r;
  return code;
}

void fail(extdeps_result& r, const extdeps::Error& e) {
  r.code = static_cast<int>(e.code);
  r.error = e.message;
}

const char* c_str(const std::optional<std::string>& s) { return s ? s->c_str() : nullptr; }

}  // namespace

extern "C" {

const char* extdeps_version(void) { return extdeps::api::version(); }

extdeps_session* extdeps_session_new(void) { return new (std::nothrow) extdeps_session; }

void extdeps_session_free(extdeps_session* session) { delete session; }

int extdeps_session_set(extdeps_session* session, const char* key, const char* value) {
  if (!session) return 2;
  session->has_error = false;
  try {
    int rc = set_option(session, key ? key : "", value);
    session->has_error = rc != 0;
    return rc;
  } catch (...) {
    session->error = "out of memory";
    session->has_error = true;
    return 3;
  }
}

const char* extdeps_session_error(const extdeps_session* session) {
  return session && session->has_error ? session->error.c_str() : nullptr;
}

int extdeps_load(extdeps_session* session, const char* path, extdeps_result** out) {
  return run(out, [&](extdeps_result& r) {
    if (!session) return fail(r, extdeps::error_at(extdeps::ExitCode::bad_input, "", "no session"));
    auto d = session->get().load(path ? path : ".");
    if (!d.ok()) return fail(r, d.error());
    r.json = d->json;
  });
}

int extdeps_resolve(extdeps_session* session, const char* path, extdeps_result** out) {
  return run(out, [&](extdeps_result& r) {
    if (!session) return fail(r, extdeps::error_at(extdeps::ExitCode::bad_input, "", "no session"));
    auto rep = session->get().resolve(path ? path : ".", session->options);
    if (!rep.ok()) return fail(r, rep.error());
    r.code = rep->plan_found ? 0 : 1;
    r.json = rep->json;
    r.text = rep->text;
  });
}

int extdeps_check(extdeps_session* session, const char* path, extdeps_result** out) {
  return run(out, [&](extdeps_result& r) {
    if (!session) return fail(r, extdeps::error_at(extdeps::ExitCode::bad_input, "", "no session"));
    auto rep = session->get().check(path ? path : ".", session->options);
    if (!rep.ok()) return fail(r, rep.error());
    r.code = rep->all_satisfied ? 0 : 1;
    r.json = rep->json;
    r.text = rep->text;
  });
}

int extdeps_env(extdeps_session* session, const char* path, extdeps_result** out) {
  return run(out, [&](extdeps_result& r) {
    if (!session) return fail(r, extdeps::error_at(extdeps::ExitCode::bad_input, "", "no session"));
    auto e = session->get().env(path ? path : ".", session->options);
    if (!e.ok()) return fail(r, e.error());
    r.code = e->satisfied ? 0 : 1;
    r.json = e->json;
    if (!e->explanation.empty()) r.text = e->explanation;
    r.sh = e->sh();
    r.cmake = e->cmake();
  });
}

int extdeps_detect(extdeps_session* session, extdeps_result** out) {
  return run(out, [&](extdeps_result& r) {
    if (!session) return fail(r, extdeps::error_at(extdeps::ExitCode::bad_input, "", "no session"));
    auto h = session->get().detect(false);
    if (!h.ok()) return fail(r, h.error());
    r.json = h->json;
  });
}

int extdeps_result_code(const extdeps_result* result) { return result ? result->code : 3; }
const char* extdeps_result_error(const extdeps_result* result) { return result ? c_str(result->error) : nullptr; }
const char* extdeps_result_json(const extdeps_result* result) { return result ? c_str(result->json) : nullptr; }
const char* extdeps_result_text(const extdeps_result* result) { return result ? c_str(result->text) : nullptr; }

const char* extdeps_result_env(const extdeps_result* result, const char* format) {
  if (!result || !format || !result->sh) return nullptr;
  std::string f = format;
  if (f == "sh") return c_str(result->sh);
  if (f == "cmake") return c_str(result->cmake);
  if (f == "json") return c_str(result->json);
  return nullptr;
}

void extdeps_result_free(extdeps_result* result) { delete result; }

}  // extern "C"
