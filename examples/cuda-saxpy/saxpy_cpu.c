#include "saxpy.h"

void saxpy_cpu(size_t n, float a, const float* x, float* y) {
  for (size_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
