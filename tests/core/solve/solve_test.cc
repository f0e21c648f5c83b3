// The solver on records shaped like bookworm's (names, versions and relations taken from the real
// index), served by an in-memory provider so each case shows one behaviour.
#include "core/solve/solve.h"
#include "core/plan/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/declare/declare.h"
#include "core/plan/render.h"
#include "tests/core/solve/solve_fixture.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

using namespace solve_testing;

TEST_F(SolveTest, PlansTheMappedPackageWithItsExactVersion) {
  auto o = resolve({req("dep:generic/libxml2")});
  ASSERT_EQ(o.requirements.size(), 1u);
  // libxml2-dev depends on libicu-dev, which this index lacks: the closure is checked.
  EXPECT_FALSE(o.ok());
  EXPECT_EQ(o.requirements[0].status, plan::Status::unsatisfiable);
  EXPECT_NE(o.requirements[0].message.find("libicu-dev"), std::string::npos) << o.requirements[0].message;

  apt_->offered.push_back(rec("libicu-dev", "72.1-3"));
  o = resolve({req("dep:generic/libxml2", Category::host, at_least("2.9"))});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.requirements[0].status, plan::Status::planned);
  ASSERT_EQ(o.steps.size(), 1u);
  EXPECT_EQ(o.steps[0].manager, "apt");
  EXPECT_EQ(o.steps[0].command,
            (std::vector<std::string>{"apt-get", "install", "-y", "libxml2-dev=2.9.14+dfsg-1.3~deb12u1"}));
}

TEST_F(SolveTest, AnInstalledPackageMeetsTheNeedWithoutAStep) {
  apt_->present.push_back(rec("zlib1g", "1:1.2.13.dfsg-1"));
  apt_->present.push_back(rec("zlib1g-dev", "1:1.2.13.dfsg-1", {{dep("zlib1g", DepOp::eq, "1:1.2.13.dfsg-1")}}));
  auto o = resolve({req("dep:generic/zlib", Category::host, at_least("1.2.11"))});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.requirements[0].status, plan::Status::satisfied);
  ASSERT_EQ(o.requirements[0].packages.size(), 1u);
  EXPECT_EQ(o.requirements[0].packages[0].name, "zlib1g-dev");
  EXPECT_EQ(o.requirements[0].packages[0].version, "1:1.2.13.dfsg-1");
  EXPECT_TRUE(o.requirements[0].packages[0].installed);
  EXPECT_TRUE(o.steps.empty());
}

TEST_F(SolveTest, AVersionOutsideTheRangeIsExplained) {
  auto o = resolve({req("dep:generic/zlib", Category::host, at_least("1.3"))});
  EXPECT_FALSE(o.ok());
  ASSERT_EQ(o.problems.size(), 1u);
  EXPECT_EQ(o.requirements[0].status, plan::Status::unsatisfiable);
  EXPECT_EQ(o.problems[0].message,
            "no package manager here provides dep:generic/zlib >=1.3 (zlib1g-dev 1:1.2.13.dfsg-1 "
            "(debian) gives version 1.2.13, which is not >=1.3)");
}

TEST_F(SolveTest, OrderedAlternativesFallBackWhenTheFirstCannotBeInstalled) {
  auto o = resolve({req("dep:virtual/interface/blas")});
  ASSERT_TRUE(o.ok()) << (o.problems.empty() ? "" : o.problems[0].message);
  ASSERT_EQ(o.requirements[0].packages.size(), 1u);
  EXPECT_EQ(o.requirements[0].packages[0].name, "libblas-dev");

  // When the first alternative is installable, it is the one planned.
  apt_->offered.push_back(rec("libopenblas0-missing", "0.3.21+ds-4"));
  o = resolve({req("dep:virtual/interface/blas")});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.requirements[0].packages[0].name, "libopenblas-dev");
}

