// The solver on records shaped like bookworm's (names, versions and relations taken from the real
// index), served by an in-memory provider so each case shows one behaviour.
#include "core/solve/solve.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/declare/declare.h"
#include "core/plan/render.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

NativeDep dep(std::string name, DepOp op = DepOp::any, std::string v = "") {
  return {std::move(name), op, std::move(v)};
}

PackageRecord rec(std::string name, std::string version, std::vector<DepAlternatives> depends = {},
                  std::vector<NativeDep> conflicts = {}, std::vector<NativeDep> provides = {}) {
  PackageRecord r;
  r.name = std::move(name);
  r.version = std::move(version);
  r.arch = "amd64";
  r.depends = std::move(depends);
  r.conflicts = std::move(conflicts);
  r.provides = std::move(provides);
  r.origin = "fixture";
  return r;
}

class MemoryProvider : public Provider {
 public:
  MemoryProvider(std::string eco, std::string manager, VersionScheme scheme)
      : eco_(std::move(eco)), manager_(std::move(manager)), scheme_(scheme) {}
  std::string_view ecosystem() const override { return eco_; }
  std::string_view manager() const override { return manager_; }
  VersionScheme scheme() const override { return scheme_; }
  bool available(const Context&) const override { return true; }
  Result<SourceId> identity(const Context&) const override { return SourceId{eco_ + "-" + std::to_string(generation)}; }
  Result<void> load(const Context&, const RecordSink& available, const RecordSink& installed) override {
    ++loads;
    for (auto r : offered) available(std::move(r));
    for (auto r : present) {
      r.installed = true;
      installed(std::move(r));
    }
    return {};
  }
  std::vector<Command> install_commands(const std::vector<PlannedPackage>& pkgs) const override {
    Command c{{"apt-get", "install", "-y"}, true};
    for (const auto& p : pkgs) c.argv.push_back(p.name + "=" + p.version);
    return {c};
  }
  std::vector<PackageRecord> offered, present;
  int loads = 0;
  int generation = 0;

 private:
  std::string eco_, manager_;
  VersionScheme scheme_;
};

mapping::Entry entry(std::string id, std::vector<std::vector<std::string>> host_alts,
                     std::vector<std::string> run = {}) {
  mapping::Entry e;
  e.id = std::move(id);
  auto& host = e.by_category[Category::host];
  for (auto& pkgs : host_alts) {
    mapping::Alternative a;
    a.packages = pkgs;
    a.version.kind = "deb-upstream";
    host.push_back(a);
  }
  e.by_category[Category::build] = host;
  if (!run.empty()) {
    mapping::Alternative a;
    a.packages = run;
    a.version.kind = "deb-upstream";
    e.by_category[Category::run] = {a};
  }
  return e;
}

Requirement req(std::string id, Category c = Category::host, VersionRange range = {}) {
  Requirement r;
  auto slash = id.find('/');
  r.url.type = id.substr(4, slash - 4);
  r.url.name = id.substr(slash + 1);
  r.category = c;
  r.range = std::move(range);
  r.spec = id;
  return r;
}

VersionRange at_least(std::string v) { return VersionRange{{{DepOp::ge, std::move(v), false}}}; }

class SolveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto apt = std::make_unique<MemoryProvider>("debian", "apt", VersionScheme::deb);
    apt_ = apt.get();
    providers_.push_back(std::move(apt));
    // Real bookworm relations, trimmed.
    apt_->offered = {
        rec("libc6", "2.36-9+deb12u9"),
        rec("zlib1g", "1:1.2.13.dfsg-1", {{dep("libc6", DepOp::ge, "2.14")}}),
        rec("zlib1g-dev", "1:1.2.13.dfsg-1",
            {{dep("zlib1g", DepOp::eq, "1:1.2.13.dfsg-1")}, {dep("libc6-dev"), dep("libc-dev")}}),
        rec("libc6-dev", "2.36-9+deb12u9", {{dep("libc6", DepOp::eq, "2.36-9+deb12u9")}}, {},
            {dep("libc-dev")}),
        rec("libxml2", "2.9.14+dfsg-1.3~deb12u1", {{dep("libc6", DepOp::ge, "2.34")}}),
        rec("libxml2-dev", "2.9.14+dfsg-1.3~deb12u1",
            {{dep("libxml2", DepOp::eq, "2.9.14+dfsg-1.3~deb12u1")}, {dep("libicu-dev")}}),
        rec("libopenblas-dev", "0.3.21+ds-4", {{dep("libopenblas0-missing")}}),
        rec("libblas-dev", "3.11.0-2", {{dep("libblas3", DepOp::eq, "3.11.0-2")}}),
        rec("libblas3", "3.11.0-2"),
        rec("libssl-dev", "3.0.15-1~deb12u1", {}, {dep("libssl1.0-dev")}),
        rec("libssl1.0-dev", "1.0.2u-1~deb9u7", {}, {dep("libssl-dev")}),
    };
    apt_->present = {rec("libc6", "2.36-9+deb12u9")};
    mapping::Table debian;
    debian.ecosystem = "debian";
    debian.manager = "apt";
    debian.entries = {
        entry("dep:generic/libxml2", {{"libxml2-dev"}}, {"libxml2"}),
        entry("dep:generic/openssl", {{"libssl-dev"}}),
        entry("dep:generic/openssl-legacy", {{"libssl1.0-dev"}}),
        entry("dep:generic/zlib", {{"zlib1g-dev"}}, {"zlib1g"}),
        entry("dep:virtual/interface/blas", {{"libopenblas-dev"}, {"libblas-dev"}}),
    };
    tables_.tables.push_back(debian);
  }

  plan::Outcome resolve(std::vector<Requirement> reqs, solve::Options opt = {}) {
    for (auto& t : tables_.tables)  // find() needs entries sorted by id; tests append
      std::sort(t.entries.begin(), t.entries.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    opt.use_cache = !ctx_.cache_dir().empty();
    auto r = solve::resolve(ctx_, reqs, tables_, providers_, opt);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : plan::Outcome{};
  }

  Context ctx_ = Context::for_test("/");
  MemoryProvider* apt_ = nullptr;
  std::vector<std::unique_ptr<Provider>> providers_;
  mapping::Tables tables_;
};

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
  EXPECT_EQ(o.steps[0].command, (std::vector<std::string>{"apt-get", "install", "-y",
                                                          "libxml2-dev=2.9.14+dfsg-1.3~deb12u1"}));
}

