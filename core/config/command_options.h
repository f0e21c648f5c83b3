// The options of extdeps' own commands, declared once. core/cli adds every named option of every
// command from this table (its name, short name, value name, help, list or not, required or
// not); a provider plugin may take none of its names (core/plugin/plugin.cc); the test
// CommandOptions.TheTableIsEveryOptionOfTheCli holds the table and the CLI equal, both ways.
// A row also says where its value goes: the engine::Request field the planning commands' flag
// sets, and the api::Options or api::SessionOptions field of its library key
// (extdeps_session_set); the CLI, the C API and api's Options-to-Request copy all follow those
// bindings, so no key is dispatched by hand anywhere.
// Providers' own options are not here: each descriptor declares its own (core/provider/descriptor.h).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "extdeps/extdeps.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace extdeps::engine {
struct Request;
}  // namespace extdeps::engine

namespace extdeps::config {

// Every command of the CLI that has options of its own.
enum class Command : unsigned {
  global,  // `extdeps` itself: options every command takes (--root)
  resolve,
  check,
  install,
  env,
  show,
  version_compare,
  detect,
  cache_info,
  cache_clean,
  providers,
  config,
  debug_replay,
  mappings_lint,
  mappings_coverage,
  mappings_verify,
  mappings_import_pep804,
  mappings_import_rosdep,
  mappings_export_pep804,
  mappings_diff,
  search,
  count
};

// The command as typed after `extdeps`: "" for global, "resolve", "mappings import pep804".
std::string_view command_words(Command c);

constexpr std::uint32_t bit(Command c) { return std::uint32_t{1} << static_cast<unsigned>(c); }

// Where a planning command's flag puts its value in engine::Request: one of the three. A flag
// with `negated` turns its field off (--no-cache: use_cache = false).
struct RequestField {
  bool& (*flag)(engine::Request&) = nullptr;
  std::string& (*text)(engine::Request&) = nullptr;
  std::vector<std::string>& (*list)(engine::Request&) = nullptr;
  bool any() const { return flag || text || list; }
};

// Where the library keeps a key's value: a field of api::Options (a plan's) or of
// api::SessionOptions (the Session's: setting one makes a new Session). At most one is set;
// `reset` is the key that sets every option back to its default.
struct LibraryField {
  bool api::Options::*flag = nullptr;
  std::string api::Options::*text = nullptr;
  std::vector<std::string> api::Options::*list = nullptr;  // appended to; split at ',' where the row is a list
  std::string api::SessionOptions::*session_text = nullptr;
  std::map<std::string, std::string> api::SessionOptions::*session_map = nullptr;  // NAME=VALUE
  bool reset = false;
  bool any() const { return flag || text || list || session_text || session_map || reset; }
};

struct CommandOption {
  std::string_view name;        // the long name, without "--"
  std::string_view short_name;  // one letter, without '-'; empty: none
  std::string_view value_name;  // empty: a flag (no value)
  std::uint32_t commands = 0;   // bit(Command) of each command that has it
  bool list = false;            // values separated by ','
  bool required = false;
  bool negated = false;  // a flag that turns its field off: --no-cache, no-cache=1
  // The field the planning commands (resolve, check, install, env) set; none: the command
  // binds it itself (--json, --format).
  RequestField request;
  // Also a key of the library (extdeps_session_set) with the same name: a flag as "1"/"0", a
  // list as comma-separated values. A row of no command (`commands` 0) is a key of the library
  // only (program, env, reset). None: not a key.
  LibraryField library;
  std::string_view help;
  // The help where it lists what the providers bring (their --format names); null: `help`.
  std::string (*help_text)() = nullptr;
  // The values it takes, where they are a known set (--format, --manager): what the shell
  // completions offer. Null: any value (a path where value_name says DIR, FILE or PATH).
  std::vector<std::string> (*values)() = nullptr;
};

// What --help says of option `o`.
std::string option_help(const CommandOption& o);

// What detect's --format may name: "text, json, variants, conda or uv", each with its help
// ("conda (...)") when `with_help`. Core's formats come first; a provider's of the same name is
// never reached.
std::string detect_formats_text(bool with_help);

// The table, in the order --help shows the options.
std::span<const CommandOption> command_options();

// The row for option `name` of command `c`; nullptr when that command has no such option.
const CommandOption* command_option(std::string_view name, Command c);

// The commands with an option of this name, as words ("resolve, check, install, env, show");
// empty when no command has one. CLI11's --help and extdeps --version are core names too
// ("every command", "extdeps").
std::string commands_with_option(std::string_view name);

// Adds option `name` of command `c` to `cmd` as the table declares it, bound to `target`. A name
// the table does not give `c` is a programming error (std::logic_error), which every test that
// builds the CLI meets.
CLI::Option* add_command_option(CLI::App& cmd, Command c, std::string_view name, bool& target);
CLI::Option* add_command_option(CLI::App& cmd, Command c, std::string_view name, std::string& target);
CLI::Option* add_command_option(CLI::App& cmd, Command c, std::string_view name, std::vector<std::string>& target);

// Adds every option of command `c` that has a RequestField, in the table's order, bound to its
// field of `request`.
void add_request_options(CLI::App& cmd, Command c, engine::Request& request);

// The library key `name`'s row; nullptr when there is none.
const CommandOption* library_option(std::string_view name);

// Sets library key `row` to `value` in `options` or `session` ("1"/"0" and the like for a flag).
// Returns an error for people when the value does not fit; `session_changed` is set when a
// SessionOptions field changed. A reset sets both to their defaults.
std::string set_library_option(const CommandOption& row, std::string_view value, api::Options& options,
                               api::SessionOptions& session, bool& session_changed);

// The planning request for the project at `path`, with every field of `options` that a row binds
// both ways (a library key and a RequestField) copied over, and the providers' options.
void copy_library_options(const api::Options& options, engine::Request& request);

}  // namespace extdeps::config
