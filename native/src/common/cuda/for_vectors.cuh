#pragma once
// Block-wide sweeps over a contiguous range of a row in 16-byte vectors.
#include <cstdint>
#include <cstring>

namespace infini {

// Visits row[begin, end) in vectors of V = 16 / sizeof(T) elements:
// fv(v, i0, cnt) with v[0..cnt) = row[i0 .. i0 + cnt) (cnt may be 0), called
// the same number of times by every thread of the NT-thread block, so fv may
// use warp intrinsics. 16-byte loads where the row allows, U of them issued
// before any is used (U * NT * 16 bytes in flight per block); the unaligned
// head comes one element per thread. Rolled: the U vectors of a tile go
// through one inlined copy of fv in a loop instead of U unrolled copies (the
// loads still all issued first): for large fv bodies, whose unrolled copies
// outgrow the instruction cache.
template <int NT, int U = 4, bool Rolled = false, class T, class F>
__device__ inline void forVectors(const T *row, uint32_t begin, uint32_t end, F &&fv) {
    constexpr int V = 16 / sizeof(T);
    const uint32_t mis = (uint32_t)(((uintptr_t)(row + begin) & 15u) / sizeof(T));
    const uint32_t head = mis == 0 ? 0u : (uint32_t)V - mis;
    const uint32_t h = begin + (head < end - begin ? head : end - begin);
    if (h > begin) { // uniform branch
        const uint32_t i = begin + threadIdx.x;
        T v[V];
#pragma unroll
        for (int s = 0; s < V; ++s) v[s] = T();
        const bool valid = i < h;
        if (valid) v[0] = row[i];
        fv(v, i, valid ? 1u : 0u);
    }
    for (uint32_t tile = h; tile < end; tile += (uint32_t)NT * V * U) {
        T v[U][V];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const uint32_t i0 = tile + (u * NT + threadIdx.x) * V;
            if (i0 + V <= end) {
                const uint4 raw = __ldg(reinterpret_cast<const uint4 *>(row + i0));
                memcpy(&v[u][0], &raw, sizeof(raw));
            } else {
#pragma unroll
                for (int s = 0; s < V; ++s) v[u][s] = i0 + s < end ? row[i0 + s] : T();
            }
        }
        if constexpr (Rolled) {
#pragma unroll 1
            for (int u = 0; u < U; ++u) {
                const uint32_t i0 = tile + (u * NT + threadIdx.x) * V;
                const uint32_t cnt = i0 >= end ? 0u : (end - i0 < (uint32_t)V ? end - i0 : (uint32_t)V);
                fv(v[0], i0, cnt);
#pragma unroll
                for (int w = 0; w + 1 < U; ++w) { // the next vector into v[0]: register moves
#pragma unroll
                    for (int s = 0; s < V; ++s) v[w][s] = v[w + 1][s];
                }
            }
        } else {
#pragma unroll
            for (int u = 0; u < U; ++u) {
                const uint32_t i0 = tile + (u * NT + threadIdx.x) * V;
                const uint32_t cnt = i0 >= end ? 0u : (end - i0 < (uint32_t)V ? end - i0 : (uint32_t)V);
                fv(v[u], i0, cnt);
            }
        }
    }
}

// Element by element: f(v, idx, valid), called uniformly as above.
template <int NT, class T, class F>
__device__ inline void forRange(const T *row, uint32_t begin, uint32_t end, F &&f) {
    constexpr int V = 16 / sizeof(T);
    forVectors<NT>(row, begin, end, [&](const T (&v)[V], uint32_t i0, uint32_t cnt) {
#pragma unroll
        for (int s = 0; s < V; ++s) f(v[s], i0 + s, (uint32_t)s < cnt);
    });
}

} // namespace infini