TEST_F(SolveTest, AnInstalledPackageMeetsTheNeedWithoutAStep) {
  apt_->present.push_back(rec("zlib1g", "1:1.2.13.dfsg-1"));
  apt_->present.push_back(rec("zlib1g-dev", "1:1.2.13.dfsg-1",
                              {{dep("zlib1g", DepOp::eq, "1:1.2.13.dfsg-1")}}));
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
      if (r.requirement.url.id() == "dep:generic/openssl")
        EXPECT_EQ(r.status, plan::Status::satisfied) << met_first;
      else
        EXPECT_EQ(r.status, plan::Status::unsatisfiable) << met_first;
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
      {"==1.2.*", "1.2.5+dfsg-1"},   // not 1.3rc1, which starts with "1.3"
      {"<1.3", "1.2.5+dfsg-1"},      // 1.3rc1 is a pre-release of the exclusive bound
      {">1.2.5", "1.3~rc1-1"},       // 1.2.5+dfsg is a local version of 1.2.5
      {">=1.3rc1", "1.3~rc1-1"},
      {"==1.2.5", "1.2.5+dfsg-1"},   // a public version ignores the candidate's local label
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

TEST_F(SolveTest, AnUnknownIdIsUnmappedWithASuggestion) {
  auto o = resolve({req("dep:generic/libxml")});
  EXPECT_FALSE(o.ok());
  EXPECT_EQ(o.requirements[0].status, plan::Status::unmapped);
  ASSERT_FALSE(o.requirements[0].suggestions.empty());
  EXPECT_EQ(o.requirements[0].suggestions[0], "dep:generic/libxml2");
}

TEST_F(SolveTest, APkgConfigModuleMeetsAHostNeed) {
  auto pc = std::make_unique<MemoryProvider>("pkgconfig", "", VersionScheme::rpm);
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
  e.pkgconfig = {"zlib"};
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

TEST_F(SolveTest, ExplanationsShowNativeVersionsAlsoFromTheCache) {
  ctx_.set_cache_dir(test::temp_dir());
  apt_->offered.push_back(rec("libtiff-dev", "4.5.0-6+deb12u1", {{dep("libjpeg-dev", DepOp::ge, "1:1.5")}}));
  tables_.tables[0].entries.push_back(entry("dep:generic/libtiff", {{"libtiff-dev"}}));
  for (int run = 0; run < 2; ++run) {
    auto o = resolve({req("dep:generic/libtiff")});
    EXPECT_EQ(apt_->loads, 1);
    EXPECT_NE(o.requirements[0].message.find("depends on libjpeg-dev (>= 1:1.5), which nothing here provides"),
              std::string::npos) << run << ": " << o.requirements[0].message;
  }
}

TEST_F(SolveTest, AnUnknownManagerIsBadInput) {
  solve::Options opt;
  opt.managers = {"yum"};
  auto r = solve::resolve(ctx_, {req("dep:generic/zlib")}, tables_, providers_, opt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_EQ(r.error().message, "unknown package manager 'yum' (known here: apt)");
}

}  // namespace
}  // namespace extdeps

namespace extdeps {
namespace {

// CUDA needs and the driver (issue 3, part 5): Debian's CUDA 12.4 packages (trixie's versions,
// non-free), planned against host facts as the detection layer or an override gives them.
class CudaSolveTest : public SolveTest {
 protected:
  void SetUp() override {
    SolveTest::SetUp();
    apt_->offered.push_back(rec("libcudart12", "12.4.127~12.4.1-1"));
    apt_->offered.push_back(rec("nvidia-cuda-toolkit", "12.4.131~12.4.1-1",
                                {{dep("libcudart12", DepOp::eq, "12.4.127~12.4.1-1")}}));
    mapping::Entry e;
    e.id = "dep:generic/cuda";
    mapping::Alternative build, run;
    build.packages = {"nvidia-cuda-toolkit"};
    build.version.kind = "deb-upstream";
    run.packages = {"libcudart12"};
    run.version.kind = "deb-upstream";
    e.by_category[Category::build] = {build};
    e.by_category[Category::host] = {build};
    e.by_category[Category::run] = {run};
    tables_.tables[0].entries.push_back(e);
    std::sort(tables_.tables[0].entries.begin(), tables_.tables[0].entries.end(),
              [](const auto& a, const auto& b) { return a.id < b.id; });
    host_.libc = "glibc";
    host_.libc_version = "2.36";
    host_.kernel = "6.1.0-18-amd64";
  }

  plan::Outcome resolve_cuda(Category c) {
    solve::Options opt;
    opt.host = &host_;
    return resolve({req("dep:generic/cuda", c)}, opt);
  }

  void driver(std::string cuda_version, std::vector<std::pair<int, int>> ccs = {}) {
    host_.cuda.state = detect::CudaState::ok;
    host_.cuda.cuda_version = std::move(cuda_version);
    host_.cuda.devices.clear();
    for (auto [ma, mi] : ccs) host_.cuda.devices.push_back({0, "GPU", ma, mi, 0, ""});
  }

  detect::HostFacts host_;
};

TEST_F(CudaSolveTest, ARuntimeNeedIsPlannedWhenTheDriverIsNewEnough) {
  driver("12.4", {{9, 0}});
  auto o = resolve_cuda(Category::run);
  ASSERT_TRUE(o.ok()) << (o.problems.empty() ? "" : o.problems[0].message);
  EXPECT_EQ(o.requirements[0].status, plan::Status::planned);
  EXPECT_EQ(o.requirements[0].packages[0].name, "libcudart12");
  EXPECT_TRUE(o.warnings.empty());
}

TEST_F(CudaSolveTest, AnOlderDriverRejectsThePlanAndSaysSo) {
  driver("11.8");
  auto o = resolve_cuda(Category::run);
  EXPECT_FALSE(o.ok());
  EXPECT_EQ(o.requirements[0].status, plan::Status::unsatisfiable);
  EXPECT_EQ(o.requirements[0].message,
            "this plan needs an NVIDIA driver supporting CUDA 12.0 or newer; this machine has a driver "
            "supporting CUDA 11.8; set EXTDEPS_OVERRIDE_CUDA=12.4 to plan for another machine");
}

TEST_F(CudaSolveTest, NoDriverRejectsARuntimeNeed) {
  host_.cuda.state = detect::CudaState::no_library;
  host_.cuda.detail = "libcuda.so.1 not found";
  auto o = resolve_cuda(Category::run);
  EXPECT_FALSE(o.ok());
  EXPECT_EQ(o.requirements[0].message,
            "this plan needs an NVIDIA driver supporting CUDA 12.0 or newer; this machine has none "
            "(libcuda.so.1 not found); set EXTDEPS_OVERRIDE_CUDA=12.4 to plan for another machine");
}

TEST_F(CudaSolveTest, ABuildOnlyPlanNeedsNoDriverButWarns) {
  host_.cuda.state = detect::CudaState::no_library;
  auto o = resolve_cuda(Category::build);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.requirements[0].status, plan::Status::planned);
  EXPECT_EQ(o.requirements[0].packages[0].name, "nvidia-cuda-toolkit");
  ASSERT_EQ(o.warnings.size(), 1u);
  EXPECT_EQ(o.warnings[0],
            "dep:generic/cuda is planned for building only: this machine has no usable NVIDIA driver "
            "(no-library); what is built will need a driver supporting CUDA 12.0 or newer where it runs");
}

TEST_F(CudaSolveTest, AGpuTheToolkitNoLongerBuildsForIsNamed) {
  driver("12.4", {{3, 5}});  // Kepler: CUDA 12 dropped sm_35
  auto o = resolve_cuda(Category::run);
  EXPECT_FALSE(o.ok());
  EXPECT_NE(o.requirements[0].message.find("does not build for this machine's GPU (compute capability 3.5)"),
            std::string::npos)
      << o.requirements[0].message;
}

TEST_F(CudaSolveTest, HostFactsAreLockedVirtualPackages) {
  driver("12.4", {{8, 6}});
  // A run need on an installed runtime is met only while the driver is new enough.
  apt_->present.push_back(rec("libcudart12", "12.4.127~12.4.1-1"));
  auto o = resolve_cuda(Category::run);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.requirements[0].status, plan::Status::satisfied);
  driver("11.8", {{8, 6}});
  o = resolve_cuda(Category::run);
  EXPECT_EQ(o.requirements[0].status, plan::Status::unsatisfiable);
}

}  // namespace
}  // namespace extdeps

