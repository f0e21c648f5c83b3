// `extdeps mappings verify`: the report of a table against a NameIndex (the readers of real
// indexes are tested with their providers: tests/providers/apt/table_verify_test.cc and
// tests/providers/conda/table_verify_test.cc).
#include "core/mapping/verify.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/context/context.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

// verify says how many missing names are in entries marked unverified, and which marked entries
// the index confirms.
TEST(Verify, UnverifiedEntriesAreCountedAndConfirmedOnes) {
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/conda-forge.toml") << "schema = 1\necosystem = \"conda-forge\"\nmanager = \"conda\"\n\n"
                                              "[[id]]\nid = \"dep:generic/a\"\nhost = [\"a\"]\nunverified = true\n\n"
                                              "[[id]]\nid = \"dep:generic/b\"\nhost = [\"b\"]\nunverified = true\n\n"
                                              "[[id]]\nid = \"dep:generic/c\"\nhost = [\"c\"]\n";
  auto table = load_table(dir + "/conda-forge.toml");
  ASSERT_TRUE(table) << table.error().message;
  NameIndex index;
  index.description = "a test index";
  index.names = {"a"};
  const auto r = verify(*table, index);
  EXPECT_EQ(r.checked, 3u);
  EXPECT_EQ(r.found, 1u);
  EXPECT_EQ(r.missing_unverified, 1u);
  EXPECT_EQ(r.confirmed_unverified, std::vector<std::string>{"dep:generic/a"});
  std::ostringstream out;
  print_verify(*table, index, r, out);
  EXPECT_NE(out.str().find("1 of the missing names are in entries marked unverified\n"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("1 entries marked unverified have all their names in the index (remove the mark): "
                           "dep:generic/a\n"),
            std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace extdeps::mapping
