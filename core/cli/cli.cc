#include "core/cli/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <istream>
#include <optional>
#include <ostream>

#include "core/cli/completion_command.h"
#include "core/cli/config_command.h"
#include "core/cli/debug_command.h"
#include "core/cli/detect_command.h"
#include "core/cli/env_command.h"
#include "core/cli/fail.h"
#include "core/cli/manual_command.h"
#include "core/cli/mappings_command.h"
#include "core/cli/providers_command.h"
#include "core/cli/run_options.h"
#include "core/cli/show_command.h"
#include "core/config/command_options.h"
#include "core/config/config.h"
#include "core/declare/declare.h"
#include "core/detect/cuda_probe.h"
#include "core/detect/process.h"
#include "core/fetch/cache_commands.h"
#include "core/fetch/options.h"
#include "core/json/document.h"
#include "core/plan/render.h"
#include "core/plugin/plugin.h"
#include "core/provider/descriptor.h"
#include "core/util/printable.h"
#include "core/util/text.h"
#include "core/util/timings.h"
#include "core/version/version.h"

namespace extdeps::cli {

namespace {

using config::add_command_option;
using config::Command;

// Every provider's options, from the descriptors, into `o`.
void add_provider_options(CLI::App* cmd, engine::SourceOptions& o) {
  for (const ProviderDescriptor* d : provider_descriptors()) {
    for (const auto& option : d->options) {
      // A name the command already has (a core option, or another provider's option of the same
      // name, whose values it shares) is not defined twice: CLI11 would throw.
      if (cmd->get_option_no_throw("--" + std::string(option.name)) != nullptr) continue;
      auto& values = o.provider_options[std::string(option.name)];
      std::string help = std::string(option.help) + " [" + std::string(d->name) + "]";
      auto* added = cmd->add_option("--" + std::string(option.name), values, help);
      if (!option.value_name.empty()) added->type_name(std::string(option.value_name));
      if (!option.list) added->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    }
  }
}

// The options of resolve, check, install and env: the table's, each bound to the Request field
// its row names, then --json and --explain, then the providers'.
void add_common(CLI::App* cmd, Command c, RunOptions& o) {
  engine::Request& r = o.request;
  cmd->add_option("path", r.path, "project folder or declaration file (default: .)");
  config::add_request_options(*cmd, c, r);
  add_command_option(*cmd, c, "json", o.json);
  add_command_option(*cmd, c, "explain", o.explain);
  add_provider_options(cmd, r.sources);
}

std::string sudo_for(const Context& ctx) { return ctx.is_root() ? "" : "sudo"; }

int print_outcome(const Context& ctx, const engine::Planned& p, const RunOptions& o, std::ostream& out) {
  timings::Phase t("output");
  if (!p.environment_file.empty()) {
    out << p.environment_file;
  } else if (o.json) {
    auto j = plan::to_json(p.outcome);
    j["declaration"] = p.declaration_path;
    out << extdeps::json::dump(j, 2) << '\n';
  } else {
    out << "extdeps: " << printable_text(p.declaration_path) << " on " << printable_text(p.host_text) << '\n' << '\n';
    plan::TextOptions t;
    t.colour = style().plan_colour;
    t.explain = o.explain;
    t.sudo = sudo_for(ctx);
    plan::print_text(p.outcome, t, out);
  }
  return p.outcome.ok() ? 0 : 1;
}

int cmd_resolve(Context& ctx, RunOptions& o, std::ostream& out, std::ostream& err) {
  if (o.format == "json") o.json = true;
  if (o.format == "json" || o.format == "text") o.format.clear();
  if (o.json && !o.format.empty()) {
    err << "error: --json and --format " << o.format << " cannot be used together (see extdeps --help)\n";
    return 2;
  }
  auto request = request_of(o);
  request.environment_format = o.format;
  auto p = engine::plan(ctx, request);
  if (!p.ok()) return fail(err, p.error(), o.json ? &out : nullptr);
  return print_outcome(ctx, *p, o, out);
}

int cmd_check(Context& ctx, RunOptions& o, std::ostream& out, std::ostream& err) {
  auto request = request_of(o);
  request.audit_python = !request.sources.python.empty();
  auto p = engine::plan(ctx, request);
  if (!p.ok()) return fail(err, p.error(), o.json ? &out : nullptr);
  bool all = std::all_of(p->outcome.requirements.begin(), p->outcome.requirements.end(),
                         [](const auto& r) { return r.status == plan::Status::satisfied; });
  if (o.json) {
    auto j = plan::to_json(p->outcome);
    j["declaration"] = p->declaration_path;
    j["satisfied"] = all;
    out << extdeps::json::dump(j, 2) << '\n';
    return all ? 0 : 1;
  }
  if (all) {
    out << "ok: every need of " << printable_text(p->declaration_path) << " is met (" << p->outcome.requirements.size()
        << " checked)\n";
    return 0;
  }
  size_t missing = 0;
  for (const auto& r : p->outcome.requirements)
    if (r.status != plan::Status::satisfied) ++missing;
  out << "missing: " << missing << " of " << p->outcome.requirements.size() << " needs of "
      << printable_text(p->declaration_path) << " are not met\n\n";
  plan::TextOptions t;
  t.colour = style().plan_colour;
  t.explain = o.explain;
  t.show_satisfied = false;
  t.sudo = sudo_for(ctx);
  plan::print_text(p->outcome, t, out);
  return 1;
}

int cmd_install(Context& ctx, RunOptions& o, bool yes, bool dry_run, bool allow_removals, std::ostream& out,
                std::ostream& err) {
  // The steps' own programs print to stdout as they run: JSON is for what a dry run shows.
  if (o.json && !dry_run) {
    const std::string msg = "install --json needs --dry-run: the steps' programs print their own output";
    return fail(err, worded(ExitCode::bad_input, msg, {}, msg, "", "add --dry-run, or use resolve --json"), &out);
  }
  auto p = engine::plan(ctx, request_of(o));
  if (!p.ok()) return fail(err, p.error(), o.json ? &out : nullptr);
  const auto& steps = p->outcome.steps;
  if (o.json) {  // --dry-run: the plan, as resolve --json prints it
    print_outcome(ctx, *p, o, out);
    if (p->outcome.ok()) return 0;
    err << "error: no plan meets every need; nothing was installed\n";
    return 1;
  }
  if (!p->outcome.ok()) {
    print_outcome(ctx, *p, o, out);
    err << "error: no plan meets every need; nothing was installed\n";
    return 1;
  }
  if (steps.empty()) {
    out << "nothing to install: every need of " << printable_text(p->declaration_path) << " is already met\n";
    return 0;
  }
  std::vector<std::vector<std::string>> commands;
  for (const auto& s : steps) commands.push_back(plan::command_line(s, sudo_for(ctx)));
  out << (commands.size() == 1 ? "1 step" : std::to_string(commands.size()) + " steps") << " to run:\n";
  for (size_t i = 0; i < commands.size(); ++i) out << "  " << (i + 1) << ". " << plan::shell_line(commands[i]) << '\n';
  const auto& removals = p->outcome.removals;
  if (!removals.empty()) {
    out << "they remove " << removals.size() << " installed package" << (removals.size() == 1 ? "" : "s") << ":\n";
    for (const auto& r : removals) out << "  " << plan::removal_text(r) << '\n';
  }
  // --yes answers for the steps, not for removals: those are asked for, or allowed by name.
  if (!removals.empty() && !allow_removals && !dry_run && (yes || !ctx.input())) {
    err << "error: this plan removes installed packages; nothing was run (pass --allow-removals to run it, "
        << "or --dry-run to see it)\n";
    return 1;
  }
  if (dry_run) {
    out << "dry run: nothing was run\n";
    return 0;
  }
  // Every step's program is looked for before the first one runs (and before asking): without
  // it the step would fail as the shell's "exit code 127", after the steps before it had run.
  auto on_path = [&ctx](const std::string& program) {
    return program.find('/') != std::string::npos || !detect::find_on_path(ctx, program).empty();
  };
  for (size_t i = 0; i < commands.size(); ++i) {
    const auto& argv = commands[i];
    // sudo's own PATH may differ (secure_path); the user's is the best guess there is.
    const bool sudo = argv.front() == "sudo" && argv.size() > 1;
    const std::string& program = on_path(argv.front()) && sudo ? argv[1] : argv.front();
    if (on_path(program)) continue;
    if (program == "sudo") {
      err << "error: step " << (i + 1) << " (" << steps[i].manager << ") needs root; this is not root and "
          << "there is no sudo on PATH, so nothing was run\n"
          << "  run `extdeps install` as root (in a container, as its root user), or install sudo and let "
          << "this user use it\n";
    } else {
      err << "error: step " << (i + 1) << " (" << steps[i].manager << ") runs " << printable_text(program)
          << ", which is not on PATH, so nothing was run\n";
    }
    return 3;
  }
  if (!yes) {
    std::istream* in = ctx.input();
    if (!in) {
      err << "error: not asking without a terminal; pass --yes to run the steps or --dry-run to see them\n";
      return 2;
    }
    out << "run " << (commands.size() == 1 ? "it" : "them")
        << (removals.empty() ? std::string()
                             : ", removing " + std::to_string(removals.size()) + " installed package" +
                                   (removals.size() == 1 ? "" : "s"))
        << "? [y/N] " << std::flush;
    std::string answer;
    std::getline(*in, answer);
    if (answer != "y" && answer != "Y" && answer != "yes") {
      out << "nothing was run\n";
      return 1;
    }
  }
  for (size_t i = 0; i < commands.size(); ++i) {
    out << "running step " << (i + 1) << ": " << plan::shell_line(commands[i]) << '\n' << std::flush;
    int rc = ctx.run_command(commands[i]);
    if (rc != 0) {
      err << "error: step " << (i + 1) << " (" << steps[i].manager << ") failed with exit code " << rc << ": "
          << plan::shell_line(commands[i]) << '\n';
      if (i + 1 < commands.size()) err << "the " << (commands.size() - i - 1) << " later step(s) were not run\n";
      return 3;
    }
  }
  out << "done: " << commands.size() << " step(s) ran\n";
  return 0;
}

int cmd_version_compare(const std::string& scheme_name, const std::string& a, const std::string& b, std::ostream& out,
                        std::ostream& err) {
  const version::Scheme* scheme = version_scheme_named(scheme_name);
  if (!scheme) {
    err << "error: unknown version scheme '" << scheme_name << "' (expected " << version_scheme_names_text() << ")\n";
    return 2;
  }
  for (const auto* v : {&a, &b}) {
    auto n = version::normalize(*scheme, *v);
    if (!n.ok()) {
      fail(err, n.error());
      return 2;
    }
  }
  int c = version::compare(*scheme, a, b);
  out << (c < 0 ? "<" : c > 0 ? ">" : "=") << '\n';
  return 0;
}

}  // namespace

// The subcommand the arguments name: the first that is not an option (nor the value of a global
// option that takes one, --root DIR, --color WHEN); empty when there is none (--help, --version).
std::string named_subcommand(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].starts_with("--") && args[i].find('=') == std::string::npos) {
      const auto* o = config::command_option(std::string_view(args[i]).substr(2), Command::global);
      if (o && !o->value_name.empty()) ++i;
      continue;
    }
    if (!args[i].empty() && args[i][0] == '-') continue;
    return args[i];
  }
  return {};
}

