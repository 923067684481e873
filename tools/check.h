#pragma once
// Checks for the standalone tools: a failed CUDA call or a nonzero status
// prints where and exits.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK_CUDA(x)                                                                                   \
    do {                                                                                                \
        cudaError_t e_ = (x);                                                                           \
        if (e_ != cudaSuccess) {                                                                        \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));      \
            std::exit(1);                                                                               \
        }                                                                                               \
    } while (0)
#define CHECK_OK(x)                                                                                     \
    do {                                                                                                \
        int s_ = (int)(x);                                                                              \
        if (s_ != 0) {                                                                                  \
            std::fprintf(stderr, "%s:%d %s returned status %d\n", __FILE__, __LINE__, #x, s_);          \
            std::exit(1);                                                                               \
        }                                                                                               \
    } while (0)
