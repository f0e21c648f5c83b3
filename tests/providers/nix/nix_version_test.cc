// Nix versions: our order against the real nix-instantiate (builtins.compareVersions), on real
// nixpkgs version strings and on random ones, and the rpm-order form against that order (our
// evr_compare and libsolv's own comparator).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "core/cli/cli.h"
#include "core/context/context.h"
#include "core/provider/descriptor.h"
#include "core/version/version.h"
#include "providers/nix/nix_version.h"
#include "tests/core/version/version_fixtures.h"
#include "tests/support/nix_tool.h"

// libsolv names a Solvable field `requires`, a keyword since C++20 (see rpm_test.cc).
#define requires requires_
#include <solv/evr.h>
#include <solv/pool.h>
#undef requires

namespace extdeps::version {
namespace {

using testing::sign;

// compareVersions of every pair, as the real nix computes it: answer[i][j] for (vs[i], vs[j]).
std::vector<std::vector<int>> nix_matrix(const test::NixTool& nix, const std::vector<std::string>& vs) {
  std::string file = nix.dir + "/versions.json";
  std::ofstream(file) << nlohmann::json(vs).dump();
  std::string err;
  auto out = nix.run("nix-instantiate --eval --strict --json --argstr file " + file +
                         " --expr '{ file }: let vs = builtins.fromJSON (builtins.readFile file); "
                         "in map (a: map (b: builtins.compareVersions a b) vs) vs'",
                     &err);
  EXPECT_TRUE(out) << err;
  if (!out) return {};
  return nlohmann::json::parse(*out).get<std::vector<std::vector<int>>>();
}

void expect_nix_agrees(const std::vector<std::string>& vs) {
  EXTDEPS_NIX_OR_SKIP(nix);
  auto m = nix_matrix(nix, vs);
  ASSERT_EQ(m.size(), vs.size());
  int disagreements = 0;
  for (size_t i = 0; i < vs.size(); ++i)
    for (size_t j = 0; j < vs.size(); ++j) {
      int ours = sign(nix_compare(vs[i], vs[j]));
      if (ours == m[i][j]) continue;
      if (++disagreements <= 20)
        ADD_FAILURE() << "compareVersions \"" << vs[i] << "\" \"" << vs[j] << "\" is " << m[i][j] << " in nix, " << ours
                      << " here";
    }
  EXPECT_EQ(disagreements, 0);
}

// sign(evr_compare(pool forms)) == sign(nix_compare) for every pair, also by libsolv itself.
void expect_pool_order_agrees(const std::vector<std::string>& vs) {
  Pool* pool = pool_create();
  pool_setdisttype(pool, DISTTYPE_RPM);
  for (const auto& a : vs)
    for (const auto& b : vs) {
      std::string na = nix_pool_order(a), nb = nix_pool_order(b);
      int want = sign(nix_compare(a, b));
      ASSERT_EQ(sign(evr_compare(na, nb)), want) << a << " vs " << b << " (" << na << " vs " << nb << ")";
      ASSERT_EQ(sign(pool_evrcmp_str(pool, na.c_str(), nb.c_str(), EVRCMP_COMPARE)), want) << a << " vs " << b;
    }
  pool_free(pool);
}

std::vector<std::string> random_versions(unsigned seed, int count) {
  std::mt19937 rng(seed);
  std::vector<std::string> out;
  // Digits, both separators, the letters of "pre", a few others, and runs long enough to
  // overflow a C int.
  for (int i = 0; i < count; ++i) {
    std::string v = testing::random_string(rng, "0123456789..--preabzPR_+", 0, 9);
    if (i % 17 == 0) v += "2147483648";
    if (i % 23 == 0) v = "pre" + v;
    out.push_back(v);
  }
  out.push_back("");
  return out;
}

TEST(VersionNix, ComponentsAreNixs) {
  auto parts = [](std::string_view v) {
    std::string out;
    for (auto c : nix_components(v)) out += "[" + std::string(c) + "]";
    return out;
  };
  EXPECT_EQ(parts("2.3pre1"), "[2][3][pre][1]");
  EXPECT_EQ(parts("1.0-rc1"), "[1][0][rc][1]");
  EXPECT_EQ(parts("0-unstable-2024-08-27"), "[0][unstable][2024][08][27]");
  EXPECT_EQ(parts("..1--a_b+c9"), "[1][a_b+c][9]");
  EXPECT_EQ(parts(""), "");
  EXPECT_EQ(parts("-."), "");
}

// The examples of the nix-env manual ("Versions"), and the rules at their edges.
TEST(VersionNix, KnownOrder) {
  auto lt = [](std::string_view a, std::string_view b) {
    EXPECT_LT(nix_compare(a, b), 0) << a << " < " << b;
    EXPECT_GT(nix_compare(b, a), 0) << b << " > " << a;
  };
  lt("1.0", "2.3");
  lt("2.1", "2.3");
  EXPECT_EQ(nix_compare("2.3", "2.3"), 0);
  lt("2.3", "2.5");
  lt("2.3", "3.1");
  lt("2.3", "2.3.1");
  lt("2.3a", "2.3.1");
  lt("2.3pre1", "2.3");
  lt("2.3pre3", "2.3pre12");
  lt("2.3a", "2.3c");
  lt("2.3pre1", "2.3c");
  lt("2.3pre1", "2.3q");
  // Not PEP 440: a trailing zero counts, and a letter after the release is above it.
  lt("1", "1.0");
  lt("1.0", "1.0rc1");
  lt("6.11-rc7", "6.11.0");
  EXPECT_EQ(nix_compare("1.01", "1.1"), 0);
  EXPECT_EQ(nix_compare("1-0", "1.0"), 0);
  // "" is a version: below every number and string, above "pre".
  lt("pre", "");
  lt("", "0");
  lt("", "a");
  // Past a C int, digits are a string: below any number.
  lt("2147483648", "1");
  lt("1", "2147483647");
}

TEST(VersionNix, FixtureComparesLikeNix) { expect_nix_agrees(testing::fixture_versions("nix.txt")); }

TEST(VersionNix, RandomVersionsCompareLikeNix) { expect_nix_agrees(random_versions(20260125, 400)); }

TEST(VersionNix, PoolOrderKeepsTheOrderOfTheFixture) {
  auto vs = testing::fixture_versions("nix.txt");
  vs.push_back("");
  expect_pool_order_agrees(vs);
}

TEST(VersionNix, PoolOrderKeepsTheOrderOfRandomVersions) { expect_pool_order_agrees(random_versions(7, 400)); }

TEST(VersionNix, PoolForms) {
  EXPECT_EQ(nix_pool_order("3.0.15"), "x.b3.b0.b15");
  EXPECT_EQ(nix_pool_order("2.3pre1"), "x.b2.b3.~.b1");
  EXPECT_EQ(nix_pool_order("1.1.1w"), "x.b1.b1.b1.aHH");
  EXPECT_EQ(nix_pool_order("007"), "x.b7");
  EXPECT_EQ(nix_pool_order(""), "x");
  EXPECT_EQ(nix_pool_order("2147483648"), "x.aDCDBDEDHDEDIDDDGDEDI");
  // Every string is a Nix version: normalize never fails.
  auto n = normalize(version::nix_scheme, "\x01 odd");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, "x.aABCAGPGEGE");
}

TEST(VersionNix, SchemeIsKnownToTheCommandLine) {
  EXPECT_EQ(version_scheme_named("nix"), &nix_scheme);
  EXPECT_EQ(nix_scheme.name, "nix");
  auto ctx = Context::for_test("/");
  std::ostringstream out, err;
  EXPECT_EQ(cli::run(ctx, {"version", "compare", "--scheme", "nix", "2.3pre1", "2.3"}, out, err), 0);
  EXPECT_EQ(out.str(), "<\n");
  out.str("");
  EXPECT_EQ(cli::run(ctx, {"version", "compare", "--scheme", "nix", "1.0", "1"}, out, err), 0);
  EXPECT_EQ(out.str(), ">\n");
}

}  // namespace
}  // namespace extdeps::version
