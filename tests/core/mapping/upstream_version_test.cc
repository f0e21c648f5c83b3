// upstream_version: core's rules (native, regex) on real native versions from Debian bookworm's
// index; apt's deb-upstream is tested in tests/providers/apt/deb_upstream_test.cc.
#include <gtest/gtest.h>

#include "core/mapping/mapping.h"

namespace extdeps::mapping {
namespace {

TEST(MappingVersion, RegexTakesItsGroup) {
  const VersionRule go{"regex", R"(^(?:\d+:)?(\d+(?:\.\d+)+))", ""};
  EXPECT_EQ(upstream_version(go, "2:1.19~1"), "1.19");
  const VersionRule cuda{"regex", R"(~(\d+\.\d+\.\d+)-)", ""};
  EXPECT_EQ(upstream_version(cuda, "11.8.89~11.8.0-5~deb12u1"), "11.8.0");
  const VersionRule boost{"regex", R"(^(\d+\.\d+\.\d+))", ""};
  EXPECT_EQ(upstream_version(boost, "1.74.0.3"), "1.74.0");
}

// A pattern std::regex backtracks on for longer than any run should (24 `.*` before a
// group that never matches: a number of splits of the version with 24 digits): RE2 answers in
// time linear in the version.
TEST(MappingVersion, APatternThatBacktracksAnswersAtOnce) {
  std::string many;
  for (int i = 0; i < 24; ++i) many += ".*";
  EXPECT_EQ(upstream_version({"regex", "^" + many + "(x\\d)", ""}, "1:3.6.2+dfsg-1+b2~really3.6.2+dfsg-1+b2"), "");
  EXPECT_EQ(upstream_version({"regex", "^" + many + "(b\\d)", ""}, "1:3.6.2+dfsg-1+b2"), "b2");
}

TEST(MappingVersion, RegexWithoutMatchIsUnknown) {
  EXPECT_EQ(upstream_version({"regex", R"(^v(\d+))", ""}, "1.2.3"), "");
  EXPECT_EQ(upstream_version({"regex", "(", ""}, "1.2.3"), "");  // never thrown
}

// none reads no version; map reads the upstream version listed for the native one, exactly as
// written (FreeType's libtool numbers, from its docs/VERSIONS.TXT), and nothing for one it does
// not list.
TEST(MappingVersion, NoneIsUnknownAndAMapReadsOnlyWhatItLists) {
  EXPECT_EQ(upstream_version({"none", "", ""}, "0.0.0"), "");
  VersionRule freetype{"map", "", ""};
  freetype.map = {{"24.3.18", "2.12.1"}, {"25.0.19", "2.13.0"}};
  EXPECT_EQ(upstream_version(freetype, "24.3.18"), "2.12.1");
  EXPECT_EQ(upstream_version(freetype, "25.0.19"), "2.13.0");
  EXPECT_EQ(upstream_version(freetype, "24.3"), "");
  EXPECT_EQ(upstream_version(freetype, " 24.3.18"), "");
}

TEST(MappingVersion, NativeIsTheSameString) {
  EXPECT_EQ(upstream_version({}, "1:2.9.14+dfsg-1.3~deb12u1"), "1:2.9.14+dfsg-1.3~deb12u1");
}

// A table's own pattern is not run on a version longer than any real one.
TEST(MappingVersion, ARegexIsNotRunOnAVersionLongerThanAnyRealOne) {
  const std::string digits(50000, '7');
  EXPECT_EQ(upstream_version({"regex", "^([0-9]+)", "", {}}, digits), "");
  EXPECT_EQ(upstream_version({"regex", "^([0-9]+)", "", {}}, "123abc"), "123");
}

// A rule no provider defines (a table loaded before a provider was left out of the build)
// reads the version as it is.
TEST(MappingVersion, AnUnknownRuleIsNative) {
  EXPECT_EQ(upstream_version({"no-such-rule", "", ""}, "1:2.0-1"), "1:2.0-1");
}

}  // namespace
}  // namespace extdeps::mapping
