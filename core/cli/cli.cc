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
  t.explain = o.explain;
  t.show_satisfied = false;
  t.sudo = sudo_for(ctx);
  plan::print_text(p->outcome, t, out);
  return 1;
}

int cmd_install(Context& ctx, RunOptions& o, bool yes, bool dry_run, bool allow_removals, std::ostream& out,
                std::ostream& err) {
  auto p = engine::plan(ctx, request_of(o));
  if (!p.ok()) return fail(err, p.error(), o.json ? &out : nullptr);
  const auto& steps = p->outcome.steps;
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

// The subcommand the arguments name: the first that is not an option (nor --root's value); empty
// when there is none (--help, --version).
std::string named_subcommand(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--root") {
      ++i;
      continue;
    }
    if (!args[i].empty() && args[i][0] == '-') continue;
    return args[i];
  }
  return {};
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
};

CommandLine::CommandLine(const std::string& named) {
  app.name("extdeps");
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("extdeps ") + EXTDEPS_VERSION);
  // Adding the common and the providers' options to five commands was a twentieth of a warm resolve.
  auto gets_options = [&named](std::string_view command) { return named.empty() || named == command; };

  add_command_option(app, Command::global, "root", root_dir);
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
  show = app.add_subcommand("show", "a DepURL's mappings and candidates here");
  show->add_option("depurl", so.request.depurl, "e.g. dep:generic/libxml2")->required();
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
  if (*resolve) return cmd_resolve(ctx, ro, out, err);
  if (*check) return cmd_check(ctx, ro, out, err);
  if (*install) return cmd_install(ctx, ro, yes, dry_run, allow_removals, out, err);
  if (*env_cmd) return cmd_env(ctx, ro, ro.json ? "json" : env_format, out, err);
  if (*show) return cmd_show(ctx, so, out, err);
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

int run_command_line(Context& ctx, const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  // Provider plugins first: their options are flags of the commands below.
  {
    timings::Phase t("plugins");
    plugin::discover(ctx);
  }
  std::optional<timings::Phase> parse_time;
  parse_time.emplace("cli");
  CommandLine line(named_subcommand(args));
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    line.app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return line.app.exit(e, out, err);  // --help
    // One line in extdeps's own style, not CLI11's banner (docs/exit-codes.md: 2 is usage).
    Error usage = bad_input(lower_first(e.what()) + " (see extdeps --help)");
    usage.what = lower_first(e.what());
    usage.hint = "see extdeps --help";
    return fail(err, usage);
  }
  parse_time.reset();
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
