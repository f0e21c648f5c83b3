#include "core/config/command_options.h"

#include <CLI/CLI.hpp>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "core/engine/engine.h"
#include "core/provider/descriptor.h"
#include "core/util/text.h"
#include "core/version/version.h"

namespace extdeps::config {

namespace {

using C = Command;

constexpr std::uint32_t kPlanning = bit(C::resolve) | bit(C::check) | bit(C::install) | bit(C::env);
constexpr std::uint32_t kSources = kPlanning | bit(C::show);  // they load indexes

constexpr std::string_view kCommandWords[] = {"",
                                              "resolve",
                                              "check",
                                              "install",
                                              "env",
                                              "show",
                                              "version compare",
                                              "detect",
                                              "cache info",
                                              "cache clean",
                                              "providers",
                                              "config",
                                              "debug replay",
                                              "mappings lint",
                                              "mappings coverage",
                                              "mappings verify",
                                              "mappings import pep804",
                                              "mappings import rosdep",
                                              "mappings export pep804",
                                              "mappings diff",
                                              "search"};
static_assert(std::size(kCommandWords) == static_cast<std::size_t>(Command::count));

// resolve's --format names: core's, then the environment files the providers render.
std::vector<std::string> resolve_format_names() {
  std::vector<std::string> names{"text", "json"};
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& f : d->environment_formats) names.emplace_back(f.name);
  return names;
}

std::vector<std::string> env_format_names() { return {"sh", "json", "cmake"}; }

std::vector<std::string> detect_format_names() {
  std::vector<std::string> names{"text", "json", "variants"};
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& f : d->host_formats) names.emplace_back(f.name);
  return names;
}

std::vector<std::string> category_names() { return {"build", "host", "run"}; }

std::vector<std::string> manager_names() {
  std::vector<std::string> names;
  for (const ProviderDescriptor* d : provider_descriptors())
    if (!d->manager.empty()) names.emplace_back(d->manager);
  return names;
}

std::vector<std::string> scheme_names() {
  std::vector<std::string> names;
  for (const version::Scheme* s : version_schemes()) names.emplace_back(s->name);
  return names;
}

// resolve's --format: core's, then the environment files the providers render.
std::string resolve_formats() {
  std::vector<std::string> names{"text", "json"};
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& f : d->environment_formats)
      names.push_back(std::string(f.name) + " (" + std::string(f.help) + ")");
  return or_list(names);
}

}  // namespace

// detect's --format: core's, then the forms of the facts the providers' tools read.
std::string detect_formats_text(bool with_help) {
  std::vector<std::string> names{
      "text", "json", with_help ? "variants (the PEP 817 properties of an NVIDIA variant provider)" : "variants"};
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& f : d->host_formats)
      names.push_back(with_help ? std::string(f.name) + " (" + std::string(f.help) + ")" : std::string(f.name));
  return or_list(names);
}

