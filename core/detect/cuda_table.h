// What each CUDA toolkit asks of the machine: the oldest driver that runs it and the GPU
// architectures it compiles for. Sources are cited in cuda_table.cc. The solver uses it to give
// every CUDA package of every ecosystem the `__cuda` (and `__cuda_arch`) constraint conda-forge's
// packages already carry.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace extdeps::detect {

struct CudaToolkit {
  int major = 0, minor = 0;
  std::string_view ga_driver;        // Linux driver shipped with the toolkit's GA release
  std::string_view minimum_driver;   // oldest Linux driver that runs it (minor-version compatibility)
  std::string_view min_cuda;         // the CUDA version that driver reports: "12.0"
  std::vector<std::string_view> sm;  // compute capabilities it builds for: "5.0" ... "9.0"
};

// The toolkit of a version ("12.4.1", "11.8.89" -> 11.8). For a minor release newer than the table
// knows, the newest entry of that major; nullopt for an unknown major.
std::optional<CudaToolkit> cuda_toolkit(std::string_view version);

// Every toolkit the table knows, oldest first.
const std::vector<CudaToolkit>& cuda_toolkits();

// Can code the toolkit builds run on a GPU of this compute capability? Yes when the GPU is at
// least the toolkit's oldest architecture: a GPU newer than its newest runs that one's PTX through
// the driver's JIT. What conda's cuda-arch does with __cuda_arch, per toolkit.
bool toolkit_builds_for(const CudaToolkit& toolkit, int cc_major, int cc_minor);

// Is this canonical id a CUDA component (toolkit, runtime, math libraries, nvcc)?
bool is_cuda_id(std::string_view id);
// Is it the toolkit itself (what an nvcc found on the machine meets for build and host)?
bool is_cuda_toolkit_id(std::string_view id);

}  // namespace extdeps::detect
