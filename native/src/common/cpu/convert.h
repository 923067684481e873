#pragma once
// Block conversions between the 16-bit floats (F16, BF16) and float on the
// process's vector path (F16C / AVX-512 where present): shared by every CPU
// operator that computes 16-bit data in float.
#include "../dtype.h"
#include "isa.h"
#include "simd.h"
#include <cstddef>
#include <type_traits>

namespace infini::cpu::convert {
#define INFINI_CPU_KERNELS "common/cpu/convert_kernels.inc"
#include "foreach_isa.h"
} // namespace infini::cpu::convert

namespace infini::cpu {

// dst[i] = float(src[i]) for the 16-bit floats.
template <class T>
inline void widenBlock(const T *src, float *dst, size_t n) {
    using namespace convert;
    static_assert(std::is_same_v<T, fp16_t> || std::is_same_v<T, bf16_t>);
    INFINI_CPU_DISPATCH(widen(src, dst, n));
}

// dst[i] = src[i] rounded to nearest even (F16: overflow to inf, gradual underflow).
template <class T>
inline void narrowBlock(const float *src, T *dst, size_t n) {
    using namespace convert;
    static_assert(std::is_same_v<T, fp16_t> || std::is_same_v<T, bf16_t>);
    INFINI_CPU_DISPATCH(narrow(src, dst, n));
}

} // namespace infini::cpu
