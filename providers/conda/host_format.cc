// conda's spelling of the host facts; see host_format.h.
#include "providers/conda/host_format.h"

#include <algorithm>

#include "core/detect/host_export.h"

namespace extdeps::conda {

std::string conda_overrides(const detect::HostFacts& f) {
  std::string out;
  // Empty tells conda there is no driver: without the line it would look at this machine.
  out += "CONDA_OVERRIDE_CUDA=" +
         (detect::has_driver(f) && detect::plain_value(f.cuda.cuda_version) ? f.cuda.cuda_version : std::string()) +
         "\n";
  if (detect::has_driver(f) && !f.cuda.devices.empty())
    out += "CONDA_OVERRIDE_CUDA_ARCH=" + detect::cc_text(f.cuda.min_compute_capability()) + "\n";
  if (detect::plain_value(f.libc_version))
    out += "CONDA_OVERRIDE_GLIBC=" + (f.libc == "glibc" ? f.libc_version : std::string()) + "\n";
  std::string kernel = f.kernel.substr(0, f.kernel.find_first_not_of("0123456789."));
  if (!kernel.empty()) out += "CONDA_OVERRIDE_LINUX=" + kernel + "\n";
  // archspec names the x86-64 levels x86_64_v2 ... x86_64_v4.
  if (!f.x86_64_level.empty() && detect::plain_value(f.x86_64_level)) {
    std::string level = f.x86_64_level;
    std::replace(level.begin(), level.end(), '-', '_');
    out += "CONDA_OVERRIDE_ARCHSPEC=" + level + "\n";
  }
  return out;
}

}  // namespace extdeps::conda
