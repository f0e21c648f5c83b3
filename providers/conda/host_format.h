// `extdeps detect --format conda`: the host facts as conda's CONDA_OVERRIDE_* variables, for
// planning a machine from outside it.
#pragma once

#include <string>

#include "core/detect/host.h"

namespace extdeps::conda {

// "CONDA_OVERRIDE_CUDA=12.4\n..." one `NAME=value` line each: CUDA (empty: no driver), CUDA_ARCH
// (the oldest device, conda's __cuda_arch), GLIBC, LINUX, ARCHSPEC (the x86-64 level).
std::string conda_overrides(const detect::HostFacts& facts);

}  // namespace extdeps::conda
