// pacman versions: our order against the real `vercmp` (Debian's pacman-package-manager), on the
// recorded pairs of tests/data/versions/pacman-pairs.tsv (asked again of vercmp where it is
// installed), and the rpm-order form against that order (our evr_compare and libsolv's own).
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "core/provider/descriptor.h"
#include "core/version/segments.h"
#include "core/version/version.h"
#include "providers/pacman/pacman_version.h"
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
  int result = 0;  // what the real vercmp printed
};

// a<TAB>b<TAB>vercmp's answer, a header line first.
std::vector<Pair> recorded_pairs() {
  std::istringstream in(test::read_file(test::data_path("versions/pacman-pairs.tsv")));
  std::vector<Pair> out;
  std::string line;
  std::getline(in, line);  // a b result
  while (std::getline(in, line)) {
    const auto t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
    if (t1 == std::string::npos || t2 == std::string::npos) continue;
    out.push_back({line.substr(0, t1), line.substr(t1 + 1, t2 - t1 - 1), std::stoi(line.substr(t2 + 1))});
  }
  return out;
}

// Shell-quoted.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

TEST(VersionPacman, EveryRecordedPairComparesAsVercmpDid) {
  const auto pairs = recorded_pairs();
  ASSERT_GT(pairs.size(), 300u);
  int wrong = 0;
  for (const auto& p : pairs) {
    const int ours = sign(pacman_compare(p.a, p.b));
    if (ours != p.result && ++wrong <= 20)
      ADD_FAILURE() << "vercmp '" << p.a << "' '" << p.b << "' is " << p.result << ", here " << ours;
    EXPECT_EQ(sign(pacman_compare(p.b, p.a)), -ours) << p.a << " vs " << p.b;
    EXPECT_EQ(sign(compare(version::pacman_scheme, p.a, p.b)), ours);
  }
  EXPECT_EQ(wrong, 0);
}

// The recorded answers are the real tool's: where vercmp is installed, it is asked again.
TEST(VersionPacman, TheRecordedAnswersAreTheRealVercmps) {
  if (!std::filesystem::exists("/usr/bin/vercmp")) GTEST_SKIP() << "no /usr/bin/vercmp (Debian: makepkg)";
  int asked = 0;
  for (const auto& p : recorded_pairs()) {
    // Empty arguments are kept: vercmp compares "" too.
    auto r = testing::run_command("/usr/bin/vercmp " + quoted(p.a) + " " + quoted(p.b));
    ASSERT_EQ(r.status, 0) << p.a << " vs " << p.b;
    EXPECT_EQ(std::stoi(r.out), p.result) << "vercmp '" << p.a << "' '" << p.b << "'";
    ++asked;
  }
  EXPECT_GT(asked, 300);
}

TEST(VersionPacman, KnownOrder) {
  auto lt = [](std::string_view a, std::string_view b) {
    EXPECT_LT(pacman_compare(a, b), 0) << a << " < " << b;
    EXPECT_GT(pacman_compare(b, a), 0) << b << " > " << a;
  };
  auto eq = [](std::string_view a, std::string_view b) { EXPECT_EQ(pacman_compare(a, b), 0) << a << " = " << b; };
  lt("1.0", "1:0.1");    // the epoch first
  lt("1.0-1", "1.0-2");  // then the release, when both have one
  eq("1.0-1", "1.0");    // not when one has none
  eq("01:1.0", "1:1.0");
  lt("1.0a", "1.0");  // a left-over letter segment loses
  lt("1.0rc1", "1.0");
  lt("1.0", "1.0.1");  // left-over digits win
  lt("1.a", "1.1");    // digits beat letters
  eq("1.01", "1.1");
  lt("1.0", "1..0");         // a longer separator run wins
  eq("1.0~rc1", "1.0.rc1");  // '~' is a separator like any other
  lt("1.0", "1.0~rc1");
  eq("1.0^1", "1.0.1");
  lt("2.40+r16+gaa533d58ff-1", "2.40+r16+gaa533d58ff-2");
  lt("6.12.1.arch1-1", "6.12.2.arch1-1");
  lt("14.2.1+r134+gab884fffe3fc-1", "14.2.1+r134+gab884fffe3fd-1");
}

// sign(evr_compare(pool forms)) == sign(pacman_compare), by our comparator and libsolv's, on every
// pair of the versions the recorded pairs use, but for the two orders of pacman's that are not
// transitive (pacman.h): one side without a release, or a field that ends in separators.
TEST(VersionPacman, ThePoolFormOrdersAsPacmanDoes) {
  std::vector<std::string> vs;
  for (const auto& p : recorded_pairs())
    for (const auto* v : {&p.a, &p.b})
      if (std::find(vs.begin(), vs.end(), *v) == vs.end()) vs.push_back(*v);
  auto intransitive = [](const std::string& v) {
    if (v.empty()) return true;
    const char last = v.back();
    const bool trailing =
        !((last >= '0' && last <= '9') || (last >= 'a' && last <= 'z') || (last >= 'A' && last <= 'Z'));
    const auto dash = v.rfind('-');
    const bool version_trailing =
        dash != std::string::npos && dash > 0 && !std::isalnum(static_cast<unsigned char>(v[dash - 1]));
    return trailing || version_trailing;
  };
  Pool* pool = pool_create();
  pool_setdisttype(pool, DISTTYPE_RPM);
  int checked = 0;
  for (const auto& a : vs)
    for (const auto& b : vs) {
      auto na = pacman_normalize(a), nb = pacman_normalize(b);
      if (!na || !nb || intransitive(a) || intransitive(b)) continue;
      const bool ra = a.find('-') != std::string::npos, rb = b.find('-') != std::string::npos;
      int want = sign(pacman_compare(a, b));
      if (ra != rb && want == 0) continue;  // "1.0" = "1.0-1": matched by version alone in the pool
      ++checked;
      ASSERT_EQ(sign(evr_compare(*na, *nb)), want) << a << " vs " << b << " (" << *na << " vs " << *nb << ")";
      ASSERT_EQ(sign(pool_evrcmp_str(pool, na->c_str(), nb->c_str(), EVRCMP_COMPARE)), want) << a << " vs " << b;
    }
  pool_free(pool);
  EXPECT_GT(checked, 10000);
}

TEST(VersionPacman, TheSchemeIsNamedAndBadVersionsAreRefused) {
  EXPECT_EQ(version_scheme_named("pacman"), &pacman_scheme);
  EXPECT_EQ(pacman_scheme.name, "pacman");
  auto empty = normalize(version::pacman_scheme, "1:-2");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message, "invalid pacman version '1:-2': the version is empty");
  EXPECT_FALSE(normalize(version::pacman_scheme, "1.0 beta").ok());
  EXPECT_EQ(*normalize(version::pacman_scheme, "1:2.3-4"), "1:.1.2.3.3-.1.4");
}

}  // namespace
}  // namespace extdeps::version
