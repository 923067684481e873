#pragma once
// 16-byte loads of LPNorm's streaming kernels (two_pass.cu, sweep.cu) with an
// L2 cache hint: which lines a second read should still find in L2.
#include "device.cuh"
#include <cstdint>

namespace infini::lp_norm::nvidia {

// How a 16-byte load is cached: plain; evict-first (`ld.global.cs`); with an
// L2 evict-last or evict-first policy (createpolicy, sm_80+).
enum class Load { Plain, Streaming, KeepL2, DropL2 };

// An L2 evict-last (keep) or evict-first policy for ldWordsWith.
__device__ __forceinline__ uint64_t l2Policy(bool keep) {
    uint64_t pol = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (keep) {
        asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    } else {
        asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
    }
#endif
    return pol;
}
__device__ __forceinline__ uint4 ldWordsWith(const void *p, uint64_t pol) {
    uint4 w;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
                 : "=r"(w.x), "=r"(w.y), "=r"(w.z), "=r"(w.w)
                 : "l"(p), "l"(pol));
#else
    w = *reinterpret_cast<const uint4 *>(p);
#endif
    return w;
}

// 16 bytes as words, so that the forms meet as words (meeting as 16-bit
// elements made BF16 kernels hold each element in its own register and spill).
template <Load HOW>
__device__ __forceinline__ uint4 ldWords(const void *p) {
    if constexpr (HOW == Load::Plain) {
        return *reinterpret_cast<const uint4 *>(p);
    } else if constexpr (HOW == Load::Streaming) {
        return __ldcs(reinterpret_cast<const uint4 *>(p));
    } else {
        return ldWordsWith(p, l2Policy(HOW == Load::KeepL2));
    }
}

template <class T, int VEC>
__device__ __forceinline__ Pack<T, VEC> asPack(const uint4 &w) {
    static_assert(sizeof(Pack<T, VEC>) == 16, "16-byte packs only");
    Pack<T, VEC> r;
    memcpy(&r, &w, 16);
    return r;
}

} // namespace infini::lp_norm::nvidia
