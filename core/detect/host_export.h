// Host facts in the words other tools read, for planning a machine from outside it: the
// properties an NVIDIA wheel-variant provider reports (PEP 817/825), as a static list the
// proposal lets a user give an installer for a remote target, and what the providers' own forms
// (ProviderDescriptor::host_formats: conda's CONDA_OVERRIDE_* lines, uv's variable) share.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "core/detect/host.h"

namespace extdeps::detect {

// Whether the facts have a usable driver and know its CUDA version.
bool has_driver(const HostFacts& facts);

// Whether `value` may follow KEY= in a line a shell or a dotenv reader takes: letters, digits and
// ".+_-" only. Facts from a --host file are anyone's text; a line break would forge a line
// (issue 31), so a format writes no other value.
bool plain_value(std::string_view value);

// "8.6": a compute capability as conda and PEP 817 write it.
std::string cc_text(std::pair<int, int> cc);

// "nvidia :: cuda_version_lower_bound :: 12.4\n...": one property a line, most preferred first
// within a feature, as PEP 817 writes them: the lower bounds a wheel may ask for (this CUDA
// version down to the oldest release of the table), the upper bounds it may declare (this one up
// to the newest), and each device's sm_arch, `<cc>_real` then the `<cc>_virtual` PTX every
// device runs. Empty without a driver.
std::string variant_properties(const HostFacts& facts);

}  // namespace extdeps::detect