// The names of `app`'s subcommands, hidden ones too.
std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

// The command's words as typed: "extdeps mappings import".
std::string command_path(const CLI::App* app) {
  std::string words;
  for (; app; app = app->get_parent()) words = app->get_name() + (words.empty() ? "" : " " + words);
  return words;
}

// The closest of `names` to `word`, as " (did you mean 'X'?)"; else " (see extdeps help)".
std::string suggestion(std::string_view word, const std::vector<std::string>& names) {
  std::vector<std::string_view> views(names.begin(), names.end());
  auto near = declare::did_you_mean(word, views);
  return near ? " (did you mean '" + *near + "'?)" : " (see extdeps help)";
}

// The visible subcommands' names of `app`.
std::vector<std::string> shown_subcommands(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); }))
    names.push_back(sub->get_name());
  return names;
}

// CLI11's help of `app`, its usage line naming the whole command ("extdeps mappings import").
std::string help_of(const CLI::App& app) {
  return app.get_parent() ? app.help(command_path(app.get_parent())) : app.help();
}

// The subcommand parsing reached last: `extdeps mappings import` -> import.
CLI::App* deepest_selected(CLI::App& app) {
  CLI::App* cur = &app;
  for (auto subs = cur->get_subcommands(); !subs.empty(); subs = cur->get_subcommands()) cur = subs.front();
  return cur;
}

