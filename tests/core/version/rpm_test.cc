// rpm_compare against libsolv itself (the pool's real comparator), on every pair of a mixed list.
#include "core/version/rpm.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "core/version/version.h"
#include "tests/core/version/version_fixtures.h"

// libsolv names a Solvable field `requires`, a keyword since C++20; read its headers with the
// field renamed (as core/solve/ does), after every standard header.
#define requires requires_
#include <solv/evr.h>
#include <solv/pool.h>
#undef requires

namespace extdeps::version {
namespace {

using testing::fixture_versions;
using testing::sign;

struct PoolDeleter {
  void operator()(Pool* p) const { pool_free(p); }
};

std::unique_ptr<Pool, PoolDeleter> rpm_pool() {
  std::unique_ptr<Pool, PoolDeleter> pool(pool_create());
  pool_setdisttype(pool.get(), DISTTYPE_RPM);
  return pool;
}

// Every pair (both orders) of `list` must compare the same here and in libsolv.
void expect_same_as_libsolv(const std::vector<std::string>& list) {
  auto pool = rpm_pool();
  size_t mismatches = 0;
  for (const auto& a : list) {
    for (const auto& b : list) {
      int want = sign(pool_evrcmp_str(pool.get(), a.c_str(), b.c_str(), EVRCMP_COMPARE));
      int got = sign(rpm_compare(a, b));
      if (want != got && ++mismatches <= 20)
        ADD_FAILURE() << "rpm_compare('" << a << "', '" << b << "') = " << got << ", libsolv says "
                      << want;
    }
  }
  EXPECT_EQ(mismatches, 0u) << "of " << list.size() * list.size() << " pairs";
}

TEST(VersionRpm, KnownRules) {
  EXPECT_LT(rpm_compare("1.0~rc1", "1.0"), 0);     // '~' before the end
  EXPECT_GT(rpm_compare("1.0^git1", "1.0"), 0);    // '^' after the end ...
  EXPECT_LT(rpm_compare("1.0^git1", "1.0.1"), 0);  // ... and before anything else
  EXPECT_GT(rpm_compare("1.10", "1.9"), 0);
  EXPECT_EQ(rpm_compare("1.01", "1.1"), 0);
  EXPECT_GT(rpm_compare("1.0a", "1.0"), 0);
  EXPECT_LT(rpm_compare("1.a", "1.1"), 0);    // letters before digits
  EXPECT_EQ(rpm_compare("1_0", "1.0"), 0);    // any other byte only separates
  EXPECT_EQ(rpm_compare("0:1.0", "1.0"), 0);  // missing epoch is 0
  EXPECT_GT(rpm_compare("1:0.1", "9.9"), 0);
  EXPECT_GT(rpm_compare("1.0-1", "1.0"), 0);  // a release beats none
  EXPECT_GT(rpm_compare("1-2-3", "1-3"), 0);  // the release starts at the last '-'
}

TEST(VersionRpm, FixturesAndTheirNormalFormsMatchLibsolv) {
  std::vector<std::string> list;
  for (const auto& v : fixture_versions("deb.txt")) {
    if (list.size() % 3 == 0) list.push_back(v);  // native Debian strings, read as rpm EVRs
    if (auto n = normalize(VersionScheme::deb, v)) list.push_back(*n);
  }
  for (const auto& v : fixture_versions("pep440.txt")) {
    list.push_back(v);
    if (auto n = normalize(VersionScheme::pep440, v)) list.push_back(*n);
    list.push_back(normalize_upstream(v));
  }
  for (const char* v : {"1.1.1w", "9e", "1.2.13.dfsg", "2.0.0~rc1", "1.0~git5", ""})
    list.push_back(normalize_upstream(v));
  ASSERT_GT(list.size(), 1500u);
  expect_same_as_libsolv(list);
}

TEST(VersionRpm, RandomStringsMatchLibsolv) {
  // Short strings over the bytes that matter (digits, letters of both cases, '~', '^', the
  // epoch and release marks, separators) meet every rule and every edge between them.
  std::mt19937 rng(440);
  std::vector<std::string> list;
  for (int i = 0; i < 1500; ++i)
    list.push_back(testing::random_string(rng, "0019aazZ.~^-:+_", 0, 7));
  expect_same_as_libsolv(list);
}

TEST(VersionRpm, VercmpIsOneField) {
  EXPECT_EQ(rpm_vercmp("1:2", "1.2"), 0);  // no epoch inside one field
  EXPECT_EQ(rpm_vercmp("1-2", "1.2"), 0);
  EXPECT_LT(rpm_vercmp("2~", "2"), 0);
}

}  // namespace
}  // namespace extdeps::version
