#include "core/engine/engine.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include "core/config/config.h"
#include "core/declare/declare.h"
#include "core/declare/installed.h"
#include "core/detect/host.h"
#include "core/detect/host_json.h"
#include "core/detect/os_release.h"
#include "core/engine/environment_file.h"
#include "core/fetch/fetch.h"
#include "core/fetch/options.h"
#include "core/json/document.h"
#include "core/mapping/mapping.h"
#include "core/mapping/overrides.h"
#include "core/plan/plan.h"
#include "core/plan/render.h"
#include "core/plugin/plugin.h"
#include "core/solve/solve.h"
#include "core/util/text.h"
#include "core/util/timings.h"

namespace extdeps::engine {

namespace {

Result<std::vector<Category>> parse_categories(const std::vector<std::string>& names) {
  if (names.empty()) return std::vector<Category>{Category::build, Category::host, Category::run};
  std::vector<Category> out;
  for (const auto& n : names) {
    if (n == "build") out.push_back(Category::build);
    else if (n == "host") out.push_back(Category::host);
    else if (n == "run") out.push_back(Category::run);
    else return error_at(ExitCode::bad_input, "", "unknown category '" + n + "'", "build, host or run");
  }
  return out;
}

// The providers' options the caller set, each checked against the descriptors and said to come
// from its flag ("--channel").
Result<std::map<std::string, OptionValue, std::less<>>> cli_options(const SourceOptions& o) {
  std::map<std::string, OptionValue, std::less<>> out;
  for (const auto& [name, values] : o.provider_options) {
    const ProviderOption* option = nullptr;
    if (!descriptor_for_option(name, &option)) {
      std::string known;
      for (const ProviderDescriptor* d : provider_descriptors())
        for (const auto& x : d->options) known += (known.empty() ? "" : ", ") + std::string(x.name);
      Error e = bad_input("unknown provider option '" + name + "' (known: " + known + ")");
      e.what = "unknown provider option '" + name + "'";
      e.expected = "one of " + known;
      e.from = "--" + name;
      return e;
    }
    if (values.empty()) continue;
    if (!option->list && values.size() > 1) {
      Error e = bad_input("--" + name + " takes one value, not " + std::to_string(values.size()));
      e.what = std::to_string(values.size()) + " values";
      e.expected = "one value";
      e.from = "--" + name;
      return e;
    }
    out[name] = OptionValue{values, "--" + name};
  }
  return out;
}

// The core options that carry mapping overrides (mapping/overrides.h): each one's mode and the
// caller's values of it.
struct OverrideOption {
  const char* name;
  mapping::OverrideMode mode;
  std::vector<std::string> SourceOptions::*given;
};
constexpr OverrideOption kOverrideOptions[] = {
    {"use-mapping", mapping::OverrideMode::use, &SourceOptions::use_mappings},
    {"patch-mapping", mapping::OverrideMode::patch, &SourceOptions::patch_mappings},
    {"extend-mapping", mapping::OverrideMode::extend, &SourceOptions::extend_mappings},
};

// The settings: what the caller set (as the command line), over the environment and the
// configuration files (config::load).
Result<config::Settings> settings_for(const Context& ctx, const std::string& declaration,
                                      const std::vector<std::string>& managers,
                                      const std::vector<std::string>& mapping_dirs, const SourceOptions& sources) {
  config::Settings cli;
  if (!managers.empty()) {
    cli.managers = managers;
    cli.managers_from = "command line";
  }
  if (!mapping_dirs.empty()) {
    cli.mapping_dirs = mapping_dirs;
    cli.mapping_dirs_from = "command line";
  }
  auto options = cli_options(sources);
  if (!options.ok()) return options.error();
  cli.provider_options = std::move(*options);
  if (!sources.system.empty()) cli.core_options["system"] = OptionValue{{sources.system}, "--system"};
  if (sources.offline) cli.core_options["offline"] = OptionValue{{"1"}, "--offline"};
  for (const OverrideOption& o : kOverrideOptions)
    if (!(sources.*o.given).empty())
      cli.core_options[o.name] = OptionValue{sources.*o.given, "--" + std::string(o.name)};
  return config::load(ctx, declaration, cli);
}

// A bad value is blamed on the place that set it: a configuration file's key, a variable. That
// place leads the message and is the error's `from`; its `place` stays the value's own (none).
Error blamed(const std::string& from, Error e) {
  if (e.what.empty()) e.what = e.message;
  if (!from.empty() && from != "command line") e.message = from + ": " + e.message;
  e.from = from;
  return e;
}

// The shipped tables, then the folders of the settings (each checked here, so that a missing one
// is blamed on the setting that named it), then the run's overrides. A mapping by URL comes
// through `fetcher` (the plan's), else through one made for it when one is named.
Result<mapping::Tables> tables_for(Context& ctx, const config::Settings& settings,
                                   const std::vector<std::string>* only_ids = nullptr,
                                   const std::set<std::string>* only_ecosystems = nullptr,
                                   fetch::Fetcher* fetcher = nullptr) {
  std::vector<std::string> dirs{mapping::default_mappings_dir(ctx)};
  for (const auto& dir : settings.mapping_dirs.value_or(std::vector<std::string>{})) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
      return blamed(settings.mapping_dirs_from,
                    error_at(ExitCode::bad_input, "", "mappings folder " + dir + " does not exist"));
    dirs.push_back(dir);
  }
  auto tables = mapping::load_tables(ctx, dirs, only_ids, only_ecosystems);
  if (!tables) return tables;
  // The run's overrides (--use-mapping and its kin, their variables, a configuration's keys).
  std::vector<mapping::MappingOverride> overrides;
  for (const OverrideOption& o : kOverrideOptions) {
    auto it = settings.core_options.find(o.name);
    if (it == settings.core_options.end()) continue;
    for (const auto& v : it->second.values) overrides.push_back({o.mode, v, it->second.from});
  }
  std::optional<fetch::Fetcher> own;
  auto download = [&](const std::string& url) -> Result<std::string> {
    if (!fetcher) {
      auto fo = fetch::options_for(ctx, fetch::FetchFlags{});  // the settings' --offline counts
      if (!fo) return fo.error();
      fetcher = &own.emplace(ctx, *fo);
    }
    auto got = fetcher->fetch(fetch::Request{.url = url});
    if (!got) return got.error();
    return got->body_path;
  };
  if (auto applied = mapping::apply_overrides(ctx, *tables, overrides, download); !applied) return applied.error();
  return tables;
}

// The tables a plan of these needs reads: from the cache, only the entries of the needs' ids in
// the tables of the ecosystems in use (issue 18: a warm run's cost must not grow with the tables,
// nor with the ecosystems it does not use). When one of the ids is in none of those, the whole
// tables: guessing (a pkg-config module's entry), "did you mean" and "it is mapped for conda-forge,
// which is not in use here" search all.
Result<mapping::Tables> tables_for_needs(Context& ctx, const config::Settings& settings,
                                         const std::vector<Requirement>& needs, const std::set<std::string>* ecosystems,
                                         fetch::Fetcher* fetcher) {
  std::vector<std::string> ids;
  for (const auto& r : needs) ids.push_back(r.url.id());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  auto some = tables_for(ctx, settings, &ids, ecosystems, fetcher);
  if (!some.ok()) return some;
  for (const auto& id : ids)
    if (!some->find(id)) return tables_for(ctx, settings, nullptr, nullptr, fetcher);
  return some;
}

// Every manager the settings name is one a provider installs with.
Result<void> check_managers(const std::vector<std::unique_ptr<Provider>>& providers, const config::Settings& settings) {
  std::set<std::string> known;
  for (const auto& p : providers)
    if (!p->manager().empty()) known.insert(std::string(p->manager()));
  for (const auto& m : settings.managers.value_or(std::vector<std::string>{})) {
    if (known.count(canonical_manager(m))) continue;
    if (const Error* refused = plugin::refusal(m)) {
      Error e = *refused;
      e.message = "unknown package manager '" + m + "': " + e.message + "; the plugin is not used";
      return blamed(settings.managers_from, std::move(e));
    }
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    Error e = bad_input("unknown package manager '" + m + "' (known here: " + list + ")");
    e.what = "unknown package manager '" + m + "'";
    e.expected = "one of " + list;
    return blamed(settings.managers_from, std::move(e));
  }
  return {};
}

// "Debian GNU/Linux 12 (bookworm), amd64": the system a plan is for, as the machine's os-release
// names it, or as --system names it; its CPU as the system's own package manager does (each
// provider's descriptor says, system_cpu), else as uname does.
std::string host_text(const Context& ctx, const detect::HostFacts& host) {
  const bool overridden = std::find(host.overridden.begin(), host.overridden.end(), "os") != host.overridden.end();
  auto os = overridden ? host.os : detect::read_os_release(ctx);
  std::string name = os.pretty_name.empty() ? (os.id.empty() ? "an unknown system" : os.id) : os.pretty_name;
  for (const ProviderDescriptor* d : provider_descriptors())
    if (d->system_cpu)
      if (std::string cpu = d->system_cpu(os, host.machine); !cpu.empty()) return name + ", " + cpu;
  return name + ", " + (host.machine.empty() ? ctx.uname().machine : host.machine);
}

// The native names each table maps the requirements to (every category, every alternative).
std::map<std::string, std::vector<std::string>> request_names(const mapping::Tables& tables,
                                                              const std::vector<Requirement>& reqs) {
  std::map<std::string, std::vector<std::string>> out;
  std::set<std::string> ids;  // each once: a declaration may name one id thousands of times
  for (const auto& r : reqs) ids.insert(r.url.id());
  for (const auto& t : tables.tables)
    for (const auto& id : ids)
      if (const mapping::Entry* e = t.find(id))
        for (const auto& name : e->all_packages()) out[t.ecosystem].push_back(name);
  return out;
}

using RequestNames = std::map<std::string, std::vector<std::string>>;

// The providers and the fetcher, made but not prepared yet: which providers are in use decides
// which tables are read, and the tables the names the providers are prepared for.
struct MadeSources {
  Sources sources;
  ProviderSettings settings;
  std::shared_ptr<RequestNames> names = std::make_shared<RequestNames>();
  std::vector<char> in_use;  // per provider: wanted() (asked once: it may look at the machine)
};

Result<MadeSources> make_sources(Context& ctx, const config::Settings& settings, const SourceOptions& o,
                                 const detect::HostFacts* host, const std::string& format = "", bool use_cache = true) {
  MadeSources made;
  ProviderSettings& ps = made.settings;
  ps.request_names = made.names;
  ps.host = host;
  ps.use_cache = use_cache;
  ps.python = o.python;
  ps.managers = settings.managers.value_or(std::vector<std::string>{});
  ps.options = settings.provider_options;
  fetch::FetchFlags flags;
  flags.offline = o.offline;
  auto fo = fetch::options_for(ctx, flags);
  if (!fo.ok()) return fo.error();
  Sources& s = made.sources;
  s.fetcher = std::make_unique<fetch::Fetcher>(ctx, *fo);
  s.providers = make_providers(ctx, ps);
  if (auto known = check_managers(s.providers, settings); !known.ok()) return known.error();
  auto renderer = environment_renderer(ctx, s.providers, format);
  if (!renderer) return renderer.error();
  s.renderer = *renderer;
  for (const auto& p : s.providers) made.in_use.push_back(wanted(*p, ctx, ps) ? 1 : 0);
  return made;
}

// The ecosystems whose tables a plan reads: those of the providers in use, and the host's own
// and the ones it is like (select_for_host lays an "ubuntu" table over "debian").
std::set<std::string> ecosystems_in_use(const MadeSources& made, const detect::HostFacts& host) {
  std::set<std::string> out;
  for (std::size_t i = 0; i < made.sources.providers.size(); ++i)
    if (made.in_use[i]) out.insert(std::string(made.sources.providers[i]->ecosystem()));
  if (!host.os.id.empty()) out.insert(host.os.id);
  out.insert(host.os.id_like.begin(), host.os.id_like.end());
  return out;
}

// Gives the providers the names the request maps to and prepares those in use (downloads, an
// interpreter's answers). With `degrade`, a provider whose preparation fails for the machine's
// sake (no network, an unreadable index: ExitCode::environment) is left out and listed in
// Sources::failed, as long as another manager in use answered and it renders no --format; the
// first such error is returned when none did. Any other error (bad input) stops the plan.
Result<Sources> prepare_sources(const Context& ctx, MadeSources made, RequestNames names, bool degrade = false) {
  *made.names = std::move(names);
  Sources& s = made.sources;
  std::vector<std::unique_ptr<Provider>> kept;
  bool manager_answered = false;
  for (std::size_t i = 0; i < s.providers.size(); ++i) {
    std::unique_ptr<Provider>& p = s.providers[i];
    if (made.in_use[i]) {
      auto r = p->prepare(ctx, *s.fetcher);
      if (!r.ok()) {
        if (!degrade || r.error().code != ExitCode::environment || p.get() == s.renderer) return r.error();
        s.failed.push_back({std::string(p->manager()), std::string(p->ecosystem()), r.error()});
        continue;
      }
      if (!p->manager().empty()) manager_answered = true;
    }
    kept.push_back(std::move(p));
  }
  if (!s.failed.empty() && !manager_answered) return s.failed.front().error;
  s.providers = std::move(kept);
  return std::move(made.sources);
}

// What the plan says of the providers left out (Sources::failed): a warning each, and, on every
// need it does not meet, which of them maps it and why that one is missing.
void tell_failed_providers(plan::Outcome& outcome, const mapping::Tables& tables,
                           const std::vector<FailedProvider>& failed) {
  for (const FailedProvider& f : failed)
    outcome.warnings.push_back(f.manager + " was left out of this plan: " + f.error.message);
  for (solve::RequirementOutcome& r : outcome.requirements) {
    if (r.status != solve::Status::unsatisfiable && r.status != solve::Status::unmapped) continue;
    const std::string id = r.canonical_id.empty() ? r.requirement.url.id() : r.canonical_id;
    for (const FailedProvider& f : failed) {
      const mapping::Table* t = tables.find_ecosystem(f.ecosystem);
      const mapping::Entry* e = t ? t->find(id) : nullptr;
      if (!e) continue;
      std::string why =
          f.manager + " maps it (" + join(e->all_packages(), ", ") + ") but was left out: " + f.error.message;
      r.message += r.message.empty() ? why : "; " + why;
      for (plan::Problem& p : outcome.problems)
        if (p.requirement == r.requirement.spec) p.details.push_back(why);
    }
  }
}

Result<Sources> sources_for(Context& ctx, const config::Settings& settings, const SourceOptions& o, RequestNames names,
                            const detect::HostFacts* host, bool use_cache) {
  auto made = make_sources(ctx, settings, o, host, "", use_cache);
  if (!made.ok()) return made.error();
  return prepare_sources(ctx, std::move(*made), std::move(names));
}

// request.json beside the testcase: what was asked, on what, with which tables, and the answer.
Result<void> write_request(const Request& o, const std::string& declaration, bool has_declaration,
                           const mapping::Tables& tables, const detect::HostFacts& host, const plan::Outcome& outcome) {
  nlohmann::json j;
  j["extdeps_version"] = EXTDEPS_VERSION;
  j["declaration"] = declaration;
  if (has_declaration) {
    std::ifstream in(declaration, std::ios::binary);
    j["declaration_text"] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  nlohmann::json options = nlohmann::json::object();
  for (const auto& [name, values] : o.sources.provider_options)
    if (!values.empty()) options[name] = values;
  j["request"] = {{"managers", o.managers},         {"categories", o.categories}, {"optional", o.optional},
                  {"all_optional", o.all_optional}, {"guess", o.guess},           {"mapping_dirs", o.mapping_dirs},
                  {"offline", o.sources.offline},   {"python", o.sources.python}, {"provider_options", options},
                  {"host_file", o.host_file}};
  j["host"] = detect::to_json(host);
  j["tables"] = nlohmann::json::array();
  for (const auto& t : tables.tables) {
    std::ifstream in(t.path, std::ios::binary);
    std::string text(std::istreambuf_iterator<char>(in), {});
    j["tables"].push_back(
        {{"ecosystem", t.ecosystem}, {"path", t.path}, {"bytes", text.size()}, {"fnv1a", fnv1a_hex(text)}});
  }
  j["plan"] = plan::to_json(outcome);
  const std::string file = o.dump_testcase_dir + "/request.json";
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!(out << json::dump(j, 2) << '\n') || !out.flush()) {
    Error e = environment_error("cannot write " + file);
    e.place = file;
    e.what = "cannot write";
    return e;
  }
  return {};
}

}  // namespace