TEST_F(SolveTest, AnInstalledAlternativeIsKeptOverAPreferredOne) {
  apt_->offered.push_back(rec("libopenblas0-missing", "0.3.21+ds-4"));
  apt_->present.push_back(rec("libblas3", "3.11.0-2"));
  apt_->present.push_back(rec("libblas-dev", "3.11.0-2", {{dep("libblas3", DepOp::eq, "3.11.0-2")}}));
  auto o = resolve({req("dep:virtual/interface/blas")});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.requirements[0].status, plan::Status::satisfied);
  EXPECT_EQ(o.requirements[0].packages[0].name, "libblas-dev");
  EXPECT_TRUE(o.steps.empty());
}

TEST_F(SolveTest, ConflictingNeedsFailOneAndNameTheOther) {
  auto o = resolve({req("dep:generic/openssl"), req("dep:generic/openssl-legacy")});
  EXPECT_FALSE(o.ok());
  // The first stays planned; the second, which conflicts with it, is the one that fails.
  EXPECT_EQ(o.requirements[0].status, plan::Status::planned);
  EXPECT_EQ(o.requirements[1].status, plan::Status::unsatisfiable);
  ASSERT_EQ(o.problems.size(), 1u);
  std::string all;
  for (const auto& d : o.problems[0].details) all += d + "\n";
  EXPECT_NE(all.find("conflicts with"), std::string::npos) << all;
  EXPECT_NE(all.find("it cannot be planned together with dep:generic/openssl\n"), std::string::npos) << all;
}

TEST_F(SolveTest, ANeedAlreadyMetStaysMetWhenALaterOneConflictsWithIt) {
  apt_->present.push_back(rec("libssl-dev", "3.0.15-1~deb12u1", {}, {dep("libssl1.0-dev")}));
  // Declared first or last, the need that is already met is not the one dropped.
  for (bool met_first : {true, false}) {
    std::vector<Requirement> reqs = {req("dep:generic/openssl-legacy"), req("dep:generic/openssl")};
    if (met_first) std::swap(reqs[0], reqs[1]);
    auto o = resolve(reqs);
    for (const auto& r : o.requirements) {
      if (r.requirement.url.id() == "dep:generic/openssl") EXPECT_EQ(r.status, plan::Status::satisfied) << met_first;
      else EXPECT_EQ(r.status, plan::Status::unsatisfiable) << met_first;
    }
    EXPECT_TRUE(o.steps.empty());
  }
}

// Debian policy 7.5: a virtual package (an unversioned Provides) never meets a versioned
// relation. libjpeg62-turbo-dev provides libjpeg-dev; libtiff-dev-like packages depend on
// "libjpeg-dev (>= 1:1.5)", which only the real libjpeg-dev meets.
TEST_F(SolveTest, AnUnversionedProvideDoesNotMeetAVersionedRelation) {
  apt_->offered.push_back(rec("libjpeg62-turbo-dev", "1:2.1.5-2", {}, {}, {dep("libjpeg-dev")}));
  apt_->offered.push_back(rec("libtiff-dev", "4.5.0-6+deb12u1", {{dep("libjpeg-dev", DepOp::ge, "1:1.5")}}));
  apt_->offered.push_back(rec("libplain-dev", "1.0-1", {{dep("libjpeg-dev")}}));
  tables_.tables[0].entries.push_back(entry("dep:generic/libtiff", {{"libtiff-dev"}}));
  tables_.tables[0].entries.push_back(entry("dep:generic/libplain", {{"libplain-dev"}}));
  tables_.tables[0].entries.push_back(entry("dep:generic/libjpeg", {{"libjpeg-dev"}}));

  auto o = resolve({req("dep:generic/libtiff"), req("dep:generic/libplain")});
  EXPECT_EQ(o.requirements[0].status, plan::Status::unsatisfiable);
  EXPECT_NE(o.requirements[0].message.find("depends on libjpeg-dev (>= 1:1.5)"), std::string::npos)
      << o.requirements[0].message;
  // An unversioned relation is met by the virtual package's provider.
  EXPECT_EQ(o.requirements[1].status, plan::Status::planned);

  // With the real package in the index, both are planned, and a mapping that names libjpeg-dev
  // plans libjpeg-dev itself, never a package merely providing its name.
  apt_->offered.push_back(rec("libjpeg-dev", "1:2.1.5-2", {{dep("libjpeg62-turbo-dev")}}));
  ++apt_->generation;
  o = resolve({req("dep:generic/libtiff"), req("dep:generic/libjpeg", Category::host, at_least("2.1"))});
  ASSERT_TRUE(o.ok()) << (o.problems.empty() ? "" : o.problems[0].message);
  ASSERT_EQ(o.requirements[1].packages.size(), 1u);
  EXPECT_EQ(o.requirements[1].packages[0].name, "libjpeg-dev");
  EXPECT_EQ(o.requirements[1].packages[0].version, "1:2.1.5-2");
}

