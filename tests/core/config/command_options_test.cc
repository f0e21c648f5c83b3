// The table of the CLI's own options (core/config/command_options.h) against the CLI itself: every
// option `extdeps <command> --help` lists is a row of the table for that command, with its help,
// and every row is listed; a provider plugin may take no name of the table.
#include "core/config/command_options.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/cli/cli.h"
#include "core/context/context.h"
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

}  // namespace
}  // namespace extdeps::config
