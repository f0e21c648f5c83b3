// The pkgconf detector on fixture .pc trees (tests/data/pkgconf, copied from a Debian 12 machine)
// and on this machine's real search path, checked against pkg-config itself.
#include "providers/pkgconf/pkgconf_provider.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "providers/pkgconf/pkgconfig_version.h"
#include "tests/test_support.h"

namespace extdeps::pkgconf {
namespace {

namespace fs = std::filesystem;

const std::string kLibDir = "/usr/lib/x86_64-linux-gnu/pkgconfig";
const std::string kShareDir = "/usr/share/pkgconfig";

std::string root() { return test::data_path("pkgconf/root"); }
std::string prefix_dir() { return test::data_path("pkgconf/prefix/lib/pkgconfig"); }
std::string broken_dir() { return test::data_path("pkgconf/broken/lib/pkgconfig"); }

struct Loaded {
  std::vector<PackageRecord> records;
  size_t available = 0;
  std::map<std::string, std::string> versions() const {
    std::map<std::string, std::string> out;
    for (const auto& r : records) out[r.name] = r.version;
    return out;
  }
  const PackageRecord* find(const std::string& name) const {
    for (const auto& r : records) {
      if (r.name == name) return &r;
    }
    return nullptr;
  }
};

Loaded load(const Context& ctx) {
  Loaded out;
  auto provider = make_provider(ctx);
  auto result = provider->load(
      ctx, [&](PackageRecord&&) { ++out.available; }, [&](PackageRecord&& r) { out.records.push_back(std::move(r)); });
  EXPECT_TRUE(result.ok()) << result.error().message;
  return out;
}

void write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

// stdout of a shell command, or nullopt when it fails.
std::optional<std::string> capture(const std::string& command) {
  FILE* p = popen(command.c_str(), "r");
  if (!p) return std::nullopt;
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (pclose(p) != 0) return std::nullopt;
  return out;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

const std::map<std::string, std::string> kFixtureVersions = {
    {"expat", "2.5.0"},       {"icu-uc", "72.1"},          {"libcurl", "7.88.1"},  {"liblz4", "1.9.4"},
    {"liblzma", "5.4.1"},     {"libpng", "1.6.39"},        {"libpng16", "1.6.39"}, {"libssl", "3.0.19"},
    {"libxml-2.0", "2.9.14"}, {"libzstd", "1.5.4"},        {"sqlite3", "3.40.1"},  {"zlib", "1.2.13"},
    {"iso-codes", "4.15.0"},  {"nlohmann_json", "3.11.2"}, {"xproto", "7.0.33"},
};

TEST(PkgconfProvider, DescribesItselfAsADetector) {
  auto ctx = Context::for_test(root());
  auto provider = make_provider(ctx);
  EXPECT_EQ(provider->ecosystem(), "pkgconfig");
  EXPECT_EQ(provider->manager(), "");
  EXPECT_EQ(&provider->scheme(), &version::pkgconfig_scheme);
  EXPECT_TRUE(provider->install_commands({{"zlib", "1.2.13", ""}}).empty());
}

TEST(PkgconfProvider, FixtureRootGivesExactlyItsModules) {
  auto ctx = Context::for_test(root());
  Loaded got = load(ctx);
  EXPECT_EQ(got.versions(), kFixtureVersions);
  EXPECT_EQ(got.records.size(), kFixtureVersions.size());
  EXPECT_EQ(got.available, 0u);
  // icu-uc.pc has "key = value" lines that libpkgconf lints; like pkg-config without
  // --validate, a file that parses is not worth a warning.
  EXPECT_TRUE(ctx.warnings().empty()) << ctx.warnings().front();

  const PackageRecord* zlib = got.find("zlib");
  ASSERT_NE(zlib, nullptr);
  EXPECT_EQ(zlib->origin, root() + kLibDir + "/zlib.pc");
  EXPECT_TRUE(zlib->installed);
  EXPECT_TRUE(zlib->arch.empty());
  EXPECT_TRUE(zlib->depends.empty());  // presence only: Requires are not dependencies
  EXPECT_TRUE(zlib->provides.empty());
  // libpng.pc is a symlink to libpng16.pc, as Debian ships it: both names are modules.
  EXPECT_EQ(got.find("libpng")->origin, root() + kLibDir + "/libpng.pc");
  EXPECT_EQ(got.find("xproto")->origin, root() + kShareDir + "/xproto.pc");
  // The multiarch dir comes before /usr/share/pkgconfig in the default path.
  EXPECT_EQ(got.records.back().name, "xproto");
}

TEST(PkgconfProvider, SearchPathPutsPkgConfigPathFirstThenRootedDefaults) {
  auto ctx = Context::for_test(
      "/fixture", {{"PKG_CONFIG_PATH", "/opt/a/lib/pkgconfig/:/opt/b//pc::rel/c:/opt/a/lib/pkgconfig:/opt/x/../y"}});
  std::vector<std::string> path = search_path(ctx);
  std::vector<std::string> expected = {"/opt/a/lib/pkgconfig", "/opt/b/pc", "rel/c", "/opt/x/../y"};
  for (const auto& d : default_search_path()) expected.push_back("/fixture" + d);
  EXPECT_EQ(path, expected);
  EXPECT_GE(default_search_path().size(), 1u);
}

TEST(PkgconfProvider, DefaultSearchPathIsPkgConfigsPcPath) {
  auto pc_path = capture("pkg-config --variable pc_path pkg-config 2>/dev/null");
  if (!pc_path) GTEST_SKIP() << "pkg-config is not installed here";
  std::vector<std::string> expected;
  std::stringstream ss(trim(*pc_path));
  for (std::string d; std::getline(ss, d, ':');) {
    if (!d.empty()) expected.push_back(d);
  }
  EXPECT_EQ(default_search_path(), expected);
}

TEST(PkgconfProvider, PkgConfigPathComesFirstAndShadowsSameNamedModule) {
  auto ctx = Context::for_test(root(), {{"PKG_CONFIG_PATH", prefix_dir()}});
  Loaded got = load(ctx);
  auto expected = kFixtureVersions;
  expected["gdal"] = "3.8.4";
  expected["sqlite3"] = "3.45.1";  // the hand-built one in /opt/gdal, not Debian's 3.40.1
  EXPECT_EQ(got.versions(), expected);
  ASSERT_EQ(got.records.size(), expected.size());  // the shadowed sqlite3 is reported nowhere
  EXPECT_EQ(got.records[0].name, "gdal");
  EXPECT_EQ(got.records[0].origin, prefix_dir() + "/gdal.pc");
  EXPECT_EQ(got.find("sqlite3")->origin, prefix_dir() + "/sqlite3.pc");
  EXPECT_TRUE(got.find("gdal")->depends.empty());  // its Requires.private are not dependencies
  EXPECT_TRUE(ctx.warnings().empty());
}

TEST(PkgconfProvider, PkgConfigLibdirReplacesTheDefaults) {
  auto ctx = Context::for_test(root(), {{"PKG_CONFIG_LIBDIR", kShareDir}});
  EXPECT_EQ(search_path(ctx), std::vector<std::string>{root() + kShareDir});
  Loaded got = load(ctx);
  std::map<std::string, std::string> expected = {
      {"iso-codes", "4.15.0"}, {"nlohmann_json", "3.11.2"}, {"xproto", "7.0.33"}};
  EXPECT_EQ(got.versions(), expected);

  // Set but empty, it searches nothing but PKG_CONFIG_PATH.
  auto only_path = Context::for_test(root(), {{"PKG_CONFIG_PATH", prefix_dir()}, {"PKG_CONFIG_LIBDIR", ""}});
  expected = {{"gdal", "3.8.4"}, {"sqlite3", "3.45.1"}};
  EXPECT_EQ(load(only_path).versions(), expected);
}

TEST(PkgconfProvider, BrokenPcIsSkippedWithAWarningNamingIt) {
  auto ctx = Context::for_test(root(), {{"PKG_CONFIG_PATH", broken_dir()}, {"PKG_CONFIG_LIBDIR", ""}});
  Loaded got = load(ctx);
  EXPECT_EQ(got.versions(), (std::map<std::string, std::string>{{"libbar", "0.9.2"}}));
  const std::string file = broken_dir() + "/libfoo.pc";
  EXPECT_EQ(ctx.warnings(), (std::vector<std::string>{file + ": file does not declare a `Version' field",
                                                      file + ": skipping invalid file"}));
}

TEST(PkgconfProvider, BrokenPcDoesNotShadowALaterValidOne) {
  std::string later = test::temp_dir() + "/lib/pkgconfig";
  write(later + "/libfoo.pc", "Name: libfoo\nDescription: foo\nVersion: 1.4.0\n");
  auto ctx = Context::for_test(root(), {{"PKG_CONFIG_PATH", broken_dir() + ":" + later}, {"PKG_CONFIG_LIBDIR", ""}});
  Loaded got = load(ctx);
  EXPECT_EQ(got.versions(), (std::map<std::string, std::string>{{"libbar", "0.9.2"}, {"libfoo", "1.4.0"}}));
  EXPECT_EQ(got.find("libfoo")->origin, later + "/libfoo.pc");
  EXPECT_EQ(ctx.warnings().size(), 2u);
}

TEST(PkgconfProvider, UnreadableAndOddEntriesAreWarningsNotCrashes) {
  std::string dir = test::temp_dir() + "/pkgconfig";
  write(dir + "/good.pc", "Name: good\nDescription: g\nVersion: 2.0 beta\n");
  fs::create_symlink(dir + "/nowhere.pc", dir + "/gone.pc");
  fs::create_directories(dir + "/adir.pc");
  write(dir + "/good-uninstalled.pc", "Name: good\nDescription: g\nVersion: 9.9\n");
  write(dir + "/empty.pc", "");
  write(dir + "/garbage.pc", "Na me: x\nVersion: 1\n");
  write(dir + "/blank.pc", "Name: blank\nDescription: b\nVersion:\n");
  write(dir + "/README", "not a .pc file\n");
  auto ctx = Context::for_test("/", {{"PKG_CONFIG_PATH", dir}, {"PKG_CONFIG_LIBDIR", ""}});
  Loaded got = load(ctx);
  // "2.0 beta": libpkgconf cuts the version at whitespace, as pkg-config --modversion prints it.
  EXPECT_EQ(got.versions(), (std::map<std::string, std::string>{{"good", "2.0"}}));
  const auto& w = ctx.warnings();
  auto has = [&](const std::string& text) { return std::find(w.begin(), w.end(), text) != w.end(); };
  EXPECT_TRUE(has(dir + "/gone.pc: cannot be read (No such file or directory), skipped"));
  EXPECT_TRUE(has(dir + "/adir.pc: not a regular file, skipped"));
  EXPECT_TRUE(has(dir + "/empty.pc: file does not declare a `Version' field"));
  EXPECT_TRUE(has(dir + "/empty.pc: skipping invalid file"));
  // On a rejected file libpkgconf's lint is part of the story, so it is passed on.
  EXPECT_TRUE(has(dir + "/garbage.pc:1: whitespace encountered while parsing key section"));
  EXPECT_TRUE(has(dir + "/garbage.pc: file does not declare a `Name' field"));
  // libpkgconf (and pkg-config) accept an empty Version; a record needs one.
  EXPECT_TRUE(has(dir + "/blank.pc: file declares an empty `Version' field, skipped"));
  EXPECT_EQ(w.size(), 11u) << ::testing::PrintToString(w);
  if (::geteuid() != 0) {
    write(dir + "/locked.pc", "Name: locked\nDescription: l\nVersion: 1\n");
    fs::permissions(dir + "/locked.pc", fs::perms::none);
    auto again = Context::for_test("/", {{"PKG_CONFIG_PATH", dir}, {"PKG_CONFIG_LIBDIR", ""}});
    EXPECT_EQ(load(again).versions().count("locked"), 0u);
    EXPECT_TRUE(std::count(again.warnings().begin(), again.warnings().end(),
                           dir + "/locked.pc: cannot be read (Permission denied), skipped"));
  }
}

TEST(PkgconfProvider, DeclaredProvidesBecomeProvides) {
  std::string dir = test::temp_dir() + "/pkgconfig";
  write(dir + "/libjpeg.pc",
        "Name: libjpeg\nDescription: jpeg\nVersion: 2.1.5\n"
        "Provides: jpeg = 2.1.5, libjpeg-compat\n");
  auto ctx = Context::for_test("/", {{"PKG_CONFIG_PATH", dir}, {"PKG_CONFIG_LIBDIR", ""}});
  Loaded got = load(ctx);
  ASSERT_EQ(got.records.size(), 1u);
  const auto& p = got.records[0].provides;
  ASSERT_EQ(p.size(), 2u);
  std::map<std::string, std::pair<DepOp, std::string>> byname;
  for (const auto& d : p) byname[d.name] = {d.op, d.version};
  EXPECT_EQ(byname["jpeg"], std::make_pair(DepOp::eq, std::string("2.1.5")));
  EXPECT_EQ(byname["libjpeg-compat"], std::make_pair(DepOp::any, std::string()));
}

TEST(PkgconfProvider, AvailableWhenASearchDirExists) {
  EXPECT_TRUE(make_provider(Context::for_test(root()))->available(Context::for_test(root())));
  auto empty = Context::for_test(test::temp_dir());
  EXPECT_FALSE(make_provider(empty)->available(empty));
  auto path_only = Context::for_test(test::temp_dir(), {{"PKG_CONFIG_PATH", prefix_dir()}});
  EXPECT_TRUE(make_provider(path_only)->available(path_only));
}

TEST(PkgconfProvider, IdentityFollowsDirsAndPcFiles) {
  std::string fake_root = test::temp_dir();
  fs::copy(root(), fake_root, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  auto ctx = Context::for_test(fake_root);
  auto provider = make_provider(ctx);
  auto first = provider->identity(ctx);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(provider->identity(ctx)->key, first->key);
  EXPECT_EQ(make_provider(ctx)->identity(ctx)->key, first->key);
  EXPECT_NE(first->key.find(fake_root + "/usr/local/lib/pkgconfig missing"), std::string::npos);
  EXPECT_NE(first->key.find(fake_root + kLibDir + " mtime="), std::string::npos);
  EXPECT_NE(first->key.find(" pc=12 "), std::string::npos);

  // A module installed by `make install` into a dir that did not exist yet.
  write(fake_root + "/usr/local/lib/pkgconfig/gdal.pc", test::read_file(prefix_dir() + "/gdal.pc"));
  auto second = provider->identity(ctx);
  EXPECT_NE(second->key, first->key);

  // A .pc file rewritten in place (same size, new mtime).
  std::string zlib = fake_root + kLibDir + "/zlib.pc";
  auto text = test::read_file(zlib);
  fs::last_write_time(zlib, fs::last_write_time(zlib) - std::chrono::hours(24));
  auto third = provider->identity(ctx);
  EXPECT_NE(third->key, second->key);
  std::ofstream(zlib) << text;
  EXPECT_NE(provider->identity(ctx)->key, third->key);

  // PKG_CONFIG_PATH is part of what was searched.
  auto with_path = Context::for_test(fake_root, {{"PKG_CONFIG_PATH", prefix_dir()}});
  EXPECT_NE(provider->identity(with_path)->key, provider->identity(ctx)->key);
}

// This machine's own default path, compared module by module with pkg-config.
TEST(PkgconfProvider, RealSearchPathMatchesPkgConfig) {
  auto listing = capture("pkg-config --list-all 2>/dev/null");
  if (!listing) GTEST_SKIP() << "pkg-config is not installed here";
  std::map<std::string, std::string> expected;
  std::stringstream lines(*listing);
  for (std::string line; std::getline(lines, line);) {
    std::string name = line.substr(0, line.find(' '));
    if (name.empty() || name.ends_with("-uninstalled")) continue;
    auto version = capture("pkg-config --modversion '" + name + "' 2>/dev/null");
    ASSERT_TRUE(version) << "pkg-config --modversion " << name << " failed";
    if (trim(*version).empty()) continue;  // skipped by the provider, with a warning
    expected[name] = trim(*version);
  }
  if (expected.empty()) GTEST_SKIP() << "pkg-config lists no module on this machine";

  auto ctx = Context::from_process();
  ctx.set_warning_sink(nullptr);
  auto provider = make_provider(ctx);
  std::map<std::string, std::string> got;
  auto start = std::chrono::steady_clock::now();
  auto result = provider->load(
      ctx, [](PackageRecord&&) {}, [&](PackageRecord&& r) { got[r.name] = r.version; });
  std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(got, expected);
  std::cout << "[ info     ] load() found " << got.size() << " modules in " << elapsed.count() << " ms\n";
  EXPECT_LT(elapsed.count(), 2000.0);
}

}  // namespace
}  // namespace extdeps::pkgconf
