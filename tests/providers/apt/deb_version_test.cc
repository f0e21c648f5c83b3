// Debian versions: our order against the real dpkg, and the rpm-order form against our order.
#include "providers/apt/deb_version.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>

#include "core/provider/descriptor.h"
#include "core/version/segments.h"
#include "core/version/version.h"
#include "tests/core/version/version_fixtures.h"

namespace extdeps::version {
namespace {

using testing::fixture_versions;
using testing::sign;

struct Query {
  std::string a, op, b;
};

// Asks `dpkg --compare-versions a op b` for each query; nullopt when dpkg is not installed.
std::optional<std::vector<bool>> ask_dpkg(const std::vector<Query>& queries) {
  if (testing::run_command("command -v dpkg >/dev/null 2>&1").status != 0) return std::nullopt;
  std::string file = test::temp_dir() + "/queries";
  {
    std::ofstream out(file);
    for (const auto& q : queries) out << q.a << ' ' << q.op << ' ' << q.b << '\n';
  }
  auto r = testing::run_command(
      "while read -r a op b; do if dpkg --compare-versions \"$a\" \"$op\" \"$b\" 2>/dev/null; "
      "then echo y; else echo n; fi; done < '" +
      file + "'");
  std::vector<bool> answers;
  for (const auto& line : testing::lines_of(r.out)) answers.push_back(line == "y");
  return answers;
}

// Each query says what our compare claims; dpkg must agree with every one.
void expect_dpkg_agrees(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::vector<Query> queries;
  for (const auto& [a, b] : pairs) {
    int c = deb_compare(a, b);
    queries.push_back({a, c < 0 ? "lt" : c > 0 ? "gt" : "eq", b});
  }
  auto answers = ask_dpkg(queries);
  if (!answers) GTEST_SKIP() << "dpkg is not installed: cannot check against dpkg --compare-versions";
  ASSERT_EQ(answers->size(), queries.size());
  size_t wrong = 0;
  for (size_t i = 0; i < queries.size(); ++i)
    if (!(*answers)[i] && ++wrong <= 20)
      ADD_FAILURE() << "we say '" << queries[i].a << "' " << queries[i].op << " '" << queries[i].b
                    << "', dpkg disagrees";
  EXPECT_EQ(wrong, 0u) << "of " << queries.size() << " comparisons";
}

// sign(evr_compare(normalize(a), normalize(b))) == sign(compare(a, b)) for every pair.
void expect_normal_form_keeps_order(const std::vector<std::string>& list) {
  std::vector<std::string> normal;
  for (const auto& v : list) {
    auto n = deb_normalize(v);
    ASSERT_TRUE(n.ok()) << n.error().message;
    EXPECT_EQ(n->find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ~"),
              n->find(':'))
        << *n;  // only the epoch's ':' and the release's '-' are marks
    normal.push_back(*n);
  }
  size_t wrong = 0;
  for (size_t i = 0; i < list.size(); ++i)
    for (size_t j = 0; j < list.size(); ++j) {
      int want = sign(deb_compare(list[i], list[j]));
      int got = sign(evr_compare(normal[i], normal[j]));
      if (want != got && ++wrong <= 20)
        ADD_FAILURE() << "'" << list[i] << "' vs '" << list[j] << "': deb " << want << ", rpm of '" << normal[i]
                      << "' vs '" << normal[j] << "' " << got;
    }
  EXPECT_EQ(wrong, 0u);
}

// Random valid Debian versions: epochs, '~', '+', '.', letters of both cases, several hyphens.
std::vector<std::string> random_debs(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    std::string v;
    if (rng() % 4 == 0) v += std::to_string(rng() % 3) + ":";
    v += std::to_string(rng() % 3);
    v += testing::random_string(rng, "0019aZz.+~~", 0, 5);
    if (v.find(':') != std::string::npos && rng() % 3 == 0) v += ":1";
    if (rng() % 3) {
      if (rng() % 5 == 0) v += "-" + testing::random_string(rng, "01a.", 1, 2);
      v += "-" + testing::random_string(rng, "0019aZ.+~~", 1, 4);
    }
    out.push_back(v);
  }
  return out;
}

TEST(VersionDeb, FixtureSortsLikeDpkg) {
  auto list = fixture_versions("deb.txt");
  ASSERT_GT(list.size(), 700u);
  std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return deb_compare(a, b) < 0; });
  // Our order must be a total preorder consistent with the sort ...
  for (size_t i = 0; i < list.size(); ++i)
    for (size_t j = i + 1; j < list.size(); ++j)
      ASSERT_LE(deb_compare(list[i], list[j]), 0) << list[i] << " vs " << list[j];
  // ... and dpkg must confirm each step of the chain (then dpkg orders every pair as we do).
  std::vector<std::pair<std::string, std::string>> steps;
  for (size_t i = 0; i + 1 < list.size(); ++i) steps.emplace_back(list[i], list[i + 1]);
  expect_dpkg_agrees(steps);
}

