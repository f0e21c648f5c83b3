// A run's mapping overrides (PEP 804's --use-mapping, --patch-mapping, --extend-mapping): over
// the shipped tables, with the override PEP 804 itself gives as its example (clang for the C
// compiler) and the real PEP 804 ubuntu mapping (../shared/data/pep804) as a whole table.
#include "core/mapping/overrides.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/core/mapping/shipped.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

using L = std::vector<std::vector<std::string>>;

L packages(const Table& t, const std::string& id, Category c) {
  L out;
  const Entry* e = t.find(id);
  EXPECT_NE(e, nullptr) << id;
  if (e)
    for (const auto& a : e->alternatives(c)) out.push_back(a.packages);
  return out;
}

// PEP 804, "Inheritance and cross-referenced mappings": the override of its example, as a file
// named as its example names it.
std::string pep_example(const std::string& dir) {
  const std::string path = dir + "/my-override.mapping.json";
  std::ofstream(path) << R"({
  "$schema": "https://raw.githubusercontent.com/jaimergp/external-metadata-mappings/main/schemas/external-mapping.schema.json",
  "schema_version": 1,
  "name": "ecosystem override",
  "description": "Mapping override for my ecosystem of choice",
  "mappings": [
    {
      "id": "dep:virtual/compiler/c",
      "description": "Clang override",
      "specs": "clang"
    }
  ]
})";
  return path;
}

class Overrides : public ::testing::Test {
 protected:
  void SetUp() override { EXTDEPS_NEEDS_PROVIDER("apt"); }
  Tables shipped() {
    auto t = load_tables(ctx_, {});
    EXPECT_TRUE(t) << t.error().message;
    return t ? std::move(*t) : Tables{};
  }
  Result<Tables> with(std::vector<MappingOverride> overrides) {
    Tables t = shipped();
    if (auto r = apply_overrides(ctx_, t, overrides); !r) return r.error();
    return t;
  }
  Context ctx_ = Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", table_testing::kMappings}});
  std::string dir_ = test::temp_dir();
};

TEST_F(Overrides, APatchReplacesTheEntriesItNamesAndNoOther) {
  const Tables before = shipped();
  auto t = with({{OverrideMode::patch, "debian=" + pep_example(dir_), "--patch-mapping"}});
  ASSERT_TRUE(t) << t.error().message;
  const Table& deb = *t->find_ecosystem("debian");
  EXPECT_EQ(packages(deb, "dep:virtual/compiler/c", Category::build), (L{{"clang"}}));
  EXPECT_EQ(deb.entries.size(), before.find_ecosystem("debian")->entries.size());
  EXPECT_EQ(packages(deb, "dep:generic/zlib", Category::host),
            packages(*before.find_ecosystem("debian"), "dep:generic/zlib", Category::host));
  // The other ecosystems keep their compilers.
  EXPECT_EQ(packages(*t->find_ecosystem("fedora"), "dep:virtual/compiler/c", Category::build),
            packages(*before.find_ecosystem("fedora"), "dep:virtual/compiler/c", Category::build));
}

TEST_F(Overrides, AnExtensionAddsAlternativesAfterTheTablesOwn) {
  const Tables before = shipped();
  // debian.toml already offers clang after gcc: the example adds nothing.
  const L own = packages(*before.find_ecosystem("debian"), "dep:virtual/compiler/c", Category::build);
  ASSERT_EQ(own.size(), 2u);
  EXPECT_EQ(own.back(), (std::vector<std::string>{"clang"}));
  auto t = with({{OverrideMode::extend, "debian=" + pep_example(dir_), "--extend-mapping"}});
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(packages(*t->find_ecosystem("debian"), "dep:virtual/compiler/c", Category::build), own);
  // Tiny C Compiler (bookworm's tcc 0.9.27) is added after them, for every category, and a new
  // id is added whole.
  std::ofstream(dir_ + "/tcc.json") << R"({"mappings": [
    {"id": "dep:virtual/compiler/c", "specs": "tcc"},
    {"id": "dep:generic/tcc", "specs": "tcc"}]})";
  t = with({{OverrideMode::extend, "debian=" + pep_example(dir_), "--extend-mapping"},
            {OverrideMode::extend, "debian=" + dir_ + "/tcc.json", "EXTDEPS_EXTEND_MAPPING"}});
  ASSERT_TRUE(t) << t.error().message;
  L want = own;
  want.push_back({"tcc"});
  for (Category c : {Category::build, Category::host, Category::run})
    EXPECT_EQ(packages(*t->find_ecosystem("debian"), "dep:virtual/compiler/c", c).back(),
              (std::vector<std::string>{"tcc"}));
  EXPECT_EQ(packages(*t->find_ecosystem("debian"), "dep:virtual/compiler/c", Category::build), want);
  EXPECT_EQ(packages(*t->find_ecosystem("debian"), "dep:generic/tcc", Category::host), (L{{"tcc"}}));
}

