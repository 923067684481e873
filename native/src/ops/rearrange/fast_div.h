#pragma once
// Division of 32-bit unsigned integers by a run-time-invariant divisor with a
// multiply-high and shifts (Granlund & Montgomery 1994, fig. 4.1), valid for
// every dividend and every divisor >= 1. Generic: any operator that
// decomposes linear indices on the GPU could use it (candidate for common/).
#include <cstdint>

#if defined(__CUDACC__)
#define INFINI_HD __host__ __device__ __forceinline__
#else
#define INFINI_HD inline
#endif

namespace infini {

struct FastDivU32 {
    uint32_t divisor = 1;
    uint32_t multiplier = 1;
    uint32_t shift1 = 0, shift2 = 0;

    FastDivU32() = default;
    explicit FastDivU32(uint32_t d) : divisor(d) {
        uint32_t l = 0; // ceil(log2(d))
        while (l < 32 && (uint64_t(1) << l) < d) {
            ++l;
        }
        multiplier = (uint32_t)((((uint64_t(1) << l) - d) << 32) / d + 1);
        shift1 = l < 1 ? l : 1;
        shift2 = l > 1 ? l - 1 : 0;
    }

    INFINI_HD uint32_t div(uint32_t n) const {
#if defined(__CUDA_ARCH__)
        uint32_t t = __umulhi(n, multiplier);
#else
        uint32_t t = (uint32_t)(((uint64_t)n * multiplier) >> 32);
#endif
        return (t + ((n - t) >> shift1)) >> shift2;
    }
};

} // namespace infini
