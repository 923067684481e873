#pragma once
// The box transpose kernel (nvidia.h BoxParams, rearrange_nvidia.cc planBox): a block copies a box of
// dense blocks through shared memory. Included by kernels.cuh, and by tools/box_emulate.cc for the host.
#include "nvidia.h"
#include "tile_index.cuh"
#include <cstdint>

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
    for (uint32_t i = threadIdx.x; i < n; i += kBoxThreads) {
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
                at += (j - q * p.box_size[d]) * p.box_src[d];
                j = q;
            }
        }
        dst[od + (int64_t)c * p.chunk_dst + (i - c * p.inner)] = box[at];
    }
}

} // namespace infini::rearrange::nvidia
