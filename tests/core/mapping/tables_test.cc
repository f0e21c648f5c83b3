// Table::find, load_tables (folders, overrides, shared aliases), default_mappings_dir and
// did_you_mean.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/mapping/mapping.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

using Strings = std::vector<std::string>;

std::string dir(const std::string& name) { return test::data_path("mapping/" + name); }

Context context_with_mappings(const std::string& mappings_dir) {
  return Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", mappings_dir}});
}

Table valid_table() {
  auto t = load_table(dir("valid.toml"));
  EXPECT_TRUE(t) << t.error().message;
  return t ? std::move(*t) : Table{};
}

TEST(MappingFind, ByIdAndByAlias) {
  const Table t = valid_table();
  ASSERT_NE(t.find("dep:generic/zlib"), nullptr);
  EXPECT_EQ(t.find("dep:generic/zlib")->id, "dep:generic/zlib");
  ASSERT_NE(t.find("dep:github/madler/zlib"), nullptr);
  EXPECT_EQ(t.find("dep:github/madler/zlib")->id, "dep:generic/zlib");
  EXPECT_EQ(t.find("dep:generic/zli"), nullptr);
  EXPECT_EQ(t.find(""), nullptr);
}

TEST(MappingFind, IgnoresVersionQualifiersAndSubpath) {
  const Table t = valid_table();
  for (const char* id : {"dep:generic/cmake?repository_url=https://gitlab.kitware.com/cmake/cmake",
                         "dep:generic/cmake@3.25", "dep:generic/cmake#docs"}) {
    ASSERT_NE(t.find(id), nullptr) << id;
    EXPECT_EQ(t.find(id)->id, "dep:generic/cmake");
  }
}

TEST(MappingFind, GithubIdsIgnoreCase) {
  const Table t = valid_table();
  ASSERT_NE(t.find("dep:github/Madler/ZLIB"), nullptr);
  EXPECT_EQ(t.find("dep:github/Madler/ZLIB")->id, "dep:generic/zlib");
  EXPECT_TRUE(t.find("dep:github/Madler/ZLIB")->spelled("dep:github/madler/zlib"));
  // generic names fall back to a case-insensitive match that the solve warns about: the entry
  // says it was not spelled so.
  ASSERT_NE(t.find("dep:generic/ZLIB"), nullptr);
  EXPECT_FALSE(t.find("dep:generic/ZLIB")->spelled("dep:generic/ZLIB"));
  EXPECT_EQ(t.find("dep:generic/ZLIB")->spelling_of("dep:generic/ZLIB"), "dep:generic/zlib");
}

TEST(MappingTables, OverlayReplacesAndAdds) {
  auto ctx = context_with_mappings(dir("base"));
  auto tables = load_tables(ctx, {dir("overlay")});
  ASSERT_TRUE(tables) << tables.error().message;
  ASSERT_EQ(tables->tables.size(), 2u);
  const Table* debian = tables->find_ecosystem("debian");
  ASSERT_NE(debian, nullptr);
  EXPECT_EQ(debian->path, dir("base") + "/debian.toml");
  EXPECT_EQ(debian->overlays, Strings{dir("overlay") + "/debian.toml"});
  ASSERT_EQ(debian->entries.size(), 3u);

  const Entry* zlib = debian->find("dep:generic/zlib");
  ASSERT_NE(zlib, nullptr);
  EXPECT_EQ(zlib->alternatives(Category::host)[0].packages, Strings{"zlib-ng-compat-dev"});
  EXPECT_EQ(zlib->where.file, dir("overlay") + "/debian.toml");
  const Entry* cmake = debian->find("dep:generic/cmake");
  ASSERT_NE(cmake, nullptr) << "entries the overlay does not name stay";
  EXPECT_EQ(cmake->where.file, dir("base") + "/debian.toml");
  ASSERT_NE(debian->find("dep:generic/site-tool"), nullptr);
  for (std::size_t i = 1; i < debian->entries.size(); ++i) {
    EXPECT_LT(debian->entries[i - 1].id, debian->entries[i].id);
  }
}

TEST(MappingTables, SameEcosystemMergesAcrossFolders) {
  auto ctx = context_with_mappings(dir("base"));
  auto tables = load_tables(ctx, {dir("overlay")});
  ASSERT_TRUE(tables) << tables.error().message;
  const Table* pc = tables->find_ecosystem("pkgconfig");
  ASSERT_NE(pc, nullptr);
  ASSERT_EQ(pc->entries.size(), 2u);
  EXPECT_EQ(pc->find("dep:generic/zlib")->modules, Strings{"zlib"});
  EXPECT_TRUE(pc->find("dep:generic/cmake")->unavailable());
}

TEST(MappingTables, AliasesAreSharedBetweenTables) {
  auto ctx = context_with_mappings(dir("base"));
  auto tables = load_tables(ctx, {dir("overlay")});
  ASSERT_TRUE(tables) << tables.error().message;
  // Only debian.toml says dep:github/Kitware/CMake is cmake; the pkgconfig table knows it too.
  const Entry* e = tables->find_ecosystem("pkgconfig")->find("dep:github/Kitware/CMake");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->id, "dep:generic/cmake");
}

