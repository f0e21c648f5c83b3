// PEP 804 mapping files in and out: the real mapping files of ../shared/data/pep804 import into
// tables that load and lint clean, keep what PEP 804 says (repeated ids as alternatives,
// specs_from as aliases, MatchSpecs as names with the spec in a note), and an exported table is
// a valid PEP 804 file that imports back to the same packages.
#include "core/mapping/pep804.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "core/mapping/lint.h"
#include "tests/core/mapping/shipped.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

using namespace table_testing;

// Imports a file, writes the table to a temp folder, loads it back.
struct Imported {
  ImportResult result;
  std::string path;
  Table table;
};

Imported import_and_load(const std::string& file, const std::string& ecosystem = {}) {
  Imported out;
  auto r = import_pep804(file, ecosystem);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  if (!r) return out;
  out.result = std::move(*r);
  out.path = test::temp_dir() + "/" + out.result.table.ecosystem + ".toml";
  std::ofstream(out.path) << write_table(out.result.table);
  auto t = load_table(out.path);
  EXPECT_TRUE(t) << (t ? "" : t.error().message);
  if (t) out.table = std::move(*t);
  return out;
}

std::vector<std::vector<std::string>> alternatives(const Table& t, const std::string& id, Category c) {
  std::vector<std::vector<std::string>> out;
  const Entry* e = t.find(id);
  EXPECT_NE(e, nullptr) << id;
  if (e)
    for (const auto& a : e->alternatives(c)) out.push_back(a.packages);
  return out;
}

using L = std::vector<std::vector<std::string>>;

TEST(Pep804Import, UbuntuLintsCleanAndKeepsWhatTheFileSays) {
  EXTDEPS_SHARED_OR_SKIP(file, "pep804/ubuntu.mapping.json");
  auto got = import_and_load(file);
  EXPECT_TRUE(got.result.warnings.empty());
  const auto report = lint({got.path});
  for (const auto& p : report.problems) ADD_FAILURE() << p.str();
  const Table& t = got.table;
  EXPECT_EQ(t.ecosystem, "ubuntu");
  EXPECT_EQ(t.manager, "apt");
  EXPECT_EQ(t.entries.size(), 47u);
  // A repeated id is an ordered alternative.
  EXPECT_EQ(
      alternatives(t, "dep:generic/libjpeg", Category::host),
      (L{{"libjpeg-turbo8", "libjpeg-turbo8-dev"}, {"libjpeg9", "libjpeg9-dev"}, {"libjpeg62", "libjpeg62-dev"}}));
  EXPECT_EQ(alternatives(t, "dep:generic/libjpeg", Category::run),
            (L{{"libjpeg-turbo8"}, {"libjpeg9"}, {"libjpeg62"}}));
  // {build: [], host: [...]}: the empty build list is "nothing extra", so build falls back to host.
  EXPECT_EQ(alternatives(t, "dep:generic/zlib", Category::build), (L{{"zlib1g", "zlib1g-dev"}}));
  EXPECT_EQ(alternatives(t, "dep:generic/openssl", Category::build), (L{{"libssl-dev", "openssl"}}));
  EXPECT_EQ(alternatives(t, "dep:generic/openssl", Category::run), (L{{"openssl"}}));
  // A string spec is every category's.
  EXPECT_EQ(alternatives(t, "dep:generic/ninja", Category::build), (L{{"ninja-build"}}));
  // specs: [] is "nothing", said with a note.
  EXPECT_TRUE(t.find("dep:virtual/interface/mpi")->unavailable());
  EXPECT_EQ(t.find("dep:virtual/interface/mpi")->note, "the PEP 804 mapping maps it to nothing");
}

TEST(Pep804Import, CondaForgeMatchSpecsBecomeNamesWithTheSpecInANote) {
  EXTDEPS_NEEDS_PROVIDER("conda");
  EXTDEPS_SHARED_OR_SKIP(file, "pep804/conda-forge.mapping.json");
  auto got = import_and_load(file);
  for (const auto& p : lint({got.path}).problems) ADD_FAILURE() << p.str();
  EXPECT_EQ(got.table.manager, "conda");
  // Recipe macros are no package names: left out, each said once.
  EXPECT_EQ(got.result.warnings.size(), 4u);
  EXPECT_EQ(got.result.warnings[0],
            "dep:virtual/compiler/c: '{{ compiler('c') }}' is not a valid conda package "
            "name (lower case letters, digits, - _ .); left out");
  EXPECT_EQ(alternatives(got.table, "dep:virtual/interface/blas", Category::host), (L{{"libblas"}}));
  const std::string note = got.table.find("dep:virtual/interface/blas")->alternatives(Category::host)[0].note +
                           got.table.find("dep:virtual/interface/blas")->note;
  EXPECT_NE(note.find("libblas * *_openblas"), std::string::npos) << note;
  // Its second mapping keeps only run (the build macros are gone): an alternative of its own.
  EXPECT_EQ(alternatives(got.table, "dep:virtual/compiler/c", Category::run), (L{{"c-compiler"}, {"c-compiler"}}));
  // ...and no alternative of build, where it names nothing (schema/mapping.md, ordered alternatives).
  EXPECT_EQ(alternatives(got.table, "dep:virtual/compiler/c", Category::build), (L{{"c-compiler"}}));
}

