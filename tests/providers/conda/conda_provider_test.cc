// The conda provider as the solver sees it: what it is, when it is available, its cache key,
// load() over the hand-written channel and the real environment, the front end it picks, and the
// commands it renders (and how plan::shell_line quotes them).
#include "providers/conda/conda_provider.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "core/fetch/fetch.h"
#include "core/plan/render.h"
#include "providers/conda/conda_version.h"
#include "tests/providers/conda/conda_test_support.h"
#include "tests/test_support.h"

namespace extdeps::conda {
namespace {

namespace fs = std::filesystem;
using test::Collected;
using Strings = std::vector<std::string>;

const Channel kForge{"conda-forge", "https://conda.anaconda.org/conda-forge"};

std::string fixture_channel() { return extdeps::test::data_path("conda/channel/linux-64/repodata.json"); }

ProviderOptions with_channel(std::string prefix = "") {
  ProviderOptions o;
  o.channels = {kForge};
  o.repodata = {{"https://example.org/channel", "linux-64", fixture_channel()}};
  o.prefix = std::move(prefix);
  o.frontend = Frontend::conda;
  return o;
}

TEST(CondaProvider, DescribesItself) {
  Context ctx = Context::for_test("/");
  auto p = make_provider(ctx, with_channel());
  EXPECT_EQ(p->ecosystem(), "conda-forge");
  EXPECT_EQ(p->manager(), "conda");
  EXPECT_EQ(&p->scheme(), &version::conda_scheme);
  EXPECT_TRUE(p->available(ctx));
}

TEST(CondaProvider, WithNoIndexAndNoEnvironmentItIsNotAvailable) {
  Context ctx = Context::for_test("/");
  EXPECT_FALSE(make_provider(ctx, ProviderSettings{})->available(ctx));
  EXPECT_FALSE(make_provider(ctx, ProviderOptions{})->available(ctx));
  // CONDA_PREFIX that is not an environment does not count either.
  Context not_env = Context::for_test("/", {{"CONDA_PREFIX", extdeps::test::temp_dir()}});
  EXPECT_FALSE(make_provider(not_env, ProviderSettings{})->available(not_env));
  EXPECT_TRUE(not_env.warnings().empty());
}

TEST(CondaProvider, IsRegisteredAndIdleWithoutCondaPrefix) {
  Context ctx = Context::for_test("/");
  size_t found = 0;
  for (const auto& p : make_providers(ctx)) {  // nothing named, no environment
    if (p->manager() != "conda") continue;
    ++found;
    EXPECT_EQ(p->ecosystem(), "conda-forge");
    EXPECT_FALSE(p->available(ctx));
  }
  EXPECT_EQ(found, 1u);
  EXPECT_TRUE(ctx.warnings().empty());
}

// A channel folder on disk: the fixture's linux-64 index and an empty noarch one.
std::string local_channel() {
  std::string dir = extdeps::test::temp_dir() + "/channel";
  fs::create_directories(dir + "/linux-64");
  fs::create_directories(dir + "/noarch");
  fs::copy_file(fixture_channel(), dir + "/linux-64/repodata.json");
  std::ofstream(dir + "/noarch/repodata.json") << R"({"info": {"subdir": "noarch"}, "packages": {}})";
  return dir;
}

TEST(CondaProvider, NamedInManagersItIsAvailableAndReadsNothingUntilPrepared) {
  Context ctx = Context::for_test("/", {{"PATH", ""}});
  ProviderSettings named;
  named.managers = {"apt", "conda"};
  auto p = make_provider(ctx, named);
  EXPECT_TRUE(p->available(ctx));
  EXPECT_TRUE(wanted(*p, ctx, named));
  ProviderSettings other;
  other.managers = {"apt"};
  EXPECT_FALSE(wanted(*make_provider(ctx, other), ctx, other));
}

TEST(CondaProvider, ARegisteredProviderTakesTheEnvironmentOfCondaPrefix) {
  EXTDEPS_SHARED_OR_SKIP(env, "conda/env-py313-osx");
  std::string channel = local_channel();
  Context ctx = Context::for_test("/", {{"CONDA_PREFIX", env}, {"PATH", ""}, {"CONDA_SUBDIR", "linux-64"}});
  // The channel as the settings give it (config::load reads EXTDEPS_CONDA_CHANNELS into it).
  ProviderSettings settings;
  settings.options["channel"] = OptionValue{{"file://" + channel}, "EXTDEPS_CONDA_CHANNELS"};
  auto p = make_provider(ctx, settings);
  ASSERT_TRUE(p->available(ctx));
  fetch::Fetcher fetcher(ctx, {});
  auto prepared = p->prepare(ctx, fetcher);
  ASSERT_TRUE(prepared.ok()) << prepared.error().message;
  Collected avail, inst;
  auto r = p->load(ctx, avail.sink(), inst.sink());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(avail.records.size(), 5u);  // file:// indexes are read in place
  ASSERT_EQ(inst.records.size(), 16u);
  const PackageRecord* py = inst.find("python");
  ASSERT_NE(py, nullptr);
  EXPECT_EQ(py->version, "3.13.2");
  EXPECT_EQ(py->build, "hfd29fff_1_cp313t");
  EXPECT_TRUE(py->installed);
  // Commands go to that environment, with the channel the plan was made from.
  auto cmds = p->install_commands({{"numpy", "2.2.3", "osx-arm64", "py313hb6a6212_0"}});
  ASSERT_EQ(cmds.size(), 1u);
  EXPECT_EQ(cmds[0].argv, (Strings{"conda", "install", "-y", "-p", env, "--override-channels", "-c",
                                   "file://" + channel, "--", "numpy=2.2.3=py313hb6a6212_0"}));
}

TEST(CondaProvider, LoadsTheIndexAsAvailableAndThePrefixAsInstalled) {
  EXTDEPS_SHARED_OR_SKIP(env, "conda/env-py313-osx");
  Context ctx = Context::for_test("/");
  auto p = make_provider(ctx, with_channel(env));
  Collected avail, inst;
  auto r = p->load(ctx, avail.sink(), inst.sink());
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(avail.records.size(), 5u);
  EXPECT_EQ(avail.find("cuda-demo")->origin, "https://example.org/mirror/linux-64/cuda-demo-12.4.0-h1234567_0.conda");
  EXPECT_EQ(avail.find("cuda-demo")->arch, "linux-64");
  EXPECT_FALSE(avail.find("cuda-demo")->installed);
  EXPECT_EQ(inst.records.size(), 16u);
  EXPECT_EQ(inst.find("libzlib")->version, "1.3.1");
}

TEST(CondaProvider, MissingSourcesAreErrorsNotSilence) {
  Context ctx = Context::for_test("/");
  ProviderOptions o = with_channel(extdeps::test::temp_dir() + "/no-env");
  auto p = make_provider(ctx, o);
  EXPECT_TRUE(p->available(ctx));  // a given --prefix counts, so load() can say what is wrong
  Collected avail, inst;
  auto r = p->load(ctx, avail.sink(), inst.sink());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(r.error().message, o.prefix + ": not a conda environment (no conda-meta folder; check --prefix)");

  ProviderOptions gone = with_channel();
  gone.repodata[0].path = extdeps::test::temp_dir() + "/repodata.json";
  auto q = make_provider(ctx, gone);
  EXPECT_EQ(q->load(ctx, avail.sink(), inst.sink()).error().message,
            gone.repodata[0].path + ": cannot open: No such file or directory");
  EXPECT_EQ(q->identity(ctx).error().message, gone.repodata[0].path + ": cannot stat: No such file or directory");

  // $CONDA_PREFIX that is no environment only earns a warning.
  std::string not_env = extdeps::test::temp_dir();
  Context with_env = Context::for_test("/", {{"CONDA_PREFIX", not_env}});
  auto s = make_provider(with_env, with_channel());
  ASSERT_TRUE(s->load(with_env, avail.sink(), inst.sink()).ok());
  EXPECT_EQ(with_env.warnings(), (Strings{"CONDA_PREFIX=" + not_env +
                                          " is not a conda environment (no conda-meta folder); no installed "
                                          "conda packages are read"}));
}

TEST(CondaProvider, IdentityFollowsTheIndexAndTheEnvironment) {
  std::string dir = extdeps::test::temp_dir();
  std::string prefix = dir + "/env";
  fs::create_directories(prefix + "/conda-meta");
  std::string index = dir + "/repodata.json";
  fs::copy_file(fixture_channel(), index);
  std::ofstream(prefix + "/conda-meta/zlib-1.3.1-h0_2.json")
      << R"({"name": "zlib", "version": "1.3.1", "build": "h0_2"})";
  Context ctx = Context::for_test("/");
  ProviderOptions o = with_channel(prefix);
  o.repodata[0].path = index;
  auto p = make_provider(ctx, o);
  auto a = p->identity(ctx);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->key.rfind("conda-records-1\nrepodata https://example.org/channel linux-64 " + index + " ", 0), 0u);
  EXPECT_NE(a->key.find("\nprefix " + prefix + "\nzlib-1.3.1-h0_2.json 53 "), std::string::npos) << a->key;
  EXPECT_EQ(p->identity(ctx)->key, a->key);