TEST(MappingTables, KnownIdsHoldIdsAndAliases) {
  auto ctx = context_with_mappings(dir("base"));
  auto tables = load_tables(ctx, {});
  ASSERT_TRUE(tables) << tables.error().message;
  EXPECT_EQ(tables->known_ids(), (Strings{"dep:generic/cmake", "dep:generic/zlib", "dep:github/Kitware/CMake"}));
}

TEST(MappingTables, DefaultFolderNamedAgainIsReadOnce) {
  auto ctx = context_with_mappings(dir("base"));
  auto tables = load_tables(ctx, {dir("base")});
  ASSERT_TRUE(tables) << tables.error().message;
  EXPECT_TRUE(tables->find_ecosystem("debian")->overlays.empty());
}

TEST(MappingTables, LaterOverlayTakesAnAliasAway) {
  Table base = valid_table();
  Table overlay;
  overlay.ecosystem = "debian";
  overlay.path = "site.toml";
  Entry e;
  e.id = "dep:github/madler/zlib";
  e.by_category[Category::host] = {Alternative{{"zlib-madler-dev"}}};
  overlay.entries.push_back(e);
  merge_table(base, std::move(overlay));
  EXPECT_EQ(base.find("dep:github/madler/zlib")->id, "dep:github/madler/zlib");
  EXPECT_TRUE(base.find("dep:generic/zlib")->aliases.empty());
}

TEST(MappingTables, ErrorsInAnOverlayNameTheFile) {
  const std::string bad = test::temp_dir();
  std::ofstream(bad + "/debian.toml") << "schema = 1\necosystem = \"debian\"\n[[id]]\nid = 3\n";
  auto ctx = context_with_mappings(dir("base"));
  auto tables = load_tables(ctx, {bad});
  ASSERT_FALSE(tables);
  EXPECT_EQ(tables.error().message, bad + "/debian.toml:4:6: 'id' must be a string, got integer");
}

TEST(MappingTables, MissingFolders) {
  auto ctx = context_with_mappings(dir("absent"));
  auto none = load_tables(ctx, {});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ExitCode::environment);
  auto ok_ctx = context_with_mappings(dir("base"));
  auto extra = load_tables(ok_ctx, {dir("absent")});
  ASSERT_FALSE(extra);
  EXPECT_EQ(extra.error().code, ExitCode::bad_input);
  EXPECT_EQ(extra.error().message, "mappings folder " + dir("absent") + " does not exist");
}

TEST(MappingTables, DefaultDirFollowsTheEnvironment) {
  EXPECT_EQ(default_mappings_dir(context_with_mappings("/x/maps")), "/x/maps");
  const std::string fallback = default_mappings_dir(Context::for_test("/"));
  std::error_code ec;
  if (std::filesystem::is_directory(EXTDEPS_INSTALLED_MAPPINGS_DIR, ec)) {
    EXPECT_EQ(fallback, EXTDEPS_INSTALLED_MAPPINGS_DIR);
  } else {
    EXPECT_EQ(fallback, EXTDEPS_SOURCE_MAPPINGS_DIR);
  }
  EXPECT_EQ(default_mappings_dir(Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", ""}})), fallback);
}

TEST(MappingSuggest, CloseIds) {
  const Strings known = {"dep:generic/libxml2",        "dep:generic/libxslt",  "dep:generic/zlib",
                         "dep:virtual/interface/blas", "dep:generic/openblas", "dep:generic/cmake",
                         "dep:github/Kitware/CMake"};
  EXPECT_EQ(did_you_mean("dep:generic/libxml", known)[0], "dep:generic/libxml2");
  EXPECT_EQ(did_you_mean("dep:generic/zlb", known), Strings{"dep:generic/zlib"});
  EXPECT_EQ(did_you_mean("dep:gneric/zlib", known), Strings{"dep:generic/zlib"});
  EXPECT_EQ(did_you_mean("dep:generic/blas", known)[0], "dep:virtual/interface/blas");
  EXPECT_EQ(did_you_mean("dep:generic/xml2", known)[0], "dep:generic/libxml2");  // "lib" aside
  const Strings cmake = did_you_mean("dep:generic/CMake", known);
  ASSERT_EQ(cmake.size(), 2u);
  EXPECT_EQ(cmake[0], "dep:generic/cmake");
  EXPECT_TRUE(did_you_mean("dep:generic/qwertyuiop", known).empty());
  EXPECT_EQ(did_you_mean("dep:generic/libxml", known, 1).size(), 1u);
  // One edit from both libkml and libxml2: the name it is the start of comes first.
  EXPECT_EQ(did_you_mean("dep:generic/libxml", Strings{"dep:generic/libkml", "dep:generic/libxml2"}),
            (Strings{"dep:generic/libxml2", "dep:generic/libkml"}));
  EXPECT_EQ(edit_distance("hots", "host"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

}  // namespace
}  // namespace extdeps::mapping