Result<std::string> check_root(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return error_at(ExitCode::bad_input, "", "the root folder " + dir + " does not exist or is not a folder");
  std::string out = dir;
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

Sources::Sources() = default;
Sources::Sources(Sources&&) noexcept = default;
Sources& Sources::operator=(Sources&&) noexcept = default;
Sources::~Sources() = default;

// --dump-testcase DIR: a new folder, or an empty one that is a folder and not a link. Written
// into a folder that held files (or through links already in it), the dump replaced what the
// links named (issue 31).
static Result<void> prepare_dump_folder(const std::string& dir) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) {
    std::error_code ec;
    const auto parent = std::filesystem::path(dir).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (::mkdir(dir.c_str(), 0755) != 0)
      return error_at(ExitCode::environment, dir, std::string("cannot make the folder (") + std::strerror(errno) + ")");
    return {};
  }
  if (!S_ISDIR(st.st_mode))
    return error_at(ExitCode::bad_input, dir, S_ISLNK(st.st_mode) ? "is a link" : "is not a folder",
                    "a new or empty folder for --dump-testcase");
  std::error_code ec;
  if (!std::filesystem::is_empty(dir, ec) || ec)
    return error_at(ExitCode::bad_input, dir, ec ? "cannot be read (" + ec.message() + ")" : "is not empty",
                    "a new or empty folder for --dump-testcase");
  return {};
}

