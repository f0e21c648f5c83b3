// Facts about the machine a plan is for: OS, CPU, kernel, libc, compilers, and the NVIDIA driver
// (probed in a child process, DESIGN.md decision 5). Overrides let a CPU-only CI plan for a GPU
// machine. Facts are cached on disk keyed by the boot id and the kernel driver version.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/context/context.h"
#include "core/detect/os_release.h"
#include "core/util/result.h"

namespace extdeps::detect {

struct Compiler {
  std::string name;     // cc, c++, gfortran, rustc, nvcc
  std::string path;     // where it was found on PATH (symlinks not resolved)
  std::string version;  // "12.2.0"
};

enum class CudaState { ok, no_library, stub_library, no_device, driver_error, timeout, crashed };
std::string_view cuda_state_name(CudaState s);  // "ok", "no-library", "stub-library", ...

struct CudaDevice {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;  // compute capability (attributes 75, 76)
  std::uint64_t total_memory = 0;  // bytes
  std::string uuid;                // "GPU-xxxxxxxx-xxxx-..."
  std::string mig;                 // "enabled", "disabled"; empty where NVML did not say (no MIG)
};

struct CudaFacts {
  CudaState state = CudaState::no_library;
  std::string library;        // the libcuda.so.1 that was loaded, absolute when known
  std::string source;         // "cuda", "nvml", "nvidia-smi", "override"
  int driver_version = 0;     // cuDriverGetVersion: 12040
  std::string cuda_version;   // "12.4"; empty when unknown
  std::string kernel_driver;  // the kernel module, /sys/module/nvidia/version: "550.54.15"
  std::string user_driver;    // the user-mode driver NVML belongs to: "550.54.15" (a newer one
                              // than the kernel module means an upgrade without a reboot)
  std::string nvml_library;   // the libnvidia-ml.so.1 that was loaded, absolute when known
  std::string platform;       // "wsl", "tegra" (Jetson), or empty for a plain Linux driver
  std::string fingerprint;    // the driver's identity for the cache: module and library files
  int error_code = 0;         // for driver-error
  std::string error_name;     // "CUDA_ERROR_..."
  std::string detail;         // one line for people: why this state
  std::vector<CudaDevice> devices;

  // The oldest compute capability over the devices, as conda's __cuda_arch (CEP 46) defines it:
  // {major, minor}, or {0, 0} without devices.
  std::pair<int, int> min_compute_capability() const;
};

struct HostFacts {
  OsRelease os;
  std::string machine;                    // uname -m: x86_64, aarch64
  std::string x86_64_level;               // "x86-64-v3"; empty elsewhere
  std::vector<std::string> cpu_features;  // aarch64 HWCAP names; the v-level features on x86-64
  std::string kernel;                     // uname -r
  std::string libc;                       // "glibc" or "musl"
  std::string libc_version;               // "2.36"
  std::vector<Compiler> compilers;
  CudaFacts cuda;
  std::vector<std::string> overridden;  // which facts came from EXTDEPS_OVERRIDE_* / CONDA_OVERRIDE_*
  bool from_cache = false;
};

struct DetectOptions {
  std::string host_file;  // facts saved by `detect --save`: plan for that machine
  bool refresh = false;   // ignore the cache
  bool use_cache = true;
  int probe_timeout_ms = 10000;  // EXTDEPS_PROBE_TIMEOUT (seconds) overrides
  bool probe_cuda = true;
};

// Facts another machine saved (`extdeps detect --save FILE`, schema/detect.schema.json); bad
// input naming the file when it cannot be read or is not such facts.
Result<HostFacts> read_host_file(const std::string& path);

// The architecture as the system's own package manager names it (amd64 on Debian and its
// derivatives, arm64 on a mac: ProviderDescriptor::system_cpu), else as uname does.
std::string system_arch(const HostFacts& facts);

// Everything, with overrides applied last; options.host_file's facts instead of this machine's.
Result<HostFacts> detect_host(const Context& ctx, const DetectOptions& options);

// The driver probe as detect_host runs it (core/detect/cuda_probe.h), with options'
// probe_timeout_ms. Never an error: a probe child that cannot be started is state crashed.
CudaFacts cuda_facts(const Context& ctx, const DetectOptions& options);

}  // namespace extdeps::detect