TEST_F(SolveTest, AVersionedProvideMeetsAVersionedRelation) {
  apt_->offered.push_back(rec("libfoo-impl", "2.0-1", {}, {}, {dep("libfoo-api", DepOp::eq, "2.0")}));
  apt_->offered.push_back(rec("libbar-dev", "1.0-1", {{dep("libfoo-api", DepOp::ge, "1.5")}}));
  tables_.tables[0].entries.push_back(entry("dep:generic/libbar", {{"libbar-dev"}}));
  auto o = resolve({req("dep:generic/libbar")});
  ASSERT_TRUE(o.ok()) << (o.problems.empty() ? "" : o.problems[0].message);
  EXPECT_EQ(o.requirements[0].status, plan::Status::planned);
  // Without the versioned provide, nothing meets the relation.
  apt_->offered[apt_->offered.size() - 2].provides = {dep("libfoo-api")};
  ++apt_->generation;
  o = resolve({req("dep:generic/libbar")});
  EXPECT_EQ(o.requirements[0].status, plan::Status::unsatisfiable);
}

// Ranges follow PEP 440 to the letter (declare::range_contains), also where the pool's order
// would say otherwise.
TEST_F(SolveTest, RangesFollowPep440AtTheEdges) {
  apt_->offered.push_back(rec("libfoo-dev", "1.2.5+dfsg-1"));
  apt_->offered.push_back(rec("libfoo-dev", "1.3~rc1-1"));
  tables_.tables[0].entries.push_back(entry("dep:generic/foo", {{"libfoo-dev"}}));
  auto parse = [](std::string text) {
    auto r = declare::parse_range(text);
    EXPECT_TRUE(r.ok()) << text;
    return r.ok() ? *r : VersionRange{};
  };
  struct Case {
    std::string range;
    std::string planned;  // empty: unsatisfiable
  } cases[] = {
      {"==1.2.*", "1.2.5+dfsg-1"},  // not 1.3rc1, which starts with "1.3"
      {"<1.3", "1.2.5+dfsg-1"},     // 1.3rc1 is a pre-release of the exclusive bound
      {">1.2.5", "1.3~rc1-1"},      // 1.2.5+dfsg is a local version of 1.2.5
      {">=1.3rc1", "1.3~rc1-1"},
      {"==1.2.5", "1.2.5+dfsg-1"},  // a public version ignores the candidate's local label
      {"!=1.3.*", "1.2.5+dfsg-1"},
      {">1.3", ""},
      {"==99999999999999999999999999.*", ""},  // no overflow, no match
  };
  for (const auto& c : cases) {
    auto o = resolve({req("dep:generic/foo", Category::host, parse(c.range))});
    if (c.planned.empty()) {
      EXPECT_EQ(o.requirements[0].status, plan::Status::unsatisfiable) << c.range;
      continue;
    }
    ASSERT_EQ(o.requirements[0].status, plan::Status::planned) << c.range << ": " << o.requirements[0].message;
    ASSERT_EQ(o.requirements[0].packages.size(), 1u) << c.range;
    EXPECT_EQ(o.requirements[0].packages[0].version, c.planned) << c.range;
  }
}