namespace extdeps {
namespace {

TEST_F(CudaSolveTest, AToolkitOnTheMachineMeetsABuildNeed) {
  host_.cuda.state = detect::CudaState::no_library;
  host_.compilers.push_back({"nvcc", "/usr/local/cuda-13.0/bin/nvcc", "13.0.48"});
  auto o = resolve_cuda(Category::build);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.requirements[0].status, plan::Status::satisfied);
  ASSERT_EQ(o.requirements[0].packages.size(), 1u);
  EXPECT_EQ(o.requirements[0].packages[0].name, "nvcc");
  EXPECT_EQ(o.requirements[0].packages[0].version, "13.0.48");
  EXPECT_EQ(o.requirements[0].packages[0].where, "/usr/local/cuda-13.0/bin/nvcc");
  EXPECT_TRUE(o.steps.empty());
  // A range the machine's toolkit misses is planned from apt instead.
  solve::Options opt;
  opt.host = &host_;
  o = resolve({req("dep:generic/cuda", Category::build, VersionRange{{{DepOp::lt, "13", false}}})}, opt);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.requirements[0].status, plan::Status::planned);
  EXPECT_EQ(o.requirements[0].packages[0].name, "nvidia-cuda-toolkit");
}

}  // namespace
}  // namespace extdeps

