// `extdeps detect --format uv`: the host facts as the variables uv reads, for planning a machine
// from outside it.
#pragma once

#include <string>

#include "core/detect/host.h"

namespace extdeps::pypi {

// "UV_CUDA_DRIVER_VERSION=550.54.15\n": the driver version uv's --torch-backend=auto reads in
// place of /sys/module/nvidia/version; the GA driver of the CUDA version when only that is known;
// nothing without a driver.
std::string uv_variables(const detect::HostFacts& facts);

}  // namespace extdeps::pypi
