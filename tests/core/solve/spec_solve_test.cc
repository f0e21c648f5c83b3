// Match expressions (DepOp::spec) answered by the provider's own matcher: conda-like records whose
// depends and constrains the pool cannot say with one operator, and track_features.
#include "core/plan/plan.h"
#include "core/solve/solve.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/declare/declare.h"
#include "core/plan/render.h"
#include "providers/conda/conda_version.h"
#include "tests/core/solve/solve_fixture.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

using namespace solve_testing;

// A provider whose relations are match expressions (DepOp::spec), as conda's are; its matcher
// reads PEP 440 ranges and an optional build glob "py311*" after a space, enough to drive the
// pool's namespace callback. The conda provider's own matcher is tested in tests/providers/conda.
class SpecProvider : public MemoryProvider {
 public:
  SpecProvider() : MemoryProvider("conda-forge", "conda", version::conda_scheme) {}
  bool pins_closure() const override { return true; }  // as the conda provider
  bool has_track_features() const override { return true; }
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
    auto r = plan::make_plan(solve::resolve(ctx_, reqs, tables_, providers_, opt));
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
  EXPECT_EQ(planned(o),
            (std::set<std::string>{"python=3.11.7=h2_0_cpython", "numpy=1.26.4=py311h5_0", "scipy=1.11.4=py311h7_0"}));
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
            std::string::npos)
      << all;
  EXPECT_NE(all.find("numpy 2.0.0 (conda-forge) needs glibc >=2.38 and this machine has glibc 2.12"), std::string::npos)
      << all;
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
