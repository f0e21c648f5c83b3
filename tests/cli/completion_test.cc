// `extdeps completion bash|zsh|fish`: each script is loaded into its real shell and asked what
// it completes, as the shell's completion system would ask it (bash: COMP_LINE and COMP_POINT;
// fish: `complete -C`; zsh: the completion widget's words and CURRENT, with the widget-only
// builtins as recording functions, since zsh runs compadd only under a terminal's widget). The
// expected words come from the command table and the descriptors, not from the script. zsh and
// fish are skipped, saying so, where they are not installed (scripts/install-deps.sh installs them).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/cli/cli.h"
#include "core/config/command_options.h"
#include "core/provider/descriptor.h"
#include "tests/support/cli_fixture.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

std::set<std::string> lines_of(const std::string& text) {
  std::set<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(start, nl - start);
    if (auto tab = line.find('\t'); tab != std::string::npos) line.resize(tab);  // fish's "word<TAB>help"
    if (!line.empty()) out.insert(line);
    start = nl + 1;
  }
  return out;
}

using test::command_output;

class CompletionTest : public test::CliFixture {
 protected:
  std::string script(const std::string& shell) {
    auto r = run({"completion", shell});
    EXPECT_EQ(r.rc, 0) << r.err;
    const std::string path = test::temp_dir() + "/extdeps." + shell;
    std::ofstream(path) << r.out;
    return path;
  }

  // Runs `shell` on a driver script (its text `driver`, saved beside the scripts) with `arg` as
  // its first argument: what it prints, one word a line.
  std::set<std::string> ask(const std::string& shell, const std::string& driver, const std::string& arg) {
    const std::string path = test::temp_dir() + "/ask-" + shell.substr(0, shell.find(' '));
    std::ofstream(path) << driver;
    std::string quoted_arg = "'";
    for (char c : arg) quoted_arg += c == '\'' ? std::string("'\\''") : std::string(1, c);
    auto out = command_output(shell + " " + path + " " + quoted_arg + "'");
    EXPECT_TRUE(out.has_value()) << shell << ": " << arg;
    return out ? lines_of(*out) : std::set<std::string>{};
  }

  // What bash offers for the command line `line`, the cursor at its end.
  std::set<std::string> bash(const std::string& line) {
    if (bash_.empty()) bash_ = script("bash");
    return ask("bash --norc --noprofile",
               "source " + bash_ +
                   "\nCOMP_LINE=$1\nCOMP_POINT=${#COMP_LINE}\n_extdeps\n"
                   "[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\\n' \"${COMPREPLY[@]}\"\n",
               line);
  }

  // What fish offers (`complete -C`).
  std::set<std::string> fish(const std::string& line) {
    if (fish_.empty()) fish_ = script("fish");
    return ask("fish --no-config", "source " + fish_ + "\ncomplete -C \"$argv[1]\"\n", line);
  }

  // What zsh's widget would be handed for the command line `line` (the last word completed).
  std::set<std::string> zsh(const std::string& line) {
    if (zsh_.empty()) zsh_ = script("zsh");
    const std::string driver =
        "compdef() { :; }\n"
        "_describe() { print -rl -- \"${(@P)4}\"; }\n"
        "compadd() { print -rl -- \"${(@P)2}\"; }\n"
        "_files() { print -r -- @files; }\n"
        "compset() { :; }\n"
        "source " +
        zsh_ +
        "\n"
        "words=(${(z)1})\n"
        "[[ $1 == *' ' ]] && words+=('')\n"
        "CURRENT=${#words}\n"
        "_extdeps\n";
    std::set<std::string> offered;
    for (const std::string& w : ask("zsh -f", driver, line)) {
      // _describe's "word:help", the word's own colons escaped
      std::string word;
      for (std::size_t i = 0; i < w.size() && w[i] != ':'; ++i)
        word += w[i] == '\\' && i + 1 < w.size() ? w[++i] : w[i];
      offered.insert(word);
    }
    return offered;
  }

  static std::set<std::string> starting(const std::set<std::string>& all, const std::string& prefix) {
    std::set<std::string> out;
    for (const auto& w : all)
      if (w.rfind(prefix, 0) == 0) out.insert(w);
    return out;
  }

  std::string bash_, fish_, zsh_;
};

std::set<std::string> resolve_formats() {
  std::set<std::string> want{"text", "json"};
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& f : d->environment_formats) want.emplace(f.name);
  return want;
}

