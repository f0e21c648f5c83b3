// The driver probe's sources in order (issue 17): the kernel module without a child, NVML
// through a fake libnvidia-ml.so.1, the Driver API after it; WSL and Jetson recognised through a
// root the test sets.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/detect/cuda_probe.h"
#include "tests/core/detect/probe_fixture.h"
#include "tests/test_support.h"

namespace extdeps::detect {
namespace {

namespace fs = std::filesystem;
using test_probe::Env;
using test_probe::probe;

// NVML from the fake; libcuda absent unless a test names the fake one.
Context nvml_context(const Env& extra, std::string root = "") {
  return test_probe::probe_context(EXTDEPS_FAKE_LIBNVML, "/nonexistent/libcuda.so.1", extra, std::move(root));
}

std::string root_with(const std::map<std::string, std::string>& files) {
  std::string root = test::temp_dir();
  for (const auto& [path, text] : files) {
    fs::create_directories(fs::path(root + path).parent_path());
    std::ofstream(root + path) << text;
  }
  return root;
}

// Three GPUs: an A100 in MIG mode, an H100 without, and an old T4 (no MIG: NOT_SUPPORTED).
const char* kThree =
    "NVIDIA A100-SXM4-80GB:8.0:85899345920:1;NVIDIA H100 80GB HBM3:9.0:85899345920:0;Tesla T4:7.5:16106127360";

TEST(NvmlProbe, EveryDeviceWithItsComputeCapabilityAndMigMode) {
  auto f = probe(nvml_context({{"EXTDEPS_FAKE_NVML_DEVICES", kThree},
                               {"EXTDEPS_FAKE_NVML_CUDA", "12080"},
                               {"EXTDEPS_FAKE_NVML_DRIVER", "570.124.06"}}));
  EXPECT_EQ(f.state, CudaState::ok) << f.detail;
  EXPECT_EQ(f.source, "nvml");
  EXPECT_EQ(f.cuda_version, "12.8");
  EXPECT_EQ(f.driver_version, 12080);
  EXPECT_EQ(f.user_driver, "570.124.06");
  EXPECT_EQ(f.library, fs::canonical(EXTDEPS_FAKE_LIBNVML).string());
  ASSERT_EQ(f.devices.size(), 3u);
  EXPECT_EQ(f.devices[0].name, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(f.devices[0].cc_major, 8);
  EXPECT_EQ(f.devices[0].cc_minor, 0);
  EXPECT_EQ(f.devices[0].mig, "enabled");
  EXPECT_EQ(f.devices[1].cc_major, 9);
  EXPECT_EQ(f.devices[1].mig, "disabled");
  EXPECT_EQ(f.devices[2].name, "Tesla T4");
  EXPECT_EQ(f.devices[2].cc_minor, 5);
  EXPECT_EQ(f.devices[2].mig, "");
  EXPECT_EQ(f.devices[2].total_memory, 16106127360ull);
  EXPECT_EQ(f.devices[1].uuid, "GPU-00000001-fake-4000-8000-000000000001");
  EXPECT_EQ(f.min_compute_capability(), (std::pair{7, 5}));
}

TEST(NvmlProbe, OlderDriversWithoutTheV2EntryPointAreAskedTheFirst) {
  auto f = probe(nvml_context(
      {{"EXTDEPS_FAKE_NVML_DEVICES", kThree}, {"EXTDEPS_FAKE_NVML_NO_V2", "1"}, {"EXTDEPS_FAKE_NVML_CUDA", "11040"}}));
  EXPECT_EQ(f.state, CudaState::ok) << f.detail;
  EXPECT_EQ(f.cuda_version, "11.4");
}

TEST(NvmlProbe, NoDeviceFromNvmlAlone) {
  auto f = probe(nvml_context({}));
  EXPECT_EQ(f.state, CudaState::no_device) << f.detail;
  EXPECT_EQ(f.source, "nvml");
  EXPECT_EQ(f.cuda_version, "12.4");
}

TEST(NvmlProbe, AnsweredByNvmlTheDriverApiIsNotLoaded) {
  // The fake libcuda would hang in cuInit: a probe that asked it would time out.
  auto f = probe(nvml_context({{"EXTDEPS_FAKE_NVML_DEVICES", kThree},
                               {"EXTDEPS_CUDA_LIBRARY", EXTDEPS_FAKE_LIBCUDA},
                               {"EXTDEPS_FAKE_CUDA_HANG", "1"}}),
                 2000);
  EXPECT_EQ(f.state, CudaState::ok) << f.detail;
  EXPECT_EQ(f.source, "nvml");
}

TEST(NvmlProbe, TheDriverApiAnswersWhereNvmlCannot) {
  auto f = probe(nvml_context({{"EXTDEPS_FAKE_NVML_INIT_ERROR", "9"},
                               {"EXTDEPS_CUDA_LIBRARY", EXTDEPS_FAKE_LIBCUDA},
                               {"EXTDEPS_FAKE_CUDA_DEVICES", "NVIDIA L4:8.9:24000000000;Tesla V100:7.0:16000000000"}}));
  EXPECT_EQ(f.state, CudaState::ok) << f.detail;
  EXPECT_EQ(f.source, "cuda");
  ASSERT_EQ(f.devices.size(), 2u);
  EXPECT_EQ(f.devices[0].cc_major, 8);
  EXPECT_EQ(f.devices[0].cc_minor, 9);
  EXPECT_EQ(f.devices[1].cc_major, 7);
  EXPECT_EQ(f.devices[1].cc_minor, 0);
}

TEST(NvmlProbe, AKernelModuleNewerThanTheUserModeDriverIsSaid) {
  // An upgrade without a reboot: the loaded module is 560, the libraries on disk 550.
  std::string root = root_with({{"/sys/module/nvidia/version", "560.35.03\n"}});
  auto f =
      probe(nvml_context({{"EXTDEPS_FAKE_NVML_DEVICES", kThree}, {"EXTDEPS_FAKE_NVML_DRIVER", "550.54.15"}}, root));
  EXPECT_EQ(f.kernel_driver, "560.35.03");
  EXPECT_EQ(f.user_driver, "550.54.15");
  EXPECT_NE(f.detail.find("the kernel module is 560.35.03 but the user-mode driver is 550.54.15: reboot or "
                          "reload the nvidia module"),
            std::string::npos)
      << f.detail;
}

TEST(NvmlProbe, AVersionMismatchNvmlRefusesIsInTheDetail) {
  auto f = probe(nvml_context({{"EXTDEPS_FAKE_NVML_INIT_ERROR", "18"},
                               {"EXTDEPS_CUDA_LIBRARY", EXTDEPS_FAKE_LIBCUDA},
                               {"EXTDEPS_FAKE_CUDA_INIT_ERROR", "803"}}));
  EXPECT_EQ(f.state, CudaState::driver_error);
  EXPECT_NE(f.detail.find("nvmlInit_v2 returned 18 (RM has detected an NVML/RM version mismatch.)"), std::string::npos)
      << f.detail;
}

TEST(NvmlProbe, AHangIsKilledAfterTheTimeout) {
  auto start = std::chrono::steady_clock::now();
  auto f = probe(nvml_context({{"EXTDEPS_FAKE_NVML_HANG", "1"}}), 500);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(f.state, CudaState::timeout) << f.detail;
  EXPECT_LT(ms, 3000);
}

TEST(NvmlProbe, ACrashIsAStateAndTheParentSurvives) {
  auto f = probe(nvml_context({{"EXTDEPS_FAKE_NVML_CRASH", "1"}, {"ASAN_OPTIONS", "handle_segv=0"}}));
  EXPECT_EQ(f.state, CudaState::crashed) << f.detail;
  EXPECT_NE(f.detail.find("SIGSEGV"), std::string::npos) << f.detail;
}

TEST(NvmlProbe, NoKernelModuleAnswersAtOnceWithoutAChild) {
  // Nothing forced, no module, not WSL or a Jetson: no library is loaded and no child started.
  // The probe program does not exist, so a probe that started one would be an error.
  auto ctx = Context::for_test(test::temp_dir(), {{"PATH", test::temp_dir()}});
  auto start = std::chrono::steady_clock::now();
  auto r = probe_cuda(ctx, 10000, "/nonexistent/extdeps");
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->state, CudaState::no_library);
  EXPECT_EQ(r->source, "kernel");
  EXPECT_EQ(r->detail, "no NVIDIA kernel module (neither /sys/module/nvidia/version nor /proc/driver/nvidia/version)");
  EXPECT_LT(us, 5000) << "without a kernel module detection must answer in well under 5 ms";
  RecordProperty("no_module_us", static_cast<int>(us));
}

TEST(NvmlProbe, AKernelModuleStartsTheProbe) {
  std::string root =
      root_with({{"/proc/driver/nvidia/version",
                  "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Thu Feb 22 01:44:30 UTC 2024\n"}});
  auto r = probe_cuda(Context::for_test(root, {{"PATH", test::temp_dir()}}), 10000, "/nonexistent/extdeps");
  EXPECT_FALSE(r.ok()) << "with a module the probe child must be started";
}

TEST(NvmlProbe, WslIsRecognised) {
  std::string root = test::temp_dir();
  fs::create_directories(root + "/usr/lib/wsl/lib");
  EXPECT_EQ(nvidia_platform(Context::for_test(root)), "wsl");
  auto f = probe(nvml_context({{"EXTDEPS_FAKE_NVML_DEVICES", kThree}}, root));
  EXPECT_EQ(f.platform, "wsl");
  // WSL has no /sys/module/nvidia: without a forced library the probe still runs there.
  auto r = probe_cuda(Context::for_test(root, {{"PATH", test::temp_dir()}}), 10000, "/nonexistent/extdeps");
  EXPECT_FALSE(r.ok());
}

TEST(NvmlProbe, JetsonIsRecognisedWithItsRelease) {
  std::string root = root_with({{"/etc/nv_tegra_release",
                                 "# R36 (release), REVISION: 4.0, GCID: 37537400, BOARD: generic, EABI: aarch64, "
                                 "DATE: Fri Sep 13 04:36:44 UTC 2024\n"}});
  EXPECT_EQ(nvidia_platform(Context::for_test(root)), "tegra");
  EXPECT_EQ(tegra_release(Context::for_test(root)), "36.4.0");
  // A Jetson has no NVML: the Driver API answers.
  auto f = probe(nvml_context({{"EXTDEPS_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"},
                               {"EXTDEPS_CUDA_LIBRARY", EXTDEPS_FAKE_LIBCUDA},
                               {"EXTDEPS_FAKE_CUDA_DEVICES", "Orin:8.7:64000000000"}},
                              root));
  EXPECT_EQ(f.state, CudaState::ok) << f.detail;
  EXPECT_EQ(f.platform, "tegra");
  EXPECT_EQ(f.source, "cuda");
  EXPECT_NE(f.detail.find("Jetson, L4T 36.4.0"), std::string::npos) << f.detail;
  ASSERT_EQ(f.devices.size(), 1u);
  EXPECT_EQ(f.devices[0].cc_minor, 7);
}

TEST(NvmlProbe, TheFingerprintChangesWhenTheLibraryIsReplaced) {
  std::string dir = test::temp_dir();
  std::string lib = dir + "/libnvidia-ml.so.1";
  fs::copy_file(EXTDEPS_FAKE_LIBNVML, lib);
  auto f = probe(nvml_context({{"EXTDEPS_NVML_LIBRARY", lib}, {"EXTDEPS_FAKE_NVML_DEVICES", kThree}}));
  ASSERT_EQ(f.state, CudaState::ok) << f.detail;
  EXPECT_EQ(f.fingerprint, driver_fingerprint(f));
  EXPECT_NE(f.fingerprint.find(fs::canonical(lib).string()), std::string::npos) << f.fingerprint;
  std::ofstream(lib, std::ios::app) << "an upgrade";
  EXPECT_NE(f.fingerprint, driver_fingerprint(f));
}

TEST(NvmlProbe, GpuListFromProcDriver) {
  std::string root = root_with({{"/proc/driver/nvidia/gpus/0000:c1:00.0/information", "x\n"},
                                {"/proc/driver/nvidia/gpus/0000:41:00.0/information", "x\n"}});
  EXPECT_EQ(nvidia_gpu_list(Context::for_test(root)), "0000:41:00.0,0000:c1:00.0");
  EXPECT_EQ(nvidia_gpu_list(Context::for_test(test::temp_dir())), "");
}

}  // namespace
}  // namespace extdeps::detect
