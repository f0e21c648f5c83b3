// dnf's rpm-upstream version rule on real rpm versions, as a table's `version = "rpm-upstream"`
// reads them (through the rule the dnf descriptor registers). The Version and Epoch fields are
// those of Fedora's spec files (major/fedora-rpm-specs @ 10e71f1, 2026-08-22, specs/NAME.spec),
// with the release dnf prints for them (Release: N%{?dist} on Fedora 43 is N.fc43).
#include "providers/dnf/rpm_upstream.h"

#include <gtest/gtest.h>

#include "core/mapping/mapping.h"
#include "core/provider/descriptor.h"

namespace extdeps::dnf {
namespace {

std::string rpm(std::string_view native) { return mapping::upstream_version({"rpm-upstream", "", ""}, native); }

TEST(RpmUpstream, IsTheRuleTheDnfDescriptorRegisters) {
  const UpstreamRule* rule = upstream_rule_named("rpm-upstream");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->upstream, &rpm_upstream);
  EXPECT_EQ(version_rule_of("dnf"), "rpm-upstream");
  EXPECT_EQ(version_rule_of("zypper"), "rpm-upstream");  // the opensuse table's manager
}

TEST(RpmUpstream, DropsTheEpochAndTheRelease) {
  EXPECT_EQ(rpm("2.13.9-4.fc43"), "2.13.9");        // libxml2
  EXPECT_EQ(rpm("1:4.0.1-5.fc43"), "4.0.1");        // openssl, Epoch: 1
  EXPECT_EQ(rpm("3.13.2-2.fc43"), "3.13.2");        // gdal
  EXPECT_EQ(rpm("2.3.3-1.fc43"), "2.3.3");          // zlib-ng, %autorelease
  EXPECT_EQ(rpm("2.5.11-150600.3.6.1"), "2.5.11");  // an openSUSE Leap release: dots, no dist tag
  EXPECT_EQ(rpm("2.13.9"), "2.13.9");               // a version alone (no release) is kept
}

TEST(RpmUpstream, KeepsPreReleasesAndReadsASnapshotAsTheReleaseItFollows) {
  EXPECT_EQ(rpm("2.0.0~M1-3.fc43"), "2.0.0~M1");              // maven-verifier
  EXPECT_EQ(rpm("1.2.1~beta.2-2.fc43"), "1.2.1~beta.2");      // golang-github-vishvananda-netlink
  EXPECT_EQ(rpm("1.5.35~beta1-1.fc43"), "1.5.35~beta1");      // ibus
  EXPECT_EQ(rpm("0.2.1^20240530.56b0c4d9-4.fc43"), "0.2.1");  // kookbook
  EXPECT_EQ(rpm("6.7.3^unstable-1.fc43"), "6.7.3");           // cinnamon-control-center
  EXPECT_EQ(rpm("0^20260728.gf8df3f1-1.fc43"), "0");          // passt: no release yet
}

}  // namespace
}  // namespace extdeps::dnf
