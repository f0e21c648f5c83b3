// Host facts in the words other tools read, for planning a machine from outside it: conda's
// CONDA_OVERRIDE_* variables, the variable uv reads for its PyTorch backend, and the properties an
// NVIDIA wheel-variant provider reports (PEP 817/825), as a static list the proposal lets a user
// give an installer for a remote target.
#pragma once

#include <string>

#include "core/detect/host.h"

namespace extdeps::detect {

// "CONDA_OVERRIDE_CUDA=12.4\n..." one `NAME=value` line each: CUDA (empty: no driver), CUDA_ARCH
// (the oldest device, conda's __cuda_arch), GLIBC, LINUX, ARCHSPEC (the x86-64 level).
std::string conda_overrides(const HostFacts& facts);

// "UV_CUDA_DRIVER_VERSION=550.54.15\n": the driver version uv's --torch-backend=auto reads in
// place of /sys/module/nvidia/version; the GA driver of the CUDA version when only that is known;
// nothing without a driver.
std::string uv_variables(const HostFacts& facts);

// "nvidia :: cuda_version_lower_bound :: 12.4\n...": one property a line, most preferred first
// within a feature, as PEP 817 writes them: the lower bounds a wheel may ask for (this CUDA
// version down to the oldest release of the table), the upper bounds it may declare (this one up
// to the newest), and each device's sm_arch, `<cc>_real` then the `<cc>_virtual` PTX every
// device runs. Empty without a driver.
std::string variant_properties(const HostFacts& facts);

}  // namespace extdeps::detect
