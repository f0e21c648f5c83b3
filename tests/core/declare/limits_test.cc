// The limits of docs/limits.md on declarations: hostile files (include-group chains and
// diamonds, 100,000 parentheses, a 50,000-digit version, 40,000 dotted parts) are clear errors
// with their place and exit code 2, found fast, never a stack overflow or minutes of work.
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/declare/declare.h"
#include "core/util/limits.h"
#include "tests/test_support.h"

namespace extdeps::declare {
namespace {

std::string write_file(const std::string& text) {
  std::string path = test::temp_dir() + "/pyproject.toml";
  std::ofstream(path) << text;
  return path;
}

Result<Declaration> read(const std::string& text) {
  Context ctx = Context::for_test("/");
  return read_declaration(ctx, write_file(text));
}

// [external.dependency-groups] g0 .. g<n-1>, each including the next; the last one names zlib,
// or includes g0 when `cycle`.
std::string chain(std::size_t n, bool cycle) {
  std::string text = "[external.dependency-groups]\n";
  for (std::size_t i = 0; i < n; ++i) {
    text += "g" + std::to_string(i) + " = [";
    if (i + 1 < n) text += "{include-group = \"g" + std::to_string(i + 1) + "\"}";
    else text += cycle ? "{include-group = \"g0\"}" : "\"dep:generic/zlib\"";
    text += "]\n";
  }
  return text;
}

TEST(DeclareLimits, AnIncludeChainOf5000GroupsIsAnErrorNotAStackOverflow) {
  auto r = read(chain(5000, false));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_NE(r.error().message.find(":101:25: dependency group 'g0' includes groups more than 100 deep "
                                   "(extdeps reads at most that)"),
            std::string::npos)
      << r.error().message;
}

TEST(DeclareLimits, AnIncludeCycleOf5000GroupsIsAnErrorNotAStackOverflow) {
  auto r = read(chain(5000, true));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_NE(r.error().message.find("includes groups more than 100 deep"), std::string::npos) << r.error().message;
}

TEST(DeclareLimits, AChainAsDeepAsTheLimitIsRead) {
  auto r = read(chain(limits::kMaxGroupDepth, false));
  ASSERT_TRUE(r.ok()) << r.error().message;
  // Every group includes the last one's need: one requirement per group.
  EXPECT_EQ(r->requirements.size(), limits::kMaxGroupDepth);
  EXPECT_EQ(r->requirements.front().group, "g0");
  EXPECT_FALSE(read(chain(limits::kMaxGroupDepth + 1, false)).ok());
}

TEST(DeclareLimits, ACycleNamesItsGroups) {
  auto r = read(chain(3, true));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_NE(r.error().message.find(":4:24: dependency groups include each other in a cycle: g0 -> g1 -> g2 -> g0"),
            std::string::npos)
      << r.error().message;
}

// Levels of two groups, each including both groups of the next level: 2^depth paths to the
// leaf, which is read once per group.
TEST(DeclareLimits, ADiamondOfDepth40IsReadOncePerGroup) {
  const int depth = 40;
  std::string text = "[external.dependency-groups]\n";
  for (int i = 0; i < depth; ++i) {
    for (char side : {'a', 'b'}) {
      text += std::string(1, side) + std::to_string(i) + " = [\"dep:generic/n" + std::to_string(i) + "\"";
      if (i + 1 < depth)
        text += ", {include-group = \"a" + std::to_string(i + 1) + "\"}, {include-group = \"b" + std::to_string(i + 1) +
                "\"}";
      text += "]\n";
    }
  }
  auto r = read(text);
  ASSERT_TRUE(r.ok()) << r.error().message;
  // Group a<i> and b<i> each hold their own string and both strings of every level below, once.
  std::size_t want = 0;
  for (int i = 0; i < depth; ++i) want += 2 * (1 + 2 * static_cast<std::size_t>(depth - 1 - i));
  EXPECT_EQ(r->requirements.size(), want);
}

TEST(DeclareLimits, MoreRequirementsThanTheLimitAreAnError) {
  std::string text = "[external]\ndependencies = [\n";
  for (std::size_t i = 0; i <= limits::kMaxRequirements; ++i) text += "\"dep:generic/zlib\",\n";
  text += "]\n";
  auto r = read(text);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_NE(r.error().message.find(":10003:1: more than 10000 requirements in "), std::string::npos)
      << r.error().message;
}

TEST(DeclareLimits, ASpecifierLongerThanTheLimitIsAnError) {
  auto r = read("[external]\ndependencies = [\"dep:generic/" + std::string(100000, 'z') + "\"]\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_NE(r.error().message.find(":2:17: a specifier of 100012 bytes (extdeps reads at most 65536)"),
            std::string::npos)
      << r.error().message;
}

TEST(DeclareLimits, AGroupNameLongerThanTheLimitIsAnError) {
  auto r = read("[external.optional-dependencies]\n" + std::string(5000, 'g') + " = []\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_NE(r.error().message.find("pyproject.toml:2:1: a group name of 5000 bytes (extdeps reads at most 1024)"),
            std::string::npos)
      << r.error().message;
}

TEST(DeclareLimits, AMarkerOf100000NestedParenthesesIsAnError) {
  std::string marker = std::string(100000, '(') + "os_name == 'posix'" + std::string(100000, ')');
  auto r = parse_requirement("dep:generic/zlib; " + marker);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  const std::string& m = r.error().message;
  EXPECT_NE(m.find("more than 100 nested parentheses (extdeps reads at most that) at position 101"), std::string::npos)
      << m.substr(0, 500);
  // The marker is quoted shortened, with its length.
  EXPECT_LT(m.size(), 600u);
  EXPECT_NE(m.find("(200018 bytes)"), std::string::npos) << m.substr(0, 500);
}

TEST(DeclareLimits, AMarkerAsDeepAsTheLimitIsRead) {
  std::string marker =
      std::string(limits::kMaxMarkerDepth, '(') + "os_name == 'posix'" + std::string(limits::kMaxMarkerDepth, ')');
  EXPECT_TRUE(check_marker(marker).ok());
  auto v = evaluate_marker(marker, {{"os_name", "posix"}});
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_TRUE(*v);
}

TEST(DeclareLimits, AVersionOf50000DigitsIsAnError) {
  auto r = parse_range(">=" + std::string(50000, '1'));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_EQ(r.error().message, "version range is 50002 characters long (expected at most 1024)");
  EXPECT_FALSE(parse_range("==" + std::string(50000, '1') + ".*").ok());
}

TEST(DeclareLimits, ATableOf40000DottedPartsIsAnError) {
  std::string key = "a";
  for (int i = 0; i < 40000; ++i) key += ".a";
  auto r = read("[external]\ndependencies = []\n[x]\n" + key + " = 1\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_NE(r.error().message.find("pyproject.toml:4:256: a key of more than 128 dotted parts and brackets "
                                   "(extdeps reads at most 128)"),
            std::string::npos)
      << r.error().message;
  auto header = read("[" + key + "]\n");
  ASSERT_FALSE(header.ok());
  EXPECT_NE(header.error().message.find("pyproject.toml:1:"), std::string::npos) << header.error().message;
}

TEST(DeclareLimits, DidYouMeanOnA10MBTypeComparesNothing) {
  std::string type(10 << 20, 'g');
  auto r = parse_depurl("dep:" + type + "/zlib");
  ASSERT_FALSE(r.ok());
  EXPECT_LT(r.error().message.size(), 400u);
  EXPECT_EQ(r.error().message, "unknown DepURL type '" + std::string(200, 'g') + "\u2026(10485760 bytes)" +
                                   r.error().message.substr(r.error().message.find("' (")));
  const std::string_view words[] = {"generic", "virtual"};
  EXPECT_FALSE(did_you_mean(type, words).has_value());
  EXPECT_EQ(did_you_mean("gneric", words), "generic");
}

}  // namespace
}  // namespace extdeps::declare
