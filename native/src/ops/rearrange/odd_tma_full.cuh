#pragma once
// Odd tensor-copy tiles with both sides through the copy engine (session 32,
// sm_90; INFINI_REARRANGE_ODD_TMA=2, nvidia.h): odd_tma_tile.cuh's src side,
// and the dst side stored from staging areas, from a persistent grid with a
// ring of src stages and two staging areas (tma_tile.cuh's form). Compiled,
// emulated (tools/odd_tma_emulate.py --dst-tma), not yet run on a GPU.
//
// Why a dst map can work where the pitch is odd: a skewed dst row segment
// [b0 - e, b0 - e + 64) (e: the row's unit offset in its 32-byte sector)
// starts on 32 bytes, so on 16; and dst rows 16 apart are 32 D bytes apart (D
// the dst pitch in units), a multiple of 16, with the same sector offset. So
// the dst rows of one residue m mod 16 form a matrix with a map of its own
// (based on the 16 bytes at or below row m's unit 0, its unit b at inner
// coordinate b + sd_m, sd_m its offset in those 16 bytes), and a tile's 4 rows
// of residue m leave as one box of 4 x 64 units from coordinate
// b0 - e + sd = b0 - (R & 8) (R: the row's address in units). Sixteen boxes a
// tile. Units past a row's end and rows past the last are clipped by the copy
// engine; units before a row's start are not (coordinates 0 .. sd - 1 are the
// previous row's last units), so the tiles at b0 = 0 keep thread stores.
#include "odd_tma_tile.cuh"

namespace infini::rearrange::nvidia {

constexpr int kOfDstResidues = 16, kOfDstBoxRows = kOtEdge / kOfDstResidues; // 4 rows a box
constexpr int kOfDstBoxUnits = kOtEdge * kOfDstBoxRows;                     // 256 units, 512 bytes
constexpr size_t kOfStagingBytes = (size_t)kOfDstResidues * kOfDstBoxUnits * 2; // 8 KB
constexpr size_t oddTmaFullSmem(int ns) { return (size_t)ns * kOtStageBytes + 2 * kOfStagingBytes + 128; }

struct OddTmaDstMaps {
    CUtensorMap m[kOfDstResidues]; // map m: dst rows 16 g + m
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// This thread's 8 dst words of the tile into the staging area (box m = c % 16,
// row c / 16, word x), read from the src stage as oddTmaStore does.
__device__ __forceinline__ void oddTmaStage(const OddTmaParams &p, const uint16_t *sm, uint32_t *staging,
                                            uint16_t *dst, uint32_t a0, uint32_t b0) {
    const int x = (int)threadIdx.x & 31, y = (int)threadIdx.x >> 5;
    const OddTmaLane l = oddTmaLane(p, dst, a0, b0);
    const int *lo = l.lo, *hi = l.hi;
#pragma unroll
    for (int j = 0; j < kOtEdge / 8; ++j) {
        const int h = j & 1, col = 16 * (j >> 1);
        const uint32_t u0 = sm[lo[h] + col], u1 = sm[hi[h] + col];
        // dst row c = y + 8 j: box m = y + 8 h, box row j / 2
        staging[(y + 8 * h) * (kOfDstBoxUnits / 2) + (j >> 1) * (kOtEdge / 2) + x] = u0 | (u1 << 16);
    }
}
#endif

template <int NS, int MIN_BLOCKS>
__global__ void __launch_bounds__(kOtThreads, MIN_BLOCKS)
    oddTmaFullKernel(const __grid_constant__ OddTmaMaps maps, const __grid_constant__ OddTmaDstMaps dst_maps,
                     const __grid_constant__ OddTmaParams p, uint16_t *__restrict__ dst, uint32_t tiles) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ unsigned char raw[];
    __shared__ uint64_t full[NS];
    unsigned char *const base =
        reinterpret_cast<unsigned char *>((reinterpret_cast<uintptr_t>(raw) + 127) & ~(uintptr_t)127);
    uint16_t *const ring = reinterpret_cast<uint16_t *>(base);
    uint32_t *const stagings = reinterpret_cast<uint32_t *>(base + (size_t)NS * kOtStageBytes);
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
        const int s = iter % NS, o = iter & 1;
        bulkWait(&full[s], (uint32_t)(iter / NS) & 1);
        if (tid == 0) {
            // Staging o was last stored from two tiles ago (every tile commits
            // one group, empty where threads stored): at most one newer pending.
            asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
        }
        __syncthreads(); // staging o free for every thread
        const uint16_t *const stage = ring + (size_t)s * kOtResidues * kOtBoxStrideUnits;
        uint32_t *const staging = stagings + (size_t)o * (kOfStagingBytes / 4);
        const uint32_t tb = t / p.tiles_a, ta = t - tb * p.tiles_a;
        const uint32_t a0 = ta * kOtEdge, b0 = tb * kOtEdge;
        if (b0 == 0) {
            oddTmaStore<false>(p, stage, dst, a0, b0); // segments before the rows' starts
        } else {
            oddTmaStage(p, stage, staging, dst, a0, b0);
        }
        asyncProxyFence(); // staging writes (and the stage's reads) ordered before the copy engine's
        __syncthreads();
        if (tid == 0) {
            if (b0 != 0) {
#pragma unroll
                for (int m = 0; m < kOfDstResidues; ++m) {
                    const uintptr_t r = (uintptr_t)(dst + (int64_t)(a0 + m) * p.dst_pitch) >> 1;
                    tmaStore2d(&dst_maps.m[m], (int)b0 - (int)(r & 8), (int)(a0 / kOfDstResidues),
                               staging + m * (kOfDstBoxUnits / 2));
                }
            }
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            const uint32_t next = t + (uint32_t)NS * gridDim.x;
            if (next < tiles) {
                issue(s, next);
            }
        }
    }
    if (tid == 0) {
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); // every store done before the block ends
    }
#endif
}

// Host: the 16 dst maps of dst (len_a rows of len_b units, dst_pitch apart).
inline bool oddTmaDstPrepare(OddTmaDstMaps *maps, const uint16_t *dst, uint32_t len_a, uint32_t len_b,
                             int64_t dst_pitch) {
    if (dst_pitch < (int64_t)len_b || len_a < (uint32_t)kOfDstResidues) {
        return false;
    }
    for (int m = 0; m < kOfDstResidues; ++m) {
        const uintptr_t row = reinterpret_cast<uintptr_t>(dst + m * dst_pitch);
        const uint32_t sd = (uint32_t)((row >> 1) & 7);
        const void *base = reinterpret_cast<const void *>(row & ~(uintptr_t)15);
        if (!encodeTensorMap2d(&maps->m[m], base, 2, (uint64_t)len_b + sd,
                               (uint64_t)(len_a - m + kOfDstResidues - 1) / kOfDstResidues,
                               (uint64_t)(2 * kOfDstResidues * dst_pitch), kOtEdge, kOfDstBoxRows, false)) {
            return false;
        }
    }
    return true;
}

} // namespace infini::rearrange::nvidia
