// Channels, .condarc and subdirs: names and URLs to base URLs, the YAML subset of .condarc
// (tests/data/conda/condarc), where the list comes from, and conda's subdir for a platform.
#include "providers/conda/channels.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/test_support.h"

namespace extdeps::conda {
namespace {

namespace fs = std::filesystem;
using Strings = std::vector<std::string>;

Strings urls(const std::vector<Channel>& channels) {
  Strings out;
  for (const auto& c : channels) out.push_back(c.url);
  return out;
}

Strings names(const std::vector<Channel>& channels) {
  Strings out;
  for (const auto& c : channels) out.push_back(c.name);
  return out;
}

TEST(CondaChannels, NamesResolveAgainstTheAliasAndUrlsStayAsTheyAre) {
  auto forge = resolve_channel("conda-forge", kDefaultChannelAlias);
  ASSERT_TRUE(forge.ok());
  EXPECT_EQ(*forge, (std::vector<Channel>{{"conda-forge", "https://conda.anaconda.org/conda-forge"}}));
  EXPECT_EQ(urls(*resolve_channel("bioconda/label/dev", "https://mirror.example/conda/")),
            (Strings{"https://mirror.example/conda/bioconda/label/dev"}));
  EXPECT_EQ(*resolve_channel(" https://my.host/channel/ ", kDefaultChannelAlias),
            (std::vector<Channel>{{"https://my.host/channel", "https://my.host/channel"}}));
  EXPECT_EQ(*resolve_channel("file:///srv/channel", kDefaultChannelAlias),
            (std::vector<Channel>{{"file:///srv/channel", "file:///srv/channel"}}));
  EXPECT_EQ(*resolve_channel("/srv/local-channel/", kDefaultChannelAlias),
            (std::vector<Channel>{{"/srv/local-channel", "file:///srv/local-channel"}}));
  EXPECT_EQ(urls(*resolve_channel("defaults", kDefaultChannelAlias)),
            (Strings{"https://repo.anaconda.com/pkgs/main", "https://repo.anaconda.com/pkgs/r"}));
  for (const char* bad : {"", "conda forge", "../etc", "a//b", "forge!", "https://", "/"}) {
    auto r = resolve_channel(bad, kDefaultChannelAlias);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code, ExitCode::bad_input);
    EXPECT_EQ(r.error().message,
              "invalid conda channel '" + std::string(bad) + "' (expected a name such as conda-forge, or a URL)");
  }
}

TEST(CondaChannels, ReadsTheCondarcSubset) {
  auto mini = read_condarc(extdeps::test::data_path("conda/condarc/miniforge.condarc"));
  ASSERT_TRUE(mini.ok()) << mini.error().message;
  ASSERT_TRUE(mini->has_value());
  EXPECT_EQ((*mini)->channels, (Strings{"conda-forge"}));
  EXPECT_FALSE((*mini)->channel_alias);

  auto full = read_condarc(extdeps::test::data_path("conda/condarc/full.condarc"));
  ASSERT_TRUE(full.ok()) << full.error().message;
  EXPECT_EQ((*full)->channels, (Strings{"bioconda", "conda-forge", "https://my.mirror.example/extra/", "defaults"}));
  EXPECT_EQ((*full)->channel_alias, "https://mirror.example/conda");

  auto flow = read_condarc(extdeps::test::data_path("conda/condarc/flow.condarc"));
  ASSERT_TRUE(flow.ok()) << flow.error().message;
  EXPECT_EQ((*flow)->channels, (Strings{"conda-forge", "nvidia", "pytorch"}));
  EXPECT_EQ((*flow)->channel_alias, "https://alias.example");

  auto absent = read_condarc(extdeps::test::temp_dir() + "/.condarc");
  ASSERT_TRUE(absent.ok());
  EXPECT_FALSE(absent->has_value());

  auto other = parse_condarc("ssl_verify: false\nchannels: []\n", "x");
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->channels, Strings{});  // set, and empty
  auto none = parse_condarc("# nothing\n\nssl_verify: true\n", "x");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->channels);
  // Windows line ends, and a repeated key replaces the earlier list.
  auto crlf = parse_condarc("channels:\r\n  - a\r\nchannels:\r\n  - b\r\n  - c # note\r\n", "x");
  ASSERT_TRUE(crlf.ok()) << crlf.error().message;
  EXPECT_EQ(crlf->channels, (Strings{"b", "c"}));
}