  std::ofstream(prefix + "/conda-meta/xz-5.6.4-h0_0.json") << R"({"name": "xz", "version": "5.6.4", "build": "h0_0"})";
  auto b = p->identity(ctx);
  EXPECT_NE(b->key, a->key);
  std::ofstream(index, std::ios::app) << "\n";
  EXPECT_NE(p->identity(ctx)->key, b->key);

  Context none = Context::for_test("/");
  EXPECT_EQ(make_provider(none, ProviderOptions{})->identity(none)->key, "conda-records-1\nprefix none\n");
}

TEST(CondaProvider, CompilesTheSpecsItsRecordsHold) {
  Context ctx = Context::for_test("/");
  auto p = make_provider(ctx, with_channel());
  auto m = p->compile_spec("3.12.* *_cp312");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_TRUE((*m)->matches("3.12.1", "4_cp312"));
  EXPECT_FALSE((*m)->matches("3.12.1", "4_cp312t"));
  EXPECT_FALSE((*m)->matches("3.13.0", "4_cp312"));
  auto range = p->compile_spec(">=2.17,<3.0.a0");
  ASSERT_TRUE(range.ok()) << range.error().message;
  EXPECT_TRUE((*range)->matches("2.36", ""));
  EXPECT_FALSE((*range)->matches("2.12", ""));
  EXPECT_FALSE(p->compile_spec(">=1.2,,<2").ok());
}

TEST(CondaProvider, PackageSpecsPinVersionAndBuild) {
  EXPECT_EQ(package_spec(Frontend::conda, "numpy", "1.26.4", "py312head63a1_0"), "numpy=1.26.4=py312head63a1_0");
  EXPECT_EQ(package_spec(Frontend::mamba, "numpy", "1.26.4", "py312head63a1_0"), "numpy=1.26.4=py312head63a1_0");
  EXPECT_EQ(package_spec(Frontend::micromamba, "numpy", "1.26.4", ""), "numpy==1.26.4");
  EXPECT_EQ(package_spec(Frontend::pixi, "numpy", "1.26.4", "py312head63a1_0"), "numpy==1.26.4");
  EXPECT_EQ(package_spec(Frontend::conda, "numpy", "", ""), "numpy");
}

TEST(CondaProvider, CommandsForEachFrontEnd) {
  std::vector<PlannedPackage> pkgs = {{"numpy", "1.26.4", "linux-64", "py312head63a1_0"},
                                      {"tzdata", "2024a", "noarch", ""}};
  std::vector<Channel> channels = {kForge, {"https://my.host/ch", "https://my.host/ch"}};
  auto conda = install_commands(pkgs, {Frontend::conda, "/opt/envs/dev", channels});
  ASSERT_EQ(conda.size(), 1u);
  EXPECT_FALSE(conda[0].requires_elevation);
  EXPECT_EQ(conda[0].argv,
            (Strings{"conda", "install", "-y", "-p", "/opt/envs/dev", "--override-channels", "-c", "conda-forge", "-c",
                     "https://my.host/ch", "--", "numpy=1.26.4=py312head63a1_0", "tzdata==2024a"}));
  EXPECT_EQ(install_commands(pkgs, {Frontend::mamba, "", {kForge}})[0].argv,
            (Strings{"mamba", "install", "-y", "--override-channels", "-c", "conda-forge", "--",
                     "numpy=1.26.4=py312head63a1_0", "tzdata==2024a"}));
  EXPECT_EQ(
      install_commands(pkgs, {Frontend::micromamba, "/e", {}})[0].argv,
      (Strings{"micromamba", "install", "-y", "-p", "/e", "--", "numpy=1.26.4=py312head63a1_0", "tzdata==2024a"}));
  EXPECT_EQ(install_commands(pkgs, {Frontend::pixi, "/e", channels})[0].argv,
            (Strings{"pixi", "add", "--", "numpy==1.26.4", "tzdata==2024a"}));
  EXPECT_TRUE(install_commands({}, {Frontend::conda, "/e", channels}).empty());
}

TEST(CondaProvider, CommandsAreQuotedForPeopleOnlyWhenShown) {
  // An epoch's '!' and a prefix with a blank need quotes in a shell; the argv itself is plain.
  auto cmds = install_commands({{"tzdata", "1!2024.1", "noarch", "h0_0"}, {"zlib", "1.3.1", "linux-64", "h4ab18f5_1"}},
                               {Frontend::micromamba, "/home/me/my envs/it's", {kForge}});
  EXPECT_EQ(cmds[0].argv[4], "/home/me/my envs/it's");
  EXPECT_EQ(cmds[0].argv[9], "tzdata=1!2024.1=h0_0");
  EXPECT_EQ(plan::shell_line(cmds[0].argv),
            "micromamba install -y -p '/home/me/my envs/it'\\''s' --override-channels -c conda-forge -- "
            "'tzdata=1!2024.1=h0_0' zlib=1.3.1=h4ab18f5_1");
  EXPECT_EQ(plan::shell_line(
                install_commands({{"numpy", "2.0.0", "linux-64", "py312h0_0"}}, {Frontend::pixi, "", {}})[0].argv),
            "pixi add -- numpy==2.0.0");
}

void make_tool(const std::string& dir, const std::string& name, mode_t mode = 0755) {
  fs::create_directories(dir);
  std::ofstream(dir + "/" + name) << "#!/bin/sh\n";
  ::chmod((dir + "/" + name).c_str(), mode);
}

TEST(CondaProvider, TheFrontEndComesFromTheOptionThenPath) {
  std::string dir = extdeps::test::temp_dir();
  EXPECT_EQ(choose_frontend(Context::for_test("/", {{"PATH", ""}})), Frontend::conda);
  make_tool(dir + "/a", "pixi");
  make_tool(dir + "/a", "mamba", 0644);  // not executable: not a candidate
  make_tool(dir + "/b", "conda");
  std::string path = dir + "/a::" + dir + "/b";
  EXPECT_EQ(choose_frontend(Context::for_test("/", {{"PATH", path}})), Frontend::conda);
  make_tool(dir + "/b", "micromamba");
  EXPECT_EQ(choose_frontend(Context::for_test("/", {{"PATH", path}})), Frontend::micromamba);
  make_tool(dir + "/b", "mamba");
  EXPECT_EQ(choose_frontend(Context::for_test("/", {{"PATH", path}})), Frontend::mamba);
  EXPECT_EQ(choose_frontend(Context::for_test("/", {{"PATH", dir + "/a"}})), Frontend::pixi);

  Context chosen = Context::for_test("/", {{"PATH", path}});
  EXPECT_EQ(choose_frontend(chosen, "pixi"), Frontend::pixi);
  EXPECT_EQ(choose_frontend(chosen, ""), Frontend::mamba);

  // The provider renders with the front end the option chose (config::load checked its value:
  // tests/core/config/option_kinds_test.cc).
  ProviderSettings settings;
  settings.managers = {"conda"};
  settings.options["conda-frontend"] = OptionValue{{"pixi"}, "EXTDEPS_CONDA_FRONTEND"};
  auto p = make_provider(chosen, settings);
  EXPECT_EQ(p->install_commands({{"numpy", "2.0.0", "linux-64", "py312h0_0"}})[0].argv,
            (Strings{"pixi", "add", "--", "numpy==2.0.0"}));
  EXPECT_EQ(parse_frontend("micromamba"), Frontend::micromamba);
  EXPECT_EQ(parse_frontend("Conda"), std::nullopt);
  EXPECT_EQ(frontend_name(Frontend::mamba), "mamba");
}

}  // namespace
}  // namespace extdeps::conda
