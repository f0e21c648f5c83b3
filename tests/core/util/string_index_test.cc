// StringIndex: dense ids in order of first insertion, found again after the table grows, views
// that stay valid while more strings arrive (blocks never move), and strings of any bytes and
// length, the empty one and ones longer than a block included.
#include "core/util/string_index.h"

#include <gtest/gtest.h>

#include <string>
#include <unordered_map>

namespace extdeps {
namespace {

TEST(StringIndex, DenseIdsFoundAgainAfterGrowing) {
  StringIndex index;
  std::unordered_map<std::string, std::uint32_t> expected;
  std::vector<std::string_view> early;
  bool added = false;
  EXPECT_EQ(index.insert("", &added), 0u);
  EXPECT_TRUE(added);
  expected[""] = 0;
  for (int i = 0; i < 200000; ++i) {
    // Names, versions and file names of an index: many share long prefixes.
    std::string s = i % 3 == 0   ? "libfoo-" + std::to_string(i)
                    : i % 3 == 1 ? std::to_string(i) + ".0.1"
                                 : "py" + std::to_string(i % 1000);
    std::uint32_t id = index.insert(s, &added);
    auto [it, fresh] = expected.emplace(s, static_cast<std::uint32_t>(expected.size()));
    ASSERT_EQ(added, fresh) << s;
    ASSERT_EQ(id, it->second) << s;
    if (i < 100) early.push_back(index.at(id));
  }
  EXPECT_EQ(index.size(), expected.size());
  for (const auto& [s, id] : expected) {
    ASSERT_EQ(index.find(s), id) << s;
    ASSERT_EQ(index.at(id), s);
  }
  for (std::string_view v : early) EXPECT_EQ(index.at(index.find(v)), v);  // still readable
  EXPECT_EQ(index.find("libfoo-1"), StringIndex::kNone);
  EXPECT_EQ(index.find("libfoo-0 "), StringIndex::kNone);
  EXPECT_FALSE(index.contains("never added"));
}

TEST(StringIndex, AnyBytesAndAnyLength) {
  StringIndex index;
  const std::string nul("a\0b", 3), other("a\0c", 3), huge(3 << 20, 'x');
  std::uint32_t a = index.insert(nul), b = index.insert(other), c = index.insert(huge), d = index.insert("x");
  EXPECT_NE(a, b);
  EXPECT_EQ(index.find(std::string("a\0b", 3)), a);
  EXPECT_EQ(index.find(std::string("a", 1)), StringIndex::kNone);
  EXPECT_EQ(index.at(c).size(), huge.size());
  EXPECT_EQ(index.find(huge), c);
  EXPECT_EQ(index.find("x"), d);
  // Every length up to two words, differing only in the last byte: the hash sees the tail.
  for (size_t n = 1; n <= 17; ++n) {
    std::string s(n, 'q');
    std::uint32_t first = index.insert(s);
    s.back() = 'r';
    EXPECT_NE(index.insert(s), first) << n;
  }
}

}  // namespace
}  // namespace extdeps