std::string condarc_error(const std::string& text) {
  auto r = parse_condarc(text, "/home/u/.condarc");
  if (r.ok()) return "(no error)";
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  return r.error().message;
}

TEST(CondaChannels, CondarcErrorsNameLineAndColumn) {
  EXPECT_EQ(condarc_error("channels: conda-forge\n"),
            "/home/u/.condarc:1:11: channels is 'conda-forge', not a list (expected '- name' lines below it, or "
            "[name, ...])");
  EXPECT_EQ(condarc_error("channels:\n  conda-forge\n"),
            "/home/u/.condarc:2:3: 'conda-forge' under channels (expected '- name')");
  EXPECT_EQ(condarc_error("channels:\n  -\n"), "/home/u/.condarc:2:3: empty channel entry (expected '- name')");
  EXPECT_EQ(condarc_error("channels:\n\t- conda-forge\n"),
            "/home/u/.condarc:2:1: tab in the indentation (expected spaces, as YAML requires)");
  EXPECT_EQ(condarc_error("  - conda-forge\n"),
            "/home/u/.condarc:1:3: indented line outside any key (expected 'key: value' before it)");
  EXPECT_EQ(condarc_error("channels: [a, b\n"),
            "/home/u/.condarc:1:11: channels list does not end with ']' on its line (expected [name, ...])");
  EXPECT_EQ(condarc_error("channels: [a,, b]\n"), "/home/u/.condarc:1:14: empty channel entry (expected [name, ...])");
  EXPECT_EQ(condarc_error("channels:\n  - 'conda-forge\n"),
            "/home/u/.condarc:2:5: unterminated quoted string (expected a closing ')");
  EXPECT_EQ(condarc_error("channels:\n  - 'a' b\n"),
            "/home/u/.condarc:2:8: text after the closing quote (expected nothing more)");
  EXPECT_EQ(condarc_error("channels:\n  - {url: x}\n"),
            "/home/u/.condarc:2:5: '{url: x}' is not a plain name (expected a name or a URL)");
  EXPECT_EQ(condarc_error("just text\n"), "/home/u/.condarc:1:1: 'just text' is not a 'key: value' line");
  EXPECT_EQ(condarc_error("channel_alias:\n"), "/home/u/.condarc:1:1: channel_alias has no value (expected a URL)");
  // Whatever is under another key is not ours to judge.
  EXPECT_EQ(condarc_error("custom_multichannels:\n\tweird: [\n  - x\nchannels:\n  - a\n"), "(no error)");
}

struct Homes {
  std::string home = extdeps::test::temp_dir() + "/home";
  std::string prefix = extdeps::test::temp_dir() + "/env";
  Homes() {
    fs::create_directories(home);
    fs::create_directories(prefix + "/conda-meta");
  }
  void home_rc(const std::string& text) const { std::ofstream(home + "/.condarc") << text; }
  void prefix_rc(const std::string& text) const { std::ofstream(prefix + "/.condarc") << text; }
  Context ctx(std::map<std::string, std::string> more = {}) const {
    more.emplace("HOME", home);
    more.emplace("CONDA_PREFIX", prefix);
    return Context::for_test("/", more);
  }
};