namespace {

std::string detect_formats() { return detect_formats_text(true); }

// mappings import rosdep's --os: rosdep's OSes whose installer is a provider's manager.
std::string rosdep_oses() { return "the OS and release whose rules are kept: " + rosdep_os_forms_text(true); }

// mappings verify's --index: what the providers' readers take in place of this machine's.
std::string verify_indexes() {
  std::vector<std::string> reads;
  for (const ProviderDescriptor* d : provider_descriptors())
    if (d->verify_index && !d->verify_reads.empty()) reads.emplace_back(d->verify_reads);
  return "the index to read instead of this machine's, a file or URL (repeatable): " +
         (reads.empty() ? std::string("no provider of this build reads one") : join(reads, ", "));
}

// A RequestField's accessor: the field `M` of the request, or of its SourceOptions.
template <auto M>
auto& field(engine::Request& r) {
  return r.*M;
}
template <auto M>
auto& source(engine::Request& r) {
  return r.sources.*M;
}

using engine::Request;
using engine::SourceOptions;
using Api = api::Options;
using Session = api::SessionOptions;

constexpr CommandOption kTable[] = {
    {.name = "root",
     .value_name = "DIR",
     .commands = bit(C::global),
     .library = {.session_text = &Session::root},
     .help = "read the machine's files (package databases and lists, os-release) under DIR: a mounted image or chroot "
             "(default: $EXTDEPS_ROOT, else /)"},
    {.name = "quiet",
     .short_name = "q",
     .commands = bit(C::global),
     .help = "print no warnings, notes or progress on stderr: only the result and errors"},
    {.name = "verbose",
     .short_name = "v",
     .commands = bit(C::global),
     .help = "also print on stderr where the run's time went, phase by phase, when it ends"},
    {.name = "color",
     .value_name = "WHEN",
     .commands = bit(C::global),
     .help = "colour errors, warnings and a plan's statuses: auto (on a terminal, unless NO_COLOR is set or TERM is "
             "dumb), always or never",
     .values =
         [] {
           return std::vector<std::string>{"auto", "always", "never"};
         }},
    {.name = "manager",
     .value_name = "NAME",
     .commands = kSources,
     .list = true,
     .request = {.list = field<&Request::managers>},
     .library = {.list = &Api::managers},
     .help = "package managers in order of preference",
     .values = manager_names},
    {.name = "category",
     .value_name = "CATEGORY",
     .commands = kPlanning,
     .list = true,
     .request = {.list = field<&Request::categories>},
     .library = {.list = &Api::categories},
     .help = "categories to plan: build,host,run (default: all)",
     .values = category_names},
    {.name = "optional",
     .value_name = "GROUP",
     .commands = kPlanning,
     .list = true,
     .request = {.list = field<&Request::optional>},
     .library = {.list = &Api::optional_groups},
     .help = "also plan these optional groups or dependency groups"},
    {.name = "all-optional",
     .commands = kPlanning,
     .request = {.flag = field<&Request::all_optional>},
     .library = {.flag = &Api::all_optional},
     .help = "also plan every optional group"},
    {.name = "json", .commands = kPlanning, .help = "print JSON (schema/plan.schema.json)"},
    {.name = "json", .commands = bit(C::detect), .help = "print JSON (schema/detect.schema.json)"},
    {.name = "json",
     .commands = bit(C::show) | bit(C::providers) | bit(C::config) | bit(C::debug_replay) | bit(C::mappings_coverage) |
                 bit(C::mappings_diff) | bit(C::search),
     .help = "print JSON"},
    {.name = "explain", .commands = kPlanning, .help = "say what was considered and why"},
    {.name = "no-cache",
     .commands = kSources,
     .negated = true,
     .request = {.flag = field<&Request::use_cache>},
     .library = {.flag = &Api::use_cache},
     .help = "do not read or write the index cache"},
    {.name = "no-cache", .commands = bit(C::detect), .help = "do not read or write the cache"},
    {.name = "cache-dir",
     .value_name = "DIR",
     .commands = kSources | bit(C::cache_info) | bit(C::cache_clean) | bit(C::mappings_verify),
     .request = {.text = field<&Request::cache_dir>},
     .library = {.session_text = &Session::cache_dir},
     .help = "cache folder (default: $XDG_CACHE_HOME/extdeps)"},
    {.name = "mapping-dir",
     .value_name = "DIR",
     .commands = kSources | bit(C::mappings_lint) | bit(C::mappings_coverage) | bit(C::mappings_verify) |
                 bit(C::mappings_export_pep804) | bit(C::search),
     .request = {.list = field<&Request::mapping_dirs>},
     .library = {.list = &Api::mapping_dirs},
     .help = "extra mapping tables folder (repeatable)"},
    {.name = "use-mapping",
     .value_name = "FILE",
     .commands = kSources | bit(C::search),
     .request = {.list = source<&SourceOptions::use_mappings>},
     .library = {.list = &Api::use_mappings},
     .help = "use this mapping table (.toml) or PEP 804 mapping file (.json), as [ECOSYSTEM=]FILE, instead of the "
             "ecosystem's own (repeatable)"},
    {.name = "patch-mapping",
     .value_name = "FILE",
     .commands = kSources | bit(C::search),
     .request = {.list = source<&SourceOptions::patch_mappings>},
     .library = {.list = &Api::patch_mappings},
     .help = "replace the entries this mapping file ([ECOSYSTEM=]FILE) names in the ecosystem's table and add the "
             "others (repeatable)"},
    {.name = "extend-mapping",
     .value_name = "FILE",
     .commands = kSources | bit(C::search),
     .request = {.list = source<&SourceOptions::extend_mappings>},
     .library = {.list = &Api::extend_mappings},
     .help = "add the packages of this mapping file ([ECOSYSTEM=]FILE) after the ecosystem table's own, as more "
             "alternatives (repeatable)"},
    {.name = "no-guess",
     .commands = kPlanning,
     .negated = true,
     .request = {.flag = field<&Request::guess>},
     .help = "do not guess packages for ids no mapping table knows"},
    {.name = "host",
     .value_name = "FILE",
     .commands = kPlanning,
     .request = {.text = field<&Request::host_file>},
     .library = {.text = &Api::host_file},
     .help = "plan for the machine whose facts `extdeps detect --save FILE` wrote, not this one"},
    {.name = "host",
     .value_name = "FILE",
     .commands = bit(C::detect),
     .help = "show facts a `detect --save` wrote instead of this machine's"},
    {.name = "offline",
     .commands = kSources | bit(C::cache_info) | bit(C::cache_clean) | bit(C::mappings_verify),
     .request = {.flag = source<&SourceOptions::offline>},
     .library = {.flag = &Api::offline},
     .help = "use only cached downloads; fail where there is none"},
    {.name = "python",
     .value_name = "PATH",
     .commands = kSources,
     .request = {.text = source<&SourceOptions::python>},
     .library = {.text = &Api::python},
     .help = "the Python interpreter whose packages are planned (default: python3 on PATH)"},
    {.name = "system",
     .value_name = "ID[:VERSION]",
     .commands = kSources,
     .request = {.text = source<&SourceOptions::system>},
     .library = {.text = &Api::system},
     .help = "plan for this system, not the machine's: ID[:VERSION] as os-release names it (rocky:9, "
             "linuxmint:22) or macos:VERSION (macos:14)"},
    {.name = "format",
     .value_name = "FORMAT",
     .commands = bit(C::resolve),
     .help_text = resolve_formats,
     .values = resolve_format_names},
    {.name = "format",
     .value_name = "FORMAT",
     .commands = bit(C::env),
     .help = "sh, json or cmake (default: sh)",
     .values = env_format_names},
    {.name = "format",
     .value_name = "FORMAT",
     .commands = bit(C::detect),
     .help_text = detect_formats,
     .values = detect_format_names},
    {.name = "dump-testcase",
     .value_name = "DIR",
     .commands = bit(C::resolve),
     .request = {.text = field<&Request::dump_testcase_dir>},
     .help = "also write what a bug report needs into DIR: the libsolv testcase and the request (`extdeps debug "
             "replay DIR` solves it again)"},
    {.name = "yes", .short_name = "y", .commands = bit(C::install), .help = "do not ask"},
    {.name = "dry-run", .commands = bit(C::install), .help = "show the commands, run nothing"},
    {.name = "dry-run",
     .commands = bit(C::mappings_import_pep804) | bit(C::mappings_import_rosdep),
     .help = "with --merge-into: print what the merge would add and keep, write nothing"},
    {.name = "allow-removals",
     .commands = bit(C::install),
     .help = "run a plan that removes installed packages (one that conflicts with a need's package) "
             "without asking, also with --yes"},
    {.name = "scheme",
     .value_name = "SCHEME",
     .commands = bit(C::version_compare),
     .required = true,
     .help = "the version scheme",
     .values = scheme_names},  // the help names every scheme: core/cli adds version_scheme_names_text()
    {.name = "refresh", .commands = bit(C::detect), .help = "detect again and rewrite the cache"},
    {.name = "save",
     .value_name = "FILE",
     .commands = bit(C::detect),
     .help = "also write the facts as JSON to this file (for --host)"},
    {.name = "variables", .commands = bit(C::config), .help = "list every environment variable extdeps reads"},
    {.name = "ecosystem",
     .value_name = "NAME",
     .commands = bit(C::mappings_verify),
     .required = true,
     .help = "the table to verify, by its ecosystem (`extdeps mappings coverage` lists them)"},
    {.name = "ecosystem",
     .value_name = "NAME",
     .commands = bit(C::mappings_import_pep804),
     .help = "the table's ecosystem (default: from the file name)"},
    {.name = "ecosystem",
     .value_name = "NAME",
     .commands = bit(C::mappings_export_pep804),
     .required = true,
     .help = "the table to export, by its ecosystem (`extdeps mappings coverage` lists them)"},
    {.name = "release",
     .value_name = "RELEASE",
     .commands = bit(C::mappings_verify),
     .help = "the release whose names are checked (default: this machine's)"},
    {.name = "release",
     .value_name = "VERSION_ID",
     .commands = bit(C::mappings_export_pep804),
     .help = "the table as this release sees it, under PEP 804's versioned id ECOSYSTEM+VERSION_ID (os-release's "
             "VERSION_ID)"},
    {.name = "known-ecosystems",
     .value_name = "FILE",
     .commands = bit(C::mappings_export_pep804),
     .help = "also set the ecosystem's entry in this PEP 804 known-ecosystems.json (its other entries kept)"},
    {.name = "mapping-url",
     .value_name = "URL",
     .commands = bit(C::mappings_export_pep804),
     .help = "the URL --known-ecosystems gives the mapping (default: the file:// URL of --output)"},
    {.name = "index", .value_name = "FILE|URL", .commands = bit(C::mappings_verify), .help_text = verify_indexes},
    {.name = "os",
     .value_name = "OS:RELEASE",
     .commands = bit(C::mappings_import_rosdep),
     .required = true,
     .help_text = rosdep_oses},
    {.name = "output",
     .short_name = "o",
     .value_name = "FILE",
     .commands = bit(C::mappings_import_pep804) | bit(C::mappings_import_rosdep),
     .help = "write the table here (default: standard output; with --merge-into, that table)"},
    {.name = "merge-into",
     .value_name = "TABLE",
     .commands = bit(C::mappings_import_pep804) | bit(C::mappings_import_rosdep),
     .help = "add the ids this table lacks to it, keeping every entry it has as written, and report where the "
             "import says otherwise"},
    {.name = "output",
     .short_name = "o",
     .value_name = "FILE",
     .commands = bit(C::mappings_export_pep804),
     .help = "write the file here (default: standard output)"},
    // The library's own keys, of no command.
    {.name = "program",
     .value_name = "PATH",
     .library = {.session_text = &Session::program},
     .help = "the extdeps program that probes the NVIDIA driver (default: the one beside the library)"},
    {.name = "env",
     .value_name = "NAME=VALUE",
     .library = {.session_map = &Session::environment},
     .help = "a variable set over the process's environment"},
    {.name = "reset", .library = {.reset = true}, .help = "every option back to its default"},
};

const CommandOption& row(std::string_view name, Command c) {
  if (const CommandOption* o = command_option(name, c)) return *o;
  throw std::logic_error("the command '" + std::string(command_words(c)) + "' has no option --" + std::string(name) +
                         " in core/config/command_options.cc");
}

std::string flag_names(const CommandOption& o) {
  std::string names = "--" + std::string(o.name);
  if (!o.short_name.empty()) names = "-" + std::string(o.short_name) + "," + names;
  return names;
}

template <class T>
CLI::Option* add_valued(CLI::App& cmd, Command c, std::string_view name, T& target) {
  const CommandOption& o = row(name, c);
  if (o.value_name.empty())
    throw std::logic_error("--" + std::string(name) + " is a flag in core/config/command_options.cc, bound to a value");
  CLI::Option* added = cmd.add_option(flag_names(o), target, option_help(o));
  added->type_name(std::string(o.value_name));
  if (o.list) added->delimiter(',');
  // A repeatable option takes one value each time it is given: `--manager apt .` leaves the
  // folder to the command.
  if constexpr (!std::is_same_v<T, std::string>) added->allow_extra_args(false);
  if (o.required) added->required();
  return added;
}

}  // namespace

