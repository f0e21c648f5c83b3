// mapping::merge_into: the real PEP 804 fedora mapping merged into the shipped fedora.toml, and
// the placement rules on entries of the shipped debian.toml.
#include "core/mapping/merge.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/mapping/lint.h"
#include "core/mapping/pep804.h"
#include "tests/core/mapping/shipped.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

using table_testing::kMappings;

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Whether every line of `a` is in `b`, in order (b is a with lines inserted).
bool kept_in_order(const std::string& a, const std::string& b) {
  const auto la = lines_of(a);
  const auto lb = lines_of(b);
  std::size_t j = 0;
  for (const auto& l : lb)
    if (j < la.size() && l == la[j]) ++j;
  return j == la.size();
}

// The expected figures come from the files themselves (python3 tomllib and json on
// mappings/fedora.toml and fedora.mapping.json): 47 ids in the mapping, 601 in the table,
// 39 in both, 8 only in the mapping, none of them an alias of the table.
TEST(MappingMerge, TheRealFedoraMappingIntoTheShippedFedoraTable) {
  EXTDEPS_SHARED_OR_SKIP(file, "pep804/fedora.mapping.json");
  auto imported = import_pep804(file);
  ASSERT_TRUE(imported) << imported.error().message;
  const std::string table_path = kMappings + "/fedora.toml";
  auto m = merge_into(table_path, imported->table);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->report.added,
            (std::vector<std::string>{"dep:github/Reference-LAPACK/lapack", "dep:virtual/compiler/c-sharp",
                                      "dep:virtual/compiler/cuda", "dep:virtual/compiler/swift",
                                      "dep:virtual/compiler/typescript", "dep:virtual/compiler/zig",
                                      "dep:virtual/interface/mpi", "dep:virtual/interface/openmp"}));
  EXPECT_EQ(m->report.changed.size() + m->report.same, 39u);
  EXPECT_EQ(m->report.removed.size(), 562u);
  EXPECT_TRUE(m->aliased.empty());
  // Every line of the curated table is still there, in order; the result lints clean.
  const std::string before = read(table_path);
  EXPECT_TRUE(kept_in_order(before, m->text));
  const std::string out = test::temp_dir() + "/fedora.toml";
  std::ofstream(out, std::ios::binary) << m->text;
  const auto report = lint({out});
  for (const auto& p : report.problems) ADD_FAILURE() << p.str();
  // The curated entries load as they did; the added ones as the import wrote them.
  auto merged = load_table(out);
  ASSERT_TRUE(merged);
  auto curated = load_table(table_path);
  const TableDiff d = diff(*curated, *merged);
  EXPECT_EQ(d.added, m->report.added);
  EXPECT_TRUE(d.removed.empty());
  EXPECT_TRUE(d.changed.empty());
  EXPECT_TRUE(merged->find("dep:virtual/interface/mpi")->unavailable());
  // libsodium: the table's libsodium-devel is kept where the mapping says libsodium.
  const Entry* sodium = merged->find("dep:generic/libsodium");
  ASSERT_NE(sodium, nullptr);
  EXPECT_EQ(sodium->alternatives(Category::host)[0].packages, std::vector<std::string>{"libsodium-devel"});
}

// Three entries of the shipped debian.toml, the middle one with a comment over its [[id]]; an
// import with an id that sorts before it, one that sorts last, and one the table has as an alias.
TEST(MappingMerge, AnEntryGoesAboveTheCommentOfTheNextAndAnAliasIsNotAddedTwice) {
  const std::string head = "schema = 1\necosystem = \"debian\"\nmanager = \"apt\"\nversion = \"deb-upstream\"\n\n";
  const std::string table =
      head +
      "[[id]]\nid = \"dep:generic/libxml2\"\nhost = [\"libxml2-dev\"]\nrun = [\"libxml2\"]\n\n"
      "# zlib1g-dev ships zlib.pc\n[[id]]\nid = \"dep:generic/zlib\"\naliases = [\"dep:generic/libz\"]\n"
      "host = [\"zlib1g-dev\"]\nrun = [\"zlib1g\"]\n";
  const std::string path = test::temp_dir() + "/debian.toml";
  std::ofstream(path, std::ios::binary) << table;
  DraftTable import;
  import.ecosystem = "debian";
  import.manager = "apt";
  import.entries.push_back({.id = "dep:generic/libyaml", .alternatives = { {.host = { { "libyaml-dev" } } } }});
  import.entries.push_back({.id = "dep:generic/libz", .alternatives = { {.host = { { "zlib1g-dev" } } } }});
  import.entries.push_back({.id = "dep:generic/zstd", .alternatives = { {.host = { { "libzstd-dev" } } } }});
  auto m = merge_into(path, import);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->report.added, (std::vector<std::string>{"dep:generic/libyaml", "dep:generic/zstd"}));
  ASSERT_EQ(m->aliased.size(), 1u);
  EXPECT_EQ(m->aliased[0].second, "dep:generic/zlib");
  EXPECT_NE(m->text.find("host = [\"libyaml-dev\"]\n\n# zlib1g-dev ships zlib.pc\n[[id]]\nid = \"dep:generic/zlib\""),
            std::string::npos)
      << m->text;
  EXPECT_NE(m->text.find("run = [\"zlib1g\"]\n\n[[id]]\nid = \"dep:generic/zstd\"\nhost = [\"libzstd-dev\"]\n"),
            std::string::npos)
      << m->text;
  EXPECT_TRUE(kept_in_order(table, m->text));
}

TEST(MappingMerge, AnImportOfAnotherEcosystemIsBadInput) {
  DraftTable import;
  import.ecosystem = "ubuntu";
  import.manager = "apt";
  auto m = merge_into(kMappings + "/debian.toml", import);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, ExitCode::bad_input);
  EXPECT_NE(m.error().message.find("is the debian table"), std::string::npos) << m.error().message;
  EXPECT_NE(m.error().message.find("the import is for ubuntu"), std::string::npos) << m.error().message;
}

}  // namespace
}  // namespace extdeps::mapping
