/* saxpy [--cpu|--gpu] N: computes y = 2x + y for N floats and prints the largest error against
 * the exact answer. --gpu needs the GPU part, which is built only where its needs are met. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saxpy.h"

int main(int argc, char** argv) {
  if (argc != 3 || (strcmp(argv[1], "--cpu") != 0 && strcmp(argv[1], "--gpu") != 0)) {
    fprintf(stderr, "usage: saxpy --cpu|--gpu N\n");
    return 2;
  }
  int gpu = strcmp(argv[1], "--gpu") == 0;
  size_t n = strtoul(argv[2], NULL, 10);
#ifndef SAXPY_GPU
  if (gpu) {
    printf("saxpy: built without the GPU part (its needs were not met when CMake configured; "
           "see gpu-part-needs.txt in the build folder)\n");
    return 0;
  }
#endif
  float* x = malloc(n * sizeof(float));
  float* y = malloc(n * sizeof(float));
  if (!x || !y) return 1;
  for (size_t i = 0; i < n; ++i) {
    x[i] = (float)(i % 1024);
    y[i] = 1.0f;
  }
  if (gpu) {
#ifdef SAXPY_GPU
    char why[256] = "";
    int rc = saxpy_gpu(n, 2.0f, x, y, why, sizeof why);
    if (rc != 0) {
      printf("gpu: %s\n", why);
      return rc;
    }
#endif
  } else {
    saxpy_cpu(n, 2.0f, x, y);
  }
  float worst = 0;
  for (size_t i = 0; i < n; ++i) {
    float want = 2.0f * (float)(i % 1024) + 1.0f;
    float err = fabsf(y[i] - want);
    if (err > worst) worst = err;
  }
  printf("%s: n=%zu max error %g\n", gpu ? "gpu" : "cpu", n, worst);
  free(x);
  free(y);
  return worst == 0 ? 0 : 1;
}
