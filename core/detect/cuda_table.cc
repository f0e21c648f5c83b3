// Sources:
// - NVIDIA, "CUDA Toolkit Release Notes", table 3 "CUDA Toolkit and Corresponding Driver
//   Versions" (GA drivers per toolkit, Linux x86_64) and table 2 "CUDA Toolkit and Minimum
//   Required Driver Version for CUDA Minor Version Compatibility" (>= 450.80.02 for 11.x,
//   >= 525.60.13 for 12.x, >= 580.65.06 for 13.x).
// - NVIDIA, "CUDA Compatibility" guide, section "Minor Version Compatibility": an application
//   built with any toolkit of a major release runs on a driver of that major release's first
//   version (with limits on PTX JIT), so a toolkit X.Y needs a driver reporting CUDA X.0 or newer.
//   11.0 predates that rule and needs 11.0 itself; conda-forge's cuda-version packages carry the
//   same constraint (`__cuda >=12` for every 12.x).
// - NVIDIA, "CUDA Compiler Driver NVCC", section "GPU Architecture": the -arch values each release
//   accepts (sm_35/37 dropped in 12.0; sm_89/90 added in 11.8; sm_100/101/120 in 12.8; sm_103/121
//   in 12.9; 13.0 drops Maxwell, Pascal and Volta and renames sm_101 to sm_110).
#include "core/detect/cuda_table.h"

#include <charconv>
#include <utility>

namespace extdeps::detect {

namespace {

using Sm = std::vector<std::string_view>;

const Sm kSm110 = {"3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0"};
const Sm kSm111 = {"3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0", "8.6"};
const Sm kSm114 = {"3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0", "8.6", "8.7"};
const Sm kSm118 = {"3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2",
                   "7.0", "7.2", "7.5", "8.0", "8.6", "8.7", "8.9", "9.0"};
const Sm kSm120 = {"5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0", "8.6", "8.7", "8.9", "9.0"};
const Sm kSm128 = {"5.0", "5.2", "5.3", "6.0", "6.1", "6.2",  "7.0",  "7.2", "7.5",
                   "8.0", "8.6", "8.7", "8.9", "9.0", "10.0", "10.1", "12.0"};
const Sm kSm129 = {"5.0", "5.2", "5.3", "6.0", "6.1",  "6.2",  "7.0",  "7.2",  "7.5", "8.0",
                   "8.6", "8.7", "8.9", "9.0", "10.0", "10.1", "10.3", "12.0", "12.1"};
const Sm kSm130 = {"7.5", "8.0", "8.6", "8.7", "8.8", "8.9", "9.0", "10.0", "10.3", "11.0", "12.0", "12.1"};

}  // namespace

const std::vector<CudaToolkit>& cuda_toolkits() {
  static const std::vector<CudaToolkit> t = {
      {11, 0, "450.51.06", "450.36.06", "11.0", kSm110},  {11, 1, "455.32.00", "450.80.02", "11.0", kSm111},
      {11, 2, "460.32.03", "450.80.02", "11.0", kSm111},  {11, 3, "465.19.01", "450.80.02", "11.0", kSm111},
      {11, 4, "470.82.01", "450.80.02", "11.0", kSm114},  {11, 5, "495.29.05", "450.80.02", "11.0", kSm114},
      {11, 6, "510.47.03", "450.80.02", "11.0", kSm114},  {11, 7, "515.65.01", "450.80.02", "11.0", kSm114},
      {11, 8, "520.61.05", "450.80.02", "11.0", kSm118},  {12, 0, "525.85.12", "525.60.13", "12.0", kSm120},
      {12, 1, "530.30.02", "525.60.13", "12.0", kSm120},  {12, 2, "535.104.05", "525.60.13", "12.0", kSm120},
      {12, 3, "545.23.08", "525.60.13", "12.0", kSm120},  {12, 4, "550.54.15", "525.60.13", "12.0", kSm120},
      {12, 5, "555.42.06", "525.60.13", "12.0", kSm120},  {12, 6, "560.35.03", "525.60.13", "12.0", kSm120},
      {12, 8, "570.124.06", "525.60.13", "12.0", kSm128}, {12, 9, "575.57.08", "525.60.13", "12.0", kSm129},
      {13, 0, "580.65.06", "580.65.06", "13.0", kSm130},
  };
  return t;
}

namespace {

int leading_int(std::string_view& s) {
  int v = -1;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc()) return -1;
  s.remove_prefix(static_cast<size_t>(p - s.data()));
  return v;
}

}  // namespace

std::optional<CudaToolkit> cuda_toolkit(std::string_view version) {
  int major = leading_int(version);
  int minor = 0;
  if (!version.empty() && version.front() == '.') {
    version.remove_prefix(1);
    minor = std::max(0, leading_int(version));
  }
  if (major < 0) return std::nullopt;
  const CudaToolkit* best = nullptr;
  for (const auto& t : cuda_toolkits()) {
    if (t.major != major) continue;
    if (t.minor <= minor || !best) best = &t;
  }
  if (!best) return std::nullopt;
  return *best;
}

bool toolkit_builds_for(const CudaToolkit& toolkit, int cc_major, int cc_minor) {
  if (toolkit.sm.empty()) return false;
  std::string_view lowest = toolkit.sm.front();
  int major = leading_int(lowest), minor = 0;
  if (!lowest.empty() && lowest.front() == '.') {
    lowest.remove_prefix(1);
    minor = leading_int(lowest);
  }
  return std::pair{cc_major, cc_minor} >= std::pair{major, minor};
}

bool is_cuda_id(std::string_view id) {
  static const std::vector<std::string_view> ids = {
      "dep:virtual/compiler/cuda", "dep:generic/cuda",   "dep:generic/cudart",       "dep:generic/cublas",
      "dep:generic/cufft",         "dep:generic/curand", "dep:generic/cusolver",     "dep:generic/cusparse",
      "dep:generic/cudnn",         "dep:generic/nccl",   "dep:generic/nvrtc",        "dep:generic/nvjitlink",
      "dep:generic/cupti",         "dep:generic/nvcc",   "dep:generic/cuda-toolkit",
  };
  for (auto i : ids)
    if (i == id) return true;
  return false;
}

bool is_cuda_toolkit_id(std::string_view id) {
  return id == "dep:virtual/compiler/cuda" || id == "dep:generic/cuda" || id == "dep:generic/nvcc" ||
         id == "dep:generic/cuda-toolkit";
}

}  // namespace extdeps::detect
