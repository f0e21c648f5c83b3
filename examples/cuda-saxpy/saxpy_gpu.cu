// The GPU part: built only when extdeps says the CUDA toolkit is here (CMakeLists.txt).
#include <cuda_runtime.h>
#include <stdio.h>

extern "C" {
#include "saxpy.h"
}

__global__ void saxpy_kernel(size_t n, float a, const float* x, float* y) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" int saxpy_gpu(size_t n, float a, const float* x, float* y, char* why, size_t why_size) {
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    snprintf(why, why_size, "no usable GPU: %s", e == cudaSuccess ? "no device" : cudaGetErrorString(e));
    return 77;
  }
  float *dx = nullptr, *dy = nullptr;
  size_t bytes = n * sizeof(float);
  if ((e = cudaMalloc(&dx, bytes)) != cudaSuccess || (e = cudaMalloc(&dy, bytes)) != cudaSuccess ||
      (e = cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice)) != cudaSuccess ||
      (e = cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice)) != cudaSuccess) {
    snprintf(why, why_size, "%s", cudaGetErrorString(e));
    cudaFree(dx);
    cudaFree(dy);
    return 1;
  }
  unsigned threads = 256;
  unsigned blocks = (unsigned)((n + threads - 1) / threads);
  saxpy_kernel<<<blocks, threads>>>(n, a, dx, dy);
  if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost)) != cudaSuccess) {
    snprintf(why, why_size, "%s", cudaGetErrorString(e));
    cudaFree(dx);
    cudaFree(dy);
    return 1;
  }
  cudaFree(dx);
  cudaFree(dy);
  return 0;
}
