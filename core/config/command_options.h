// The options of extdeps' own commands, declared once. core/cli adds every named option of every
// command from this table (its name, short name, value name, help, list or not, required or
// not); a provider plugin may take none of its names (core/plugin/plugin.cc); the test
// CommandOptions.TheTableIsEveryOptionOfTheCli holds the table and the CLI equal, both ways.
// Providers' own options are not here: each descriptor declares its own (core/provider/descriptor.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

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
  count
};

// The command as typed after `extdeps`: "" for global, "resolve", "mappings import pep804".
std::string_view command_words(Command c);

constexpr std::uint32_t bit(Command c) { return std::uint32_t{1} << static_cast<unsigned>(c); }

struct CommandOption {
  std::string_view name;        // the long name, without "--"
  std::string_view short_name;  // one letter, without '-'; empty: none
  std::string_view value_name;  // empty: a flag (no value)
  std::uint32_t commands = 0;   // bit(Command) of each command that has it
  bool list = false;            // values separated by ','
  bool required = false;
  // Also a key of the library (extdeps_session_set, for api::Options or SessionOptions): the
  // same name, a flag as "1"/"0", a list as comma-separated values.
  bool library = false;
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

}  // namespace extdeps::config
