#include "core/cli/pipeline.h"

#include <sys/stat.h>

#include <algorithm>
#include <optional>
#include <ostream>
#include <set>

#include "core/cli/environment_output.h"
#include "core/config/config.h"
#include "core/declare/declare.h"
#include "core/declare/installed.h"
#include "core/detect/host.h"
#include "core/detect/os_release.h"
#include "core/fetch/fetch.h"
#include "core/fetch/options.h"
#include "core/json/document.h"
#include "core/mapping/mapping.h"
#include "core/plan/render.h"
#include "core/solve/solve.h"

namespace extdeps::cli {

namespace {

Result<std::vector<Category>> parse_categories(const std::vector<std::string>& names) {
  if (names.empty()) return std::vector<Category>{Category::build, Category::host, Category::run};
  std::vector<Category> out;
  for (const auto& n : names) {
    if (n == "build") out.push_back(Category::build);
    else if (n == "host") out.push_back(Category::host);
    else if (n == "run") out.push_back(Category::run);
    else return bad_input("unknown category '" + n + "' (expected build, host or run)");
  }
  return out;
}

Result<mapping::Tables> tables_for(const Context& ctx, const std::vector<std::string>& extra) {
  std::vector<std::string> dirs{mapping::default_mappings_dir(ctx)};
  dirs.insert(dirs.end(), extra.begin(), extra.end());
  return mapping::load_tables(ctx, dirs);
}

std::string host_text(const Context& ctx) {
  auto os = detect::read_os_release(ctx);
  std::string name = os.pretty_name.empty() ? (os.id.empty() ? "an unknown system" : os.id) : os.pretty_name;
  return name + ", " + detect::dpkg_architecture(ctx);
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

Result<Sources> sources_for(Context& ctx, const config::Settings& settings, const SourceOptions& o,
                            std::map<std::string, std::vector<std::string>> names, const detect::HostFacts* host,
                            const std::string& format = "") {
  ProviderSettings ps;
  ps.request_names = std::move(names);
  ps.host = host;
  ps.python = o.python;
  ps.pypi_index_url = o.index_url;
  ps.pypi_extra_index_urls = o.extra_index_urls;
  ps.managers = settings.managers.value_or(std::vector<std::string>{});
  ps.conda_channels = o.channels;
  ps.conda_channels_config = settings.conda_channels.value_or(std::vector<std::string>{});
  ps.conda_channels_config_from = settings.conda_channels_from;
  ps.conda_prefix = o.prefix;
  ps.nix_index = o.nix_index;
  fetch::FetchFlags flags;
  flags.offline = o.offline;
  flags.max_download_bytes = settings.max_download_size;
  flags.max_run_bytes = settings.max_download_total;
  flags.allow_insecure_http = settings.allow_insecure_http;
  auto fo = fetch::options_for(ctx, flags);
  if (!fo.ok()) return fo.error();
  Sources s;
  s.fetcher = std::make_unique<fetch::Fetcher>(ctx, *fo);
  s.providers = make_providers(ctx, ps);
  auto renderer = environment_renderer(ctx, s.providers, format);
  if (!renderer) return renderer.error();
  s.renderer = *renderer;
  for (auto& p : s.providers) {
    if (!wanted(*p, ctx, ps)) continue;
    if (auto r = p->prepare(ctx, *s.fetcher); !r.ok()) return r.error();
  }
  return s;
}

}  // namespace

Result<std::string> check_root(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return bad_input("the root folder " + dir + " does not exist or is not a folder");
  std::string out = dir;
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

Sources::Sources() = default;
Sources::Sources(Sources&&) noexcept = default;
Sources& Sources::operator=(Sources&&) noexcept = default;
Sources::~Sources() = default;

Result<Prepared> prepare(Context& ctx, const RunOptions& o) {
  if (!o.cache_dir.empty()) ctx.set_cache_dir(o.cache_dir);
  auto path = declare::find_declaration(o.path);
  Result<Declaration> decl = Declaration{};
  const bool has_declaration = path.ok();
  if (has_declaration) {
    decl = declare::read_declaration(ctx, *path);
    if (!decl.ok()) return decl.error();
  } else if (o.audit_python && o.path == ".") {
    // An environment audit: no project here, only what the interpreter has installed.
    path = "python environment " + o.sources.python;
  } else {
    return path.error();
  }
  if (o.audit_python) {
    auto installed = declare::installed_external_needs(ctx, o.sources.python);
    if (!installed.ok()) return installed.error();
    decl->requirements.insert(decl->requirements.end(), installed->begin(), installed->end());
  }

  config::Settings cli_settings;
  if (!o.managers.empty()) {
    cli_settings.managers = o.managers;
    cli_settings.managers_from = "command line";
  }
  if (!o.mapping_dirs.empty()) {
    cli_settings.mapping_dirs = o.mapping_dirs;
    cli_settings.mapping_dirs_from = "command line";
  }
  auto settings = config::load(ctx, has_declaration ? *path : std::string(), cli_settings);
  if (!settings.ok()) return settings.error();
  // `root` of a configuration file; --root and EXTDEPS_ROOT (set by cli::run) are above it.
  if (settings->root && !o.root_given) {
    auto root = check_root(*settings->root);
    if (!root.ok()) return bad_input(settings->root_from + ": " + root.error().message);
    ctx.set_root(*root);
  }

  auto cats = parse_categories(o.categories);
  if (!cats.ok()) return cats.error();
  for (const auto& g : o.optional) {
    bool known = std::count(decl->optional_groups.begin(), decl->optional_groups.end(), g) ||
                 std::count(decl->dependency_groups.begin(), decl->dependency_groups.end(), g);
    if (!known) {
      std::vector<std::string> all = decl->optional_groups;
      all.insert(all.end(), decl->dependency_groups.begin(), decl->dependency_groups.end());
      std::string list;
      for (const auto& a : all) list += (list.empty() ? "" : ", ") + a;
      return bad_input("no optional group '" + g + "' in " + *path +
                       (list.empty() ? " (it has none)" : " (it has: " + list + ")"));
    }
  }

  // The marker environment may have to ask the python3 on PATH for its version: only when a
  // marker is there to evaluate.
  std::optional<declare::MarkerEnv> env;
  std::vector<Requirement> selected;
  for (const auto& r : decl->requirements) {
    if (std::find(cats->begin(), cats->end(), r.category) == cats->end()) continue;
    if (r.group && !o.all_optional &&
        std::find(o.optional.begin(), o.optional.end(), *r.group) == o.optional.end())
      continue;
    if (!r.marker.empty()) {
      if (!env) env = declare::host_marker_env(ctx);
      auto menv = *env;
      menv["extra"] = r.group.value_or("");
      auto m = declare::evaluate_marker(r.marker, menv);
      if (!m.ok()) return bad_input(r.where.str() + ": " + m.error().message);
      if (!*m) continue;
    }
    selected.push_back(r);
  }

  // A value that fails is blamed on the place that set it (a config file's line, a variable).
  auto blame = [](const std::string& from, Error e) {
    if (!from.empty() && from != "command line") e.message = from + ": " + e.message;
    return e;
  };
  auto tables = tables_for(ctx, settings->mapping_dirs.value_or(std::vector<std::string>{}));
  if (!tables.ok()) {
    bool folder = tables.error().message.rfind("mappings folder ", 0) == 0;
    return folder ? blame(settings->mapping_dirs_from, tables.error()) : tables.error();
  }
  // The machine the plan is for (cached; overrides applied), as locked virtual packages.
  detect::DetectOptions dopt;
  dopt.use_cache = !o.no_cache;
  dopt.host_file = o.host_file;
  auto host = detect::detect_host(ctx, dopt);
  if (!host.ok()) return host.error();
  // The tables as this release sees them: a derivative's own table, [id.release.X] overrides.
  mapping::select_for_host(*tables, mapping::HostRelease{host->os.id, host->os.id_like,
                                                         host->os.version_codename,
                                                         host->os.version_id});

  auto sources = sources_for(ctx, *settings, o.sources, request_names(*tables, selected), &*host, o.format);
  if (!sources.ok()) return sources.error();
  solve::Options sopt;
  sopt.managers = settings->managers.value_or(std::vector<std::string>{});
  sopt.use_cache = !o.no_cache;
  sopt.host = &*host;
  sopt.guess_unmapped = !o.no_guess;
  auto outcome = solve::resolve(ctx, selected, *tables, sources->providers, sopt);
  if (!outcome.ok()) {
    bool manager = outcome.error().message.rfind("unknown package manager", 0) == 0;
    return manager ? blame(settings->managers_from, outcome.error()) : outcome.error();
  }
  std::string on = o.host_file.empty()
                       ? host_text(ctx)
                       : (host->os.pretty_name.empty() ? host->os.id : host->os.pretty_name) + ", " +
                             host->dpkg_arch + " (facts from " + o.host_file + ")";
  Prepared p{*path, on, std::move(*outcome), {}, std::move(*host),
             std::make_shared<Sources>(std::move(*sources))};
  if (p.sources->renderer) {
    auto text = render_environment(*p.sources->renderer, p.outcome, o.format, *path);
    if (!text) return text.error();
    p.rendered = std::move(*text);
  }
  return p;
}

int cmd_show(Context& ctx, const std::string& text, const ShowOptions& o, std::ostream& out,
             std::ostream& err) {
  auto url = declare::parse_depurl(text);
  if (!url.ok()) {
    err << "error: " << text << ": " << url.error().message << '\n';
    return 2;
  }
  if (!o.cache_dir.empty()) ctx.set_cache_dir(o.cache_dir);
  // No declaration file here; the environment and the user's configuration still count.
  config::Settings cli_settings;
  if (!o.managers.empty()) cli_settings.managers = o.managers;
  if (!o.mapping_dirs.empty()) cli_settings.mapping_dirs = o.mapping_dirs;
  auto settings = config::load(ctx, "", cli_settings);
  if (!settings.ok()) {
    err << "error: " << settings.error().message << '\n';
    return static_cast<int>(settings.error().code);
  }
  auto tables = tables_for(ctx, settings->mapping_dirs.value_or(std::vector<std::string>{}));
  if (!tables.ok()) {
    err << "error: " << tables.error().message << '\n';
    return static_cast<int>(tables.error().code);
  }
  // The range after '@' counts as it does in a declaration: show answers as resolve would.
  auto range = declare::parse_range(url->version);
  if (!range.ok()) {
    err << "error: " << text << ": " << range.error().message << '\n';
    return 2;
  }
  // The machine as resolve sees it: its release, its driver, the nvcc it has.
  detect::DetectOptions dopt;
  dopt.use_cache = !o.no_cache;
  auto host = detect::detect_host(ctx, dopt);
  if (!host.ok()) {
    err << "error: " << host.error().message << '\n';
    return static_cast<int>(host.error().code);
  }
  mapping::select_for_host(*tables, mapping::HostRelease{host->os.id, host->os.id_like,
                                                         host->os.version_codename, host->os.version_id});
  const std::string id = url->id();
  const mapping::Entry* canonical = tables->find(id);
  nlohmann::json j;
  j["id"] = id;
  j["canonical_id"] = canonical ? canonical->id : id;
  j["mappings"] = nlohmann::json::array();
  bool any = false;
  if (!o.json) out << id << (canonical && canonical->id != id ? " (" + canonical->id + ")" : "") << '\n';
  for (const auto& t : tables->tables) {
    const mapping::Entry* e = t.find(id);
    if (!e) continue;
    any = true;
    nlohmann::json m{{"ecosystem", t.ecosystem}, {"table", t.path}};
    if (!o.json) out << "  " << t.ecosystem << " (" << e->where.str() << ")\n";
    for (Category c : {Category::build, Category::host, Category::run}) {
      auto it = e->by_category.find(c);
      if (it == e->by_category.end()) continue;
      nlohmann::json alts = nlohmann::json::array();
      std::string line;
      for (const auto& a : it->second) {
        alts.push_back(a.packages);
        std::string pk;
        for (const auto& p : a.packages) pk += (pk.empty() ? "" : " + ") + p;
        line += (line.empty() ? "" : " | ") + pk;
      }
      m[std::string(category_name(c))] = alts;
      if (!o.json) out << "    " << category_name(c) << ": " << (line.empty() ? "(none)" : line) << '\n';
    }
    if (!e->pkgconfig.empty()) {
      m["modules"] = e->pkgconfig;
      if (!o.json) {
        std::string l;
        for (const auto& x : e->pkgconfig) l += (l.empty() ? "" : " | ") + x;
        out << "    pkg-config: " << l << '\n';
      }
    }
    if (!e->note.empty()) {
      m["note"] = e->note;
      if (!o.json) out << "    note: " << e->note << '\n';
    }
    if (e->unverified) {
      m["unverified"] = true;
      if (!o.json) out << "    unverified: no real index confirmed these names\n";
    }
    j["mappings"].push_back(std::move(m));
  }
  if (!any) {
    auto s = mapping::did_you_mean(id, tables->known_ids());
    std::string hint;
    for (const auto& x : s) hint += (hint.empty() ? "" : ", ") + x;
    err << "error: no mapping table knows " << id << (hint.empty() ? "" : " (did you mean " + hint + "?)") << '\n';
    return 1;
  }
  // Candidates here: resolve the id alone for each category.
  Requirement probe;
  probe.url = *url;
  auto sources = sources_for(ctx, *settings, o.sources, request_names(*tables, {probe}), &*host);
  if (!sources.ok()) {
    err << "error: " << sources.error().message << '\n';
    return static_cast<int>(sources.error().code);
  }
  auto& providers = sources->providers;
  solve::Options sopt;
  sopt.managers = settings->managers.value_or(std::vector<std::string>{});
  sopt.use_cache = !o.no_cache;
  sopt.host = &*host;
  std::vector<Requirement> reqs;
  for (Category c : {Category::build, Category::host, Category::run}) {
    Requirement r;
    r.url = *url;
    r.range = *range;
    r.category = c;
    r.spec = text;
    reqs.push_back(r);
  }
  j["here"] = nlohmann::json::array();
  if (!o.json) out << "  here:\n";
  int rc = 0;  // 1 when a category has no plan here, as resolve would say for that need
  for (const auto& r : reqs) {
    auto outcome = solve::resolve(ctx, {r}, *tables, providers, sopt);
    if (!outcome.ok()) {
      err << "error: " << outcome.error().message << '\n';
      return static_cast<int>(outcome.error().code);
    }
    auto rj = plan::to_json(*outcome);
    j["here"].push_back(rj["requirements"][0]);
    const auto& ro = outcome->requirements[0];
    if (ro.status != plan::Status::planned && ro.status != plan::Status::satisfied) rc = 1;
    if (o.json) continue;
    out << "    " << category_name(r.category) << ": " << plan::status_name(ro.status);
    for (const auto& p : ro.packages)
      out << "  " << p.name << " " << p.version << (p.installed ? " (installed)" : " (" + p.manager + ")");
    if (!ro.message.empty()) out << "  " << ro.message;
    out << '\n';
    for (const auto& c : ro.candidates) out << "      candidate: " << c << '\n';
  }
  if (o.json) out << extdeps::json::dump(j, 2) << '\n';
  return rc;
}

}  // namespace extdeps::cli