TEST(VersionDeb, RandomVersionsCompareLikeDpkg) {
  auto list = random_debs(800, 725);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (size_t i = 0; i + 1 < list.size(); i += 2) pairs.emplace_back(list[i], list[i + 1]);
  // Near neighbours differ late, where the rules for '~', the end and letters meet.
  std::sort(list.begin(), list.end());
  for (size_t i = 0; i + 1 < list.size(); i += 2) pairs.emplace_back(list[i], list[i + 1]);
  expect_dpkg_agrees(pairs);
}

TEST(VersionDeb, NormalFormKeepsTheOrderOfTheFixture) { expect_normal_form_keeps_order(fixture_versions("deb.txt")); }

TEST(VersionDeb, NormalFormKeepsTheOrderOfRandomVersions) { expect_normal_form_keeps_order(random_debs(1500, 804)); }

TEST(VersionDeb, KnownOrder) {
  EXPECT_LT(deb_compare("1.0~rc1", "1.0"), 0);
  EXPECT_LT(deb_compare("1.0", "1.0+b1"), 0);
  EXPECT_LT(deb_compare("1.0", "1.0a"), 0);
  EXPECT_LT(deb_compare("1.0a", "1.0+"), 0);  // letters before other marks
  EXPECT_EQ(deb_compare("1.0", "1.0-0"), 0);  // a missing revision is "0"
  EXPECT_EQ(deb_compare("0:1.0", "1.0"), 0);
  EXPECT_GT(deb_compare("1:0.1", "9.9"), 0);
  EXPECT_EQ(deb_compare("1.001", "1.1"), 0);
  EXPECT_LT(deb_compare("1.2-3", "1.2-10"), 0);
  EXPECT_LT(deb_compare("2.36-9+deb12u4", "2.36-9+deb12u10"), 0);
}

TEST(VersionDeb, NormalForms) {
  EXPECT_EQ(*deb_normalize("1.0"), "0:a1azAu0a-a0a");
  EXPECT_EQ(*deb_normalize("1:2.0~rc1-3"), "1:a2azAu0a~aarac1a-a3a");
  EXPECT_EQ(*deb_normalize(" 1.0-0 "), *deb_normalize("1.0"));
  EXPECT_EQ(*normalize(version::deb_scheme, "2:1.0"), "2:a1azAu0a-a0a");
}

TEST(VersionDeb, IsTheDebSchemeByName) {
  EXPECT_EQ(version_scheme_named("deb"), &deb_scheme);
  EXPECT_EQ(deb_scheme.name, "deb");
  // One pair, three answers: each scheme has its own rules.
  EXPECT_EQ(compare(deb_scheme, "1.0", "1.0-0"), 0);
  EXPECT_LT(compare(segments_scheme, "1.0", "1.0-0"), 0);
  EXPECT_GT(compare(pep440_scheme, "1.0-0", "1.0"), 0);
}

TEST(VersionDeb, ParsesTheParts) {
  auto v = parse_deb("1:2.36-9+deb12u4");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->epoch, 1u);
  EXPECT_EQ(v->upstream, "2.36");
  EXPECT_EQ(v->revision, "9+deb12u4");
  auto w = parse_deb("1:1.2-3-4");  // the revision starts at the last '-'
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->upstream, "1.2-3");
  EXPECT_EQ(w->revision, "4");
  EXPECT_TRUE(parse_deb("a1.0").ok());  // dpkg only warns: the upstream does not start with a digit
}