namespace extdeps {
namespace {

// A provider whose relations are match expressions (DepOp::spec), as conda's are; its matcher
// reads PEP 440 ranges and an optional build glob "py311*" after a space, enough to drive the
// pool's namespace callback. The conda provider's own matcher is tested in tests/providers/conda.
class SpecProvider : public MemoryProvider {
 public:
  SpecProvider() : MemoryProvider("conda-forge", "conda", VersionScheme::conda) {}
  bool pins_closure() const override { return true; }  // as the conda provider
  Result<std::unique_ptr<SpecMatcher>> compile_spec(std::string_view spec) const override {
    struct M : SpecMatcher {
      VersionRange range;
      std::string build_prefix;
      bool matches(std::string_view v, std::string_view b) const override {
        return declare::range_contains(range, v) && b.substr(0, build_prefix.size()) == build_prefix;
      }
    };
    auto m = std::make_unique<M>();
    std::string text(spec);
    auto space = text.find(' ');
    if (space != std::string::npos) {
      m->build_prefix = text.substr(space + 1);
      if (!m->build_prefix.empty() && m->build_prefix.back() == '*') m->build_prefix.pop_back();
      text = text.substr(0, space);
    }
    if (text == "*") text.clear();
    auto r = declare::parse_range(text);
    if (!r.ok()) return r.error();
    m->range = *r;
    ++compiled;
    return std::unique_ptr<SpecMatcher>(std::move(m));
  }
  mutable int compiled = 0;
};

PackageRecord crec(std::string name, std::string version, std::string build,
                   std::vector<std::pair<std::string, std::string>> depends = {},
                   std::vector<std::pair<std::string, std::string>> constrains = {}) {
  PackageRecord r = rec(std::move(name), std::move(version));
  r.arch = "linux-64";
  r.build = std::move(build);
  for (auto& [n, s] : depends) r.depends.push_back({{n, s.empty() ? DepOp::any : DepOp::spec, s}});
  for (auto& [n, s] : constrains) r.constrains.push_back({n, DepOp::spec, s});
  return r;
}

class SpecSolveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto p = std::make_unique<SpecProvider>();
    conda_ = p.get();
    providers_.push_back(std::move(p));
    mapping::Table t;
    t.ecosystem = "conda-forge";
    t.manager = "conda";
    for (const char* id : {"numpy", "scipy"}) {
      mapping::Entry e;
      e.id = std::string("dep:generic/") + id;
      mapping::Alternative a;
      a.packages = {id};
      a.version.kind = "native";
      e.by_category[Category::host] = {a};
      t.entries.push_back(e);
    }
    tables_.tables.push_back(t);
    host_.libc = "glibc";
    host_.libc_version = "2.36";
    host_.kernel = "6.1.0";
  }

  plan::Outcome resolve(std::vector<std::string> ids) {
    std::vector<Requirement> reqs;
    for (auto& id : ids) reqs.push_back(req(id));
    solve::Options opt;
    opt.host = &host_;
    auto r = solve::resolve(ctx_, reqs, tables_, providers_, opt);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : plan::Outcome{};
  }

  // name=version=build of every package the plan installs.
  static std::set<std::string> planned(const plan::Outcome& o) {
    std::set<std::string> out;
    for (const auto& s : o.steps)
      for (const auto& p : s.packages) out.insert(p.name + "=" + p.version + "=" + p.build);
    return out;
  }

  Context ctx_ = Context::for_test("/");
  SpecProvider* conda_ = nullptr;
  std::vector<std::unique_ptr<Provider>> providers_;
  mapping::Tables tables_;
  detect::HostFacts host_;
};

