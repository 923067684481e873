#pragma once
// Odd tensor-copy tiles (session 32, sm_90): skewed 2-byte transposes of an
// odd src pitch whose src side the copy engine loads. notes/rearrange.md, session
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
// engine and are never stored. H100, graph µs a launch against the odd word
// tiles (tools/rearr4_bench.cu --oddtma, session 32): 1025 x 4097 F16 8.67
// against 10.08, 3001 x 1999 11.61 against 12.11, but 4097² 27.3 against
// 26.1; so the planner takes them for kOddTmaMinBytes .. kOddTmaMaxBytes a
// side (nvidia.h).
#include "../../common/cuda/bulk_copy.cuh"
#include "../../common/cuda/pdl_device.cuh"
#include "../../common/cuda/tensor_map.h"
#include "tma_tile.cuh"
#include <cstdint>

namespace infini::rearrange::nvidia {

constexpr int kOtEdge = kOddTmaEdge, kOtSector = kSkewSector, kOtRows = kOtEdge + kOtSector;
constexpr int kOtResidues = kOddTmaResidues, kOtBoxRows = kOtRows / kOtResidues, kOtBoxUnits = kOtEdge + 8;
constexpr uint32_t kOtBoxBytes = kOtBoxRows * kOtBoxUnits * 2;
constexpr int kOtBoxStrideUnits = 768; // 1536 bytes between boxes: 128-byte aligned, 0 mod 64 units (banks)
constexpr int kOtThreads = 256;
constexpr int kOtMinBlocks = 6; // resident blocks an SM (H100: 4 and 6 alike, 8 slower; session 32)
static_assert(kOtBoxBytes <= kOtBoxStrideUnits * 2, "a box fits its place");
constexpr size_t kOtStageBytes = (size_t)kOtResidues * kOtBoxStrideUnits * 2; // a tile's 8 boxes

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
// What thread (x, y) needs of a tile for its dst rows a0 + y + 8 j (h = j % 2:
// rows 16 apart share a sector offset e): the rows a0 + y + 8 h, the units b
// of its word (b0 - e + 2x) and the stage places of its two units at column 0
// (tile rows 16 - e + 2x and the next; add 16 (j / 2) for row j's column).
struct OddTmaLane {
    uint16_t *row[2];
    int lo[2], hi[2];
    int64_t b[2];
};
__device__ __forceinline__ OddTmaLane oddTmaLane(const OddTmaParams &p, uint16_t *dst, uint32_t a0, uint32_t b0) {
    const int x = (int)threadIdx.x & 31, y = (int)threadIdx.x >> 5;
    OddTmaLane l;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        l.row[h] = dst + (int64_t)(a0 + y + 8 * h) * p.dst_pitch;
        const int e = (int)(((uintptr_t)l.row[h] >> 1) & (kOtSector - 1));
        const int r = kOtSector - e + 2 * x; // tile row of unit b0 - e + 2x
        const int r1 = r + 1;
        l.lo[h] = (r & 7) * kOtBoxStrideUnits + (r >> 3) * kOtBoxUnits + (int)p.s[r & 7] + y + 8 * h;
        l.hi[h] = (r1 & 7) * kOtBoxStrideUnits + (r1 >> 3) * kOtBoxUnits + (int)p.s[r1 & 7] + y + 8 * h;
        l.b[h] = (int64_t)b0 - e + 2 * x;
    }
    return l;
}

template <bool WHOLE>
__device__ __forceinline__ void oddTmaStore(const OddTmaParams &p, const uint16_t *sm, uint16_t *dst, uint32_t a0,
                                            uint32_t b0) {
    const int y = (int)threadIdx.x >> 5;
    const OddTmaLane l = oddTmaLane(p, dst, a0, b0);
    uint16_t *const *row = l.row;
    const int *lo = l.lo, *hi = l.hi;
    const int64_t *b = l.b;
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

// Host: the 8 maps and the parameters of dst[a][b] = src[b][a] (a < len_a,
// b < len_b; src rows src_pitch units apart, odd; dst rows dst_pitch apart).
// False where the driver refuses a map (or lacks the encoder).
inline bool oddTmaPrepare(OddTmaMaps *maps, OddTmaParams *p, const uint16_t *src, uint32_t len_a, uint32_t len_b,
                          int64_t src_pitch, int64_t dst_pitch) {
    if (src_pitch % 2 == 0 || src_pitch < 0 || len_b < (uint32_t)kOtResidues) {
        return false;
    }
    p->len_a = len_a;
    p->len_b = len_b;
    p->dst_pitch = dst_pitch;
    p->tiles_a = (len_a + kOtEdge - 1) / kOtEdge;
    for (int k = 0; k < kOtResidues; ++k) {
        const uintptr_t row = reinterpret_cast<uintptr_t>(src + k * src_pitch);
        p->s[k] = (uint32_t)((row >> 1) & 7);
        const void *base = reinterpret_cast<const void *>(row & ~(uintptr_t)15);
        if (!encodeTensorMap2d(&maps->m[k], base, 2, (uint64_t)len_a + p->s[k], (uint64_t)(len_b - k + 7) / 8,
                               (uint64_t)(16 * src_pitch), kOtBoxUnits, kOtBoxRows, false)) {
            return false;
        }
    }
    return true;
}

} // namespace infini::rearrange::nvidia