TEST(CondaChannels, ConfigComesFromTheFirstPlaceThatSetsIt) {
  auto plain = channel_config(Context::for_test("/"), nullptr);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(names(plain->channels), (Strings{"conda-forge"}));
  EXPECT_EQ(urls(plain->channels), (Strings{"https://conda.anaconda.org/conda-forge"}));
  EXPECT_EQ(plain->source, "the default (conda-forge)");
  EXPECT_EQ(plain->channel_alias, "https://conda.anaconda.org");

  Homes h;
  h.home_rc(extdeps::test::read_file(extdeps::test::data_path("conda/condarc/full.condarc")));
  auto home = channel_config(h.ctx(), nullptr);
  ASSERT_TRUE(home.ok()) << home.error().message;
  EXPECT_EQ(home->source, h.home + "/.condarc");
  EXPECT_EQ(home->channel_alias, "https://mirror.example/conda");
  EXPECT_EQ(urls(home->channels),
            (Strings{"https://mirror.example/conda/bioconda", "https://mirror.example/conda/conda-forge",
                     "https://my.mirror.example/extra", "https://repo.anaconda.com/pkgs/main",
                     "https://repo.anaconda.com/pkgs/r"}));
  EXPECT_EQ(names(home->channels)[0], "bioconda");

  // The environment's .condarc comes first; the alias still comes from the one that sets it.
  h.prefix_rc("channels:\n  - conda-forge\n  - conda-forge\n");
  auto env = channel_config(h.ctx(), nullptr);
  ASSERT_TRUE(env.ok()) << env.error().message;
  EXPECT_EQ(env->source, h.prefix + "/.condarc");
  EXPECT_EQ(urls(env->channels), (Strings{"https://mirror.example/conda/conda-forge"}));  // listed once

  // The `channel` option as the settings resolved it (tests/core/config: which place wins) comes
  // before the .condarc files, named by where it was set.
  OptionValue project_value{{"nvidia", "conda-forge"}, ""};
  auto project = channel_config(h.ctx(), &project_value);
  EXPECT_EQ(project->source, "[tool.extdeps] conda-channels");
  EXPECT_EQ(names(project->channels), (Strings{"nvidia", "conda-forge"}));

  OptionValue var_value{{"pytorch,nvidia", "conda-forge"}, "EXTDEPS_CONDA_CHANNELS"};
  auto var = channel_config(h.ctx(), &var_value);
  EXPECT_EQ(var->source, "EXTDEPS_CONDA_CHANNELS");
  EXPECT_EQ(names(var->channels), (Strings{"pytorch", "nvidia", "conda-forge"}));
  OptionValue empty_value{{" , "}, "EXTDEPS_CONDA_CHANNELS"};
  auto empty_var = channel_config(h.ctx(), &empty_value);
  EXPECT_EQ(empty_var->source, h.prefix + "/.condarc");

  OptionValue cli_value{{"https://host.example/ch/"}, "--channel"};
  auto cli = channel_config(h.ctx(), &cli_value);
  EXPECT_EQ(cli->source, "--channel");
  EXPECT_EQ(cli->channels, (std::vector<Channel>{{"https://host.example/ch", "https://host.example/ch"}}));
}

TEST(CondaChannels, BadConfigIsBadInputNamingItsPlace) {
  Homes h;
  OptionValue bad_value{{"conda-forge", "forge!"}, "EXTDEPS_CONDA_CHANNELS"};
  auto bad_var = channel_config(h.ctx(), &bad_value);
  ASSERT_FALSE(bad_var.ok());
  EXPECT_EQ(bad_var.error().code, ExitCode::bad_input);
  EXPECT_EQ(bad_var.error().message,
            "EXTDEPS_CONDA_CHANNELS: invalid conda channel 'forge!' (expected a name such as conda-forge, or a URL)");
  h.home_rc("channels: conda-forge\n");
  OptionValue cli_value{{"conda-forge"}, "--channel"};
  auto bad_rc = channel_config(h.ctx(), &cli_value);
  ASSERT_FALSE(bad_rc.ok());  // a broken file is reported even where a higher level sets channels
  EXPECT_EQ(bad_rc.error().message, h.home +
                                        "/.condarc:1:11: channels is 'conda-forge', not a list (expected "
                                        "'- name' lines below it, or [name, ...])");
  EXPECT_EQ(bad_rc.error().place, h.home + "/.condarc:1:11");
  EXPECT_EQ(bad_rc.error().what, "channels is 'conda-forge', not a list");
  EXPECT_EQ(bad_rc.error().expected, "'- name' lines below it, or [name, ...]");
  EXPECT_EQ(bad_var.error().from, "EXTDEPS_CONDA_CHANNELS");
}

