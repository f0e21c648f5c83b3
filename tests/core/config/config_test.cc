// Configuration files and their precedence (core/config): where values come from and how the
// paths they name are read.
#include "core/config/config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

namespace fs = std::filesystem;

TEST(ConfigTest, RelativeMappingDirsAreRelativeToTheFileThatNamesThem) {
  std::string dir = test::temp_dir();
  fs::create_directories(dir + "/proj");
  std::ofstream(dir + "/proj/pyproject.toml") << "[project]\nname = \"x\"\n\n"
                                                 "[tool.extdeps]\nmapping-dirs = [\"maps\", \"/abs/maps\"]\n";
  auto s = config::read_file(dir + "/proj/pyproject.toml", true);
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_TRUE(s->mapping_dirs);
  EXPECT_EQ(*s->mapping_dirs, (std::vector<std::string>{dir + "/proj/maps", "/abs/maps"}));
  EXPECT_EQ(s->mapping_dirs_from, dir + "/proj/pyproject.toml:5:16");
}

TEST(ConfigTest, PrecedenceIsCommandLineThenEnvironmentThenProjectThenUser) {
  std::string dir = test::temp_dir();
  fs::create_directories(dir + "/xdg/extdeps");
  std::ofstream(dir + "/xdg/extdeps/config.toml") << "managers = [\"conda\"]\nmapping-dirs = [\"m\"]\n";
  std::ofstream(dir + "/pyproject.toml") << "[tool.extdeps]\nmanagers = [\"apt\", \"conda\"]\n";
  std::map<std::string, std::string> env{{"XDG_CONFIG_HOME", dir + "/xdg"}};
  auto ctx = Context::for_test("/", env);
  auto s = config::load(ctx, dir + "/pyproject.toml", {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(*s->managers, (std::vector<std::string>{"apt", "conda"}));
  EXPECT_EQ(s->managers_from, dir + "/pyproject.toml:2:12");
  // The user's file still gives what the project does not set, relative to its own folder.
  EXPECT_EQ(*s->mapping_dirs, (std::vector<std::string>{dir + "/xdg/extdeps/m"}));

  env["EXTDEPS_MANAGERS"] = "pixi, apt";
  ctx = Context::for_test("/", env);
  s = config::load(ctx, dir + "/pyproject.toml", {});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s->managers, (std::vector<std::string>{"pixi", "apt"}));
  EXPECT_EQ(s->managers_from, "EXTDEPS_MANAGERS");

  config::Settings cli;
  cli.managers = std::vector<std::string>{"apt"};
  cli.managers_from = "command line";
  s = config::load(ctx, dir + "/pyproject.toml", cli);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s->managers, (std::vector<std::string>{"apt"}));
}

TEST(ConfigTest, BadValuesNameTheFileLineAndColumn) {
  EXTDEPS_NEEDS_EVERY_PROVIDER();  // its output lists them all
  std::string dir = test::temp_dir();
  std::ofstream(dir + "/pyproject.toml") << "[tool.extdeps]\nmanagers = \"apt\"\n";
  auto s = config::read_file(dir + "/pyproject.toml", true);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, dir + "/pyproject.toml:2:12: 'managers' must be an array of strings");
  std::ofstream(dir + "/pyproject.toml") << "[tool.extdeps]\nmanager = [\"apt\"]\n";
  s = config::read_file(dir + "/pyproject.toml", true);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            dir +
                "/pyproject.toml:2:11: unknown configuration key 'manager' (known: managers, mapping-dirs, offline, "
                "plugin-timeout, detect-ttl, probe-timeout, max-download-size, max-download-total, "
                "download-deadline, allow-insecure-http, system, use-mapping, patch-mapping, extend-mapping, "
                "python-version, conda-channels, conda-frontend, "
                "nix-frontend, "
                "nix-timeout, pypi-frontend, pacman-config, pacman-dbs, dnf-repos, dnf-frontend, homebrew-api, "
                "homebrew-prefix, root)");
}

// The providers' options (their descriptors' config keys and variables) by the same precedence:
// the command line, the first variable set, the project, the user.
TEST(ConfigTest, ProviderOptionsComeFromTheirDescriptorsPlaces) {
  EXTDEPS_NEEDS_PROVIDER("conda");
  EXTDEPS_NEEDS_PROVIDER("pypi");
  std::string dir = test::temp_dir();
  fs::create_directories(dir + "/xdg/extdeps");
  std::ofstream(dir + "/xdg/extdeps/config.toml") << "conda-channels = [\"user-channel\"]\n";
  std::ofstream(dir + "/pyproject.toml") << "[tool.extdeps]\nconda-channels = [\"nvidia\", \"conda-forge\"]\n";
  std::map<std::string, std::string> env{{"XDG_CONFIG_HOME", dir + "/xdg"}};
  auto s = config::load(Context::for_test("/", env), "", {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->provider_options.at("channel").values, (std::vector<std::string>{"user-channel"}));
  EXPECT_EQ(s->provider_options.at("channel").from, dir + "/xdg/extdeps/config.toml:1:18");

  s = config::load(Context::for_test("/", env), dir + "/pyproject.toml", {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->provider_options.at("channel").values, (std::vector<std::string>{"nvidia", "conda-forge"}));
  EXPECT_EQ(s->provider_options.at("channel").from, dir + "/pyproject.toml:2:18");
  EXPECT_FALSE(s->provider_options.count("index-url"));

  // A list variable splits on the option's separators; one that splits into nothing is unset.
  env["EXTDEPS_CONDA_CHANNELS"] = " , ";
  s = config::load(Context::for_test("/", env), dir + "/pyproject.toml", {});
  EXPECT_EQ(s->provider_options.at("channel").from, dir + "/pyproject.toml:2:18");
  env["EXTDEPS_CONDA_CHANNELS"] = " pytorch,nvidia  conda-forge ";
  env["PIP_INDEX_URL"] = "http://127.0.0.1:9/simple";
  env["PIP_EXTRA_INDEX_URL"] = "http://a.example/simple  http://b.example/simple";
  s = config::load(Context::for_test("/", env), dir + "/pyproject.toml", {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->provider_options.at("channel").values, (std::vector<std::string>{"pytorch", "nvidia", "conda-forge"}));
  EXPECT_EQ(s->provider_options.at("channel").from, "EXTDEPS_CONDA_CHANNELS");
  EXPECT_EQ(s->provider_options.at("index-url").values, (std::vector<std::string>{"http://127.0.0.1:9/simple"}));
  EXPECT_EQ(s->provider_options.at("extra-index-url").values,
            (std::vector<std::string>{"http://a.example/simple", "http://b.example/simple"}));
  EXPECT_EQ(s->provider_options.at("extra-index-url").from, "PIP_EXTRA_INDEX_URL");

  config::Settings cli;
  cli.provider_options["channel"] = OptionValue{{"https://host.example/ch"}, "--channel"};
  s = config::load(Context::for_test("/", env), dir + "/pyproject.toml", cli);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->provider_options.at("channel").values, (std::vector<std::string>{"https://host.example/ch"}));
  EXPECT_EQ(s->provider_options.at("channel").from, "--channel");

  // A plain option is a string in a file, a list option an array.
  std::ofstream(dir + "/pyproject.toml") << "[tool.extdeps]\nconda-channels = \"conda-forge\"\n";
  s = config::read_file(dir + "/pyproject.toml", true);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, dir + "/pyproject.toml:2:18: 'conda-channels' must be an array of strings");
}

}  // namespace
}  // namespace extdeps