namespace {

// The command line: every command and option, bound to the values they set. Built for the
// command the arguments name (`named`), which alone gets the common and the providers' options;
// empty: every command gets them (--help, and what `extdeps completion` describes).
struct CommandLine {
  explicit CommandLine(const std::string& named);
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;
  // Runs the command parsing selected.
  int dispatch(Context& ctx, std::ostream& out, std::ostream& err);

  CLI::App app{"extdeps: plan what a project needs outside its language's package manager"};
  std::string root_dir;
  RunOptions ro;
  CLI::App *resolve, *check, *install, *env_cmd, *show, *compare, *cuda_probe_cmd, *detect_cmd;
  CLI::App *cache_info_cmd, *cache_clean_cmd, *providers_cmd, *config_cmd, *replay_cmd, *completion_cmd, *manual_cmd;
  bool yes = false, dry_run = false, allow_removals = false;
  std::string env_format = "sh";
  ShowOptions so;
  std::string scheme, va, vb;  // --scheme is required
  DetectCommandOptions detect_options;
  fetch::FetchFlags cache_flags;
  bool providers_json = false;
  std::string config_path;
  bool config_json = false, config_variables = false;
  std::string replay_dir;
  bool replay_json = false;
  std::string completion_shell;
  std::optional<MappingsCommand> mappings;
  bool quiet = false, verbose = false;
  std::string color = "auto";
  CLI::App *help_cmd, *search_cmd;
  ShowOptions search_options;
  std::vector<std::string> help_words;
};

CommandLine::CommandLine(const std::string& named) {
  app.name("extdeps");
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("extdeps ") + EXTDEPS_VERSION);
  // Adding the common and the providers' options to five commands was a twentieth of a warm resolve.
  auto gets_options = [&named](std::string_view command) { return named.empty() || named == command; };

