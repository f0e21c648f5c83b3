// The table of the CLI's own options (core/config/command_options.h) against the CLI itself: every
// option `extdeps <command> --help` lists is a row of the table for that command, with its help,
// and every row is listed; a provider plugin may take no name of the table.
#include "core/config/command_options.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/cli/cli.h"
#include "core/context/context.h"
#include "core/engine/engine.h"
#include "core/json/document.h"
#include "core/plugin/plugin.h"
#include "core/provider/descriptor.h"
#include "core/version/version.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps::config {
namespace {

// The options a command's --help lists: "--name" -> the line.
std::map<std::string, std::string> listed_options(const std::string& words) {
  std::vector<std::string> args;
  std::istringstream w(words);
  for (std::string word; w >> word;) args.push_back(word);
  args.push_back("--help");
  auto ctx = Context::for_test("/", {{"EXTDEPS_PLUGIN_PATH", test::temp_dir()}, {"PATH", ""}});
  std::ostringstream out, err;
  EXPECT_EQ(cli::run(ctx, args, out, err), 0) << words << ": " << err.str();
  std::map<std::string, std::string> found;
  std::istringstream lines(out.str());
  bool in_options = false;
  for (std::string line; std::getline(lines, line);) {
    if (line == "Options:") in_options = true;
    else if (line.empty() || line.back() == ':') in_options = line == "Options:";
    if (!in_options || !line.starts_with("  -")) continue;
    // "  -y,--yes   do not ask": the names are the first column.
    std::string names = line.substr(2, line.find("  ", 2) - 2);
    names = names.substr(0, names.find(' '));
    const auto dashes = names.find("--");
    if (dashes != std::string::npos) found[names.substr(dashes + 2)] = line;
  }
  return found;
}

TEST(CommandOptions, TheTableIsEveryOptionOfTheCli) {
  std::set<std::string> provider_options, index_aliases;
  for (const ProviderDescriptor* d : provider_descriptors()) {
    for (const auto& o : d->options) provider_options.insert(std::string(o.name));
    if (!d->verify_index_flag.empty()) index_aliases.insert(std::string(d->verify_index_flag));
  }
  for (unsigned i = 0; i < static_cast<unsigned>(Command::count); ++i) {
    const auto c = static_cast<Command>(i);
    const std::string words(command_words(c));
    const auto listed = listed_options(words);
    ASSERT_FALSE(listed.empty()) << "'" << words << " --help' lists no options";
    for (const auto& [name, line] : listed) {
      if (name == "help" || (c == Command::global && name == "version")) continue;
      if (provider_options.count(name) && !command_option(name, c)) continue;
      if (c == Command::mappings_verify && index_aliases.count(name)) {
        // A provider's name for --index (conda's --repodata).
        EXPECT_NE(line.find("the same as --index"), std::string::npos) << line;
        continue;
      }
      const CommandOption* row = command_option(name, c);
      ASSERT_NE(row, nullptr) << "'" << words << "' has --" << name << ", which the table does not give it";
      const std::string help =
          c == Command::version_compare && name == "scheme" ? version_scheme_names_text() : std::string(row->help);
      EXPECT_NE(line.find(help), std::string::npos) << line;
      if (!row->value_name.empty()) EXPECT_NE(line.find(" " + std::string(row->value_name)), std::string::npos) << line;
      if (!row->short_name.empty())
        EXPECT_NE(line.find("-" + std::string(row->short_name) + ","), std::string::npos) << line;
    }
    for (const CommandOption& row : command_options())
      if ((row.commands & bit(c)) != 0)
        EXPECT_TRUE(listed.count(std::string(row.name))) << "'" << words << " --help' does not list --" << row.name;
  }
}

// Each name of the table, and --help and --version: a plugin's option of that name is refused as a
// usage error (exit 2) that names the plugin and the core option with its commands.
TEST(CommandOptions, APluginOptionNamedLikeAnyCommandOptionIsRefused) {
  std::set<std::string> names{"help", "version"};
  for (const CommandOption& row : command_options()) names.insert(std::string(row.name));
  ASSERT_GE(names.size(), 30u);
  for (const std::string& name : names) {
    const std::string path = "/opt/plugins/extdeps-provider-clash";
    nlohmann::json m;
    ASSERT_FALSE(json::parse_document(R"({"protocol":1,"name":"clash","ecosystem":"clash","scheme":"segments",
                                          "options":[{"name":")" +
                                          name + R"(","help":"x"}]})",
                                      m));
    auto d = plugin::descriptor_of(m, path);
    ASSERT_FALSE(d.ok()) << name;
    EXPECT_EQ(d.error().code, ExitCode::bad_input) << name;
    const std::string& message = d.error().message;
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find("an option named '" + name + "', which is extdeps' own --" + name + " (of " +
                           commands_with_option(name) + ")"),
              std::string::npos)
        << message;
  }
  EXPECT_EQ(commands_with_option("system"), "resolve, check, install, env, show");
  EXPECT_EQ(commands_with_option("root"), "extdeps");
  EXPECT_EQ(commands_with_option("site-index"), "");
}

