// PEP 440: our order and canonical text against Python's packaging, and the rpm-order form
// against our order.
#include "core/version/pep440.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "core/version/segments.h"
#include "core/version/version.h"
#include "tests/core/version/version_fixtures.h"

namespace extdeps::version {
namespace {

using testing::fixture_versions;
using testing::sign;

// For each version: its rank among the distinct versions packaging sorts, and str(Version(v)).
constexpr const char* kPackagingScript = R"PY(
import sys
try:
    from packaging.version import Version
except ImportError:
    sys.exit(3)
vs = [Version(l.rstrip("\n")) for l in open(sys.argv[1])]
rank = {v: i for i, v in enumerate(sorted(set(vs)))}
for v in vs:
    print(rank[v], str(v), sep="\t")
)PY";

struct PackagingView {
  std::vector<int> rank;
  std::vector<std::string> canonical;
};

// nullopt when /usr/bin/python3 or its packaging module is missing.
std::optional<PackagingView> ask_packaging(const std::vector<std::string>& list) {
  std::string dir = test::temp_dir();
  {
    std::ofstream(dir + "/script.py") << kPackagingScript;
    std::ofstream out(dir + "/versions");
    for (const auto& v : list) out << v << '\n';
  }
  if (testing::run_command("test -x /usr/bin/python3").status != 0) return std::nullopt;
  auto r = testing::run_command("/usr/bin/python3 " + dir + "/script.py " + dir + "/versions");
  if (r.status == 3) return std::nullopt;
  EXPECT_EQ(r.status, 0) << r.out;
  PackagingView view;
  for (const auto& line : testing::lines_of(r.out)) {
    auto tab = line.find('\t');
    view.rank.push_back(std::stoi(line.substr(0, tab)));
    view.canonical.push_back(line.substr(tab + 1));
  }
  return view;
}

std::vector<Pep440> parse_all(const std::vector<std::string>& list) {
  std::vector<Pep440> out;
  for (const auto& v : list) {
    auto p = parse_pep440(v);
    EXPECT_TRUE(p.ok()) << v << ": " << (p.ok() ? "" : p.error().message);
    out.push_back(p.ok() ? *p : Pep440{});
  }
  return out;
}

void expect_same_as_packaging(const std::vector<std::string>& list) {
  auto view = ask_packaging(list);
  if (!view)
    GTEST_SKIP() << "/usr/bin/python3 with the packaging module is missing (Debian: "
                    "python3-packaging): cannot check against packaging.version";
  ASSERT_EQ(view->rank.size(), list.size());
  auto parsed = parse_all(list);
  size_t wrong = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(pep440_canonical(parsed[i]), view->canonical[i]) << list[i];
    for (size_t j = 0; j < list.size(); ++j) {
      int want = sign(view->rank[i] - view->rank[j]);
      int got = sign(pep440_compare(parsed[i], parsed[j]));
      if (want != got && ++wrong <= 20)
        ADD_FAILURE() << "'" << list[i] << "' vs '" << list[j] << "': we say " << got << ", packaging says " << want;
    }
  }
  EXPECT_EQ(wrong, 0u);
}

void expect_normal_form_keeps_order(const std::vector<std::string>& list) {
  auto parsed = parse_all(list);
  std::vector<std::string> normal;
  for (const auto& v : parsed) normal.push_back(pep440_pool_order(v));
  size_t wrong = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(normal[i].find('-'), std::string::npos) << normal[i];
    for (size_t j = 0; j < list.size(); ++j) {
      int want = sign(pep440_compare(parsed[i], parsed[j]));
      int got = sign(evr_compare(normal[i], normal[j]));
      if (want != got && ++wrong <= 20)
        ADD_FAILURE() << "'" << list[i] << "' vs '" << list[j] << "': PEP 440 " << want << ", rpm of '" << normal[i]
                      << "' vs '" << normal[j] << "' " << got;
    }
  }
  EXPECT_EQ(wrong, 0u);
}

// Random versions from the whole grammar: every component, spelling and separator, numbers with
// leading and trailing zeros, so that many share a prefix and differ in one place.
std::vector<std::string> random_pep440(int n, unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&](std::initializer_list<const char*> xs) { return std::string(xs.begin()[rng() % xs.size()]); };
  auto num = [&] { return pick({"0", "1", "2", "00", "01", "10"}); };
  auto maybe = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    std::string v;
    if (maybe(5)) v += "v";
    if (maybe(10)) v += num() + "!";
    v += num();
    for (int k = static_cast<int>(rng() % 3); k > 0; --k) v += "." + num();
    if (maybe(40))
      v += pick({"", ".", "-", "_"}) + pick({"a", "alpha", "b", "beta", "c", "rc", "pre", "preview"}) +
           pick({"", ".", "-"}) + (maybe(80) ? num() : "");
    if (maybe(35)) {
      if (maybe(25)) v += "-" + num();
      else v += pick({"", ".", "-", "_"}) + pick({"post", "rev", "r"}) + pick({"", "."}) + (maybe(80) ? num() : "");
    }
    if (maybe(35)) v += pick({"", ".", "-"}) + "dev" + (maybe(80) ? num() : "");
    if (maybe(25)) {
      v += "+" + pick({"a", "b", "1", "01", "abc", "1a", "ubuntu", "Z"});
      for (int k = static_cast<int>(rng() % 3); k > 0; --k)
        v += pick({".", "-", "_"}) + pick({"a", "1", "2", "0", "ab", "a1", "10"});
    }
    if (maybe(5)) v = "V" + v.substr(v[0] == 'v' ? 1 : 0);
    out.push_back(v);
  }
  return out;
}