  add_command_option(app, Command::global, "root", root_dir);
  add_command_option(app, Command::global, "quiet", quiet);
  add_command_option(app, Command::global, "verbose", verbose);
  add_command_option(app, Command::global, "color", color);
  // A global option may follow the subcommand too: `extdeps resolve --root /mnt/image`.
  app.fallthrough();
  resolve = app.add_subcommand("resolve", "plan how to meet a project's [external] needs");
  if (gets_options("resolve")) add_common(resolve, Command::resolve, ro);
  add_command_option(*resolve, Command::resolve, "format", ro.format);
  check = app.add_subcommand("check", "exit 0 when every need is already met, else 1");
  if (gets_options("check")) add_common(check, Command::check, ro);
  install = app.add_subcommand("install", "run the plan's commands, after asking");
  if (gets_options("install")) add_common(install, Command::install, ro);
  add_command_option(*install, Command::install, "yes", yes);
  add_command_option(*install, Command::install, "dry-run", dry_run);
  add_command_option(*install, Command::install, "allow-removals", allow_removals);
  env_cmd = app.add_subcommand("env", "what a build needs to find the needs that are met");
  if (gets_options("env")) add_common(env_cmd, Command::env, ro);
  add_command_option(*env_cmd, Command::env, "format", env_format);
  show = app.add_subcommand("show", "a DepURL's mappings and candidates here, or the ids that name a package");
  show->add_option("depurl", so.request.depurl, "e.g. dep:generic/libxml2, or a package name: libpq-dev")->required();
  add_command_option(*show, Command::show, "json", so.json);
  add_command_option(*show, Command::show, "manager", so.request.managers);
  add_command_option(*show, Command::show, "mapping-dir", so.request.mapping_dirs);
  add_command_option(*show, Command::show, "no-cache", so.no_cache);
  add_command_option(*show, Command::show, "cache-dir", so.request.cache_dir);
  if (gets_options("show")) {
    add_command_option(*show, Command::show, "offline", so.request.sources.offline);
    add_command_option(*show, Command::show, "python", so.request.sources.python);
    add_command_option(*show, Command::show, "system", so.request.sources.system);
    add_command_option(*show, Command::show, "use-mapping", so.request.sources.use_mappings);
    add_command_option(*show, Command::show, "patch-mapping", so.request.sources.patch_mappings);
    add_command_option(*show, Command::show, "extend-mapping", so.request.sources.extend_mappings);
    add_provider_options(show, so.request.sources);
  }
  search_cmd = app.add_subcommand("search", "the ids whose id, aliases, package names or notes hold a word");
  search_cmd->add_option("word", search_options.request.depurl, "e.g. postgres")->required();
  add_command_option(*search_cmd, Command::search, "json", search_options.json);
  add_command_option(*search_cmd, Command::search, "mapping-dir", search_options.request.mapping_dirs);
  add_command_option(*search_cmd, Command::search, "use-mapping", search_options.request.sources.use_mappings);
  add_command_option(*search_cmd, Command::search, "patch-mapping", search_options.request.sources.patch_mappings);
  add_command_option(*search_cmd, Command::search, "extend-mapping", search_options.request.sources.extend_mappings);
  auto* version_cmd = app.add_subcommand("version", "version tools for maintainers");
  version_cmd->require_subcommand(1);
  compare = version_cmd->add_subcommand("compare", "print <, = or > for two versions");
  add_command_option(*compare, Command::version_compare, "scheme", scheme)->description(version_scheme_names_text());
  compare->add_option("a", va)->required();
  compare->add_option("b", vb)->required();

