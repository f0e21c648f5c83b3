// apt's deb-upstream version rule on real native versions from Debian bookworm's index, as a
// table's `version = "deb-upstream"` reads them (through the rule the apt descriptor registers).
#include "providers/apt/deb_upstream.h"

#include <gtest/gtest.h>

#include "core/mapping/mapping.h"
#include "core/provider/descriptor.h"

namespace extdeps::apt {
namespace {

std::string deb(std::string_view native) { return mapping::upstream_version({"deb-upstream", "", ""}, native); }

TEST(DebUpstream, IsTheRuleTheAptDescriptorRegisters) {
  const UpstreamRule* rule = upstream_rule_named("deb-upstream");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->upstream, &deb_upstream);
  EXPECT_EQ(version_rule_of("apt"), "deb-upstream");
  EXPECT_NE(version_rule_forms_text().find("\"deb-upstream\""), std::string::npos) << version_rule_forms_text();
}

TEST(DebUpstream, StripsEpochRevisionAndRepackSuffixes) {
  EXPECT_EQ(deb("1:2.9.14+dfsg-1.3~deb12u1"), "2.9.14");      // libxml2
  EXPECT_EQ(deb("1:1.2.13.dfsg-1"), "1.2.13");                // zlib
  EXPECT_EQ(deb("3.0.11-1~deb12u2"), "3.0.11");               // openssl
  EXPECT_EQ(deb("12.2.0-14+deb12u1"), "12.2.0");              // gcc-12
  EXPECT_EQ(deb("4:12.2.0-3"), "12.2.0");                     // gcc (gcc-defaults)
  EXPECT_EQ(deb("1:3.6.2+dfsg-1+b2"), "3.6.2");               // design example
  EXPECT_EQ(deb("3.6.2+dfsg-1+b2"), "3.6.2");                 // libgdal-dev
  EXPECT_EQ(deb("1.10.8+repack1-1"), "1.10.8");               // libhdf5-dev
  EXPECT_EQ(deb("0.66.0+ds1-1"), "0.66.0");                   // cargo
  EXPECT_EQ(deb("1.63.0+dfsg1-2"), "1.63.0");                 // rustc
  EXPECT_EQ(deb("0.3.21+ds-4"), "0.3.21");                    // libopenblas-dev
  EXPECT_EQ(deb("7:5.1.9-0+deb12u1"), "5.1.9");               // libavcodec-dev
  EXPECT_EQ(deb("1:14.0-55.7~deb12u1"), "14.0");              // clang
  EXPECT_EQ(deb("6.8.0.105+dfsg-3.3+deb12u1"), "6.8.0.105");  // mono-mcs
  EXPECT_EQ(deb("5.15.8+dfsg-11+deb12u3"), "5.15.8");         // qtbase5-dev
}

TEST(DebUpstream, KeepsWhatIsUpstream) {
  EXPECT_EQ(deb("8.6.13"), "8.6.13");                    // tk-dev, no revision
  EXPECT_EQ(deb("3.25.1-1"), "3.25.1");                  // cmake
  EXPECT_EQ(deb("20220623.1-1+deb12u2"), "20220623.1");  // libabsl-dev
  EXPECT_EQ(deb("2:1.19~1"), "1.19~1");                  // a real pre-release marker stays
  EXPECT_EQ(deb("1.0~rc1-2"), "1.0~rc1");
  EXPECT_EQ(deb("0.1+git20230101-1"), "0.1+git20230101");
  EXPECT_EQ(deb("1.2.3-dsa-1"), "1.2.3-dsa");  // only the last '-' starts the revision
}

TEST(DebUpstream, HandlesNativePackagesAndReally) {
  EXPECT_EQ(deb("20230311+deb12u1"), "20230311");  // ca-certificates: native, stable update
  EXPECT_EQ(deb("2.0+really1.5-1"), "1.5");        // a downgrade, upstream 1.5
  EXPECT_EQ(deb("1.2.3~bpo12+1"), "1.2.3");        // a backport of a native package
}

TEST(DebUpstream, RepackSuffixesNeedTheirWholeWord) {
  EXPECT_EQ(deb("2.0+debian-1"), "2.0");
  EXPECT_EQ(deb("2.0+debianx-1"), "2.0+debianx");
  EXPECT_EQ(deb("2.0+deb12u3-1"), "2.0");
  EXPECT_EQ(deb("2.0+deb12u-1"), "2.0+deb12u");
  EXPECT_EQ(deb("2.0+deb12-1"), "2.0+deb12");
  EXPECT_EQ(deb("2.0~bpo11+1"), "2.0");
  EXPECT_EQ(deb("2.0+dsx"), "2.0+dsx");
  EXPECT_EQ(deb("2.0.ds2.1"), "2.0");
  EXPECT_EQ(deb("+dfsg"), "+dfsg");  // a suffix at the start is no suffix
}

// The repack-suffix scanner (it was a std::regex, which recursed once per character).
TEST(DebUpstream, OfA50000DigitVersionIsItsDigits) {
  const std::string digits(50000, '7');
  EXPECT_EQ(deb("1:" + digits + "-1"), digits);
  EXPECT_EQ(deb(digits + "+dfsg-1"), digits);
  EXPECT_EQ(deb(std::string(50000, '.') + "+ds"), std::string(50000, '.'));
}

}  // namespace
}  // namespace extdeps::apt
