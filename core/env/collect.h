// `extdeps env`: from a plan's satisfied needs to what a build needs to find them. Each installed
// package's provider adds the search paths of its prefix (Provider::add_build_env); a CUDA
// toolkit adds CUDA_HOME, CUDAToolkit_ROOT and, when nvcc is not on PATH, its folder.
#pragma once

#include <memory>
#include <vector>

#include "core/context/context.h"
#include "core/detect/host.h"
#include "core/plan/plan.h"
#include "core/provider/provider.h"
#include "extdeps/build_env.h"

namespace extdeps::env {

// Whether every need of the outcome is met already (status satisfied).
bool all_satisfied(const plan::Outcome& outcome);

// The variables for the outcome's satisfied needs; needs that are not satisfied add nothing.
// `providers` are the ones the plan came from (a package goes to the provider of its ecosystem);
// `host` gives the nvcc the detection layer found, null when there are no facts.
BuildEnv collect(const Context& ctx, const plan::Outcome& outcome,
                 const std::vector<std::unique_ptr<Provider>>& providers, const detect::HostFacts* host);

// The root of the CUDA toolkit whose nvcc is `nvcc` (a machine path): the folder above the bin/
// that holds nvcc once symlinks are resolved (/usr/bin/nvcc -> /usr/lib/nvidia-cuda-toolkit/bin/nvcc
// gives /usr/lib/nvidia-cuda-toolkit). Empty when nvcc is not there.
std::string cuda_root_of(const Context& ctx, const std::string& nvcc);

}  // namespace extdeps::env
