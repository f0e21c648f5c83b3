// The scheme dispatch and upstream versions.
#include "core/version/version.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/version/pep440.h"
#include "tests/core/version/version_fixtures.h"

namespace extdeps::version {
namespace {

TEST(VersionScheme, CoresTwoSchemes) {
  EXPECT_EQ(segments_scheme.name, "segments");
  EXPECT_EQ(pep440_scheme.name, "pep440");
  // One pair, two answers: each scheme has its own rules.
  EXPECT_LT(compare(segments_scheme, "1.0", "1.0-0"), 0);
  EXPECT_GT(compare(pep440_scheme, "1.0-0", "1.0"), 0);  // 1.0.post0
}

TEST(VersionScheme, RpmNormalFormIsTheTextItself) {
  EXPECT_EQ(*normalize(version::segments_scheme, "1:2.3-4.fc39"), "1:2.3-4.fc39");
  auto empty = normalize(version::segments_scheme, "");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message, "invalid version '': it is empty");
  auto space = normalize(version::segments_scheme, "1.0 beta");
  ASSERT_FALSE(space.ok());
  EXPECT_EQ(space.error().message, "invalid version '1.0 beta': invalid character '\\x20'");
}

TEST(VersionUpstream, DebianUpstreamVersionsInPoolOrder) {
  // Upstream versions as Debian ships them, in their true order.
  std::vector<std::string> ordered = {
      "1.0~git5",               // before 1.0, after its pre-releases
      "1.0",       "1.0+dfsg",  // a local version
      "1.0.dfsg",               // not PEP 440: after 1.0's local versions
      "1.0.post1", "1.0.1",    "1.1.1", "1.1.1w", "1.1.2", "1.2.13", "1.2.13.dfsg",
      "2.0.0~rc1",  // PEP 440 2.0.0rc1
      "2.0.0",     "2.9.14",   "3.6.2", "9",      "9e",    "9.1",    "20230311",
  };
  for (size_t i = 0; i + 1 < ordered.size(); ++i)
    EXPECT_LT(evr_compare(normalize_upstream(ordered[i]), normalize_upstream(ordered[i + 1])), 0)
        << ordered[i] << " < " << ordered[i + 1] << ": " << normalize_upstream(ordered[i]) << " vs "
        << normalize_upstream(ordered[i + 1]);
}

TEST(VersionUpstream, AgreesWithPep440WhereItParses) {
  for (const char* v : {"3.6.2", "2.9.14", "1.0a1", "1!2.0", "1.0.post1.dev2+x.1"})
    EXPECT_EQ(normalize_upstream(v), *normalize(version::pep440_scheme, v)) << v;
  EXPECT_EQ(normalize_upstream("2.0.0~rc1"), *normalize(version::pep440_scheme, "2.0.0rc1"));
  EXPECT_EQ(normalize_upstream(" 3.6.2 "), normalize_upstream("3.6.2"));
}

TEST(VersionUpstream, FallbackForms) {
  EXPECT_EQ(normalize_upstream("1.1.1w"), "0:1.1.1.oaaw0a");
  EXPECT_EQ(normalize_upstream("v9e"), "0:9.oaae0a");
  EXPECT_EQ(normalize_upstream("1.0~git5"), "0:1~zaagaiat5a");
  EXPECT_EQ(normalize_upstream("git"), "0:0.oaagaiat0a");
  EXPECT_EQ(normalize_upstream(""), "0:0");
  // A '~' before a digit is no pre-release marker: "1.0~1" is not read as 1.01.
  EXPECT_LT(evr_compare(normalize_upstream("1.0~1"), normalize_upstream("1.0")), 0);
}

TEST(VersionUpstream, UserRangesCompareWithUpstreamVersions) {
  // ">= 1.1.1, < 1.1.2" written by a user holds for OpenSSL's 1.1.1w.
  auto lo = *normalize(version::pep440_scheme, "1.1.1");
  auto hi = *normalize(version::pep440_scheme, "1.1.2");
  EXPECT_GT(evr_compare(normalize_upstream("1.1.1w"), lo), 0);
  EXPECT_LT(evr_compare(normalize_upstream("1.1.1w"), hi), 0);
  // pep440's compare orders a non-PEP 440 string the same way.
  EXPECT_GT(compare(version::pep440_scheme, "1.1.1w", "1.1.1"), 0);
  EXPECT_LT(compare(version::pep440_scheme, "1.1.1w", "1.1.2"), 0);
}

TEST(VersionUpstream, FallbackSitsWhereDocumented) {
  // Random release numbers R and rests T that make R+T no PEP 440 version: R+T must sort after
  // R's local versions and before R.post0 and R.0.1, or, for T = "~...", after R's release
  // candidates and before R.
  std::mt19937 rng(1125);
  int checked = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string r = testing::random_string(rng, "0123456789", 1, 2);
    for (int k = static_cast<int>(rng() % 3); k > 0; --k) r += "." + testing::random_string(rng, "0019", 1, 2);
    std::string t = testing::random_string(rng, "wxyzdfsgWZ.+~~01", 1, 6);
    if (t[0] == '.' && t.size() > 1 && t[1] >= '0' && t[1] <= '9') continue;  // R would go on
    if (t[0] >= '0' && t[0] <= '9') continue;
    std::string v = r + t;
    std::string candidate = v;
    std::erase(candidate, '~');
    if (parse_pep440(candidate).ok()) continue;  // read as PEP 440, not by the fallback
    auto n = normalize_upstream(v);
    auto p = [&](const std::string& s) { return *normalize(version::pep440_scheme, s); };
    EXPECT_EQ(n.find('-'), std::string::npos) << v << " -> " << n;
    if (t[0] == '~') {
      EXPECT_GT(evr_compare(n, p(r + "rc99.post9")), 0) << v << " -> " << n;
      EXPECT_LT(evr_compare(n, p(r)), 0) << v << " -> " << n;
    } else {
      EXPECT_GT(evr_compare(n, p(r + "+zzz.99")), 0) << v << " -> " << n;
      EXPECT_LT(evr_compare(n, p(r + ".post0.dev0")), 0) << v << " -> " << n;
      EXPECT_LT(evr_compare(n, p(r + ".0.1.dev0")), 0) << v << " -> " << n;
    }
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace extdeps::version
