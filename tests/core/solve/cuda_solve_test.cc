// The host in the solve: the NVIDIA driver and GPUs as locked virtual packages, CUDA run needs
// that require a driver new enough for their toolkit, and a toolkit found on the machine.
#include "core/solve/solve.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/declare/declare.h"
#include "core/plan/render.h"
#include "tests/core/solve/solve_fixture.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

using namespace solve_testing;

// CUDA needs and the driver (issue 3, part 5): Debian's CUDA 12.4 packages (trixie's versions,
// non-free), planned against host facts as the detection layer or an override gives them.
class CudaSolveTest : public SolveTest {
 protected:
  void SetUp() override {
    SolveTest::SetUp();
    if (IsSkipped()) return;
    apt_->offered.push_back(rec("libcudart12", "12.4.127~12.4.1-1"));
    apt_->offered.push_back(
        rec("nvidia-cuda-toolkit", "12.4.131~12.4.1-1", {{dep("libcudart12", DepOp::eq, "12.4.127~12.4.1-1")}}));
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

TEST_F(CudaSolveTest, EveryGpuMustBeOneTheToolkitBuildsFor) {
  // A Hopper the toolkit knows beside a Kepler it dropped: __cuda_arch is the oldest (CEP 46), so
  // the toolkit is refused although one GPU would do.
  driver("12.4", {{9, 0}, {3, 5}});
  auto o = resolve_cuda(Category::run);
  EXPECT_FALSE(o.ok());
  EXPECT_NE(o.requirements[0].message.find("does not build for this machine's GPU (compute capability 3.5)"),
            std::string::npos)
      << o.requirements[0].message;
  // A GPU newer than the toolkit's newest architecture runs its PTX: planned.
  driver("12.4", {{12, 0}, {8, 6}});
  EXPECT_TRUE(resolve_cuda(Category::run).ok());
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