std::string_view command_words(Command c) { return kCommandWords[static_cast<unsigned>(c)]; }

std::span<const CommandOption> command_options() { return kTable; }

std::string option_help(const CommandOption& o) { return o.help_text ? o.help_text() : std::string(o.help); }

const CommandOption* command_option(std::string_view name, Command c) {
  for (const CommandOption& o : kTable)
    if (o.name == name && (o.commands & bit(c)) != 0) return &o;
  return nullptr;
}

std::string commands_with_option(std::string_view name) {
  if (name == "help") return "every command";
  if (name == "version") return "extdeps";
  std::uint32_t commands = 0;
  bool library_only = false;
  for (const CommandOption& o : kTable)
    if (o.name == name) {
      commands |= o.commands;
      library_only = library_only || o.commands == 0;
    }
  if (commands == 0 && library_only) return "the library's extdeps_session_set";
  std::string out;
  for (unsigned c = 0; c < static_cast<unsigned>(Command::count); ++c)
    if ((commands & (std::uint32_t{1} << c)) != 0) {
      if (!out.empty()) out += ", ";
      const std::string_view words = command_words(static_cast<Command>(c));
      out += words.empty() ? std::string_view("extdeps") : words;
    }
  return out;
}

CLI::Option* add_command_option(CLI::App& cmd, Command c, std::string_view name, bool& target) {
  const CommandOption& o = row(name, c);
  if (!o.value_name.empty())
    throw std::logic_error("--" + std::string(name) +
                           " takes a value in core/config/command_options.cc, bound to a flag");
  return cmd.add_flag(flag_names(o), target, option_help(o));
}

