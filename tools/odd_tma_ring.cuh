#pragma once
// Session 32 draft (tools/rearr4_bench.cu --oddtma; not in the library): the
// odd tensor-copy tiles (ops/rearrange/odd_tma_tile.cuh) from a persistent
// grid. Compiled (36-40 registers, no spill), not yet run.
#include "ops/rearrange/odd_tma_tile.cuh"

namespace infini::rearrange::nvidia {

// The same tiles from a persistent grid (grid <= tiles): block i takes tiles
// i, i + grid, ... with NS tiles' boxes in flight in a ring of stages (one
// mbarrier each), as tma_tile.cuh keeps its src stages; each stage is taken
// again once every thread has stored from it.
constexpr size_t oddTmaRingSmem(int ns) { return (size_t)ns * kOtStageBytes + 128; }

template <int NS, int MIN_BLOCKS>
__global__ void __launch_bounds__(kOtThreads, MIN_BLOCKS)
    oddTmaRingKernel(const __grid_constant__ OddTmaMaps maps, const __grid_constant__ OddTmaParams p,
                     uint16_t *__restrict__ dst, uint32_t tiles) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ unsigned char raw[];
    __shared__ uint64_t full[NS];
    uint16_t *const ring =
        reinterpret_cast<uint16_t *>((reinterpret_cast<uintptr_t>(raw) + 127) & ~(uintptr_t)127);
    const int tid = (int)threadIdx.x;
    if (tid == 0) {
        for (int s = 0; s < NS; ++s) {
            bulkBarrierInit(&full[s]);
        }
    }
    __syncthreads();
    pdlWaitPrevious(); // src may be the previous kernel's output
    pdlAllowNext();
    const auto issue = [&](int s, uint32_t t) {
        const uint32_t tb = t / p.tiles_a, ta = t - tb * p.tiles_a;
        const int g0 = (int)(tb * kOtEdge / 8) - kOtSector / 8;
        uint16_t *const stage = ring + (size_t)s * kOtResidues * kOtBoxStrideUnits;
        bulkExpect(&full[s], kOtResidues * kOtBoxBytes);
#pragma unroll
        for (int k = 0; k < kOtResidues; ++k) {
            tmaLoad2d(stage + k * kOtBoxStrideUnits, &maps.m[k], (int)(ta * kOtEdge), g0, &full[s]);
        }
    };
    if (tid == 0) {
        for (int s = 0; s < NS; ++s) {
            const uint32_t t = blockIdx.x + (uint32_t)s * gridDim.x;
            if (t < tiles) {
                issue(s, t);
            }
        }
    }
    int iter = 0;
    for (uint32_t t = blockIdx.x; t < tiles; t += gridDim.x, ++iter) {
        const int s = iter % NS;
        bulkWait(&full[s], (uint32_t)(iter / NS) & 1);
        const uint16_t *const stage = ring + (size_t)s * kOtResidues * kOtBoxStrideUnits;
        const uint32_t tb = t / p.tiles_a, ta = t - tb * p.tiles_a;
        const uint32_t a0 = ta * kOtEdge, b0 = tb * kOtEdge;
        if (a0 + kOtEdge <= p.len_a && b0 >= (uint32_t)kOtSector && b0 + kOtEdge <= p.len_b) {
            oddTmaStore<true>(p, stage, dst, a0, b0);
        } else {
            oddTmaStore<false>(p, stage, dst, a0, b0);
        }
        asyncProxyFence(); // this thread's reads of the stage before the copy engine refills it
        __syncthreads();   // every thread done with stage s
        if (tid == 0) {
            const uint32_t next = t + (uint32_t)NS * gridDim.x;
            if (next < tiles) {
                issue(s, next);
            }
        }
    }
#endif
}

} // namespace infini::rearrange::nvidia
