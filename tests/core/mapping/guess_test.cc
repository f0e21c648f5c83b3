// The names a guess looks for, per ecosystem and category (core/mapping/guess.h).
#include "core/mapping/guess.h"

#include <gtest/gtest.h>

namespace extdeps::mapping {
namespace {

std::vector<std::string> names(std::string_view id, std::string_view eco, std::string_view manager, Category c) {
  std::vector<std::string> out;
  for (const auto& g : guess_candidates(id, eco, manager, c)) out.push_back(g.name);
  return out;
}

using V = std::vector<std::string>;

TEST(GuessCandidates, DebianNamesLibrariesLibNameDevAndToolsByTheirName) {
  EXPECT_EQ(names("dep:generic/libfoo", "debian", "apt", Category::host), (V{"libfoo-dev"}));
  EXPECT_EQ(names("dep:generic/foo", "debian", "apt", Category::host), (V{"libfoo-dev", "foo-dev"}));
  EXPECT_EQ(names("dep:generic/foo", "debian", "apt", Category::run), (V{"libfoo-dev", "foo-dev"}));
  EXPECT_EQ(names("dep:generic/foo", "debian", "apt", Category::build), (V{"foo", "libfoo-dev", "foo-dev"}));
  // The name part, lower-cased, without version or qualifiers; github ids by their repository.
  EXPECT_EQ(names("dep:github/Owner/LibBar@>=2?x=y", "debian", "apt", Category::host), (V{"libbar-dev"}));
  // A name Debian would refuse is not looked for.
  EXPECT_EQ(names("dep:generic/a", "debian", "apt", Category::build), (V{"liba-dev", "a-dev"}));
  EXPECT_EQ(names("dep:generic/foo_bar", "debian", "apt", Category::host), V{});
}

TEST(GuessCandidates, CondaForgeAndPkgconfig) {
  EXPECT_EQ(names("dep:generic/foo", "conda-forge", "conda", Category::host), (V{"foo", "libfoo"}));
  EXPECT_EQ(names("dep:generic/libfoo", "conda-forge", "conda", Category::host), (V{"libfoo"}));
  EXPECT_EQ(names("dep:generic/foo", "conda-forge", "conda", Category::build), (V{"foo"}));
  EXPECT_EQ(names("dep:generic/libfoo", "pkgconfig", "", Category::host), (V{"libfoo", "foo"}));
  EXPECT_EQ(names("dep:generic/foo", "pkgconfig", "", Category::build), (V{"foo", "libfoo"}));
  // A .pc file proves what is built against, not what runs.
  EXPECT_EQ(names("dep:generic/foo", "pkgconfig", "", Category::run), V{});
}

TEST(GuessCandidates, NothingForVirtualIdsOrUnknownManagers) {
  EXPECT_EQ(names("dep:virtual/interface/blas", "debian", "apt", Category::host), V{});
  EXPECT_EQ(names("dep:virtual/compiler/c", "pkgconfig", "", Category::build), V{});
  EXPECT_EQ(names("dep:pypi/numpy", "conda-forge", "conda", Category::host), V{});
  EXPECT_EQ(names("dep:generic/foo", "nixpkgs", "nix", Category::host), V{});
  auto why = guess_candidates("dep:generic/foo", "debian", "apt", Category::host);
  ASSERT_FALSE(why.empty());
  EXPECT_EQ(why[0].why, "named after dep:generic/foo (Debian's lib<name>-dev form)");
}

}  // namespace
}  // namespace extdeps::mapping