CLI::Option* add_command_option(CLI::App& cmd, Command c, std::string_view name, std::string& target) {
  return add_valued(cmd, c, name, target);
}

CLI::Option* add_command_option(CLI::App& cmd, Command c, std::string_view name, std::vector<std::string>& target) {
  return add_valued(cmd, c, name, target);
}

void add_request_options(CLI::App& cmd, Command c, engine::Request& request) {
  for (const CommandOption& o : kTable) {
    if ((o.commands & bit(c)) == 0 || !o.request.any()) continue;
    if (o.request.flag && o.negated)
      cmd.add_flag_callback(
          flag_names(o), [&request, f = o.request.flag] { f(request) = false; }, option_help(o));
    else if (o.request.flag) add_command_option(cmd, c, o.name, o.request.flag(request));
    else if (o.request.text) add_command_option(cmd, c, o.name, o.request.text(request));
    else add_command_option(cmd, c, o.name, o.request.list(request));
  }
}

const CommandOption* library_option(std::string_view name) {
  for (const CommandOption& o : kTable)
    if (o.name == name && o.library.any()) return &o;
  return nullptr;
}

namespace {

std::optional<bool> flag_value(std::string_view v) {
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off" || v.empty()) return false;
  return std::nullopt;
}

// `value` split at ',' where the row is a list (append_split); else the value itself.
void append_values(const CommandOption& o, std::string_view value, std::vector<std::string>& to) {
  if (!o.list) {
    to.emplace_back(value);
    return;
  }
  append_split(value, ',', to);
}

}  // namespace