// The real PEP 804 ubuntu mapping used instead of the debian table: every id it maps is there
// with the file's packages, and an id only debian.toml maps is gone.
TEST_F(Overrides, UseReplacesTheWholeTable) {
  EXTDEPS_SHARED_OR_SKIP(ubuntu, "pep804/ubuntu.mapping.json");
  auto t = with({{OverrideMode::use, "debian=" + ubuntu, "EXTDEPS_USE_MAPPING"}});
  ASSERT_TRUE(t) << t.error().message;
  const Table& deb = *t->find_ecosystem("debian");
  EXPECT_EQ(deb.manager, "apt");
  const auto doc = nlohmann::json::parse(std::ifstream(ubuntu));
  std::set<std::string> ids;
  for (const auto& m : doc["mappings"]) ids.insert(m["id"].get<std::string>());
  std::size_t mapped = 0;
  for (const auto& e : deb.entries) mapped += ids.count(e.id);
  EXPECT_EQ(mapped, deb.entries.size());
  EXPECT_GE(deb.entries.size(), 40u);
  // The file's openssl: {"build": ["libssl-dev", "openssl"], ..., "run": ["openssl"]}.
  EXPECT_EQ(packages(deb, "dep:generic/openssl", Category::run), (L{{"openssl"}}));
  EXPECT_EQ(packages(deb, "dep:generic/openssl", Category::host), (L{{"libssl-dev", "openssl"}}));
  ASSERT_EQ(ids.count("dep:generic/gdal"), 0u);
  EXPECT_EQ(deb.find("dep:generic/gdal"), nullptr);
  EXPECT_NE(shipped().find_ecosystem("debian")->find("dep:generic/gdal"), nullptr);
}

// A table (.toml) names its own ecosystem; use comes first, then patch, then extend, whatever
// the order given.
TEST_F(Overrides, ATomlTableAndTheOrderOfTheKinds) {
  const std::string trixie = test::data_path("mapping/versioned/debian+13.toml");
  auto t = with({{OverrideMode::extend, "debian=" + pep_example(dir_), "--extend-mapping"},
                 {OverrideMode::patch, "debian=" + trixie, "--patch-mapping"}});
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(packages(*t->find_ecosystem("debian"), "dep:generic/openssl", Category::run), (L{{"libssl3t64"}}));
  // Without a prefix, the table's own ecosystem: debian+13, a table of its own beside debian.
  auto own = with({{OverrideMode::patch, trixie, "--patch-mapping"}});
  ASSERT_TRUE(own);
  EXPECT_NE(own->find_ecosystem("debian+13"), nullptr);
}

TEST_F(Overrides, BadOverridesNameTheSettingThatGaveThem) {
  auto t = with({{OverrideMode::patch, dir_ + "/none.json", "--patch-mapping"}});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message, "--patch-mapping: no mapping file " + dir_ + "/none.json");
  EXPECT_EQ(t.error().code, ExitCode::bad_input);
  t = with({{OverrideMode::use, pep_example(dir_), "EXTDEPS_USE_MAPPING"}});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message.rfind("EXTDEPS_USE_MAPPING: which ecosystem's table does " + dir_ +
                                        "/my-override.mapping.json override? Write ECOSYSTEM=" + dir_ +
                                        "/my-override.mapping.json (the tables here: ",
                                    0),
            0u)
      << t.error().message;
  std::ofstream(dir_ + "/o.yaml") << "x: 1\n";
  t = with({{OverrideMode::extend, "debian=" + dir_ + "/o.yaml", "extdeps.toml:3:18"}});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message, "extdeps.toml:3:18: " + dir_ +
                                   "/o.yaml: expected a mapping table (.toml) or a PEP 804 mapping file (.json)");
  std::ofstream(dir_ + "/debian.mapping.json") << R"({"mappings": [{"id": "zlib", "specs": "zlib1g-dev"}]})";
  t = with({{OverrideMode::patch, dir_ + "/debian.mapping.json", "--patch-mapping"}});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message,
            dir_ + "/debian.mapping.json: mappings[0]: id 'zlib' is not a DepURL (expected dep:TYPE/NAME)");
}

}  // namespace
}  // namespace extdeps::mapping