TEST_F(SolveTest, TheHeadlineIsTheStrongestReason) {
  // The first alternative is absent; the second exists but cannot be installed: that is the
  // reason to lead with.
  tables_.tables[0].entries.push_back(entry("dep:generic/openblas-only", {{"libnothere-dev"}, {"libopenblas-dev"}}));
  auto o = resolve({req("dep:generic/openblas-only")});
  ASSERT_EQ(o.problems.size(), 1u);
  EXPECT_EQ(o.problems[0].message,
            "no package manager here provides dep:generic/openblas-only (libopenblas-dev 0.3.21+ds-4 (debian) "
            "cannot be installed: libopenblas-dev 0.3.21+ds-4 (debian) depends on libopenblas0-missing, "
            "which nothing here provides)");
}

// The candidates of failed needs are first tried together (Explainer::try_together): one that a
// conflict with another need dropped is installable and says so by saying nothing of its own;
// one that cannot be installed still gets its own reason.
TEST_F(SolveTest, FailedNeedsTriedTogetherKeepTheirOwnReasons) {
  tables_.tables[0].entries.push_back(entry("dep:generic/openblas-only", {{"libnothere-dev"}, {"libopenblas-dev"}}));
  auto o = resolve({req("dep:generic/openssl"), req("dep:generic/openssl-legacy"), req("dep:generic/openblas-only")});
  ASSERT_EQ(o.requirements.size(), 3u);
  EXPECT_EQ(o.requirements[0].status, plan::Status::planned);
  EXPECT_EQ(o.requirements[1].status, plan::Status::unsatisfiable);
  EXPECT_EQ(o.requirements[2].status, plan::Status::unsatisfiable);
  ASSERT_EQ(o.problems.size(), 2u);
  for (const auto& p : o.problems) {
    std::string all;
    for (const auto& d : p.details) all += d + "\n";
    if (p.requirement == "dep:generic/openssl-legacy") {
      EXPECT_EQ(all.find("cannot be installed"), std::string::npos) << all;
      EXPECT_NE(all.find("it cannot be planned together with dep:generic/openssl\n"), std::string::npos) << all;
    } else {
      EXPECT_EQ(p.message,
                "no package manager here provides dep:generic/openblas-only (libopenblas-dev 0.3.21+ds-4 (debian) "
                "cannot be installed: libopenblas-dev 0.3.21+ds-4 (debian) depends on libopenblas0-missing, "
                "which nothing here provides)");
    }
  }
}

// bookworm's libbluetooth-dev: 5.66-1+deb12u1 in bookworm-security, +deb12u2 in the point
// release, the same upstream version. apt installs the newer, and a plan pinned to the older
// fails in apt ("libbluetooth3 (= 5.66-1+deb12u1) but 5.66-1+deb12u2 is to be installed"): the
// plan takes the newer, whichever index lists it first.
TEST_F(SolveTest, OfOneUpstreamVersionTheNewestPackageIsPlanned) {
  tables_.tables[0].entries.push_back(entry("dep:generic/bluez", {{"libbluetooth-dev"}}));
  const std::vector<PackageRecord> security = {
      rec("libbluetooth3", "5.66-1+deb12u1"),
      rec("libbluetooth-dev", "5.66-1+deb12u1", {{dep("libbluetooth3", DepOp::eq, "5.66-1+deb12u1")}})};
  const std::vector<PackageRecord> point = {
      rec("libbluetooth3", "5.66-1+deb12u2"),
      rec("libbluetooth-dev", "5.66-1+deb12u2", {{dep("libbluetooth3", DepOp::eq, "5.66-1+deb12u2")}})};
  const auto base = apt_->offered;
  for (bool security_first : {true, false}) {
    apt_->offered = base;
    for (const auto& r : security_first ? security : point) apt_->offered.push_back(r);
    for (const auto& r : security_first ? point : security) apt_->offered.push_back(r);
    auto o = resolve({req("dep:generic/bluez")});
    ASSERT_TRUE(o.ok()) << security_first;
    ASSERT_EQ(o.requirements[0].packages.size(), 1u);
    EXPECT_EQ(o.requirements[0].packages[0].version, "5.66-1+deb12u2") << security_first;
  }
}

