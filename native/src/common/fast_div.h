#pragma once
// Division of 32-bit unsigned integers by a run-time-invariant divisor with a
// multiply-high and shifts (Granlund & Montgomery 1994, fig. 4.1), valid for
// every dividend and every divisor >= 1. Used by every kernel that turns a
// linear index into coordinates.
#include "host_device.h"
#include <cstdint>

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

    // n / divisor, with n % divisor in `rem`.
    INFINI_HD uint32_t divmod(uint32_t n, uint32_t &rem) const {
        uint32_t q = div(n);
        rem = n - q * divisor;
        return q;
    }
};

} // namespace infini