TEST(Pep804Import, SpecsFromIsAnAlias) {
  EXTDEPS_SHARED_OR_SKIP(file, "pep804/pypi.mapping.json");
  auto got = import_and_load(file);
  for (const auto& p : lint({got.path}).problems) ADD_FAILURE() << p.str();
  std::size_t aliases = 0;
  for (const auto& e : got.table.entries) aliases += e.aliases.size();
  EXPECT_GE(aliases, 1u);
  for (const auto& e : got.table.entries)
    for (const auto& a : e.aliases) EXPECT_EQ(got.table.find(a), &e) << a;
}

TEST(Pep804Import, BadFilesAreBadInputWithTheirPlace) {
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/x.mapping.json") << "{\"mappings\": [{\"id\": \"dep:generic/a\", \"specs\": \"a\"},";
  auto r = import_pep804(dir + "/x.mapping.json");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_EQ(r.error().message,
            dir +
                "/x.mapping.json: not JSON at byte offset 52 (syntax error while parsing value - "
                "unexpected end of input; expected '[', '{', or a literal; a PEP 804 mapping file is JSON)");
  std::ofstream(dir + "/y.mapping.json")
      << R"({"mappings": [{"id": "dep:generic/a", "specs": "a"}, {"id": "zlib", "specs": "z"}]})";
  r = import_pep804(dir + "/y.mapping.json");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            dir + "/y.mapping.json: mappings[1]: id 'zlib' is not a DepURL (expected dep:TYPE/NAME)");
  std::ofstream(dir + "/z.json") << R"({"mappings": [{"id": "dep:generic/a", "specs": {"host": 3}}]})";
  r = import_pep804(dir + "/z.json", "debian");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, dir + "/z.json: mappings[0]: specs.host: expected a string or a list of strings");
  // An id with no name after its type is no id a table can hold (found by the pep804_import fuzz
  // harness: the import took it, the table it wrote did not load).
  std::ofstream(dir + "/e.json")
      << R"({"package_managers": [{"name": "apt-get"}], "mappings": [{"id": "dep:generic/", "specs": []}]})";
  r = import_pep804(dir + "/e.json", "debian");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            dir + "/e.json: mappings[0]: id 'dep:generic/' is not a DepURL (expected dep:TYPE/NAME)");
}

// The shipped debian table as PEP 804: valid against PEP 804's own JSON Schema (Python's
// jsonschema), and back again to the same packages.
TEST(Pep804Export, DebianIsAValidPep804FileThatImportsBack) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  EXTDEPS_SHARED_OR_SKIP(schema, "pep804/external-mapping.schema.json");
  auto table = load_table(kMappings + "/debian.toml");
  ASSERT_TRUE(table) << table.error().message;
  auto j = export_pep804(*table);
  ASSERT_TRUE(j) << j.error().message;
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/debian.mapping.json") << j->dump(2);
  EXPECT_EQ(test::json_schema_problem(schema, dir + "/debian.mapping.json"), "");
  EXPECT_EQ((*j)["package_managers"][0]["name"], "apt-get");
  auto back = import_and_load(dir + "/debian.mapping.json");
  ASSERT_EQ(back.table.entries.size(), table->entries.size());
  for (const auto& e : table->entries) {
    const Entry* b = back.table.find(e.id);
    ASSERT_NE(b, nullptr) << e.id;
    EXPECT_EQ(b->id, e.id);
    auto sorted = [](std::vector<std::string> v) {
      std::sort(v.begin(), v.end());
      return v;
    };
    EXPECT_EQ(sorted(b->aliases), sorted(e.aliases)) << e.id;
    EXPECT_EQ(b->unavailable(), e.unavailable()) << e.id;
    for (Category c : {Category::build, Category::host, Category::run}) {
      L want, got;
      for (const auto& a : e.alternatives(c)) want.push_back(a.packages);
      for (const auto& a : b->alternatives(c)) got.push_back(a.packages);
      EXPECT_EQ(got, want) << e.id << " " << category_name(c);
    }
  }
}

TEST(Pep804Export, ADetectorTableHasNoPep804Form) {
  auto table = load_table(kMappings + "/pkgconfig.toml");
  ASSERT_TRUE(table);
  auto j = export_pep804(*table);
  ASSERT_FALSE(j);
  EXPECT_EQ(j.error().message,
            "the pkgconfig table names no package manager: PEP 804 mappings are for package managers");
}

// nlohmann's exceptions stay inside: a number out of range or a value of the wrong type is bad
// input with the file and byte offset, not an internal error.
TEST(Pep804Import, ANumberOutOfRangeOrAValueOfTheWrongTypeIsBadInput) {
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/big.mapping.json") << R"({"name": 1e999, "mappings": []})";
  auto r = import_pep804(dir + "/big.mapping.json");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_EQ(r.error().message, dir +
                                   "/big.mapping.json: not JSON at byte offset 9 (number overflow parsing "
                                   "'1e999'; a PEP 804 mapping file is JSON)");
  std::ofstream(dir + "/num.mapping.json")
      << R"({"name": 5, "description": 6, "package_managers": [3], "mappings": [{"id": "dep:generic/a", "specs": "a"}]})";
  auto ok = import_pep804(dir + "/num.mapping.json", "debian", "", "apt");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->table.entries.size(), 1u);
  // Without a manager of its own (a package manager without a name) nor one given: its packages
  // would belong to no manager, so it is refused (found by the pep804_import fuzz harness: the
  // table written was a detector's and did not load).
  auto none = import_pep804(dir + "/num.mapping.json", "debian");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ExitCode::bad_input);
  EXPECT_EQ(none.error().message, dir +
                                      "/num.mapping.json: no package manager: a PEP 804 mapping file lists its "
                                      "managers in \"package_managers\", each an object with a \"name\"");
}

}  // namespace
}  // namespace extdeps::mapping