// libsolv's proof of a problem names every job whose unit decisions it used, not only the ones
// that conflict. Real bookworm stanzas (apt-cache show, trimmed to the curl family), with this
// machine's installed libcurl4-openssl-dev 7.88.1-10+deb12u15: libhts-dev and libmediainfo-dev
// need libcurl4-gnutls-dev, which conflicts with it, so both fail whatever else is planned;
// libjsonrpccpp-dev takes the installed flavour. The first problem names htslib and
// libjson-rpc-cpp, and libjson-rpc-cpp, the later one, was dropped: it is tried again beside
// what is kept, and planned.
TEST_F(SolveTest, ANeedDroppedBesideOneThatFailsAnywayIsPlannedAfterAll) {
  for (const std::string v : {"7.88.1-10+deb12u5", "7.88.1-10+deb12u15"}) {
    const std::vector<NativeDep> dev = {dep("libcurl-dev"), dep("libcurl-ssl-dev"), dep("libcurl4-dev")};
    auto with = [&](std::vector<NativeDep> more) {
      more.insert(more.end(), dev.begin(), dev.end());
      return more;
    };
    apt_->offered.push_back(rec("libcurl4", v, {}, {dep("libcurl3")}));
    apt_->offered.push_back(rec("libcurl3-gnutls", v));
    apt_->offered.push_back(rec("libcurl3-nss", v));
    apt_->offered.push_back(rec("libcurl4-openssl-dev", v, {{dep("libcurl4", DepOp::eq, v)}},
                                {dep("libcurl4-gnutls-dev"), dep("libcurl4-nss-dev"), dep("libssl1.0-dev")},
                                with({dep("libcurl3-dev"), dep("libcurl3-openssl-dev")})));
    apt_->offered.push_back(rec("libcurl4-gnutls-dev", v, {{dep("libcurl3-gnutls", DepOp::eq, v)}},
                                {dep("libcurl4-nss-dev"), dep("libcurl4-openssl-dev")},
                                with({dep("libcurl3-gnutls-dev")})));
    apt_->offered.push_back(rec("libcurl4-nss-dev", v, {{dep("libcurl3-nss", DepOp::eq, v)}},
                                {dep("libcurl4-gnutls-dev"), dep("libcurl4-openssl-dev")},
                                with({dep("libcurl3-nss-dev")})));
  }
  const std::string u15 = "7.88.1-10+deb12u15";
  apt_->present.push_back(rec("libcurl4", u15, {}, {dep("libcurl3")}));
  apt_->present.push_back(rec("libcurl3-gnutls", u15));
  apt_->present.push_back(rec("libcurl3-nss", u15));
  apt_->present.push_back(rec("libcurl4-openssl-dev", u15, {{dep("libcurl4", DepOp::eq, u15)}},
                              {dep("libcurl4-gnutls-dev"), dep("libcurl4-nss-dev"), dep("libssl1.0-dev")},
                              {dep("libcurl-dev"), dep("libcurl-ssl-dev"), dep("libcurl3-dev"),
                               dep("libcurl3-openssl-dev"), dep("libcurl4-dev")}));
  apt_->offered.push_back(rec("libhts-dev", "1.16+ds-3", {{dep("libcurl4-gnutls-dev")}}));
  apt_->offered.push_back(
      rec("libjsonrpccpp-dev", "0.7.0-2.1", {{dep("libcurl4-openssl-dev"), dep("libcurl4-nss-dev")}}));
  apt_->offered.push_back(rec("libmediainfo-dev", "23.04+dfsg-1", {{dep("libcurl4-gnutls-dev")}}));
  tables_.tables[0].entries.push_back(entry("dep:generic/htslib", {{"libhts-dev"}}));
  tables_.tables[0].entries.push_back(entry("dep:generic/libjson-rpc-cpp", {{"libjsonrpccpp-dev"}}));
  tables_.tables[0].entries.push_back(entry("dep:generic/mediainfo", {{"libmediainfo-dev"}}));
  auto o = resolve({req("dep:generic/htslib"), req("dep:generic/libjson-rpc-cpp"), req("dep:generic/mediainfo")});
  ASSERT_EQ(o.requirements.size(), 3u);
  EXPECT_EQ(o.requirements[0].status, plan::Status::unsatisfiable);
  EXPECT_EQ(o.requirements[1].status, plan::Status::planned) << o.requirements[1].message;
  EXPECT_EQ(o.requirements[2].status, plan::Status::unsatisfiable);
  ASSERT_EQ(o.problems.size(), 2u);
  for (const auto& p : o.problems) {
    EXPECT_NE(p.requirement, "dep:generic/libjson-rpc-cpp");
    for (const auto& d : p.details)
      EXPECT_EQ(d.find("it cannot be planned together with dep:generic/libjson-rpc-cpp"), std::string::npos) << d;
  }
}