TEST_F(SpecSolveTest, SpecRelationsPickTheMatchingBuildAndTheWholeClosureIsPlanned) {
  conda_->offered = {
      crec("python", "3.12.1", "h1_0_cpython", {{"__glibc", ">=2.17"}}),
      crec("python", "3.11.7", "h2_0_cpython", {{"__glibc", ">=2.17"}}),
      // The newest numpy build is for 3.12, and a pin elsewhere keeps python at 3.11.
      crec("numpy", "1.26.4", "py312h5_0", {{"python", ">=3.12,<3.13"}}),
      crec("numpy", "1.26.4", "py311h5_0", {{"python", ">=3.11,<3.12"}}),
      crec("scipy", "1.11.4", "py311h7_0", {{"python", ">=3.11,<3.12"}, {"numpy", ">=1.23 py311*"}}),
  };
  auto o = resolve({"dep:generic/numpy", "dep:generic/scipy"});
  ASSERT_TRUE(o.ok()) << (o.problems.empty() ? "" : o.problems[0].message);
  EXPECT_EQ(planned(o), (std::set<std::string>{"python=3.11.7=h2_0_cpython", "numpy=1.26.4=py311h5_0",
                                               "scipy=1.11.4=py311h7_0"}));
  // Alone, numpy takes the newest python.
  o = resolve({"dep:generic/numpy"});
  EXPECT_EQ(planned(o), (std::set<std::string>{"python=3.12.1=h1_0_cpython", "numpy=1.26.4=py312h5_0"}));
}

TEST_F(SpecSolveTest, HostVirtualPackagesMeetSpecs) {
  conda_->offered = {crec("numpy", "2.0.0", "py312_0", {{"__glibc", ">=2.38"}}),
                     crec("numpy", "1.26.4", "py312_0", {{"__glibc", ">=2.17,<3"}})};
  auto o = resolve({"dep:generic/numpy"});
  EXPECT_EQ(planned(o), (std::set<std::string>{"numpy=1.26.4=py312_0"}));
  host_.libc_version = "2.39";
  o = resolve({"dep:generic/numpy"});
  EXPECT_EQ(planned(o), (std::set<std::string>{"numpy=2.0.0=py312_0"}));
  host_.libc_version = "2.12";
  o = resolve({"dep:generic/numpy"});
  ASSERT_FALSE(o.ok());
  std::string all;
  for (const auto& d : o.problems[0].details) all += d + "\n";
  EXPECT_NE(all.find("numpy 1.26.4 (conda-forge) needs glibc >=2.17,<3 and this machine has glibc 2.12"),
            std::string::npos) << all;
  EXPECT_NE(all.find("numpy 2.0.0 (conda-forge) needs glibc >=2.38 and this machine has glibc 2.12"),
            std::string::npos) << all;
}

TEST_F(SpecSolveTest, ConstrainsLimitWhatElseIsPlannedWithoutPullingItIn) {
  conda_->offered = {
      crec("libblas", "3.9.0", "20_openblas", {}, {{"blas", "*  openblas"}}),
      crec("python", "3.12.1", "h1_0", {}),
      crec("python", "3.11.7", "h2_0", {}),
      crec("numpy", "1.26.4", "py_0", {{"python", ""}}, {{"python", "<3.12"}}),
  };
  auto o = resolve({"dep:generic/numpy"});
  ASSERT_TRUE(o.ok()) << (o.problems.empty() ? "" : o.problems[0].message);
  EXPECT_EQ(planned(o), (std::set<std::string>{"numpy=1.26.4=py_0", "python=3.11.7=h2_0"}));
}

TEST_F(SpecSolveTest, TrackFeaturesLowerAPackagesPreference) {
  conda_->offered = {crec("numpy", "1.26.4", "py_debug_0"), crec("numpy", "1.26.3", "py_0")};
  conda_->offered[0].track_features = 1;
  auto o = resolve({"dep:generic/numpy"});
  EXPECT_EQ(planned(o), (std::set<std::string>{"numpy=1.26.3=py_0"}));
}

}  // namespace
}  // namespace extdeps
