// uv's spelling of the host facts; see host_format.h.
#include "providers/pypi/host_format.h"

#include "core/detect/cuda_table.h"
#include "core/detect/host_export.h"

namespace extdeps::pypi {

std::string uv_variables(const detect::HostFacts& f) {
  if (!detect::has_driver(f)) return {};
  std::string driver = !f.cuda.kernel_driver.empty() ? f.cuda.kernel_driver : f.cuda.user_driver;
  if (driver.empty())
    if (auto tk = detect::cuda_toolkit(f.cuda.cuda_version)) driver = std::string(tk->ga_driver);
  return driver.empty() || !detect::plain_value(driver) ? std::string() : "UV_CUDA_DRIVER_VERSION=" + driver + "\n";
}

}  // namespace extdeps::pypi