namespace {

// The request's declaration: the project's file, or (an environment audit with no project) the
// interpreter's; with --audit-python, what the interpreter has installed is added to it.
struct Declared {
  std::string path;  // the file, or "python environment PYTHON"
  bool has_file = false;
  Declaration declaration;
};

Result<Declared> read_request_declaration(const Context& ctx, const Request& o) {
  Declared d;
  auto path = declare::find_declaration(o.path);
  d.has_file = path.ok();
  if (d.has_file) {
    timings::Phase t("declaration");
    d.path = *path;
    auto decl = declare::read_declaration(ctx, d.path);
    if (!decl.ok()) return decl.error();
    d.declaration = std::move(*decl);
  } else if (o.audit_python && o.path == ".") {
    // An environment audit: no project here, only what the interpreter has installed.
    d.path = "python environment " + o.sources.python;
  } else {
    return path.error();
  }
  if (o.audit_python) {
    auto installed = declare::installed_external_needs(ctx, o.sources.python);
    if (!installed.ok()) return installed.error();
    auto& reqs = d.declaration.requirements;
    reqs.insert(reqs.end(), installed->begin(), installed->end());
  }
  return d;
}

// The request's settings, resolved and handed to the Context: from here every reader of an
// option sees its resolved value (config::apply_to). A configuration file's `root` is taken
// unless --root or EXTDEPS_ROOT (set by cli::run) gave one.
Result<config::Settings> apply_request_settings(Context& ctx, const Request& o, const Declared& d) {
  auto settings = settings_for(ctx, d.has_file ? d.path : std::string(), o.managers, o.mapping_dirs, o.sources);
  if (!settings.ok()) return settings.error();
  config::apply_to(ctx, *settings);
  if (settings->root && !o.root_given) {
    auto root = check_root(*settings->root);
    if (!root.ok()) {
      Error e = at_place(root.error(), settings->root_from);
      e.code = ExitCode::bad_input;
      e.from = settings->root_from;
      return e;
    }
    ctx.set_root(*root);
  }
  return settings;
}

// Refuses an --optional group the declaration does not have, naming those it has.
Result<void> check_optional_groups(const Request& o, const Declared& d) {
  const Declaration& decl = d.declaration;
  for (const auto& g : o.optional) {
    bool known = std::count(decl.optional_groups.begin(), decl.optional_groups.end(), g) ||
                 std::count(decl.dependency_groups.begin(), decl.dependency_groups.end(), g);
    if (known) continue;
    std::vector<std::string> all = decl.optional_groups;
    all.insert(all.end(), decl.dependency_groups.begin(), decl.dependency_groups.end());
    std::string list;
    for (const auto& a : all) list += (list.empty() ? "" : ", ") + a;
    Error e = bad_input("no optional group '" + g + "' in " + d.path +
                        (list.empty() ? " (it has none)" : " (it has: " + list + ")"));
    e.place = d.path;
    e.what = "no optional group '" + g + "'" + (list.empty() ? " (it has none)" : "");
    if (!list.empty()) e.expected = "one of " + list;
    return e;
  }
  return {};
}

// The needs this request plans: of its categories, of the groups it asked for, whose markers hold.
// The marker environment may have to ask the interpreter (--python, else the python3 on PATH)
// for its version: only when a marker is there to evaluate.
Result<std::vector<Requirement>> select_requirements(const Context& ctx, const Request& o, const Declared& d) {
  auto cats = parse_categories(o.categories);
  if (!cats.ok()) return cats.error();
  if (auto groups = check_optional_groups(o, d); !groups.ok()) return groups.error();
  std::optional<declare::MarkerEnv> env;
  std::vector<Requirement> selected;
  for (const auto& r : d.declaration.requirements) {
    if (std::find(cats->begin(), cats->end(), r.category) == cats->end()) continue;
    if (r.group && !o.all_optional && std::find(o.optional.begin(), o.optional.end(), *r.group) == o.optional.end())
      continue;
    if (!r.marker.empty()) {
      if (!env) env = declare::host_marker_env(ctx, o.sources.python);
      auto menv = *env;
      menv["extra"] = r.group.value_or("");
      auto m = declare::evaluate_marker(r.marker, menv);
      if (!m.ok()) {
        Error e = at_place(m.error(), r.where.str());
        e.code = ExitCode::bad_input;
        return e;
      }
      if (!*m) continue;
    }
    selected.push_back(r);
  }
  return selected;
}

}  // namespace