  // The driver probe's child (core/detect/cuda_probe.h); not for people, so not in --help.
  cuda_probe_cmd = app.add_subcommand("__probe-cuda", "")->group("");
  detect_cmd = app.add_subcommand("detect", "print what extdeps knows about this machine");
  add_command_option(*detect_cmd, Command::detect, "json", detect_options.json);
  add_command_option(*detect_cmd, Command::detect, "refresh", detect_options.refresh);
  add_command_option(*detect_cmd, Command::detect, "no-cache", detect_options.no_cache);
  add_command_option(*detect_cmd, Command::detect, "save", detect_options.save);
  add_command_option(*detect_cmd, Command::detect, "format", detect_options.format);
  add_command_option(*detect_cmd, Command::detect, "host", detect_options.host_file);
  auto* cache_cmd = app.add_subcommand("cache", "what extdeps keeps in its cache folder");
  cache_cmd->require_subcommand(1);
  cache_info_cmd = cache_cmd->add_subcommand("info", "list the downloads and other caches: age, size");
  fetch::add_fetch_flags(*cache_info_cmd, Command::cache_info, cache_flags);
  cache_clean_cmd = cache_cmd->add_subcommand("clean", "remove the downloads and other caches");
  fetch::add_fetch_flags(*cache_clean_cmd, Command::cache_clean, cache_flags);
  providers_cmd = app.add_subcommand("providers", "the package managers extdeps plans with: options, variables");
  add_command_option(*providers_cmd, Command::providers, "json", providers_json);
  config_cmd = app.add_subcommand("config", "the settings for a project, each with where its value came from");
  config_cmd->add_option("path", config_path, "a project folder or declaration file (default: none)");
  add_command_option(*config_cmd, Command::config, "json", config_json);
  add_command_option(*config_cmd, Command::config, "variables", config_variables);
  auto* debug_cmd = app.add_subcommand("debug", "tools for bug reports");
  debug_cmd->require_subcommand(1);
  replay_cmd =
      debug_cmd->add_subcommand("replay", "solve a `resolve --dump-testcase` folder again, without the indexes");
  replay_cmd->add_option("dir", replay_dir, "the folder --dump-testcase wrote")->required();
  add_command_option(*replay_cmd, Command::debug_replay, "json", replay_json);
  mappings.emplace(app);
  completion_cmd = app.add_subcommand("completion", "print a shell's completion script for extdeps");
  completion_cmd->add_option("shell", completion_shell, "bash, zsh or fish")
      ->required()
      ->check(CLI::IsMember(completion_shells()));
  manual_cmd =
      app.add_subcommand("manual", "print the manual page (roff, for man): every command, option and variable");
  help_cmd = app.add_subcommand("help", "print the help of extdeps or of a command: extdeps help mappings import");
  help_cmd->add_option("command", help_words, "the command's words");
}

// `extdeps help [WORDS...]`: the help of the command the words name, from a command line built
// for it (so that its options are all there).
int cmd_help(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
  const CommandLine line(words.empty() ? "" : words.front());
  const CLI::App* cur = &line.app;
  for (const std::string& w : words) {
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : cur->get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); }))
      if (sub->get_name() == w) next = sub;
    if (!next) {
      Error e = bad_input("unknown command '" + w + "' for '" + command_path(cur) + "'" +
                          suggestion(w, shown_subcommands(*cur)));
      e.what = w;
      e.hint = "see extdeps help";
      return fail(err, e);
    }
    cur = next;
  }
  out << help_of(*cur);
  return 0;
}