TEST(VersionPep440, FixtureOrdersLikePackaging) {
  auto list = fixture_versions("pep440.txt");
  ASSERT_GT(list.size(), 200u);
  expect_same_as_packaging(list);
}

TEST(VersionPep440, RandomVersionsOrderLikePackaging) { expect_same_as_packaging(random_pep440(1500, 440)); }

TEST(VersionPep440, NormalFormKeepsTheOrderOfTheFixture) {
  expect_normal_form_keeps_order(fixture_versions("pep440.txt"));
}

TEST(VersionPep440, NormalFormKeepsTheOrderOfRandomVersions) {
  expect_normal_form_keeps_order(random_pep440(2000, 725));
}

TEST(VersionPep440, KnownOrder) {
  auto cmp = [](std::string_view a, std::string_view b) { return compare(version::pep440_scheme, a, b); };
  EXPECT_LT(cmp("1.0.dev0", "1.0a1"), 0);
  EXPECT_LT(cmp("1.0a1", "1.0b1"), 0);
  EXPECT_LT(cmp("1.0rc1", "1.0"), 0);
  EXPECT_LT(cmp("1.0", "1.0+local"), 0);
  EXPECT_LT(cmp("1.0+local", "1.0.post1"), 0);
  EXPECT_LT(cmp("1.0.post1", "1.0.1"), 0);
  EXPECT_EQ(cmp("1.0", "1.0.0"), 0);
  EXPECT_EQ(cmp("1.0c1", "1.0rc1"), 0);
  EXPECT_EQ(cmp("1.0-1", "1.0.post1"), 0);
  EXPECT_EQ(cmp("V1.0-ALPHA", "1.0a0"), 0);
  EXPECT_GT(cmp("1!0.1", "2.0"), 0);
  EXPECT_LT(cmp("1.0+abc", "1.0+1"), 0);  // a numeric local part beats a string
}

TEST(VersionPep440, NormalForms) {
  auto n = [](std::string_view v) { return *normalize(version::pep440_scheme, v); };
  EXPECT_EQ(n("1.0"), "0:1");
  EXPECT_EQ(n("1.0.0"), "0:1");
  EXPECT_EQ(n("0.0"), "0:0");
  EXPECT_EQ(n("2!1.2rc1"), "2:1.2~rc1");
  EXPECT_EQ(n("1.2.dev3"), "0:1.2~~dev3");
  EXPECT_EQ(n("1.2b2.post1.dev4"), "0:1.2~b2.post1~dev4");
  EXPECT_EQ(n("1.2-3"), "0:1.2.post3");
  EXPECT_EQ(n("1.2+Ubuntu1.04"), "0:1.2+lubuntuB.n4");
}

TEST(VersionPep440, Canonical) {
  auto c = [](std::string_view v) { return pep440_canonical(*parse_pep440(v)); };
  EXPECT_EQ(c(" v1.0-ALPHA.2-r.3.DEV+Ubuntu-01 "), "1.0a2.post3.dev0+ubuntu.1");
  EXPECT_EQ(c("0!01.00"), "1.0");
  EXPECT_EQ(c("1.0preview"), "1.0rc0");
}

TEST(VersionPep440, InvalidVersionsSayWhy) {
  auto error = [](std::string_view v) {
    auto r = normalize(version::pep440_scheme, v);
    EXPECT_EQ(r.ok() ? ExitCode::ok : r.error().code, ExitCode::bad_input) << v;
    return r.ok() ? std::string("accepted") : r.error().message;
  };
  EXPECT_EQ(error(""), "invalid PEP 440 version '': it is empty");
  EXPECT_EQ(error("abc"), "invalid PEP 440 version 'abc': expected a release number at 'abc'");
  EXPECT_EQ(error("v"), "invalid PEP 440 version 'v': expected a release number at ''");
  EXPECT_EQ(error("1.0-foo"), "invalid PEP 440 version '1.0-foo': unexpected '-foo'");
  EXPECT_EQ(error("1.0."), "invalid PEP 440 version '1.0.': unexpected '.'");
  EXPECT_EQ(error("1.0+"), "invalid PEP 440 version '1.0+': unexpected '+'");
  EXPECT_EQ(error("1.0+abc."), "invalid PEP 440 version '1.0+abc.': unexpected '.'");
  EXPECT_EQ(error("1.0~rc1"), "invalid PEP 440 version '1.0~rc1': unexpected '~rc1'");
  EXPECT_EQ(error("1.1.1w"), "invalid PEP 440 version '1.1.1w': unexpected 'w'");
  EXPECT_EQ(error("1.0_1"), "invalid PEP 440 version '1.0_1': unexpected '_1'");
  EXPECT_EQ(error("1!"), "invalid PEP 440 version '1!': expected a release number at ''");
}

TEST(VersionPep440, InvalidStringsThatPackagingAlsoRejects) {
  if (testing::run_command("/usr/bin/python3 -c 'import packaging' 2>/dev/null").status != 0)
    GTEST_SKIP() << "/usr/bin/python3 with packaging is missing";
  for (const char* v : {"1.0-foo", "1.0.", "1.0+", "1.0+abc.", "1.1.1w", "1.0_1", "1!", "1.0-", "1.0.post1.post2",
                        "1.0dev1a1", "1..0", "-1.0", "1.0+a..b"}) {
    EXPECT_FALSE(parse_pep440(v).ok()) << v;
    auto r = testing::run_command(std::string("/usr/bin/python3 -c 'import sys; from packaging.version "
                                              "import Version; Version(sys.argv[1])' '") +
                                  v + "' 2>/dev/null");
    EXPECT_NE(r.status, 0) << v << " is valid for packaging";
  }
}

}  // namespace
}  // namespace extdeps::version
