// The NVIDIA driver probe (DESIGN.md decision 5). The parent re-executes the extdeps binary as
// `extdeps __probe-cuda`; that child loads libcuda.so.1 (and libnvidia-ml.so.1) with dlopen, asks
// the driver, and prints one JSON object. A driver that hangs or crashes takes only the child
// with it: the parent kills it after a timeout and reports a state instead.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "core/context/context.h"
#include "core/detect/host.h"
#include "core/util/result.h"

namespace extdeps::detect {

// Child side, run by `extdeps __probe-cuda`: reads EXTDEPS_CUDA_LIBRARY and EXTDEPS_NVML_LIBRARY
// from the real environment (it is its own process), prints one JSON object, returns 0.
int run_cuda_probe(std::ostream& out);

// Parent side. Without an NVIDIA kernel module (and off WSL and Jetson) it answers no-library
// at once, loading nothing and starting no child. `exe` is the extdeps binary to run (default ctx.self_exe(), which
// main() sets to /proc/self/exe; when neither is set the driver is not probed; tests pass the built one). The child
// gets PATH, LD_LIBRARY_PATH, EXTDEPS_CUDA_LIBRARY, EXTDEPS_NVML_LIBRARY and the fake driver's EXTDEPS_FAKE_CUDA_* from
// ctx.env, never CUDA_VISIBLE_DEVICES. When neither library loads, `nvidia-smi` on PATH is asked instead. An error only
// when no child can be started; everything the driver does is a CudaState.
Result<CudaFacts> probe_cuda(const Context& ctx, int timeout_ms = 10000, const std::string& exe = "");

// The child's JSON output turned into facts (exposed for tests); driver-error on garbage.
CudaFacts parse_cuda_probe_output(std::string_view text);

// The kernel module's version from /sys/module/nvidia/version or /proc/driver/nvidia/version
// (under ctx's root); empty when there is no NVIDIA kernel module.
std::string nvidia_kernel_driver(const Context& ctx);

// "wsl" (/usr/lib/wsl/lib or /dev/dxg), "tegra" (/etc/nv_tegra_release), else empty; under
// ctx's root.
std::string nvidia_platform(const Context& ctx);

// A Jetson's L4T release from /etc/nv_tegra_release: "36.4.0"; empty elsewhere.
std::string tegra_release(const Context& ctx);

// The driver's identity: the module version and the size and mtime of each library loaded. A
// driver replaced without a reboot changes it.
std::string driver_fingerprint(const CudaFacts& facts);

// The PCI addresses of the GPUs the module bound (/proc/driver/nvidia/gpus), comma-separated.
std::string nvidia_gpu_list(const Context& ctx);

// "12.4" for 12040; empty for 0.
std::string cuda_version_text(int driver_version);

}  // namespace extdeps::detect
