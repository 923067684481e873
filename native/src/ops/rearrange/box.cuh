#pragma once
// The box transpose kernel (nvidia.h BoxParams, rearrange_nvidia.cc planBox): a block copies a box of
// dense blocks through shared memory. Included by kernels.cuh, and by tools/box_emulate.cc for the host.
#include "nvidia.h"
#include "tile_index.cuh"
#include <cstdint>
#include <cstring>

namespace infini::rearrange::nvidia {

// The type that moves N bytes.
template <size_t N> struct UnitOf;
template <> struct UnitOf<1> { using type = uint8_t; };
template <> struct UnitOf<2> { using type = uint16_t; };
template <> struct UnitOf<4> { using type = uint32_t; };
template <> struct UnitOf<8> { using type = uint2; };
template <> struct UnitOf<16> { using type = uint4; };

// One box a block (BoxParams): block index = outer index * chunks + chunk.
template <class U>
__global__ void __launch_bounds__(kBoxThreads) boxKernel(const __grid_constant__ BoxParams p, U *__restrict__ dst,
                                                        const U *__restrict__ src) {
#if INFINI_REARRANGE_BOX_VEC_LOADS
    __shared__ __align__(16) U box[kBoxBytes / sizeof(U)];
#else
    __shared__ U box[kBoxBytes / sizeof(U)];
#endif
    const uint32_t outer = p.div_chunks.div(blockIdx.x);
    const uint32_t c0 = (blockIdx.x - outer * p.chunks) * p.chunk;
    int64_t od = 0, os = 0;
    addDimsOffset(p.outer, p.outer_ndim, outer, od, os);
    const uint32_t ext = p.chunk_len - c0 < p.chunk ? p.chunk_len - c0 : p.chunk;
    const uint32_t n = p.inner * ext;
    od += (int64_t)c0 * p.chunk_dst;
    os += (int64_t)c0 * p.chunk_src;
#if INFINI_REARRANGE_BOX_VEC_LOADS
    constexpr uint32_t V = 16 / sizeof(U);
    // Block c's src run (p.inner units) and its head on the 16-byte grid.
    auto runOf = [&](uint32_t c) { return src + os + (int64_t)c * p.chunk_src; };
    auto headOf = [&](const U *run) { return (uint32_t)((reinterpret_cast<uintptr_t>(run) / sizeof(U)) % V); };
#endif
    // Unit i of the box: block i / inner, unit i % inner of it (src order when loading, dst order when
    // storing); a block sits at (i / inner) * inner in shared memory. (Session 37, large int8 boxes: loads
    // 8 a thread in flight behind bounds checks ran 13-15% slower, 209 -> 241 µs, and a flat load where
    // the box is one run of src, without the division, 7% slower. Session 38's ncu: memory latency holds
    // the unit loads back, a warp load moving 32 bytes; notes/rearrange.md.)
#if INFINI_REARRANGE_BOX_VEC_LOADS
    if (p.pitch != 0) { // block c at box[c * pitch], its run's packs whole: element e at box[c * pitch + head + e]
        for (uint32_t t = threadIdx.x; t < ext * p.run_packs; t += kBoxThreads) {
            const uint32_t c = p.div_run_packs.div(t), k = t - c * p.run_packs;
            const U *run = runOf(c);
            const uint32_t head = headOf(run), packs = (head + p.inner + V - 1) / V;
            if (k < packs) {
                const U *at = run - head + k * V;
                U *to = box + c * p.pitch + k * V;
                const uint32_t lo = k == 0 ? head : 0, hi = k + 1 == packs ? head + p.inner - k * V : V;
                if (lo == 0 && hi == V) {
                    *reinterpret_cast<uint4 *>(to) = *reinterpret_cast<const uint4 *>(at);
                } else {
                    for (uint32_t j = lo; j < hi; ++j) {
                        to[j] = at[j];
                    }
                }
            }
        }
    } else
#endif
    {
        for (uint32_t i = threadIdx.x; i < n; i += kBoxThreads) {
            const uint32_t c = p.div_inner.div(i);
            box[i] = src[os + (int64_t)c * p.chunk_src + (i - c * p.inner)];
        }
    }
    __syncthreads();
    // Unit i of the box (dst order): its place in shared memory, and its coordinate along the block's
    // dst-innermost dim (the one a step along dst moves in most often).
    auto locate = [&](uint32_t i, uint32_t &r0) {
        const uint32_t c = p.div_inner.div(i);
        uint32_t j = i - c * p.inner, at = c * p.inner;
#if INFINI_REARRANGE_BOX_VEC_LOADS
        if (p.pitch != 0) {
            at = c * p.pitch + headOf(runOf(c));
        }
#endif
#pragma unroll
        for (int d = 0; d < kMaxBoxDims; ++d) {
            if (d < p.nbox) {
                const uint32_t q = p.box_div[d].div(j);
                const uint32_t r = j - q * p.box_size[d];
                at += r * p.box_src[d];
                if (d == 0) {
                    r0 = r;
                }
                j = q;
            }
        }
        return at;
    };
    constexpr uint32_t W = boxWordUnits(sizeof(U));
#if INFINI_REARRANGE_BOX_WORD_BYTES
    if constexpr (W > 1) {
        // Stores of W units (INFINI_REARRANGE_BOX_WORD_BYTES) on dst's own grid along each dst run: the
        // whole box where the chunked dim continues dst's block, else each block. A word's units are
        // located once and then stepped along the block's dst-innermost dim, located afresh past its end.
        using Word = typename UnitOf<W * sizeof(U)>::type;
        const bool one_run = p.chunk_dst == (int64_t)p.inner;
        const uint32_t len = one_run ? n : p.inner, slots = one_run ? (n + 2 * W - 2) / W : ext * p.store_words;
        for (uint32_t t = threadIdx.x; t < slots; t += kBoxThreads) {
            uint32_t r = 0, k = t;
            if (!one_run) {
                r = p.div_store_words.div(t);
                k = t - r * p.store_words;
            }
            U *run = dst + od + (int64_t)r * p.chunk_dst;
            const uint32_t head = (uint32_t)((reinterpret_cast<uintptr_t>(run) / sizeof(U)) % W);
            const uint32_t words = (head + len + W - 1) / W;
            if (k >= words) {
                continue;
            }
            const uint32_t lo = k == 0 ? head : 0, hi = k + 1 == words ? head + len - k * W : W;
            const uint32_t first = r * len + k * W + lo - head;
            uint32_t r0, at = locate(first, r0);
            U v[W];
#pragma unroll
            for (uint32_t u = 0; u < W; ++u) {
                if (u >= lo && u < hi) {
                    if (u > lo) {
                        if (++r0 < p.box_size[0]) {
                            at += p.box_src[0];
                        } else {
                            at = locate(first + (u - lo), r0);
                        }
                    }
                    v[u] = box[at];
                }
            }
            U *to = run - head + k * W;
            if (lo == 0 && hi == W) {
                Word w;
                memcpy(&w, v, sizeof(w));
                *reinterpret_cast<Word *>(to) = w;
            } else {
#pragma unroll
                for (uint32_t u = 0; u < W; ++u) {
                    if (u >= lo && u < hi) {
                        to[u] = v[u];
                    }
                }
            }
        }
    } else
#endif
    {
        for (uint32_t i = threadIdx.x; i < n; i += kBoxThreads) {
            const uint32_t c = p.div_inner.div(i);
            uint32_t r0;
            dst[od + (int64_t)c * p.chunk_dst + (i - c * p.inner)] = box[locate(i, r0)];
        }
    }
}

} // namespace infini::rearrange::nvidia
