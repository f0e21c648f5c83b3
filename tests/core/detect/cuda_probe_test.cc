#include "core/detect/cuda_probe.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>

#include "tests/core/detect/probe_fixture.h"
#include "tests/test_support.h"

namespace extdeps::detect {
namespace {

namespace fs = std::filesystem;
using test_probe::Env;
using test_probe::probe;

// A context over an empty root (no NVIDIA kernel module), with no NVML and nothing on PATH, so
// only the fake libcuda answers.
Context fake_context(const Env& extra, std::string root = "") {
  return test_probe::probe_context("/nonexistent/libnvidia-ml.so.1", EXTDEPS_FAKE_LIBCUDA, extra, std::move(root));
}

const char* kTwo = "NVIDIA H100 80GB HBM3:9.0:85899345920;NVIDIA A10:8.6:24000000000";

TEST(CudaProbe, OkWithTwoDevices) {
  auto f = probe(fake_context({{"EXTDEPS_FAKE_CUDA_DEVICES", kTwo}}));
  EXPECT_EQ(f.state, CudaState::ok) << f.detail;
  EXPECT_EQ(f.source, "cuda");
  EXPECT_EQ(f.library, fs::canonical(EXTDEPS_FAKE_LIBCUDA).string());
  EXPECT_EQ(f.driver_version, 12040);
  EXPECT_EQ(f.cuda_version, "12.4");
  ASSERT_EQ(f.devices.size(), 2u);
  EXPECT_EQ(f.devices[0].index, 0);
  EXPECT_EQ(f.devices[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(f.devices[0].cc_major, 9);
  EXPECT_EQ(f.devices[0].cc_minor, 0);
  EXPECT_EQ(f.devices[0].total_memory, 85899345920ull);
  EXPECT_EQ(f.devices[0].uuid, "GPU-00010203-0405-0607-0809-0a0b0c0d0e0f");
  EXPECT_EQ(f.devices[1].index, 1);
  EXPECT_EQ(f.devices[1].name, "NVIDIA A10");
  EXPECT_EQ(f.devices[1].cc_major, 8);
  EXPECT_EQ(f.devices[1].cc_minor, 6);
  EXPECT_EQ(f.devices[1].total_memory, 24000000000ull);
  EXPECT_EQ(f.devices[1].uuid, "GPU-10111213-1415-1617-1819-1a1b1c1d1e1f");
}

TEST(CudaProbe, DriverVersionText) {
  EXPECT_EQ(cuda_version_text(12040), "12.4");
  EXPECT_EQ(cuda_version_text(11080), "11.8");
  EXPECT_EQ(cuda_version_text(13000), "13.0");
  EXPECT_EQ(cuda_version_text(0), "");
}

TEST(CudaProbe, FoundBySearchPathRecordsTheFile) {
  // No override: libcuda.so.1 found by the loader's search (LD_LIBRARY_PATH here).
  std::string dir = fs::path(EXTDEPS_FAKE_LIBCUDA).parent_path().string();
  auto ctx = Context::for_test(
      test::temp_dir(),
      {{"LD_LIBRARY_PATH", dir}, {"EXTDEPS_NVML_LIBRARY", "/nonexistent/x.so"}, {"EXTDEPS_FAKE_CUDA_DEVICES", kTwo}});
  auto f = probe(ctx);
  EXPECT_EQ(f.state, CudaState::ok) << f.detail;
  EXPECT_EQ(f.library, fs::canonical(EXTDEPS_FAKE_LIBCUDA).string());
}

TEST(CudaProbe, NoDevice) {
  auto f = probe(fake_context({{"EXTDEPS_FAKE_CUDA_INIT_ERROR", "100"}}));
  EXPECT_EQ(f.state, CudaState::no_device) << f.detail;
  EXPECT_EQ(f.error_code, 100);
  EXPECT_EQ(f.error_name, "CUDA_ERROR_NO_DEVICE");
  EXPECT_EQ(f.cuda_version, "12.4");  // the driver is there, only the GPU is not
  EXPECT_TRUE(f.devices.empty());
}

TEST(CudaProbe, StubLibrary) {
  auto f = probe(fake_context({{"EXTDEPS_FAKE_CUDA_INIT_ERROR", "34"}}));
  EXPECT_EQ(f.state, CudaState::stub_library) << f.detail;
  EXPECT_EQ(f.error_code, 34);
  EXPECT_EQ(f.error_name, "CUDA_ERROR_STUB_LIBRARY");
  EXPECT_NE(f.detail.find("stub library"), std::string::npos) << f.detail;
}

TEST(CudaProbe, DriverErrorWithName) {
  auto f = probe(fake_context({{"EXTDEPS_FAKE_CUDA_INIT_ERROR", "999"}}));
  EXPECT_EQ(f.state, CudaState::driver_error);
  EXPECT_EQ(f.error_code, 999);
  EXPECT_EQ(f.error_name, "CUDA_ERROR_UNKNOWN");
  EXPECT_EQ(f.detail, "cuInit returned 999 (CUDA_ERROR_UNKNOWN)");
}

TEST(CudaProbe, DriverErrorWithoutName) {
  auto f = probe(fake_context({{"EXTDEPS_FAKE_CUDA_INIT_ERROR", "222"}}));
  EXPECT_EQ(f.state, CudaState::driver_error);
  EXPECT_EQ(f.error_code, 222);
  EXPECT_EQ(f.error_name, "");
  EXPECT_EQ(f.detail, "cuInit returned 222");
}

TEST(CudaProbe, NoLibrary) {
  auto f = probe(fake_context({{"EXTDEPS_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"}}));
  EXPECT_EQ(f.state, CudaState::no_library);
  EXPECT_EQ(f.library, "");
  EXPECT_NE(f.detail.find("cannot load libcuda.so.1"), std::string::npos) << f.detail;
  EXPECT_TRUE(f.devices.empty());
}

TEST(CudaProbe, HangIsKilledAfterTheTimeout) {
  auto start = std::chrono::steady_clock::now();
  auto f = probe(fake_context({{"EXTDEPS_FAKE_CUDA_HANG", "1"}}), 500);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(f.state, CudaState::timeout);
  EXPECT_EQ(f.detail, "the driver probe did not answer within 500 ms and was killed");
  EXPECT_GE(ms, 450);
  EXPECT_LT(ms, 10000) << "the probe was waited for, not killed";
}

TEST(CudaProbe, CrashIsAStateAndTheParentSurvives) {
  // Under AddressSanitizer the child's own SEGV handler would turn the crash into exit 1.
  auto f = probe(fake_context({{"EXTDEPS_FAKE_CUDA_CRASH", "1"}, {"ASAN_OPTIONS", "handle_segv=0"}}));
  EXPECT_EQ(f.state, CudaState::crashed);
  EXPECT_EQ(f.detail, "the driver probe was killed by SIGSEGV (signal 11)");
}

TEST(CudaProbe, GarbageOutputIsADriverError) {
  auto f = probe(fake_context({{"EXTDEPS_FAKE_CUDA_GARBAGE", "1"}}));
  EXPECT_EQ(f.state, CudaState::driver_error);
  EXPECT_EQ(f.detail, "the driver probe printed something that is not its JSON (not json): 'this is not json '");
}

TEST(CudaProbe, CudaVisibleDevicesIsNotPassedToTheChild) {
  auto f = probe(fake_context(
      {{"EXTDEPS_FAKE_CUDA_DEVICES", kTwo}, {"EXTDEPS_FAKE_CUDA_ECHO_CVD", "1"}, {"CUDA_VISIBLE_DEVICES", ""}}));
  EXPECT_EQ(f.state, CudaState::ok) << f.detail;
  EXPECT_EQ(f.devices.size(), 2u);
}

TEST(CudaProbe, MissingExecutableIsAnError) {
  auto r = probe_cuda(fake_context({}), 1000, "/nonexistent/extdeps");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(r.error().message,
            "cannot start the driver probe: cannot start /nonexistent/extdeps: No such file or directory");
}

TEST(CudaProbe, ToolkitStubLibrary) {
  std::string stub;
  for (const char* base : {"/usr/local"}) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(base, ec)) {
      if (e.path().filename().string().rfind("cuda", 0) != 0) continue;
      for (const char* rel : {"lib64/stubs/libcuda.so", "targets/x86_64-linux/lib/stubs/libcuda.so",
                              "targets/sbsa-linux/lib/stubs/libcuda.so"})
        if (stub.empty() && fs::exists(e.path() / rel)) stub = (e.path() / rel).string();
    }
  }
  if (stub.empty()) GTEST_SKIP() << "no CUDA toolkit stub libcuda.so under /usr/local/cuda*";
  auto f = probe(fake_context({{"EXTDEPS_CUDA_LIBRARY", stub}}));
  EXPECT_EQ(f.state, CudaState::stub_library) << f.detail;
  EXPECT_EQ(f.error_code, 34);
  EXPECT_EQ(f.error_name, "CUDA_ERROR_STUB_LIBRARY");
  EXPECT_EQ(f.library, stub);
  EXPECT_EQ(f.driver_version, 0);
}

TEST(CudaProbe, KernelDriverFromSysModule) {
  std::string root = test::temp_dir();
  fs::create_directories(root + "/sys/module/nvidia");
  std::ofstream(root + "/sys/module/nvidia/version") << "550.54.15\n";
  EXPECT_EQ(nvidia_kernel_driver(Context::for_test(root)), "550.54.15");
  auto f = probe(fake_context({{"EXTDEPS_FAKE_CUDA_DEVICES", kTwo}}, root));
  EXPECT_EQ(f.kernel_driver, "550.54.15");
}

TEST(CudaProbe, KernelDriverFromProcDriver) {
  std::string root = test::temp_dir();
  fs::create_directories(root + "/proc/driver/nvidia");
  std::ofstream(root + "/proc/driver/nvidia/version")
      << "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build  "
         "(dvs-builder@U16-I3-B03-4-3)  Thu Jan 23 21:26:39 UTC 2025\nGCC version:  gcc 12\n";
  EXPECT_EQ(nvidia_kernel_driver(Context::for_test(root)), "570.86.15");
  EXPECT_EQ(nvidia_kernel_driver(Context::for_test(test::temp_dir())), "");
}

TEST(CudaProbe, NvidiaSmiWhenNoLibraryLoads) {
  std::string bin = test::temp_dir();
  std::string smi = bin + "/nvidia-smi";
  std::ofstream(smi)
      << "#!/bin/sh\n"
         "echo '0, NVIDIA H100 80GB HBM3, 9.0, 81559, GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee, 550.54.15'\n"
         "echo '1, NVIDIA A10, 8.6, 23028, GPU-11111111-2222-3333-4444-555555555555, 550.54.15'\n";
  chmod(smi.c_str(), 0755);
  auto f = probe(fake_context({{"EXTDEPS_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"}, {"PATH", bin}}));
  EXPECT_EQ(f.state, CudaState::ok) << f.detail;
  EXPECT_EQ(f.source, "nvidia-smi");
  EXPECT_EQ(f.kernel_driver, "550.54.15");
  ASSERT_EQ(f.devices.size(), 2u);
  EXPECT_EQ(f.devices[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(f.devices[0].cc_major, 9);
  EXPECT_EQ(f.devices[0].total_memory, 81559ull * 1024 * 1024);
  EXPECT_EQ(f.devices[1].uuid, "GPU-11111111-2222-3333-4444-555555555555");
  EXPECT_EQ(f.devices[1].cc_minor, 6);
}

TEST(CudaProbe, ParseNvmlFillsDevicesWhenCudaHasNone) {
  auto f = parse_cuda_probe_output(
      R"({"cuda":{"state":"no-library","detail":"cannot load libcuda.so.1: x","devices":[]},)"
      R"("nvml":{"loaded":true,"library":"/usr/lib/libnvidia-ml.so.1","user_driver":"550.54.15",)"
      R"("driver_version":12040,"devices":[{"index":0,"name":"NVIDIA L4","cc_major":8,"cc_minor":9,)"
      R"("total_memory":24000000000,"uuid":"GPU-1"}]}})");
  EXPECT_EQ(f.state, CudaState::ok);
  EXPECT_EQ(f.source, "nvml");
  EXPECT_EQ(f.cuda_version, "12.4");
  EXPECT_EQ(f.user_driver, "550.54.15");
  EXPECT_EQ(f.nvml_library, "/usr/lib/libnvidia-ml.so.1");
  ASSERT_EQ(f.devices.size(), 1u);
  EXPECT_EQ(f.devices[0].name, "NVIDIA L4");
  EXPECT_EQ(f.devices[0].cc_minor, 9);
}

TEST(CudaProbe, ParseRejectsWrongShapes) {
  EXPECT_EQ(parse_cuda_probe_output("").state, CudaState::driver_error);
  EXPECT_EQ(parse_cuda_probe_output("[]").state, CudaState::driver_error);
  auto f = parse_cuda_probe_output(R"({"cuda":{"state":"ok","driver_version":"twelve"}})");
  EXPECT_EQ(f.state, CudaState::driver_error);
  EXPECT_EQ(parse_cuda_probe_output(R"({"cuda":{"state":"weird"}})").detail,
            "the driver probe printed something that is not its JSON (unknown state 'weird'): "
            "'{\"cuda\":{\"state\":\"weird\"}}'");
}

}  // namespace
}  // namespace extdeps::detect
