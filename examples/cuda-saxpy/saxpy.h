#ifndef SAXPY_H
#define SAXPY_H
#include <stddef.h>

/* y[i] = a * x[i] + y[i] */
void saxpy_cpu(size_t n, float a, const float* x, float* y);
/* The same on the first GPU; 0 when done, 77 when there is no usable GPU, 1 on a CUDA error
 * (message written to `why`). */
int saxpy_gpu(size_t n, float a, const float* x, float* y, char* why, size_t why_size);

#endif