int CommandLine::dispatch(Context& ctx, std::ostream& out, std::ostream& err) {
  // --root over EXTDEPS_ROOT over the configuration's `root` (applied by engine::plan).
  if (root_dir.empty())
    if (auto v = ctx.env("EXTDEPS_ROOT"); v && !v->empty()) root_dir = *v;
  if (!root_dir.empty()) {
    auto root = engine::check_root(root_dir);
    if (!root.ok()) return fail(err, root.error());
    ctx.set_root(*root);
    ro.request.root_given = true;
  }
  if (*help_cmd) return cmd_help(help_words, out, err);
  if (*resolve) return cmd_resolve(ctx, ro, out, err);
  if (*check) return cmd_check(ctx, ro, out, err);
  if (*install) return cmd_install(ctx, ro, yes, dry_run, allow_removals, out, err);
  if (*env_cmd) return cmd_env(ctx, ro, ro.json ? "json" : env_format, out, err);
  if (*show) return cmd_show(ctx, so, out, err);
  if (*search_cmd) return cmd_search(ctx, search_options, out, err);
  if (*compare) return cmd_version_compare(scheme, va, vb, out, err);
  if (*config_cmd) return cmd_config(ctx, config_path, config_variables, config_json, out, err);
  if (*detect_cmd) {
    // The user's configuration counts for detect too (detect-ttl, probe-timeout).
    auto settings = config::load(ctx, "", {});
    if (!settings.ok()) return fail(err, settings.error());
    config::apply_to(ctx, *settings);
    return cmd_detect(ctx, detect_options, out, err);
  }
  if (*cuda_probe_cmd) return detect::run_cuda_probe(out);
  if (mappings->selected()) return mappings->run(ctx, out, err);
  if (*providers_cmd) return cmd_providers(providers_json, out);
  if (*replay_cmd) return cmd_debug_replay(replay_dir, replay_json, out, err);
  if (*completion_cmd) {
    const CommandLine every("");  // every command with every option, as --help shows them
    return cmd_completion(every.app, completion_shell, out);
  }
  if (*manual_cmd) {
    const CommandLine every("");
    return cmd_manual(every.app, out);
  }
  if (*cache_info_cmd || *cache_clean_cmd) {
    auto fo = fetch::options_for(ctx, cache_flags);
    if (!fo.ok()) return fail(err, fo.error());
    auto r = *cache_info_cmd ? fetch::cache_info(ctx, fo->cache_dir, out) : fetch::cache_clean(ctx, fo->cache_dir, out);
    return r.ok() ? 0 : fail(err, r.error());
  }
  return 2;
}

// How messages look, from the words alone, so that a usage error is styled too: colour on a
// terminal unless NO_COLOR (no-color.org) or TERM=dumb; --color and -q as typed.
Style style_of(const Context& ctx, const std::vector<std::string>& args) {
  std::string color = "auto";
  bool quiet = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--color" && i + 1 < args.size()) color = args[i + 1];
    else if (args[i].starts_with("--color=")) color = args[i].substr(8);
    else if (args[i] == "-q" || args[i] == "--quiet") quiet = true;
  }
  const auto no_color = ctx.env("NO_COLOR");
  const auto term = ctx.env("TERM");
  const bool allowed = !(no_color && !no_color->empty()) && !(term && *term == "dumb");
  const bool colour = color == "always" || (color == "auto" && ctx.stderr_is_terminal() && allowed);
  const bool plan_colour = color == "always" || (color == "auto" && ctx.stdout_is_terminal() && allowed);
  return {.colour = colour, .plan_colour = plan_colour, .quiet = quiet};
}

