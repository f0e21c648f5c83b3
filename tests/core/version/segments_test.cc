// evr_compare against libsolv itself (the pool's real comparator), on every pair of a mixed list.
#include "core/version/segments.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>

#include "core/version/part_order.h"
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
      int got = sign(evr_compare(a, b));
      if (want != got && ++mismatches <= 20)
        ADD_FAILURE() << "evr_compare('" << a << "', '" << b << "') = " << got << ", libsolv says " << want;
    }
  }
  EXPECT_EQ(mismatches, 0u) << "of " << list.size() * list.size() << " pairs";
}

TEST(VersionRpm, KnownRules) {
  EXPECT_LT(evr_compare("1.0~rc1", "1.0"), 0);     // '~' before the end
  EXPECT_GT(evr_compare("1.0^git1", "1.0"), 0);    // '^' after the end ...
  EXPECT_LT(evr_compare("1.0^git1", "1.0.1"), 0);  // ... and before anything else
  EXPECT_GT(evr_compare("1.10", "1.9"), 0);
  EXPECT_EQ(evr_compare("1.01", "1.1"), 0);
  EXPECT_GT(evr_compare("1.0a", "1.0"), 0);
  EXPECT_LT(evr_compare("1.a", "1.1"), 0);    // letters before digits
  EXPECT_EQ(evr_compare("1_0", "1.0"), 0);    // any other byte only separates
  EXPECT_EQ(evr_compare("0:1.0", "1.0"), 0);  // missing epoch is 0
  EXPECT_GT(evr_compare("1:0.1", "9.9"), 0);
  EXPECT_GT(evr_compare("1.0-1", "1.0"), 0);  // a release beats none
  EXPECT_GT(evr_compare("1-2-3", "1-3"), 0);  // the release starts at the last '-'
}

TEST(VersionRpm, FixturesAndTheirNormalFormsMatchLibsolv) {
  std::vector<std::string> list;
  for (const auto& v : fixture_versions("deb.txt")) {
    if (list.size() % 3 == 0) list.push_back(v);  // native Debian strings, read as rpm EVRs
    list.push_back(part_code(v));                 // the upstream fallback's code of a part
  }
  for (const auto& v : fixture_versions("pep440.txt")) {
    list.push_back(v);
    if (auto n = normalize(version::pep440_scheme, v)) list.push_back(*n);
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
  for (int i = 0; i < 1500; ++i) list.push_back(testing::random_string(rng, "0019aazZ.~^-:+_", 0, 7));
  expect_same_as_libsolv(list);
}

TEST(VersionRpm, VercmpIsOneField) {
  EXPECT_EQ(segment_compare("1:2", "1.2"), 0);  // no epoch inside one field
  EXPECT_EQ(segment_compare("1-2", "1.2"), 0);
  EXPECT_LT(segment_compare("2~", "2"), 0);
}

// rpm's own answers (rpm.vercmp of rpm 4.18, on full [epoch:]version[-release] strings), recorded
// in tests/data/versions/rpm-pairs.tsv: our order is rpm's, '~', '^', epochs and the missing
// release included. Where rpm is installed, it is asked again, all pairs in one Lua run.
std::vector<std::array<std::string, 3>> rpm_pairs() {
  std::vector<std::array<std::string, 3>> out;
  for (const auto& line : testing::lines_of(test::read_file(test::data_path("versions/rpm-pairs.tsv")))) {
    const auto t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
    if (t1 == std::string::npos || t2 == std::string::npos || line.starts_with("a\t")) continue;
    out.push_back({line.substr(0, t1), line.substr(t1 + 1, t2 - t1 - 1), line.substr(t2 + 1)});
  }
  return out;
}

TEST(VersionRpm, EveryRecordedPairComparesAsRpmDid) {
  const auto pairs = rpm_pairs();
  ASSERT_GT(pairs.size(), 300u);
  int wrong = 0;
  for (const auto& [a, b, result] : pairs) {
    const int ours = sign(evr_compare(a, b));
    if (ours != std::stoi(result) && ++wrong <= 20)
      ADD_FAILURE() << "rpm.vercmp('" << a << "', '" << b << "') is " << result << ", here " << ours;
  }
  EXPECT_EQ(wrong, 0);
}

TEST(VersionRpm, TheRecordedAnswersAreTheRealRpms) {
  if (std::system("command -v rpm >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no rpm on PATH (Debian: apt-get install rpm)";
  const auto pairs = rpm_pairs();
  const std::string dir = test::temp_dir();
  {
    std::ofstream in(dir + "/pairs.tsv");
    for (const auto& [a, b, result] : pairs) in << a << '\t' << b << '\n';
    std::ofstream(dir + "/vercmp.lua") << "for line in io.lines('" << dir
                                       << "/pairs.tsv') do\n"
                                          "  local a, b = line:match('^([^\\t]*)\\t([^\\t]*)$')\n"
                                          "  io.write(rpm.vercmp(a, b), '\\n')\nend\n";
  }
  auto r = testing::run_command("HOME=" + dir + " rpm --eval \"%{lua: dofile('" + dir + "/vercmp.lua')}\" 2>&1");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto answers = testing::lines_of(r.out);
  ASSERT_GE(answers.size(), pairs.size()) << r.out;
  for (std::size_t i = 0; i < pairs.size(); ++i)
    EXPECT_EQ(answers[i], pairs[i][2]) << "rpm.vercmp('" << pairs[i][0] << "', '" << pairs[i][1] << "')";
}

}  // namespace
}  // namespace extdeps::version