TEST(CondaChannels, SubdirsForPlatforms) {
  EXPECT_EQ(subdir_for("Linux", "x86_64"), "linux-64");
  EXPECT_EQ(subdir_for("Linux", "amd64"), "linux-64");
  EXPECT_EQ(subdir_for("Linux", "aarch64"), "linux-aarch64");
  EXPECT_EQ(subdir_for("Linux", "arm64"), "linux-aarch64");
  EXPECT_EQ(subdir_for("Linux", "ppc64le"), "linux-ppc64le");
  EXPECT_EQ(subdir_for("Linux", "ppc64el"), "linux-ppc64le");
  EXPECT_EQ(subdir_for("Linux", "s390x"), "linux-s390x");
  EXPECT_EQ(subdir_for("Linux", "i686"), "linux-32");
  EXPECT_EQ(subdir_for("Linux", "armhf"), "linux-armv7l");
  EXPECT_EQ(subdir_for("Linux", "riscv64"), "linux-riscv64");
  EXPECT_EQ(subdir_for("Darwin", "x86_64"), "osx-64");
  EXPECT_EQ(subdir_for("Darwin", "arm64"), "osx-arm64");
  EXPECT_EQ(subdir_for("Windows", "AMD64"), "win-64");
  EXPECT_EQ(subdir_for("Windows", "ARM64"), "win-arm64");
  EXPECT_EQ(subdir_for("Linux", "mips64"), std::nullopt);
  EXPECT_EQ(subdir_for("Darwin", "ppc64le"), std::nullopt);
  EXPECT_EQ(subdir_for("Plan9", "x86_64"), std::nullopt);

  detect::HostFacts facts;
  facts.machine = "aarch64";
  EXPECT_EQ(host_subdir(facts), "linux-aarch64");
  facts.machine = "x86_64";
  EXPECT_EQ(host_subdir(facts), "linux-64");

  EXPECT_EQ(native_subdir(Context::for_test("/", {{"CONDA_SUBDIR", "osx-arm64"}})), "osx-arm64");
#if defined(__linux__)
  EXPECT_EQ(native_subdir(Context::for_test("/", {{"EXTDEPS_OVERRIDE_ARCH", "arm64"}})), "linux-aarch64");
  EXPECT_EQ(native_subdir(Context::for_test("/", {{"EXTDEPS_OVERRIDE_ARCH", "ppc64el"}})), "linux-ppc64le");
#endif
  EXPECT_EQ(subdirs_for("linux-64"), (Strings{"linux-64", "noarch"}));
  EXPECT_EQ(subdirs_for(""), (Strings{"noarch"}));
}

TEST(CondaChannels, RepodataUrlsTryZstdFirst) {
  std::vector<Channel> channels = {{"conda-forge", "https://conda.anaconda.org/conda-forge"},
                                   {"/srv/ch", "file:///srv/ch"}};
  auto locs = repodata_locations(channels, subdirs_for("linux-64"));
  ASSERT_EQ(locs.size(), 4u);
  EXPECT_EQ(locs[0].channel.name, "conda-forge");
  EXPECT_EQ(locs[0].subdir, "linux-64");
  EXPECT_EQ(locs[0].folder, "https://conda.anaconda.org/conda-forge/linux-64/");
  EXPECT_EQ(locs[0].urls, (Strings{"https://conda.anaconda.org/conda-forge/linux-64/repodata.json.zst",
                                   "https://conda.anaconda.org/conda-forge/linux-64/repodata.json"}));
  EXPECT_EQ(locs[1].subdir, "noarch");
  EXPECT_EQ(locs[3].urls, (Strings{"file:///srv/ch/noarch/repodata.json.zst", "file:///srv/ch/noarch/repodata.json"}));
}

}  // namespace
}  // namespace extdeps::conda