std::string set_library_option(const CommandOption& o, std::string_view value, api::Options& options,
                               api::SessionOptions& session, bool& session_changed) {
  const LibraryField& f = o.library;
  const std::string key(o.name);
  if (f.flag) {
    const std::optional<bool> b = flag_value(value);
    if (!b) return "option '" + key + "' takes 1 or 0, not '" + std::string(value) + "'";
    options.*f.flag = o.negated ? !*b : *b;
  } else if (f.text) {
    options.*f.text = value;
  } else if (f.list) {
    append_values(o, value, options.*f.list);
  } else if (f.session_text) {
    session.*f.session_text = value;
    session_changed = true;
  } else if (f.session_map) {
    const std::size_t eq = value.find('=');
    if (eq == std::string_view::npos || eq == 0)
      return "option '" + key + "' takes NAME=VALUE, not '" + std::string(value) + "'";
    (session.*f.session_map)[std::string(value.substr(0, eq))] = value.substr(eq + 1);
    session_changed = true;
  } else if (f.reset) {
    options = {};
    session = {};
    session_changed = true;
  } else {
    throw std::logic_error("--" + key + " is no key of the library in core/config/command_options.cc");
  }
  return {};
}

void copy_library_options(const api::Options& options, engine::Request& request) {
  for (const CommandOption& o : kTable) {
    const LibraryField& f = o.library;
    const RequestField& r = o.request;
    if (f.flag && r.flag) r.flag(request) = options.*f.flag;
    else if (f.text && r.text) r.text(request) = options.*f.text;
    else if (f.list && r.list) r.list(request) = options.*f.list;
  }
  for (const auto& [name, values] : options.provider_options) request.sources.provider_options[name] = values;
}

}  // namespace extdeps::config
