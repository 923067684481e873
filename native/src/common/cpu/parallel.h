#pragma once
// CPU-side helpers: element access for the 16-bit floats and a parallel-for.
#include "../dtype.h"
#include <cstddef>

namespace infini::cpu {

template <class T> struct ComputeTypeOf { using type = T; };
template <> struct ComputeTypeOf<fp16_t> { using type = float; };
template <> struct ComputeTypeOf<bf16_t> { using type = float; };
template <class T>
using ComputeType = typename ComputeTypeOf<T>::type;

template <class T>
inline ComputeType<T> widen(T v) { return v; }
inline float widen(fp16_t v) { return toFloat(v); }
inline float widen(bf16_t v) { return toFloat(v); }

template <class T>
inline T narrow(ComputeType<T> v) {
    if constexpr (std::is_same_v<T, fp16_t> || std::is_same_v<T, bf16_t>) {
        return fromFloat(v, T{});
    } else {
        return static_cast<T>(v);
    }
}

// Below this many elements of work a parallel region costs more than it saves.
constexpr size_t kParallelGrain = 1 << 15;

// Run body(i) for i in [0, n), in parallel when the work is large enough.
template <class F>
void parallelFor(size_t n, size_t work_per_item, F &&body) {
#ifdef _OPENMP
    if (n > 1 && n * work_per_item >= kParallelGrain) {
#pragma omp parallel for schedule(static)
        for (ptrdiff_t i = 0; i < (ptrdiff_t)n; ++i) {
            body((size_t)i);
        }
        return;
    }
#endif
    (void)work_per_item;
    for (size_t i = 0; i < n; ++i) {
        body(i);
    }
}

} // namespace infini::cpu