TEST_F(CompletionTest, AnUnknownShellIsAUsageError) {
  auto r = run({"completion", "tcsh"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("tcsh"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bash"), std::string::npos) << r.err;
}

TEST_F(CompletionTest, BashOffersCommandsOptionsAndValues) {
  EXPECT_EQ(bash("extdeps res"), (std::set<std::string>{"resolve"}));
  EXPECT_EQ(bash("extdeps c"), (std::set<std::string>{"check", "cache", "config", "completion"}));
  // A flag takes no value: the word after it is an option again, not the flag's value.
  EXPECT_EQ(bash("extdeps resolve --json --mana"), (std::set<std::string>{"--manager"}));
  EXPECT_EQ(bash("extdeps __p"), std::set<std::string>{});  // the driver probe's child is hidden
  EXPECT_EQ(bash("extdeps mappings import "), (std::set<std::string>{"pep804", "rosdep"}));
  EXPECT_EQ(bash("extdeps resolve --for"), (std::set<std::string>{"--format"}));
  EXPECT_EQ(bash("extdeps resolve --format "), resolve_formats());
  EXPECT_EQ(bash("extdeps resolve --format=js"), (std::set<std::string>{"json"}));
  EXPECT_EQ(bash("extdeps env --format "), (std::set<std::string>{"sh", "json", "cmake"}));
  EXPECT_EQ(bash("extdeps check --category b"), (std::set<std::string>{"build"}));
  EXPECT_EQ(bash("extdeps check --category host,r"), (std::set<std::string>{"host,run"}));
  EXPECT_EQ(bash("extdeps completion "), (std::set<std::string>{}));  // a positional of known words is not offered
  // --root's value is skipped and --root falls through to every command; --version is extdeps's alone.
  auto install = bash("extdeps --root / install -");
  EXPECT_TRUE(install.count("-y") && install.count("--yes") && install.count("--root") && install.count("--help"));
  EXPECT_FALSE(install.count("--version"));
  EXPECT_TRUE(bash("extdeps -").count("--version"));
  // A folder's value: folders only.
  const std::string dir = test::temp_dir() + "/c";
  fs::create_directories(dir + "/abc");
  std::ofstream(dir + "/abd") << "";
  EXPECT_EQ(bash("extdeps resolve --cache-dir " + dir + "/ab"), (std::set<std::string>{dir + "/abc"}));
  EXPECT_EQ(bash("extdeps resolve --python " + dir + "/ab"), (std::set<std::string>{dir + "/abc", dir + "/abd"}));
  EXPECT_EQ(bash("extdeps debug replay " + dir + "/ab"), (std::set<std::string>{dir + "/abc"}));
}

TEST_F(CompletionTest, BashOffersTheManagersBuiltIn) {
  std::set<std::string> managers;
  for (const ProviderDescriptor* d : provider_descriptors())
    if (!d->manager.empty()) managers.emplace(d->manager);
  EXPECT_EQ(bash("extdeps resolve --manager "), managers);
  EXTDEPS_NEEDS_PROVIDER("conda");
  EXTDEPS_NEEDS_PROVIDER("apt");
  EXPECT_EQ(bash("extdeps resolve --manager apt,co"), (std::set<std::string>{"apt,conda"}));
}

// Every option of the table, under every command that has it, and every provider option of the
// planning commands: the script is the command line's, not a copy.
TEST_F(CompletionTest, BashOffersEveryOptionOfTheTableAndTheProviders) {
  for (const config::CommandOption& o : config::command_options()) {
    for (unsigned c = 0; c < static_cast<unsigned>(config::Command::count); ++c) {
      if ((o.commands & config::bit(static_cast<config::Command>(c))) == 0) continue;
      const std::string words(config::command_words(static_cast<config::Command>(c)));
      const std::string flag = "--" + std::string(o.name);
      EXPECT_TRUE(bash("extdeps " + words + (words.empty() ? "" : " ") + flag).count(flag)) << words << " " << flag;
    }
  }
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& option : d->options) {
      const std::string flag = "--" + std::string(option.name);
      EXPECT_TRUE(bash("extdeps resolve " + flag).count(flag)) << flag;
    }
}

TEST_F(CompletionTest, FishOffersTheSameWithHelp) {
  if (!fs::exists("/usr/bin/fish")) GTEST_SKIP() << "fish is not installed (apt-get install fish)";
  EXPECT_EQ(fish("extdeps res"), (std::set<std::string>{"resolve"}));
  EXPECT_EQ(fish("extdeps mappings import "), (std::set<std::string>{"pep804", "rosdep"}));
  EXPECT_EQ(starting(fish("extdeps resolve --for"), "--"), (std::set<std::string>{"--format"}));
  EXPECT_EQ(fish("extdeps resolve --format "), resolve_formats());
  EXPECT_EQ(fish("extdeps resolve --format=js"), (std::set<std::string>{"--format=json"}));
  EXPECT_EQ(fish("extdeps check --category host,r"), (std::set<std::string>{"host,run"}));
  auto install = fish("extdeps --root / install -");
  EXPECT_TRUE(install.count("--yes") && install.count("--root") && install.count("--dry-run"));
  EXPECT_FALSE(install.count("--version"));
  // The help is shown beside each word.
  auto out =
      command_output("fish --no-config -c 'source " + script("fish") + "; complete -C \"extdeps resolve --dump\"'");
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->find("--dump-testcase\talso write what a bug report needs"), std::string::npos) << *out;
  const std::string dir = test::temp_dir() + "/f";
  fs::create_directories(dir + "/abc");
  std::ofstream(dir + "/abd") << "";
  EXPECT_EQ(fish("extdeps resolve --cache-dir " + dir + "/ab"), (std::set<std::string>{dir + "/abc/"}));
}

TEST_F(CompletionTest, ZshOffersTheSame) {
  if (!fs::exists("/usr/bin/zsh")) GTEST_SKIP() << "zsh is not installed (apt-get install zsh)";
  EXPECT_TRUE(command_output("zsh -n " + script("zsh")).has_value());
  EXPECT_EQ(zsh("extdeps res"),
            (std::set<std::string>{"resolve", "check", "install", "env", "show", "version", "detect", "cache",
                                   "providers", "config", "debug", "mappings", "completion", "manual", "help",
                                   "search"}));  // zsh filters what it is handed
  EXPECT_EQ(zsh("extdeps mappings import "), (std::set<std::string>{"pep804", "rosdep"}));
  EXPECT_EQ(zsh("extdeps resolve --format "), resolve_formats());
  EXPECT_EQ(zsh("extdeps check --category host,r"), (std::set<std::string>{"host,build", "host,host", "host,run"}));
  EXPECT_EQ(zsh("extdeps resolve --cache-dir "), (std::set<std::string>{"@files"}));  // _files -/
  auto install = zsh("extdeps --root / install -");
  EXPECT_TRUE(install.count("--yes") && install.count("-y") && install.count("--root"));
  EXPECT_FALSE(install.count("--version"));
}

}  // namespace
}  // namespace extdeps