// A parse error in extdeps's own style, not CLI11's banner (docs/exit-codes.md: 2 is usage),
// with a near name for what CLI11 did not expect (`--jsn`, `mappings lnt`); a command group
// without its subcommand (`extdeps mappings`) prints its help, as a bare `extdeps` does.
int parse_failed(CLI::App& app, const CLI::ParseError& e, std::ostream& out, std::ostream& err) {
  if (e.get_exit_code() == 0) return app.exit(e, out, err);  // --help
  CLI::App* reached = deepest_selected(app);
  // `extdeps mappings` with no subcommand of its own: its help, as for a bare `extdeps`;
  // `extdeps mappings lnt`: a word that names none of its subcommands.
  if (dynamic_cast<const CLI::RequiredError*>(&e) && reached != &app &&
      std::string_view(e.what()).find("subcommand") != std::string_view::npos) {
    const auto left = app.remaining(true);
    if (left.empty() || left.front().starts_with("-")) {
      out << help_of(*reached);
      return 0;
    }
    Error unknown = bad_input("unknown command '" + left.front() + "' for '" + command_path(reached) + "'" +
                              suggestion(left.front(), shown_subcommands(*reached)));
    unknown.what = left.front();
    unknown.hint = "see extdeps help";
    return fail(err, unknown);
  }
  std::string message = lower_first(e.what()), what = message;
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    const std::string_view text = e.what();
    const std::string word(text.substr(text.find(": ") == std::string_view::npos ? 0 : text.find(": ") + 2));
    std::vector<std::string> names;
    if (word.starts_with("-")) {
      for (const CLI::App* a = reached; a; a = a->get_parent())
        for (const CLI::Option* o : a->get_options())
          for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
      message = "unknown option " + word + " for '" + command_path(reached) + "'" + suggestion(word, names);
    } else if (!shown_subcommands(*reached).empty()) {
      message = "unknown command '" + word + "' for '" + command_path(reached) + "'" +
                suggestion(word, shown_subcommands(*reached));
    } else {
      message += " (see extdeps help)";
    }
    what = word;
  } else {
    message += " (see extdeps help)";
  }
  Error usage = bad_input(message);
  usage.what = what;
  usage.hint = "see extdeps help";
  return fail(err, usage);
}

int run_command_line(Context& ctx, const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  // Provider plugins first: their options are flags of the commands below.
  {
    timings::Phase t("plugins");
    plugin::discover(ctx);
  }
  set_style(style_of(ctx, args));
  std::optional<timings::Phase> parse_time;
  parse_time.emplace("cli");
  const std::string named = named_subcommand(args);
  CommandLine line(named);
  // A bare `extdeps` (or one with global options only) is asked for its help.
  const bool asks = std::any_of(args.begin(), args.end(),
                                [](const std::string& a) { return a == "-h" || a == "--help" || a == "--version"; });
  if (named.empty() && !asks) {
    const CommandLine every("");
    out << every.app.help();
    return 0;
  }
  // `extdeps resolv`: CLI11 would say only that a subcommand is required.
  if (!named.empty()) {
    const auto names = subcommand_names(line.app);
    if (std::find(names.begin(), names.end(), named) == names.end()) {
      Error e = bad_input("unknown command '" + named + "'" + suggestion(named, shown_subcommands(line.app)));
      e.what = named;
      e.hint = "see extdeps help";
      return fail(err, e);
    }
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    line.app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return parse_failed(line.app, e, out, err);
  }
  parse_time.reset();
  if (line.color != "auto" && line.color != "always" && line.color != "never") {
    Error e = bad_input("--color takes auto, always or never, got '" + line.color + "'");
    e.what = line.color;
    e.expected = "auto, always or never";
    return fail(err, e);
  }
  {
    const bool colour = style().colour;
    if (line.quiet) {
      ctx.set_warning_sink(nullptr);
      ctx.set_stderr_is_terminal(false);  // no progress line either
    } else if (colour) {
      if (const auto& inner = ctx.warning_sink())
        ctx.set_warning_sink([inner](std::string_view m) { inner(coloured_warning(m)); });
    }
    if (line.verbose) timings::enable();
  }
  try {
    return line.dispatch(ctx, out, err);
  } catch (const std::exception& e) {
    err << "error: internal error: " << e.what() << '\n';
    return 3;
  }
}

}  // namespace

int run(Context& ctx, const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    return run_command_line(ctx, args, out, err);
  } catch (const CLI::ConstructionError& e) {
    // Two definitions of one option (a provider's option named like a core one, which describe
    // refuses and add_sources skips, so only a new core option could get here): never an abort.
    err << "error: internal error: the command line could not be built: " << printable_text(e.what()) << '\n';
    return 3;
  } catch (const std::logic_error& e) {
    // An option added that core/config/command_options.cc does not give its command.
    err << "error: internal error: " << printable_text(e.what()) << '\n';
    return 3;
  }
}

}  // namespace extdeps::cli
