#pragma once
// Session 32 draft (tools/rearr4_bench.cu --oddtma; not in the library): odd
// word tiles whose src side the copy engine loads. notes/rearrange.md, session
// 23: a tensor copy's box must start on 16 bytes in global memory, so an odd
// src pitch has no 2-D map of its rows; but rows 8 apart are 16 P bytes apart
// (P the src pitch in units), so the rows of one residue k mod 8 form a 2-D
// matrix whose rows are a multiple of 16 bytes apart. Its map starts on the 16
// bytes at or below row k's unit 0 (row k's unit u at inner coordinate u + s_k,
// s_k = that row's unit offset in its 16 bytes), and a box from inner
// coordinate a0 (a multiple of 8 units: 16 bytes) holds units a0 .. a0 + 63 of
// its rows whatever s_k is, in 72 units. Eight maps, one a residue.
//
// A block moves one tile of 64 units along a by 64 along b, the skewed tiles'
// way on the dst side (skew_tile.cuh: each dst row segment moved back to its
// 32-byte sector, so the tile needs src rows b0 - 16 .. b0 + 63): 80 src rows,
// 10 of each residue, landing as 8 boxes of 10 x 72 units, no swizzle. Thread
// (x, y) then writes dst rows a0 + y + 8 j, lane x word x of each (whole
// sectors). Tile row r (src row b0 - 16 + r) is box r % 8, box row r / 8; its
// unit a0 + c sits at column c + s_{r % 8}. With an odd P the 4 residues a
// warp's lanes read at once (rows r0 + 2x) have s values 2 units apart, and
// their box rows 72 units apart: the 32 lanes' words fall in 32 banks.
//
// Only odd src pitches (every residue's s differs); rows and tiles at the
// ends are checked, units past the src's ends come as zeros from the copy
// engine and are never stored.
#include "common/cuda/bulk_copy.cuh"
#include "common/cuda/driver_function.h"
#include "common/cuda/pdl_device.cuh"
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cstdint>