// What a row's RequestField holds in `r`, as text: the flag as 0/1, a list joined by '|'.
std::string field_text(const CommandOption& o, engine::Request& r) {
  if (o.request.flag) return o.request.flag(r) ? "1" : "0";
  if (o.request.text) return o.request.text(r);
  std::string out;
  for (const std::string& v : o.request.list(r)) out += v + "|";
  return out;
}

bool same_field(const RequestField& a, const RequestField& b) {
  return a.flag == b.flag && a.text == b.text && a.list == b.list;
}

// Every row that is both a planning flag and a library key puts its value in the same field of
// engine::Request whichever way it comes: `extdeps resolve --NAME VALUE` (the CLI's binding) and
// extdeps_session_set(NAME, VALUE) followed by api's copy into the request. The value changes
// that field and no other; a list key takes "a,b" as two values, a negated flag turns its field
// off. A row bound one way only is a row of one surface (cache-dir and root are the Session's).
TEST(CommandOptions, EachKeyReachesTheSameRequestFieldFromTheCliAndTheLibrary) {
  std::size_t both = 0;
  for (const CommandOption& o : command_options()) {
    if (!o.request.any() || (o.commands & bit(Command::resolve)) == 0) continue;
    const std::string value = o.list ? "a,b" : "v";
    engine::Request from_cli;
    CLI::App app;
    add_request_options(app, Command::resolve, from_cli);
    std::vector<std::string> args{"--" + std::string(o.name)};
    if (!o.value_name.empty()) args.push_back(value);
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    ASSERT_NO_THROW(app.parse(args)) << o.name;
    engine::Request probe;
    EXPECT_NE(field_text(o, from_cli), field_text(o, probe)) << o.name << ": the flag changed nothing";
    if (o.list) EXPECT_EQ(field_text(o, from_cli), "a|b|") << o.name;
    if (o.request.flag) EXPECT_EQ(o.request.flag(from_cli), !o.negated) << o.name;
    for (const CommandOption& other : command_options())
      if (other.request.any() && !same_field(other.request, o.request))
        EXPECT_EQ(field_text(other, from_cli), field_text(other, probe)) << o.name << " also set " << other.name;
    const LibraryField& f = o.library;
    if (!f.flag && !f.text && !f.list) continue;  // not in api::Options
    ++both;
    api::Options options;
    api::SessionOptions session;
    bool session_changed = false;
    EXPECT_EQ(set_library_option(o, o.value_name.empty() ? "1" : value, options, session, session_changed), "")
        << o.name;
    EXPECT_FALSE(session_changed) << o.name;
    engine::Request from_library;
    copy_library_options(options, from_library);
    for (const CommandOption& any : command_options())
      if (any.request.any())
        EXPECT_EQ(field_text(any, from_library), field_text(any, from_cli)) << "--" << o.name << ": " << any.name;
  }
  EXPECT_GE(both, 10u);
}

// The library's own keys have no flag: no command lists them, --help of none shows them, a
// plugin may not take them (extdeps_session_set could not tell the two apart).
TEST(CommandOptions, TheLibrarysOwnKeysAreNoCommandsButAreTaken) {
  for (const std::string_view name : {"program", "env", "reset"}) {
    const CommandOption* o = library_option(name);
    ASSERT_NE(o, nullptr) << name;
    EXPECT_EQ(o->commands, 0u) << name;
    EXPECT_EQ(commands_with_option(name), "the library's extdeps_session_set") << name;
  }
  EXPECT_EQ(library_option("json"), nullptr);
  EXPECT_EQ(library_option("no-guess"), nullptr);
  EXPECT_NE(library_option("no-cache"), nullptr);
}

}  // namespace
}  // namespace extdeps::config
