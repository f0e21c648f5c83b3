// Whole JSON documents without exceptions: syntax errors and numbers out of range are values with
// the byte offset.
#include "core/json/document.h"

#include <gtest/gtest.h>

#include "core/util/limits.h"

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

// Issue 31: a plugin's describe answer of 300000 nested arrays crashed the first copy of it, and
// `debug replay --json` of such a request.json crashed too. Nesting past kMaxJsonDepth is an
// error at the bracket that crosses it; brackets inside strings do not count.
TEST(JsonDocument, NestingPastTheLimitIsAnErrorAtItsBracket) {
  nlohmann::json j;
  const std::size_t limit = limits::kMaxJsonDepth;
  const std::string at_limit = std::string(limit, '[') + std::string(limit, ']');
  EXPECT_FALSE(parse_document(at_limit, j));
  nlohmann::json copy = j;  // copies recurse: fine at the limit
  EXPECT_EQ(copy, j);
  const std::string deep = "{\"a\": " + std::string(300000, '[') + std::string(300000, ']') + "}";
  auto e = parse_document(deep, j);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 5u + limit);  // the '[' that opens level limit + 1 ('{' at 0 is level 1)
  EXPECT_EQ(e->what, "arrays and objects nested deeper than " + std::to_string(limit) + " (docs/limits.md)");
  EXPECT_TRUE(parse_or_discarded(deep).is_discarded());
  // In strings, brackets and escaped quotes are text.
  const std::string quoted = "[\"" + std::string(1000, '[') + "\\\"{\"]";
  EXPECT_FALSE(parse_document(quoted, j)) << quoted;
  EXPECT_EQ(j[0].get<std::string>().size(), 1002u);
  EXPECT_FALSE(nested_deeper_than(quoted, 1));
  EXPECT_EQ(nested_deeper_than("[[1]]", 1), 1u);
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
