// Whole JSON documents without exceptions: syntax errors and numbers out of range are values with
// the byte offset.
#include "core/json/document.h"

#include <gtest/gtest.h>

namespace extdeps::json {
namespace {

TEST(JsonDocument, ParsesAndReportsOffsets) {
  nlohmann::json j;
  EXPECT_FALSE(parse_document(R"({"a": [1, 2.5, "x"]})", j));
  EXPECT_EQ(j["a"][2], "x");
  auto e = parse_document(R"({"a": [1, )", j);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 10u);  // the end
  EXPECT_EQ(e->what.rfind("syntax error while parsing value", 0), 0u) << e->what;
  e = parse_document(R"({"a": [1, -1e999]})", j);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 10u);
  EXPECT_EQ(e->what, "number overflow parsing '-1e999'");
  e = parse_document("\"\xFF\"", j);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 1u);
}

TEST(JsonDocument, StringAtNeverThrows) {
  nlohmann::json j = {{"s", "x"}, {"n", 5}};
  EXPECT_EQ(string_at(j, "s"), "x");
  EXPECT_EQ(string_at(j, "n"), std::nullopt);
  EXPECT_EQ(string_at(j, "missing"), std::nullopt);
  EXPECT_EQ(string_at(nlohmann::json::array(), "s"), std::nullopt);
}

}  // namespace
}  // namespace extdeps::json
