// Facts a user states instead of detecting (DESIGN.md decision 4): EXTDEPS_OVERRIDE_CUDA,
// _CUDA_ARCH, _GLIBC, _LINUX, _ARCH, _OS, and the variables providers' managers state them with
// (ProviderDescriptor::fact_overrides: conda's CONDA_OVERRIDE_CUDA / _CUDA_ARCH / _GLIBC). An
// EXTDEPS_ variable that is set wins over a manager's. For cuda, glibc and linux an empty value means
// "absent"; an empty _ARCH, _OS or _CUDA_ARCH is ignored.
#pragma once

#include <optional>
#include <string>

#include "core/context/context.h"
#include "core/detect/host.h"
#include "core/util/result.h"

namespace extdeps::detect {

struct Override {
  std::string variable;  // the environment variable it came from
  std::string value;
};

struct Overrides {
  std::optional<Override> cuda, cuda_arch, glibc, linux_kernel, arch, os;
};

// Reads the variables; a malformed value ("12.x" for cuda) is bad input naming the variable.
Result<Overrides> read_overrides(const Context& ctx);

// Replaces the overridden facts and lists them in facts.overridden: "cuda", "cuda-arch", "glibc",
// "linux", "arch", "os".
void apply_overrides(const Overrides& o, HostFacts& facts);

}  // namespace extdeps::detect