Result<Planned> plan(Context& ctx, const Request& o) {
  // What an earlier request's settings decided does not carry over (a library session).
  ctx.set_options(std::nullopt);
  if (!o.dump_testcase_dir.empty())
    if (auto ready = prepare_dump_folder(o.dump_testcase_dir); !ready.ok()) return ready.error();
  plugin::discover(ctx);  // once per process; the CLI did it before parsing its flags
  if (!o.cache_dir.empty()) ctx.set_cache_dir(o.cache_dir);
  auto declared = read_request_declaration(ctx, o);
  if (!declared.ok()) return declared.error();
  const std::string& path = declared->path;

  std::optional<timings::Phase> phase;
  phase.emplace("settings");
  auto settings = apply_request_settings(ctx, o, *declared);
  if (!settings.ok()) return settings.error();
  auto selected = select_requirements(ctx, o, *declared);
  if (!selected.ok()) return selected.error();

  // The machine the plan is for (cached; overrides applied), as locked virtual packages.
  phase.emplace("detect");
  detect::DetectOptions dopt;
  dopt.use_cache = o.use_cache;
  dopt.host_file = o.host_file;
  auto host = detect::detect_host(ctx, dopt);
  if (!host.ok()) return host.error();
  phase.emplace("providers");
  auto made = make_sources(ctx, *settings, o.sources, &*host, o.environment_format, o.use_cache);
  if (!made.ok()) return made.error();
  phase.emplace("tables");
  const std::set<std::string> ecosystems = ecosystems_in_use(*made, *host);
  auto tables = tables_for_needs(ctx, *settings, *selected, &ecosystems, made->sources.fetcher.get());
  if (!tables.ok()) return tables.error();
  // The tables as this release sees them: a derivative's own table, [id.release.X] overrides.
  mapping::select_for_host(
      *tables, mapping::HostRelease{host->os.id, host->os.id_like, host->os.version_codename, host->os.version_id});

  phase.emplace("providers");
  auto sources = prepare_sources(ctx, std::move(*made), request_names(*tables, *selected), true);
  if (!sources.ok()) return sources.error();
  phase.reset();
  solve::Options sopt;
  sopt.managers = canonical_managers(settings->managers.value_or(std::vector<std::string>{}));
  std::erase_if(sopt.managers, [&](const std::string& m) {
    return std::any_of(sources->failed.begin(), sources->failed.end(),
                       [&](const FailedProvider& f) { return f.manager == m; });
  });
  sopt.use_cache = o.use_cache;
  sopt.host = &*host;
  sopt.guess_unmapped = o.guess;
  sopt.testcase_dir = o.dump_testcase_dir;
  auto solution = solve::resolve(ctx, *selected, *tables, sources->providers, sopt);
  if (!solution.ok()) return solution.error();
  phase.emplace("plan");
  auto outcome = plan::make_plan(std::move(*solution));
  if (!outcome.ok()) return outcome.error();
  tell_failed_providers(*outcome, *tables, sources->failed);
  phase.reset();
  if (!o.dump_testcase_dir.empty())
    if (auto w = write_request(o, path, declared->has_file, *tables, *host, *outcome); !w.ok()) return w.error();
  std::string on = o.host_file.empty() ? host_text(ctx, *host)
                                       : (host->os.pretty_name.empty() ? host->os.id : host->os.pretty_name) + ", " +
                                             detect::system_arch(*host) + " (facts from " + o.host_file + ")";
  Planned p{path, on, std::move(*outcome), {}, std::move(*host), std::make_shared<Sources>(std::move(*sources))};
  if (p.sources->renderer) {
    auto text = render_environment(*p.sources->renderer, p.outcome, o.environment_format, path);
    if (!text) return text.error();
    p.environment_file = std::move(*text);
  }
  return p;
}

