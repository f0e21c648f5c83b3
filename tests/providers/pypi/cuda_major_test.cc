// cuda_major_of (providers/pypi/pypi_provider.h): which CUDA major an NVIDIA wheel is for, read
// from names on PyPI (nvidia-cublas-cu12, nvidia-cudnn-cu11) and the CUDA 13 wheels without a
// suffix (nvidia-cuda-runtime 13.0.96). Issue 31: nvidia-x-cu99999999999 on an index ended the
// resolve with "internal error: stoi".
#include "providers/pypi/pypi_provider.h"

#include <gtest/gtest.h>

#include <limits>

namespace extdeps::pypi {
namespace {

TEST(PypiCudaMajor, FromTheSuffixOrTheVersion) {
  EXPECT_EQ(cuda_major_of("nvidia-cublas-cu12", "12.6.4.1"), 12);
  EXPECT_EQ(cuda_major_of("nvidia-cudnn-cu11", "9.1.0.70"), 11);
  EXPECT_EQ(cuda_major_of("nvidia-cuda-runtime", "13.0.96"), 13);
  EXPECT_EQ(cuda_major_of("nvidia-cublas", "13.1.0.3"), 13);
  EXPECT_EQ(cuda_major_of("nvidia-cuda-runtime", "12.9.79"), std::nullopt);  // the -cu12 wheels name 12
  EXPECT_EQ(cuda_major_of("numpy", "2.1.0"), std::nullopt);
  EXPECT_EQ(cuda_major_of("nvidia-ml-py", "12.560.30"), std::nullopt);
}

TEST(PypiCudaMajor, ANumberPastIntIsACudaNoDriverHasNotAnError) {
  const int none = std::numeric_limits<int>::max();
  EXPECT_EQ(cuda_major_of("nvidia-x-cu99999999999", "1.0"), none);
  EXPECT_EQ(cuda_major_of("nvidia-cuda-runtime", "99999999999999999999.0"), none);
  EXPECT_EQ(cuda_major_of("nvidia-x-cu2147483647", "1.0"), 2147483647);
}

}  // namespace
}  // namespace extdeps::pypi