namespace infini::rearrange::nvidia {

constexpr int kOtEdge = 64, kOtSector = 16, kOtRows = kOtEdge + kOtSector;
constexpr int kOtResidues = 8, kOtBoxRows = kOtRows / kOtResidues, kOtBoxUnits = kOtEdge + 8;
constexpr uint32_t kOtBoxBytes = kOtBoxRows * kOtBoxUnits * 2;
constexpr int kOtBoxStrideUnits = 768; // 1536 bytes between boxes: 128-byte aligned, 0 mod 64 units (banks)
constexpr int kOtThreads = 256;
static_assert(kOtBoxBytes <= kOtBoxStrideUnits * 2, "a box fits its place");

struct OddTmaMaps {
    CUtensorMap m[kOtResidues]; // map k: src rows 8 g + k, g = 0 .. (len_b - k + 7) / 8 - 1
};
struct OddTmaParams {
    uint32_t len_a, len_b;    // src row length (dst rows), src rows (dst row length)
    int64_t dst_pitch;        // units between dst rows
    uint32_t tiles_a;         // ceil(len_a / 64); tiles_b = skewTilesB(len_b, 64)
    uint32_t s[kOtResidues];  // s_k: unit offset of src row k in its 16 bytes
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
template <bool WHOLE>
__device__ __forceinline__ void oddTmaStore(const OddTmaParams &p, const uint16_t *sm, uint16_t *dst, uint32_t a0,
                                            uint32_t b0) {
    const int x = (int)threadIdx.x & 31, y = (int)threadIdx.x >> 5;
    uint16_t *row[2];
    int lo[2], hi[2];
    int64_t b[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        row[h] = dst + (int64_t)(a0 + y + 8 * h) * p.dst_pitch;
        const int e = (int)(((uintptr_t)row[h] >> 1) & (kOtSector - 1));
        const int r = kOtSector - e + 2 * x; // tile row of unit b0 - e + 2x
        const int r1 = r + 1;
        lo[h] = (r & 7) * kOtBoxStrideUnits + (r >> 3) * kOtBoxUnits + (int)p.s[r & 7] + y + 8 * h;
        hi[h] = (r1 & 7) * kOtBoxStrideUnits + (r1 >> 3) * kOtBoxUnits + (int)p.s[r1 & 7] + y + 8 * h;
        b[h] = (int64_t)b0 - e + 2 * x;
    }
#pragma unroll
    for (int j = 0; j < kOtEdge / 8; ++j) {
        const int h = j & 1, c = y + 8 * j;
        if (!WHOLE && a0 + c >= p.len_a) {
            continue;
        }
        const int col = 16 * (j >> 1);
        const uint16_t u0 = sm[lo[h] + col], u1 = sm[hi[h] + col];
        uint16_t *const out = row[h] + (int64_t)(j >> 1) * 16 * p.dst_pitch + b[h];
        if (WHOLE || (b[h] >= 0 && b[h] + 1 < (int64_t)p.len_b)) {
            *reinterpret_cast<uint32_t *>(out) = (uint32_t)u0 | ((uint32_t)u1 << 16);
        } else {
            if (b[h] >= 0 && b[h] < (int64_t)p.len_b) {
                out[0] = u0;
            }
            if (b[h] + 1 >= 0 && b[h] + 1 < (int64_t)p.len_b) {
                out[1] = u1;
            }
        }
    }
}
#endif

template <int MIN_BLOCKS>
__global__ void __launch_bounds__(kOtThreads, MIN_BLOCKS)
    oddTmaTileKernel(const __grid_constant__ OddTmaMaps maps, const __grid_constant__ OddTmaParams p,
                     uint16_t *__restrict__ dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ __align__(128) uint16_t sm[kOtResidues * kOtBoxStrideUnits];
    __shared__ uint64_t full;
    const uint32_t tb = blockIdx.x / p.tiles_a, ta = blockIdx.x - tb * p.tiles_a;
    const uint32_t a0 = ta * kOtEdge, b0 = tb * kOtEdge;
    if (threadIdx.x == 0) {
        bulkBarrierInit(&full);
    }
    __syncthreads();
    pdlWaitPrevious(); // src may be the previous kernel's output
    if (threadIdx.x == 0) {
        bulkExpect(&full, kOtResidues * kOtBoxBytes); // out-of-range rows and units land as zeros, counted
        const int g0 = (int)(b0 / 8) - kOtSector / 8;  // box row 0: src row b0 - 16 + k
#pragma unroll
        for (int k = 0; k < kOtResidues; ++k) {
            tmaLoad2d(sm + k * kOtBoxStrideUnits, &maps.m[k], (int)a0, g0, &full);
        }
    }
    bulkWait(&full, 0);
    pdlAllowNext(); // as the odd word tiles: once the tile is in shared memory
    if (a0 + kOtEdge <= p.len_a && b0 >= (uint32_t)kOtSector && b0 + kOtEdge <= p.len_b) {
        oddTmaStore<true>(p, sm, dst, a0, b0);
    } else {
        oddTmaStore<false>(p, sm, dst, a0, b0);
    }
#endif
}

// The same tiles from a persistent grid (grid <= tiles): block i takes tiles
// i, i + grid, ... with NS tiles' boxes in flight in a ring of stages (one
// mbarrier each), as tma_tile.cuh keeps its src stages; each stage is taken
// again once every thread has stored from it.
constexpr size_t kOtStageBytes = (size_t)kOtResidues * kOtBoxStrideUnits * 2;
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

// Host: the 8 maps and the parameters of dst[a][b] = src[b][a] (a < len_a, b < len_b;
// src rows src_pitch units apart, odd; dst rows dst_pitch apart). False where the
// driver refuses a map (or lacks the encoder).
inline bool oddTmaPrepare(OddTmaMaps *maps, OddTmaParams *p, uint16_t *dst, const uint16_t *src, uint32_t len_a,
                          uint32_t len_b, int64_t src_pitch, int64_t dst_pitch) {
    (void)dst;
    static const auto encode =
        driverFunction<PFN_cuTensorMapEncodeTiled_v12000>("cuTensorMapEncodeTiled", 12000);
    if (encode == nullptr || src_pitch % 2 == 0 || len_b < (uint32_t)kOtResidues) {
        return false;
    }
    p->len_a = len_a;
    p->len_b = len_b;
    p->dst_pitch = dst_pitch;
    p->tiles_a = (len_a + kOtEdge - 1) / kOtEdge;
    for (int k = 0; k < kOtResidues; ++k) {
        const uintptr_t row = reinterpret_cast<uintptr_t>(src + k * src_pitch);
        p->s[k] = (uint32_t)((row >> 1) & 7);
        void *base = reinterpret_cast<void *>(row & ~(uintptr_t)15);
        const cuuint64_t dims[2] = {(cuuint64_t)len_a + p->s[k], (cuuint64_t)(len_b - k + 7) / 8};
        const cuuint64_t strides[1] = {(cuuint64_t)(16 * src_pitch)};
        const cuuint32_t box[2] = {kOtBoxUnits, kOtBoxRows}, element_strides[2] = {1, 1};
        if (encode(&maps->m[k], CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, base, dims, strides, box, element_strides,
                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
            return false;
        }
    }
    return true;
}

} // namespace infini::rearrange::nvidia