namespace {

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Result<std::vector<Found>> find_in_tables(Context& ctx, const ShowRequest& o, std::string_view word, bool package) {
  ctx.set_options(std::nullopt);
  plugin::discover(ctx);
  if (!o.cache_dir.empty()) ctx.set_cache_dir(o.cache_dir);
  auto settings = settings_for(ctx, "", o.managers, o.mapping_dirs, o.sources);
  if (!settings.ok()) return settings.error();
  config::apply_to(ctx, *settings);
  auto tables = tables_for(ctx, *settings);
  if (!tables.ok()) return tables.error();
  const std::string needle = lowered(word);
  auto hit = [&](std::string_view text) {
    return package ? text == word : lowered(text).find(needle) != std::string::npos;
  };
  std::vector<Found> found;
  for (const auto& t : tables->tables)
    for (const auto& e : t.entries) {
      auto add = [&](std::string field, std::string release, const std::string& text) {
        for (const auto& f : found)  // a name listed in several categories' fallback: once per field
          if (f.ecosystem == t.ecosystem && f.id == e.id && f.field == field && f.release == release && f.text == text)
            return;
        found.push_back({t.ecosystem, e.id, std::move(field), std::move(release), text, e.where.str()});
      };
      auto packages = [&](const std::map<Category, std::vector<mapping::Alternative>>& by, const std::string& rel) {
        for (const auto& [c, alternatives] : by)
          for (const auto& a : alternatives)
            for (const auto& p : a.packages)
              if (hit(p)) add(std::string(category_name(c)), rel, p);
      };
      if (!package && hit(e.id)) add("id", "", e.id);
      if (!package)
        for (const auto& a : e.aliases)
          if (hit(a)) add("alias", "", a);
      packages(e.by_category, "");
      for (const auto& m : e.modules)
        if (hit(m)) add("pkg-config", "", m);
      for (const auto& r : e.releases) packages(r.by_category, r.release);
      if (!package && !e.note.empty() && hit(e.note)) add("note", "", e.note);
    }
  return found;
}

Result<Shown> show(Context& ctx, const ShowRequest& o) {
  ctx.set_options(std::nullopt);
  plugin::discover(ctx);
  auto url = declare::parse_depurl(o.depurl);
  if (!url.ok()) {
    Error e = at_place(url.error(), o.depurl);
    e.code = ExitCode::bad_input;
    return e;
  }
  if (!o.cache_dir.empty()) ctx.set_cache_dir(o.cache_dir);
  // No declaration file here; the environment and the user's configuration still count.
  auto settings = settings_for(ctx, "", o.managers, o.mapping_dirs, o.sources);
  if (!settings.ok()) return settings.error();
  config::apply_to(ctx, *settings);
  auto tables = tables_for(ctx, *settings);
  if (!tables.ok()) return tables.error();
  // The range after '@' counts as it does in a declaration: show answers as resolve would.
  auto range = declare::parse_range(url->version);
  if (!range.ok()) {
    Error e = at_place(range.error(), o.depurl);
    e.code = ExitCode::bad_input;
    return e;
  }
  // The machine as resolve sees it: its release, its driver, the nvcc it has.
  detect::DetectOptions dopt;
  dopt.use_cache = o.use_cache;
  auto host = detect::detect_host(ctx, dopt);
  if (!host.ok()) return host.error();
  mapping::select_for_host(
      *tables, mapping::HostRelease{host->os.id, host->os.id_like, host->os.version_codename, host->os.version_id});
  Shown shown;
  shown.id = url->id();
  const mapping::Entry* canonical = tables->find(shown.id);
  shown.canonical_id = canonical ? canonical->id : shown.id;
  for (const auto& t : tables->tables) {
    const mapping::Entry* e = t.find(shown.id);
    if (!e) continue;
    ShownMapping m{t.ecosystem, t.path, e->where.str(), {}, e->modules, e->note, e->unverified};
    for (Category c : {Category::build, Category::host, Category::run}) {
      auto it = e->by_category.find(c);
      if (it == e->by_category.end()) continue;
      std::vector<std::vector<std::string>> alternatives;
      for (const auto& a : it->second) alternatives.push_back(a.packages);
      m.categories.emplace_back(c, std::move(alternatives));
    }
    shown.mappings.push_back(std::move(m));
  }
  if (shown.mappings.empty()) {
    shown.suggestions = mapping::did_you_mean(shown.id, tables->known_ids());
    return shown;
  }
  // What would meet it here: the id alone, resolved for each category.
  Requirement probe;
  probe.url = *url;
  auto sources = sources_for(ctx, *settings, o.sources, request_names(*tables, {probe}), &*host, o.use_cache);
  if (!sources.ok()) return sources.error();
  solve::Options sopt;
  sopt.managers = canonical_managers(settings->managers.value_or(std::vector<std::string>{}));
  sopt.use_cache = o.use_cache;
  sopt.host = &*host;
  for (Category c : {Category::build, Category::host, Category::run}) {
    Requirement r;
    r.url = *url;
    r.range = *range;
    r.category = c;
    r.spec = o.depurl;
    auto solution = solve::resolve(ctx, {r}, *tables, sources->providers, sopt);
    if (!solution.ok()) return solution.error();
    auto outcome = plan::make_plan(std::move(*solution));
    if (!outcome.ok()) return outcome.error();
    shown.here.push_back(std::move(*outcome));
  }
  return shown;
}

}  // namespace extdeps::engine
