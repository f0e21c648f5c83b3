#include "core/plugin/plugin.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

#include "core/config/command_options.h"
#include "core/config/values.h"
#include "core/json/document.h"
#include "core/provider/provider.h"
#include "core/util/limits.h"
#include "core/util/printable.h"
#include "core/util/regular_file.h"
#include "core/util/sealed_file.h"
#include "core/util/subprocess.h"
#include "core/util/text.h"
#include "core/version/version.h"

namespace extdeps::plugin {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
namespace js = extdeps::json;

constexpr std::size_t kMaxAnswer = limits::kMaxPluginAnswer;
constexpr std::size_t kMaxAnswerLine = limits::kMaxPluginAnswerLine;
// The core options a plugin's option may not be named after.
// Every option name a command of the CLI defines (core/cli/cli.cc): a plugin's option of the same
// name would be a second definition. (The CLI also skips any provider option that its command
// already has, so a name missing here cannot abort it.)
// Strings the descriptors of plugins point into; they live as long as the process.
std::string_view keep(std::string text) {
  static std::mutex mutex;
  static std::deque<std::string> kept;
  std::lock_guard lock(mutex);
  kept.push_back(std::move(text));
  return kept.back();
}

std::string program_name(const std::string& path) { return fs::path(path).filename().string(); }

// "plugin x (/p/x): line 3 of its answer to load": where in a plugin's answer an error is.
std::string answer_line(const std::string& path, std::size_t number, std::string_view method) {
  return who(path) + ": line " + std::to_string(number) + " of its answer to " + std::string(method);
}

bool is_word(std::string_view s, bool upper) {
  if (s.empty() || s.size() > 64) return false;
  return std::all_of(s.begin(), s.end(), [upper](char c) {
    if (upper) return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

// "120", "0.5"
std::string seconds_text(int ms) {
  std::string s = std::to_string(ms / 1000);
  if (ms % 1000) {
    std::string frac = std::to_string(1000 + ms % 1000).substr(1);
    while (frac.back() == '0') frac.pop_back();
    s += "." + frac;
  }
  return s;
}

// One request, its answer line by line: each line a JSON object with a "type"; "error" ends it
// as an error naming the plugin. `on_message` returns an error to stop.
Result<void> call(const Context& ctx, const std::string& path, std::string_view method, const Json& params,
                  const std::function<Result<void>(const Json&)>& on_message) {
  Json request{{"protocol", kProtocol}, {"method", method}, {"params", params}};
  std::string line = js::dump(request, -1) + "\n";
  std::optional<Error> failed;
  std::size_t number = 0;
  const int limit = timeout_ms(ctx);
  ProcessRequest run;
  run.argv = {path};
  run.input = line;
  run.timeout_ms = limit;
  run.max_output = kMaxAnswer;
  run.max_line = kMaxAnswerLine;
  run.on_line = [&](std::string_view text) {
    ++number;
    if (text.find_first_not_of(" \t\r") == std::string_view::npos) return true;
    Json message;
    if (auto bad = js::parse_document(text, message)) {
      const std::string place = answer_line(path, number, method);
      const std::string what = "is not JSON (" + bad->what + " at byte " + std::to_string(bad->offset) + "): '" +
                               printable_text(text.substr(0, 80)) + "'";
      failed = worded(ExitCode::environment, place + " " + what, place, what, "a JSON object with a \"type\"");
      return false;
    }
    auto type = message.is_object() ? js::string_at(message, "type") : std::nullopt;
    if (!type) {
      const std::string place = answer_line(path, number, method);
      const std::string what = "is not an object with a \"type\"";
      failed = worded(ExitCode::environment, place + " " + what, place, what, "a JSON object with a \"type\"");
      return false;
    }
    if (*type == "error") {
      failed = error_at(ExitCode::environment, who(path),
                        std::string(method) +
                            " failed: " + printable_text(js::string_at(message, "message").value_or("(no message)")));
      return false;
    }
    if (auto r = on_message(message); !r.ok()) {
      Error e = at_place(r.error(), answer_line(path, number, method));
      e.code = ExitCode::environment;
      failed = std::move(e);
      return false;
    }
    return true;
  };
  auto ran = ctx.processes().run(run);
  if (!ran) {
    Error e = at_place(ran.error(), who(path));
    e.code = ExitCode::environment;
    return e;
  }
  if (failed) return *failed;
  if (ran->timed_out) {
    const std::string what = "did not answer " + std::string(method) + " within " + seconds_text(limit) +
                             " s (EXTDEPS_PLUGIN_TIMEOUT); it was stopped";
    return worded(ExitCode::environment, who(path) + " " + what, who(path), what);
  }
  if (ran->line_too_long) {
    const std::string place = answer_line(path, number + 1, method);
    const std::string what = "is longer than 64 MiB; the plugin was stopped";
    return worded(ExitCode::environment, place + " " + what, place, what, "one JSON message a line");
  }
  if (ran->too_big)
    return error_at(ExitCode::environment, who(path),
                    "its answer to " + std::string(method) + " is larger than 1 GiB; it was stopped");
  if (ran->exit_status != 0) {
    std::string err = ran->err_tail;
    while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
    if (auto nl = err.rfind('\n'); nl != std::string::npos) err = err.substr(nl + 1);
    const std::string what = "exited with status " + std::to_string(ran->exit_status) + " during " +
                             std::string(method) + (err.empty() ? "" : ": " + printable_text(err));
    return worded(ExitCode::environment, who(path) + " " + what, who(path), what);
  }
  return {};
}

// The one message of `type` a method answers with.
Result<Json> call_one(const Context& ctx, const std::string& path, std::string_view method, const Json& params,
                      std::string_view type) {
  std::optional<Json> got;
  auto r = call(ctx, path, method, params, [&](const Json& m) -> Result<void> {
    if (m["type"] != type) {
      const std::string msg =
          "expected a \"" + std::string(type) + "\" message, not \"" + js::string_at(m, "type").value_or("") + "\"";
      return worded(ExitCode::bad_input, msg, "", msg, "a \"" + std::string(type) + "\" message");
    }
    if (got) return error_at(ExitCode::bad_input, "", "a second \"" + std::string(type) + "\" message");
    got = m;
    return {};
  });
  if (!r) return r.error();
  if (!got)
    return error_at(ExitCode::environment, who(path),
                    "no \"" + std::string(type) + "\" message in its answer to " + std::string(method));
  return *got;
}

// --- records -----------------------------------------------------------------------------

Result<std::string> text_field(const Json& o, std::string_view key, bool required) {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) {
    if (required) return error_at(ExitCode::bad_input, "", "\"" + std::string(key) + "\" is missing");
    return std::string();
  }
  if (!it->is_string()) {
    const std::string msg = "\"" + std::string(key) + "\" must be a string";
    return worded(ExitCode::bad_input, msg, "", msg, "a string");
  }
  return it->get<std::string>();
}

Result<unsigned> count_field(const Json& o, std::string_view key) {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return 0u;
  if (!it->is_number_unsigned() || it->get<std::uint64_t>() > 1000000000u) {
    const std::string msg = "\"" + std::string(key) + "\" must be a whole number from 0";
    return worded(ExitCode::bad_input, msg, "", msg, "a whole number from 0 to 1000000000");
  }
  return static_cast<unsigned>(it->get<std::uint64_t>());
}

Result<NativeDep> dep_of(const Json& j) {
  NativeDep d;
  if (j.is_string()) {
    d.name = j.get<std::string>();
  } else if (j.is_object()) {
    auto name = text_field(j, "name", true);
    if (!name) return name.error();
    d.name = *name;
    auto op = text_field(j, "op", false);
    if (!op) return op.error();
    auto version = text_field(j, "version", false);
    if (!version) return version.error();
    static const std::pair<std::string_view, DepOp> kOps[] = {{"", DepOp::any},  {"=", DepOp::eq},  {"==", DepOp::eq},
                                                              {"<", DepOp::lt},  {"<=", DepOp::le}, {">", DepOp::gt},
                                                              {">=", DepOp::ge}, {"!=", DepOp::ne}};
    auto found = std::find_if(std::begin(kOps), std::end(kOps), [&](const auto& p) { return p.first == *op; });
    if (found == std::end(kOps))
      return error_at(ExitCode::bad_input, "", "unknown operator '" + printable_text(*op) + "'", "= < <= > >= !=");
    d.op = found->second;
    if ((d.op == DepOp::any) != version->empty())
      return error_at(ExitCode::bad_input, "", "a relation has both an operator and a version, or neither");
    d.version = *version;
  } else {
    const std::string msg = "a relation is a name or an object {\"name\", \"op\", \"version\"}";
    return worded(ExitCode::bad_input, msg, "", msg, "a name or an object {\"name\", \"op\", \"version\"}");
  }
  if (d.name.empty()) return error_at(ExitCode::bad_input, "", "a relation without a name");
  return d;
}

Result<std::vector<NativeDep>> deps_of(const Json& o, std::string_view key) {
  std::vector<NativeDep> out;
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return out;
  if (!it->is_array()) {
    const std::string msg = "\"" + std::string(key) + "\" must be an array";
    return worded(ExitCode::bad_input, msg, "", msg, "an array");
  }
  for (const auto& x : *it) {
    auto d = dep_of(x);
    if (!d) return at_place(d.error(), "\"" + std::string(key) + "\"");
    out.push_back(std::move(*d));
  }
  return out;
}

Result<PackageRecord> record_of(const Json& m, const std::string& path) {
  PackageRecord r;
  auto name = text_field(m, "name", true);
  if (!name) return name.error();
  auto version = text_field(m, "version", true);
  if (!version) return version.error();
  if (name->empty() || version->empty())
    return error_at(ExitCode::bad_input, "", "a record needs a name and a version");
  r.name = *name;
  r.version = *version;
  for (auto [key, field] : {std::pair<std::string_view, std::string*>{"arch", &r.arch},
                            {"build", &r.build},
                            {"origin", &r.origin},
                            {"family", &r.family},
                            {"set", &r.set}}) {
    auto v = text_field(m, key, false);
    if (!v) return v.error();
    *field = *v;
  }
  if (r.origin.empty()) r.origin = path;
  auto bn = count_field(m, "build_number");
  if (!bn) return bn.error();
  r.build_number = *bn;
  auto tf = count_field(m, "track_features");
  if (!tf) return tf.error();
  r.track_features = *tf;
  auto installed = m.find("installed");
  if (installed != m.end() && !installed->is_boolean())
    return worded(ExitCode::bad_input, "\"installed\" must be true or false", "", "\"installed\" must be true or false",
                  "true or false");
  r.installed = installed != m.end() && installed->get<bool>();
  for (auto [key, list] : {std::pair<std::string_view, std::vector<NativeDep>*>{"provides", &r.provides},
                           {"conflicts", &r.conflicts},
                           {"constrains", &r.constrains}}) {
    auto v = deps_of(m, key);
    if (!v) return v.error();
    *list = std::move(*v);
  }
  auto depends = m.find("depends");
  if (depends != m.end() && !depends->is_null()) {
    if (!depends->is_array())
      return worded(ExitCode::bad_input, "\"depends\" must be an array", "", "\"depends\" must be an array",
                    "an array");
    for (const auto& x : *depends) {
      DepAlternatives alts;
      if (x.is_array()) {
        for (const auto& a : x) {
          auto d = dep_of(a);
          if (!d) return at_place(d.error(), "\"depends\"");
          alts.push_back(std::move(*d));
        }
        if (alts.empty()) return error_at(ExitCode::bad_input, "\"depends\"", "an empty list of alternatives");
      } else {
        auto d = dep_of(x);
        if (!d) return at_place(d.error(), "\"depends\"");
        alts.push_back(std::move(*d));
      }
      r.depends.push_back(std::move(alts));
    }
  }
  return r;
}

// --- the provider ----------------------------------------------------------------------------

Json options_json(const ProviderDescriptor& d, const ProviderSettings& settings) {
  Json out = Json::object();
  for (const auto& o : d.options) {
    const OptionValue* v = settings.option(o.name);
    if (!v) continue;
    if (o.list) out[std::string(o.name)] = v->values;
    else if (!v->values.empty()) out[std::string(o.name)] = v->values.front();
  }
  return out;
}

std::string file_stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "missing";
  return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

class PluginProvider final : public Provider {
 public:
  PluginProvider(const ProviderDescriptor& d, ProviderSettings settings, bool by_default)
      : d_(d), path_(d.plugin_path), settings_(std::move(settings)), by_default_(by_default) {}

  std::string_view ecosystem() const override { return d_.ecosystem; }
  std::string_view manager() const override { return d_.manager; }
  const version::Scheme& scheme() const override { return *d_.scheme; }
  bool available(const Context&) const override {
    return by_default_ || (!d_.manager.empty() && settings_.names(d_.manager));
  }

  Result<SourceId> identity(const Context& ctx) const override {
    auto m = call_one(ctx, path_, "identity", params(ctx), "identity");
    if (!m) return m.error();
    auto key = js::string_at(*m, "key");
    if (!key || key->empty()) return error_at(ExitCode::environment, who(path_), "its identity has no \"key\" string");
    // The program itself is part of the key: a new version of the plugin may read differently.
    return SourceId{"plugin " + path_ + " " + file_stamp(path_) + "\n" + *key};
  }

  Result<void> load(const Context& ctx, const RecordSink& available, const RecordSink& installed) override {
    Json p = params(ctx);
    Json names = Json::array();
    for (const auto& n : settings_.names_for(d_.ecosystem)) names.push_back(n);
    p["names"] = std::move(names);
    bool ended = false;
    std::size_t records = 0;
    auto r = call(ctx, path_, "load", p, [&](const Json& m) -> Result<void> {
      auto type = js::string_at(m, "type").value_or("");
      if (ended) return error_at(ExitCode::bad_input, "", "a message after \"end\"");
      if (type == "end") {
        ended = true;
        auto count = m.find("records");
        if (count != m.end() && (!count->is_number_unsigned() || count->get<std::uint64_t>() != records))
          return error_at(ExitCode::bad_input, "",
                          "\"end\" counts " + count->dump() + " records, " + std::to_string(records) + " came");
        return {};
      }
      if (type != "record") {
        const std::string msg = "expected a \"record\" or \"end\" message, not \"" + type + "\"";
        return worded(ExitCode::bad_input, msg, "", msg, "a \"record\" or \"end\" message");
      }
      auto rec = record_of(m, path_);
      if (!rec) return rec.error();
      ++records;
      (rec->installed ? installed : available)(std::move(*rec));
      return {};
    });
    if (!r) return r;
    if (!ended)
      return error_at(ExitCode::environment, who(path_), "its answer to load stopped before its \"end\" line");
    return {};
  }

  std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages) const override {
    auto c = plan_commands(packages);
    return c ? *c : std::vector<Command>{};
  }

  Result<std::vector<Command>> plan_commands(const std::vector<PlannedPackage>& packages) const override {
    if (packages.empty()) return std::vector<Command>{};
    Json p;
    p["options"] = options_json(d_, settings_);
    p["packages"] = Json::array();
    for (const auto& pk : packages)
      p["packages"].push_back({{"name", pk.name}, {"version", pk.version}, {"arch", pk.arch}, {"build", pk.build}});
    // install_commands has no Context: the time limit is the process's.
    static const Context process = Context::from_process();
    auto m = call_one(process, path_, "install_commands", p, "commands");
    if (!m) return m.error();
    std::vector<Command> out;
    auto list = m->find("commands");
    if (list == m->end() || !list->is_array())
      return error_at(ExitCode::environment, who(path_), "its \"commands\" message has no \"commands\" array");
    for (const auto& c : *list) {
      Command cmd;
      auto argv = c.is_object() ? c.find("argv") : c.end();
      if (!c.is_object() || argv == c.end() || !argv->is_array() || argv->empty())
        return error_at(ExitCode::environment, who(path_), "a command without an \"argv\" array of strings");
      for (const auto& a : *argv) {
        if (!a.is_string()) return error_at(ExitCode::environment, who(path_), "a command's argv holds a non-string");
        cmd.argv.push_back(a.get<std::string>());
      }
      auto elevate = c.find("requires_elevation");
      cmd.requires_elevation = elevate != c.end() && elevate->is_boolean() && elevate->get<bool>();
      out.push_back(std::move(cmd));
    }
    return out;
  }

  void add_build_env(const Context& ctx, const InstalledRef& package, BuildEnv& env) const override {
    Json p = params(ctx);
    p["package"] = {{"name", package.name},
                    {"version", package.version},
                    {"where", package.where},
                    {"need", package.need},
                    {"category", package.category}};
    auto m = call_one(ctx, path_, "env", p, "env");
    if (!m) {
      ctx.warn(m.error().message);
      return;
    }
    auto vars = m->find("variables");
    if (vars == m->end() || !vars->is_array()) return;
    for (const auto& v : *vars) {
      auto name = js::string_at(v, "name");
      if (!name || !is_word(*name, true)) continue;
      if (auto value = js::string_at(v, "value")) {
        env.set(*name, *value, package.need);
      } else if (auto entries = v.find("entries"); entries != v.end() && entries->is_array()) {
        for (const auto& e : *entries)
          if (e.is_string()) env.prepend_path(*name, e.get<std::string>(), package.need);
      }
    }
  }

 private:
  Json params(const Context& ctx) const { return Json{{"options", options_json(d_, settings_)}, {"root", ctx.root()}}; }

  const ProviderDescriptor& d_;
  std::string path_;
  ProviderSettings settings_;
  bool by_default_;
};

// --- describe ----------------------------------------------------------------------------

}  // namespace

// The descriptor an answer to describe gives, checked.
Result<std::unique_ptr<ProviderDescriptor>> descriptor_of(const Json& m, const std::string& path) {
  auto fail = [&](const std::string& why) {
    return error_at(ExitCode::environment, who(path), "its description " + why);
  };
  auto protocol = m.find("protocol");
  if (protocol == m.end() || !protocol->is_number_integer()) return fail("has no \"protocol\" number");
  if (protocol->get<std::int64_t>() != kProtocol)
    return fail("is for protocol " + protocol->dump() + "; this extdeps speaks protocol " + std::to_string(kProtocol) +
                (protocol->get<std::int64_t>() > kProtocol ? " (a newer extdeps may speak it)" : ""));
  auto d = std::make_unique<ProviderDescriptor>();
  const std::string program = program_name(path);
  std::string name = js::string_at(m, "name").value_or("");
  if (name != program.substr(kProgramPrefix.size()))
    return fail("names it '" + printable_text(name) + "', not '" + program.substr(kProgramPrefix.size()) +
                "' as its program's name does");
  if (!is_word(name, false)) return fail("has a name that is not lower-case letters, digits and '-'");
  std::string ecosystem = js::string_at(m, "ecosystem").value_or("");
  if (!is_word(ecosystem, false)) return fail("has no \"ecosystem\" of lower-case letters, digits and '-'");
  std::string manager = js::string_at(m, "manager").value_or("");
  if (!manager.empty() && !is_word(manager, false))
    return fail("has a \"manager\" that is not lower-case letters, digits and '-'");
  auto scheme = version_scheme_named(js::string_at(m, "scheme").value_or(""));
  if (!scheme) return fail("has no \"scheme\" of " + version_scheme_names_text());
  d->name = keep(name);
  d->ecosystem = keep(ecosystem);
  d->manager = keep(manager);
  d->scheme = scheme;
  d->summary = keep(js::string_at(m, "summary").value_or("provider plugin " + program));
  d->plugin_path = keep(path);
  std::set<std::string> seen;
  if (auto options = m.find("options"); options != m.end()) {
    if (!options->is_array()) return fail("has \"options\" that are not an array");
    for (const auto& o : *options) {
      std::string oname = js::string_at(o, "name").value_or("");
      if (!is_word(oname, false) || !seen.insert(oname).second)
        return fail("has an option named '" + printable_text(oname) + "' (lower-case letters, digits and '-', once)");
      // A core option's name, of any command (core/config/command_options.h): refused as a usage
      // error, naming both, so that no command line ever holds one name twice.
      if (const std::string taken = config::commands_with_option(oname); !taken.empty())
        return error_at(ExitCode::bad_input, who(path),
                        "its description has an option named '" + oname + "', which is extdeps' own --" + oname +
                            " (of " + taken + "): a plugin's option cannot take a core option's name");
      ProviderOption po;
      po.name = keep(oname);
      po.help = keep(js::string_at(o, "help").value_or(""));
      po.value_name = keep(js::string_at(o, "value_name").value_or("VALUE"));
      auto list = o.find("list");
      po.list = list != o.end() && list->is_boolean() && list->get<bool>();
      std::string key = js::string_at(o, "config_key").value_or("");
      if (!key.empty() && !is_word(key, false))
        return fail("has a config_key '" + printable_text(key) + "' that is not lower-case letters, digits and '-'");
      po.config_key = keep(key);
      if (auto env = o.find("env"); env != o.end() && env->is_array())
        for (const auto& e : *env) {
          if (!e.is_string() || !is_word(e.get<std::string>(), true))
            return fail("has an option variable that is not upper-case letters, digits and '_'");
          po.env.push_back(keep(e.get<std::string>()));
        }
      // What its values must be: config::load checks them before the plugin sees one.
      const std::string kind = js::string_at(o, "kind").value_or("text");
      auto k = option_kind_named(kind);
      if (!k) return fail("has an option '" + oname + "' of an unknown kind '" + printable_text(kind) + "'");
      po.kind = *k;
      if (auto choices = o.find("choices"); choices != o.end()) {
        if (po.kind != OptionKind::choice || !choices->is_array())
          return fail("has \"choices\" for option '" + oname + "', which is not of kind \"choice\"");
        for (const auto& c : *choices) {
          if (!c.is_string() || c.get<std::string>().empty())
            return fail("has a choice of option '" + oname + "' that is not a string");
          po.choices.push_back(keep(c.get<std::string>()));
        }
      }
      if (po.kind == OptionKind::choice && po.choices.empty())
        return fail("has option '" + oname + "' of kind \"choice\" with no \"choices\"");
      if (po.kind == OptionKind::choice && !o.contains("value_name")) {
        std::string joined;  // "profile|env", as a compiled-in provider's choice reads in --help
        for (std::string_view c : po.choices) joined += (joined.empty() ? "" : "|") + std::string(c);
        po.value_name = keep(joined);
      }
      d->options.push_back(std::move(po));
    }
  }
  if (auto reads = m.find("reads_env"); reads != m.end() && reads->is_array())
    for (const auto& e : *reads)
      if (e.is_string() && is_word(e.get<std::string>(), true)) d->reads_env.push_back(keep(e.get<std::string>()));
  auto by_default = m.find("available_by_default");
  bool available = by_default != m.end() && by_default->is_boolean() && by_default->get<bool>();
  const ProviderDescriptor* self = d.get();
  d->make = [self, available](const Context&, const ProviderSettings& settings) -> std::unique_ptr<Provider> {
    return std::make_unique<PluginProvider>(*self, settings, available);
  };
  return d;
}

namespace {

// The cached answer to describe of this program as it is now, or null.
std::optional<Json> cached_description(const Context& ctx, const std::string& path, std::string& file) {
  if (!ctx.cache_enabled()) return std::nullopt;
  file = ctx.cache_dir() + "/plugins/" + fnv1a_hex(path) + ".json";
  // A cache file: a regular file, not a link, bounded (docs/limits.md).
  auto text = read_regular_file(file, std::size_t{16} << 20, Links::refuse);
  if (!text.ok()) return std::nullopt;
  Json j;
  if (js::parse_document(*text, j) || !j.is_object()) return std::nullopt;
  if (js::string_at(j, "path") != path || js::string_at(j, "stamp") != file_stamp(path)) return std::nullopt;
  auto it = j.find("describe");
  if (it == j.end() || !it->is_object()) return std::nullopt;
  return *it;
}

void cache_description(const std::string& file, const std::string& path, const Json& describe) {
  if (file.empty()) return;
  std::error_code ec;
  fs::create_directories(fs::path(file).parent_path(), ec);
  const std::string tmp = file + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << js::dump(Json{{"path", path}, {"stamp", file_stamp(path)}, {"describe", describe}}, -1) << '\n';
    if (!out.flush()) {
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
}

}  // namespace

std::string who(const std::string& path) { return "plugin " + program_name(path) + " (" + path + ")"; }

Result<std::optional<PackageRecord>> parse_load_line(std::string_view line) {
  Json m;
  if (auto bad = js::parse_document(line, m))
    return error_at(ExitCode::bad_input, "",
                    "not JSON (" + bad->what + " at byte " + std::to_string(bad->offset) + ")");
  auto type = m.is_object() ? js::string_at(m, "type") : std::nullopt;
  if (!type) return error_at(ExitCode::bad_input, "", "not an object with a \"type\"");
  if (*type == "end") return std::optional<PackageRecord>();
  if (*type != "record") {
    const std::string msg = "expected a \"record\" or \"end\" message, not \"" + *type + "\"";
    return worded(ExitCode::bad_input, msg, "", msg, "a \"record\" or \"end\" message");
  }
  auto r = record_of(m, "");
  if (!r) return r.error();
  return std::optional<PackageRecord>(std::move(*r));
}

// The plugin-timeout option. The plugins are found before any settings are resolved, from the
// environment's value alone; there a bad one is warned about (the settings refuse it later).
int timeout_ms(const Context& ctx) {
  auto s = config::seconds(ctx, "plugin-timeout");
  if (!s.ok()) {
    ctx.warn(s.error().message + "; 120 s it is");
    return 120000;
  }
  return *s ? std::max(1, static_cast<int>(**s * 1000)) : 120000;
}

Result<std::unique_ptr<ProviderDescriptor>> describe(const Context& ctx, const std::string& path) {
  std::string cache_file;
  if (auto cached = cached_description(ctx, path, cache_file)) {
    auto d = descriptor_of(*cached, path);
    if (d) return d;
  }
  auto m = call_one(ctx, path, "describe", Json::object(), "describe");
  if (!m) return m.error();
  auto d = descriptor_of(*m, path);
  if (!d) return d.error();
  cache_description(cache_file, path, *m);
  return d;
}

}  // namespace extdeps::plugin
