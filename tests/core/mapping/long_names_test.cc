// Did-you-mean on names far longer than any id or key: nothing is near them, and no edit-distance
// matrix of their length is built (a 10 MB name took a minute and gigabytes).
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/mapping/mapping.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

TEST(MappingLongNames, DidYouMeanOnA10MBIdSuggestsNothing) {
  const std::vector<std::string> known = {"dep:generic/zlib", "dep:generic/libxml2"};
  EXPECT_TRUE(did_you_mean("dep:generic/" + std::string(10 << 20, 'z'), known).empty());
  EXPECT_EQ(did_you_mean("dep:generic/zlb", known), std::vector<std::string>{"dep:generic/zlib"});
}

TEST(MappingLongNames, AnUnknownKeyOf1MBIsNamedShortly) {
  std::string path = test::temp_dir() + "/debian.toml";
  std::ofstream(path) << "ecosystem = \"debian\"\n" << std::string(1 << 20, 'k') << " = 1\n";
  auto t = load_table(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ExitCode::bad_input);
  EXPECT_LT(t.error().message.size(), 500u);
  EXPECT_NE(t.error().message.find("(1048576 bytes)'"), std::string::npos) << t.error().message;
}

}  // namespace
}  // namespace extdeps::mapping