TEST_F(SolveTest, AnUnknownIdIsUnmappedWithASuggestion) {
  auto o = resolve({req("dep:generic/libxmll")});
  EXPECT_FALSE(o.ok());
  EXPECT_EQ(o.requirements[0].status, plan::Status::unmapped);
  ASSERT_FALSE(o.requirements[0].suggestions.empty());
  EXPECT_EQ(o.requirements[0].suggestions[0], "dep:generic/libxml2");
}

TEST_F(SolveTest, APkgConfigModuleMeetsAHostNeed) {
  auto pc = std::make_unique<MemoryProvider>("pkgconfig", "", version::segments_scheme);
  PackageRecord m;
  m.name = "zlib";
  m.version = "1.3.1";
  m.origin = "/opt/zlib/lib/pkgconfig/zlib.pc";
  pc->present.push_back(m);
  providers_.push_back(std::move(pc));
  mapping::Table t;
  t.ecosystem = "pkgconfig";
  mapping::Entry e;
  e.id = "dep:generic/zlib";
  e.modules = {"zlib"};
  t.entries.push_back(e);
  tables_.tables.push_back(t);
  auto o = resolve({req("dep:generic/zlib", Category::host, at_least("1.3"))});
  ASSERT_TRUE(o.ok()) << (o.problems.empty() ? "" : o.problems[0].message);
  EXPECT_EQ(o.requirements[0].status, plan::Status::satisfied);
  EXPECT_EQ(o.requirements[0].packages[0].where, "/opt/zlib/lib/pkgconfig/zlib.pc");
  EXPECT_TRUE(o.steps.empty());
}

TEST_F(SolveTest, TheSolvCacheGivesTheSameOutcome) {
  std::string dir = test::temp_dir();
  ctx_.set_cache_dir(dir);
  apt_->offered.push_back(rec("libicu-dev", "72.1-3"));
  auto first = plan::to_json(resolve({req("dep:generic/libxml2"), req("dep:generic/zlib")}));
  EXPECT_EQ(apt_->loads, 1);
  auto second = plan::to_json(resolve({req("dep:generic/libxml2"), req("dep:generic/zlib")}));
  EXPECT_EQ(apt_->loads, 1) << "the second run should read the .solv cache";
  EXPECT_EQ(first.dump(), second.dump());
  apt_->generation = 2;  // the sources changed: the cache is not used
  resolve({req("dep:generic/zlib")});
  EXPECT_EQ(apt_->loads, 2);
  // Caches of sources that changed do not pile up: the newest four pairs stay.
  for (int g = 3; g < 12; ++g) {
    apt_->generation = g;
    resolve({req("dep:generic/zlib")});
  }
  size_t files = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir + "/solv")) files += f.path().extension() == ".solv";
  EXPECT_EQ(files, 8u);
}

