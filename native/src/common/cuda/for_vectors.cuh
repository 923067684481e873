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
// head comes one element per thread. Roll (for large fv bodies, whose
// unrolled copies outgrow the instruction cache):
//   kUnrolled: U inlined copies of fv per tile, one more for the head;
//   kRolled: the U vectors of a tile go through one inlined copy of fv in a
//     loop (the loads still all issued first), the head through another;
//   kOneBody: as kRolled, and the head is the loop's first step (a "vector"
//     of one element a thread); the vectors that are not whole (the head, the
//     row's last, those past the end) are read element by element in that one
//     step, not in each of the U load slots; the steps of the last tile that
//     hold no element for any thread are left out (fv must do nothing when
//     cnt == 0, as the sampling kernel's bodies). Every thread sees the same
//     calls (v, i0, cnt) with cnt > 0, in the same order, in all three.
enum ForVectorsRoll : int { kUnrolled = 0, kRolled = 1, kOneBody = 2 };

template <int NT, int U, class T, class F>
__device__ inline void forVectorsOneBody(const T *row, uint32_t begin, uint32_t h, uint32_t end, F &&fv) {
    constexpr int V = 16 / sizeof(T);
    T v[U][V]; // v[0]: this step's vector; v[1..]: the tile's next ones
    // The step's vector is base + (u * NT + threadIdx.x) * stride, valid below lim.
    uint32_t base = begin, lim = h, stride = 1, tile = h;
    int steps = h > begin ? 1 : 0, u = 0; // (uniform)
#pragma unroll 1
    for (;; ++u) {
        if (u == steps) { // the next tile: its U loads issued before any is used
            if (tile >= end) break;
#pragma unroll
            for (int w = 0; w < U; ++w) {
                const uint32_t i0 = tile + (w * NT + threadIdx.x) * V;
                if (i0 + V <= end) {
                    const uint4 raw = __ldg(reinterpret_cast<const uint4 *>(row + i0));
                    memcpy(&v[w][0], &raw, sizeof(raw));
                } else { // read in its step
#pragma unroll
                    for (int s = 0; s < V; ++s) v[w][s] = T();
                }
            }
            base = tile;
            lim = end;
            stride = V;
            // (the last tile: only the steps that hold an element for some thread)
            const uint32_t left = (end - tile + (uint32_t)NT * V - 1) / ((uint32_t)NT * V);
            steps = left < (uint32_t)U ? (int)left : U;
            u = 0;
            tile += (uint32_t)NT * V * U;
        }
        const uint32_t i0 = base + ((uint32_t)u * NT + threadIdx.x) * stride;
        const uint32_t cnt = i0 >= lim ? 0u : (lim - i0 < stride ? lim - i0 : stride);
        if (cnt < (uint32_t)V) {
#pragma unroll
            for (int s = 0; s < V; ++s) v[0][s] = (uint32_t)s < cnt ? row[i0 + s] : T();
        }
        fv(v[0], i0, cnt);
#pragma unroll
        for (int w = 0; w + 1 < U; ++w) { // the next vector into v[0]: register moves
#pragma unroll
            for (int s = 0; s < V; ++s) v[w][s] = v[w + 1][s];
        }
    }
}

template <int NT, int U = 4, int Roll = kUnrolled, class T, class F>
__device__ inline void forVectors(const T *row, uint32_t begin, uint32_t end, F &&fv) {
    constexpr int V = 16 / sizeof(T);
    const uint32_t mis = (uint32_t)(((uintptr_t)(row + begin) & 15u) / sizeof(T));
    const uint32_t head = mis == 0 ? 0u : (uint32_t)V - mis;
    const uint32_t h = begin + (head < end - begin ? head : end - begin);
    if constexpr (Roll == kOneBody) {
        forVectorsOneBody<NT, U>(row, begin, h, end, fv);
    } else {
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
            if constexpr (Roll == kRolled) {
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
