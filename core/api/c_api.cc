// The C API (core/include/extdeps/extdeps_c.h) over the C++ Session: handles own their strings,
// and nothing unwinds into C.
#include <new>
#include <optional>
#include <string>

#include "core/config/command_options.h"
#include "core/provider/descriptor.h"
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

void split_into(const char* value, std::vector<std::string>& list) {
  std::string v = value ? value : "";
  size_t start = 0;
  while (start <= v.size()) {
    size_t comma = v.find(',', start);
    std::string item = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) list.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

std::optional<bool> flag(const char* value) {
  std::string v = value ? value : "";
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off" || v.empty()) return false;
  return std::nullopt;
}

const extdeps::ProviderOption* provider_option(const std::string& key) {
  const extdeps::ProviderOption* option = nullptr;
  return extdeps::descriptor_for_option(key, &option) ? option : nullptr;
}

int set_option(extdeps_session* s, const std::string& key, const char* value) {
  auto& o = s->options;
  auto& so = s->session_options;
  std::string v = value ? value : "";
  auto boolean = [&](bool& target) {
    auto b = flag(value);
    if (!b) {
      s->error = "option '" + key + "' takes 1 or 0, not '" + v + "'";
      return 2;
    }
    target = *b;
    return 0;
  };
  if (key == "manager") split_into(value, o.managers);
  else if (key == "category") split_into(value, o.categories);
  else if (key == "optional") split_into(value, o.optional_groups);
  else if (key == "mapping-dir") o.mapping_dirs.push_back(v);
  else if (key == "python") o.python = v;
  else if (key == "host") o.host_file = v;
  else if (key == "system") o.system = v;
  else if (const extdeps::ProviderOption* p = provider_option(key)) {
    if (p->list) split_into(value, o.provider_options[key]);
    else o.provider_options[key] = {v};
  } else if (key == "all-optional") return boolean(o.all_optional);
  else if (key == "offline") return boolean(o.offline);
  else if (key == "no-cache") {
    bool no_cache = false;
    if (int rc = boolean(no_cache); rc != 0) return rc;
    o.use_cache = !no_cache;
  } else if (key == "cache-dir" || key == "root" || key == "program" || key == "env") {
    if (key == "cache-dir") so.cache_dir = v;
    else if (key == "root") so.root = v;
    else if (key == "program") so.program = v;
    else {
      size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0) {
        s->error = "option 'env' takes NAME=VALUE, not '" + v + "'";
        return 2;
      }
      so.environment[v.substr(0, eq)] = v.substr(eq + 1);
    }
    s->session.reset();
  } else if (key == "reset") {
    s->options = {};
    s->session_options = {};
    s->session.reset();
  } else {
    // The keys: the command options the table marks for the library, the providers' options,
    // then the library's own.
    std::string known;
    for (const auto& c : extdeps::config::command_options())
      if (c.library) known += std::string(c.name) + ", ";
    for (const auto* d : extdeps::provider_descriptors())
      for (const auto& p : d->options) known += std::string(p.name) + ", ";
    s->error = "unknown option '" + key + "' (known: " + known + "program, env, reset)";
    return 2;
  }
  return 0;
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