// The pool is pruned to the closure of the packages the tables name for this request's needs,
// and its .solv cache is kept per set of such names: a project's warm run reads only its own
// closure (the closure of every entry of a 900-id table was half of Debian), whatever the order
// its needs are written in.
TEST_F(SolveTest, TheSolvCacheIsKeptPerSetOfNeeds) {
  std::string dir = test::temp_dir();
  ctx_.set_cache_dir(dir);
  apt_->offered.push_back(rec("libicu-dev", "72.1-3"));
  auto both = plan::to_json(resolve({req("dep:generic/libxml2"), req("dep:generic/zlib")}));
  EXPECT_EQ(apt_->loads, 1);
  auto swapped = plan::to_json(resolve({req("dep:generic/zlib"), req("dep:generic/libxml2")}));
  EXPECT_EQ(apt_->loads, 1) << "the same needs in another order read the same cache";
  auto zlib = plan::to_json(resolve({req("dep:generic/zlib")}));
  EXPECT_EQ(apt_->loads, 2) << "other needs, other roots: the sources are read again";
  auto zlib_again = plan::to_json(resolve({req("dep:generic/zlib")}));
  EXPECT_EQ(apt_->loads, 2);
  EXPECT_EQ(zlib.dump(), zlib_again.dump());
  // The zlib-only pool lacks libxml2's closure: its cache files are the smaller.
  std::vector<std::uintmax_t> sizes;
  for (const auto& f : std::filesystem::directory_iterator(dir + "/solv"))
    if (f.path().string().ends_with(".available.solv")) sizes.push_back(std::filesystem::file_size(f.path()));
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_NE(sizes[0], sizes[1]);
  // Each need's outcome is the same in every pool it was solved in.
  ASSERT_EQ(both["requirements"].size(), 2u);
  ASSERT_FALSE(zlib["requirements"][0]["packages"].empty());
  EXPECT_EQ(both["requirements"][1]["status"], zlib["requirements"][0]["status"]);
  EXPECT_EQ(both["requirements"][1]["packages"], zlib["requirements"][0]["packages"]);
  EXPECT_EQ(both["requirements"][0]["packages"], swapped["requirements"][1]["packages"]);
}

TEST_F(SolveTest, ExplanationsShowNativeVersionsAlsoFromTheCache) {
  ctx_.set_cache_dir(test::temp_dir());
  apt_->offered.push_back(rec("libtiff-dev", "4.5.0-6+deb12u1", {{dep("libjpeg-dev", DepOp::ge, "1:1.5")}}));
  tables_.tables[0].entries.push_back(entry("dep:generic/libtiff", {{"libtiff-dev"}}));
  for (int run = 0; run < 2; ++run) {
    auto o = resolve({req("dep:generic/libtiff")});
    EXPECT_EQ(apt_->loads, 1);
    EXPECT_NE(o.requirements[0].message.find("depends on libjpeg-dev (>= 1:1.5), which nothing here provides"),
              std::string::npos)
        << run << ": " << o.requirements[0].message;
  }
}

TEST_F(SolveTest, AnUnknownManagerIsBadInput) {
  solve::Options opt;
  opt.managers = {"emerge"};
  auto r = plan::make_plan(solve::resolve(ctx_, {req("dep:generic/zlib")}, tables_, providers_, opt));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_EQ(r.error().message, "unknown package manager 'emerge' (known here: apt)");
}

}  // namespace
}  // namespace extdeps
