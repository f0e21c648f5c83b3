// Homebrew versions: our order against the comparisons Homebrew's own tests assert
// (tests/data/versions/homebrew-pairs.tsv, from Library/Homebrew/test/version_spec.rb and
// pkg_version_spec.rb; Homebrew cannot run here), and the rpm-order form against that order (our
// evr_compare and libsolv's own).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "core/provider/descriptor.h"
#include "core/version/segments.h"
#include "core/version/version.h"
#include "providers/homebrew/homebrew_version.h"
#include "tests/core/version/version_fixtures.h"

// libsolv names a Solvable field `requires`, a keyword since C++20 (see rpm_test.cc).
#define requires requires_
#include <solv/evr.h>
#include <solv/pool.h>
#undef requires

namespace extdeps::version {
namespace {

using testing::sign;

struct Pair {
  std::string a, b;
  int result = 0;  // what Homebrew's spec asserts
};

std::vector<Pair> recorded_pairs() {
  std::istringstream in(test::read_file(test::data_path("versions/homebrew-pairs.tsv")));
  std::vector<Pair> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
    if (t1 == std::string::npos || t2 == std::string::npos) continue;
    out.push_back({line.substr(0, t1), line.substr(t1 + 1, t2 - t1 - 1), std::stoi(line.substr(t2 + 1))});
  }
  return out;
}

TEST(VersionHomebrew, EveryPairHomebrewsTestsAssertComparesSo) {
  const auto pairs = recorded_pairs();
  ASSERT_GT(pairs.size(), 90u);
  for (const auto& p : pairs) {
    const int ours = sign(homebrew_compare(p.a, p.b));
    EXPECT_EQ(ours, p.result) << "'" << p.a << "' vs '" << p.b << "'";
    EXPECT_EQ(sign(homebrew_compare(p.b, p.a)), -ours) << p.a << " vs " << p.b;
    EXPECT_EQ(sign(compare(version::homebrew_scheme, p.a, p.b)), ours);
  }
}

TEST(VersionHomebrew, TokensAreWhatRubysScanFinds) {
  auto kinds = [](std::string_view v) {
    std::string out;
    for (const auto& t : homebrew_tokens(v))
      out += std::string(t.text) + ":" + std::to_string(static_cast<int>(t.kind)) + " ";
    return out;
  };
  // 0 alpha, 1 beta, 2 pre, 3 rc, 4 patch, 5 post, 6 numeric, 7 string
  EXPECT_EQ(kinds("1.2.3alpha4"), "1:6 2:6 3:6 alpha4:0 ");
  EXPECT_EQ(kinds("1.2.3-p34"), "1:6 2:6 3:6 p34:4 ");
  EXPECT_EQ(kinds("1.2.3.post34"), "1:6 2:6 3:6 .post34:5 ");
  EXPECT_EQ(kinds("R13B02-1"), "R:7 13:6 B02:1 1:6 ");
  // A 'p' starts a patch token wherever no earlier alternative matched: "python" is p, ython.
  EXPECT_EQ(kinds("1.0python"), "1:6 0:6 p:4 ython:7 ");
  // Any one character before "post" digits: the digit 3 is swallowed.
  EXPECT_EQ(kinds("1.3post2"), "1:6 3post2:5 ");
}

TEST(VersionHomebrew, KnownOrder) {
  auto lt = [](std::string_view a, std::string_view b) {
    EXPECT_LT(homebrew_compare(a, b), 0) << a << " < " << b;
    EXPECT_GT(homebrew_compare(b, a), 0) << b << " > " << a;
  };
  auto eq = [](std::string_view a, std::string_view b) { EXPECT_EQ(homebrew_compare(a, b), 0) << a << " = " << b; };
  lt("3.10.0", "3.10.0_2");  // the revision after the version
  lt("3.9.9_5", "3.10.0");   // only after it
  eq("1.0", "1.0.0");        // zeros against the end
  eq("1.0a", "1.0.0a");      // and skipped against a non-numeric token
  eq("1.0.0", "1.0a");       // skipped, and the loop ends with "a" not compared
  lt("1.0", "1.0a");         // so Homebrew's order is not transitive here
  lt("1.0.a", "1.0.1");
  lt("2024-09-24", "2024-11-26");  // ca-certificates' dates
  lt("1.1.1w", "1.1.2");
  lt("1.0beta1", "1.0");
  lt("1.0", "1.0-p1");
  lt("9.5.1", "HEAD");
  eq("HEAD-abc", "HEAD");
  eq("1_2_3", "1_2_3");
  lt("1_2", "1_2_3");  // version "1_2", revision 3 against version "1_2"
}

// sign(evr_compare(pool forms)) == sign(homebrew_compare), by our comparator and libsolv's, on
// every pair of versions the recorded pairs use and a few more, but for the orders of Homebrew's
// that are not transitive (homebrew.h): a plain string token against alpha..post ones, a patch
// against a post, a comparison that stopped early.
TEST(VersionHomebrew, ThePoolFormOrdersAsHomebrewDoes) {
  std::vector<std::string> vs = {"1.0",     "1.0.0", "1.0a",     "1.0.0a",     "1.0.1",  "1.0_1",
                                 "2.3.0_1", "HEAD",  "3.10.0_2", "2024-11-26", "1.1.1w", "0.1",
                                 "0.0.1",   "1.0-1", "10.15.7",  "14.5",       "15"};
  for (const auto& p : recorded_pairs())
    for (const auto* v : {&p.a, &p.b})
      if (std::find(vs.begin(), vs.end(), *v) == vs.end()) vs.push_back(*v);
  auto mixed = [](const std::string& a, const std::string& b) {
    // Either side has a plain string token and the other a composite one at all, or one a patch
    // and the other a post: the pool form ranks kinds where Homebrew compares the bytes.
    auto has = [](const std::string& v, auto pred) {
      for (const auto& t : homebrew_tokens(v))
        if (pred(t.kind)) return true;
      return false;
    };
    auto str = [](BrewTokenKind k) { return k == BrewTokenKind::string; };
    auto comp = [](BrewTokenKind k) { return k != BrewTokenKind::string && k != BrewTokenKind::numeric; };
    auto patch = [](BrewTokenKind k) { return k == BrewTokenKind::patch; };
    auto post = [](BrewTokenKind k) { return k == BrewTokenKind::post; };
    return (has(a, str) && has(b, comp)) || (has(b, str) && has(a, comp)) || (has(a, patch) && has(b, post)) ||
           (has(b, patch) && has(a, post));
  };
  Pool* pool = pool_create();
  pool_setdisttype(pool, DISTTYPE_RPM);
  int checked = 0;
  for (const auto& a : vs)
    for (const auto& b : vs) {
      bool early = false, early_back = false;
      homebrew_compare(a, b, &early);
      homebrew_compare(b, a, &early_back);
      if (mixed(a, b) || early || early_back) continue;
      auto na = homebrew_normalize(a), nb = homebrew_normalize(b);
      ASSERT_TRUE(na.ok() && nb.ok()) << a << " " << b;
      const int want = sign(homebrew_compare(a, b));
      ++checked;
      ASSERT_EQ(sign(evr_compare(*na, *nb)), want) << a << " vs " << b << " (" << *na << " vs " << *nb << ")";
      ASSERT_EQ(sign(pool_evrcmp_str(pool, na->c_str(), nb->c_str(), EVRCMP_COMPARE)), want) << a << " vs " << b;
    }
  pool_free(pool);
  EXPECT_GT(checked, 5000);
}

TEST(VersionHomebrew, TheSchemeIsNamedAndBadVersionsAreRefused) {
  EXPECT_EQ(version_scheme_named("homebrew"), &homebrew_scheme);
  EXPECT_EQ(homebrew_scheme.name, "homebrew");
  EXPECT_FALSE(normalize(version::homebrew_scheme, "").ok());
  EXPECT_FALSE(normalize(version::homebrew_scheme, "1.0 beta").ok());
  EXPECT_EQ(*normalize(version::homebrew_scheme, "3.10.0_2"), "0.v.3.v.10-2");
  EXPECT_EQ(*normalize(version::homebrew_scheme, "HEAD-abc"), "1-0");
}

}  // namespace
}  // namespace extdeps::version