TEST(VersionDeb, InvalidVersionsSayWhy) {
  auto error = [](std::string_view v) {
    auto r = normalize(version::deb_scheme, v);
    EXPECT_EQ(r.ok() ? ExitCode::ok : r.error().code, ExitCode::bad_input) << v;
    return r.ok() ? std::string("accepted") : r.error().message;
  };
  EXPECT_EQ(error(""), "invalid deb version '': it is empty");
  EXPECT_EQ(error("  "), "invalid deb version '  ': it is empty");
  EXPECT_EQ(error("1.0 2"), "invalid deb version '1.0 2': it has embedded spaces");
  EXPECT_EQ(error(":1.0"), "invalid deb version ':1.0': the epoch is empty");
  EXPECT_EQ(error("1.0:1"), "invalid deb version '1.0:1': the epoch is not a number");
  EXPECT_EQ(error("4294967295:1"), "invalid deb version '4294967295:1': the epoch is too big");
  EXPECT_EQ(error("1:"), "invalid deb version '1:': nothing after the epoch colon");
  EXPECT_EQ(error("1.0-"), "invalid deb version '1.0-': the revision is empty");
  EXPECT_EQ(error("1:-1"), "invalid deb version '1:-1': the upstream version is empty");
  EXPECT_EQ(error("1.0_1"), "invalid deb version '1.0_1': invalid character '_' in the upstream version");
  EXPECT_EQ(error("1.0-1:2"), "invalid deb version '1.0-1:2': the epoch is not a number");
  EXPECT_EQ(error("1:1.0-1:2"), "invalid deb version '1:1.0-1:2': invalid character ':' in the revision");
  EXPECT_EQ(error("1.0-a-b_c"), "invalid deb version '1.0-a-b_c': invalid character '_' in the revision");
  EXPECT_EQ(error("1.0\x01"), "invalid deb version '1.0\x01': invalid character '\\x01' in the upstream version");
}

// Epochs as dpkg reads them (strtol): any count of leading zeros, a '+'. "0000000000000000000:002"
// was taken for no epoch at all (more than 10 characters) and sorted before 1.0.
TEST(VersionDeb, LongEpochsCompareLikeDpkg) {
  EXPECT_GT(deb_compare("0000000000000000000:002", "1.0"), 0);
  EXPECT_EQ(deb_compare("0000000000000000000:002", "002"), 0);
  EXPECT_EQ(deb_compare("00000000001:1", "1:1"), 0);
  EXPECT_GT(deb_compare("2147483647:1", "2147483646:9"), 0);
  expect_dpkg_agrees({{"0000000000000000000:002", "1.0"},
                      {"0000000000000000000:002", "002"},
                      {"00000000000000000000000000000001:1", "1:1"},
                      {"00000000001:0", "1.0"},
                      {"0000000000:5", "4"},
                      {"2147483647:1", "2147483646:9"},
                      {"02147483647:1", "2147483647:1"},
                      {"+1:1", "1:1"},
                      {"+1:1", "1.0"},
                      {"1:1", "0:9"}});
}

TEST(VersionDeb, EpochsTooBigForDpkgAreInvalid) {
  // dpkg: "epoch in version is too big", whatever the length.
  for (std::string v : {std::string("2147483648:1"), std::string("99999999999:1"),
                        std::string("000000000000000000002147483648:1"), std::string(50000, '9') + ":1"}) {
    auto r = normalize(version::deb_scheme, v);
    ASSERT_FALSE(r.ok()) << v;
    EXPECT_NE(r.error().message.find("': the epoch is too big"), std::string::npos) << r.error().message.substr(0, 300);
    EXPECT_LT(r.error().message.size(), 300u);
  }
  EXPECT_TRUE(normalize(version::deb_scheme, "0000000000000000000000000000002147483647:1").ok());
  // Lenient comparison (of strings that failed the check) keeps them after every valid epoch.
  EXPECT_GT(deb_compare("99999999999:1", "2147483647:9"), 0);
}

}  // namespace
}  // namespace extdeps::version
