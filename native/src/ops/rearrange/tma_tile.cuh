#pragma once
// Tensor-copy tiles (sm_90): a transpose of 2-byte units in which the
// multiprocessor's copy engine (TMA, `cp.async.bulk.tensor`) moves every byte
// between global and shared memory, and the threads only transpose in shared
// memory. Session 19's copy probe (notes/rearrange.md): bulk copies were the
// only form of a copy of 4096² F16's bytes faster than the memcpy (23.6 µs
// against 23.9), where the threads' tiles transposed in 24.8-24.9.
//
// A tile is 64 units along a x 128 along b. Its src part (128 src rows of 128
// bytes) lands as one box of the src tensor map; its dst part leaves as two
// boxes of 64 dst rows x 128 bytes. Both maps use the 128-byte swizzle: the
// 16-byte chunk c of a 128-byte row r sits at chunk c ^ (r % 8), so that a
// thread can read 8 rows' chunk c and write 8 rows' chunk c' without bank
// conflicts. Each of the 128 threads transposes one 8 x 8 block of units in
// registers (32 byte permutes).
//
// The blocks are persistent: block i takes tiles i, i + grid, ...; a ring of
// NS src stages keeps NS tiles' loads in flight (mbarriers count their bytes)
// and NO dst stages let the stores drain (bulk groups). Out-of-range parts of
// edge tiles are filled with zeros on the way in and clipped on the way out,
// by the copy engine.
#include "../../common/cuda/bulk_copy.cuh"
#include "../../common/cuda/pdl_device.cuh"
#include "nvidia.h"
#include <cstdint>

namespace infini::rearrange::nvidia {

constexpr int kTmaA = kTmaTileEdgeA, kTmaB = kTmaTileEdgeB; // units of a tile along a (a src row's part) and b
constexpr int kTmaThreads = kTmaA * kTmaB / 64;   // one 8 x 8 block of units each
constexpr uint32_t kTmaSrcBytes = kTmaA * kTmaB * 2;
constexpr uint32_t kTmaDstBoxBytes = kTmaSrcBytes / 2;
constexpr size_t kTmaAlign = 1024; // the 128-byte swizzle's period

// Dynamic shared memory of a block with NS src and NO dst stages (with room to align).
constexpr size_t tmaTileSmem(int ns, int no) { return (size_t)(ns + no) * kTmaSrcBytes + kTmaAlign; }
// The library's shape (rearr4_bench --tma, H100, 4096² F16 graph µs): 10 src
// + 3 dst stages, one block an SM, 24.5; 6 + 2 25.6; 4 + 2 at two an SM
// 25.0; 2 + 2 at three 25.9.
constexpr int kTmaSrcStages = 10, kTmaDstStages = 3; // kTmaBlocksPerSm (nvidia.h) blocks an SM

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ void tmaLoad2d(void *smem, const CUtensorMap *map, int c0, int c1, uint64_t *bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
                 "%3}], [%4];" ::"r"(sharedAddress(smem)),
                 "l"(map), "r"(c0), "r"(c1), "r"(sharedAddress(bar))
                 : "memory");
}
__device__ __forceinline__ void tmaStore2d(const CUtensorMap *map, int c0, int c1, const void *smem) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(map),
                 "r"(c0), "r"(c1), "r"(sharedAddress(smem))
                 : "memory");
}
#endif

// dst[a][b] = src[b][a] for a < len_a, b < len_b, through src_map (dims {a, b},
// box {kTmaA, kTmaB}) and dst_map (dims {b, a}, box {kTmaB / 2, kTmaA}).
//
// Tile t is tile t % tiles_a along a, t / tiles_a along b (tiles visited in
// groups along b were no faster anywhere, and 3-10% slower at 8192²).
struct TmaTilePlace {
    uint32_t ta, tb;
};
__device__ __forceinline__ TmaTilePlace tmaTilePlace(uint32_t t, uint32_t tiles_a) {
    const uint32_t tb = t / tiles_a;
    return {t - tb * tiles_a, tb};
}

template <int NS, int NO, int MIN_BLOCKS>
__global__ void __launch_bounds__(kTmaThreads, MIN_BLOCKS)
    tmaTileKernel(const __grid_constant__ CUtensorMap src_map, const __grid_constant__ CUtensorMap dst_map,
                  uint32_t tiles_a, uint32_t tiles) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    static_assert(NO >= 2, "a dst stage is waited for one tile before its reuse");
    extern __shared__ unsigned char raw[];
    __shared__ uint64_t full[NS];
    unsigned char *base = reinterpret_cast<unsigned char *>(
        (reinterpret_cast<uintptr_t>(raw) + kTmaAlign - 1) & ~(uintptr_t)(kTmaAlign - 1));
    unsigned char *in = base, *out = base + (size_t)NS * kTmaSrcBytes;
    const int tid = (int)threadIdx.x;
    if (tid == 0) {
        for (int s = 0; s < NS; ++s) {
            barrierInit(&full[s], 1);
        }
        asyncProxyFence(); // the barriers, seen by the copy engine
    }
    __syncthreads();
    pdlWaitPrevious(); // src may be the previous kernel's output
    pdlAllowNext();
    const auto issue = [&](int s, uint32_t t) {
        const TmaTilePlace at = tmaTilePlace(t, tiles_a);
        bulkExpect(&full[s], kTmaSrcBytes);
        tmaLoad2d(in + (size_t)s * kTmaSrcBytes, &src_map, (int)(at.ta * kTmaA), (int)(at.tb * kTmaB), &full[s]);
    };
    if (tid == 0) {
        for (int s = 0; s < NS; ++s) {
            const uint32_t t = blockIdx.x + (uint32_t)s * gridDim.x;
            if (t < tiles) {
                issue(s, t);
            }
        }
    }
    // This thread's 8 x 8 block: chunk ca of src rows 8 cb .. 8 cb + 7, to
    // chunk cb of dst rows 8 ca .. 8 ca + 7. Any 8 consecutive threads have
    // distinct ca and distinct cb % 8: conflict-free 16-byte accesses.
    const int lo = tid & 7, hi = tid >> 3;
    const int ca = lo, cb = (hi & 8) | ((lo ^ hi) & 7);
    int iter = 0;
    for (uint32_t t = blockIdx.x; t < tiles; t += gridDim.x, ++iter) {
        const int s = iter % NS, o = iter % NO;
        bulkWait(&full[s], (uint32_t)(iter / NS) & 1);
        const unsigned char *src_tile = in + (size_t)s * kTmaSrcBytes;
        uint4 v[8];
#pragma unroll
        for (int k = 0; k < 8; ++k) { // src row 8 cb + k: (8 cb + k) % 8 = k
            v[k] = *reinterpret_cast<const uint4 *>(src_tile + (8 * cb + k) * 128 + ((ca ^ k) << 4));
        }
        // p[m][i]: unit i of src rows 2m (low half) and 2m + 1 (high half).
        uint32_t p[4][8];
#pragma unroll
        for (int m = 0; m < 4; ++m) {
            const uint32_t e[4] = {v[2 * m].x, v[2 * m].y, v[2 * m].z, v[2 * m].w};
            const uint32_t d[4] = {v[2 * m + 1].x, v[2 * m + 1].y, v[2 * m + 1].z, v[2 * m + 1].w};
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                p[m][2 * k] = __byte_perm(e[k], d[k], 0x5410);
                p[m][2 * k + 1] = __byte_perm(e[k], d[k], 0x7632);
            }
        }
        // dst box cb / 8 of this stage, row 8 ca + i: (8 ca + i) % 8 = i.
        unsigned char *dst_box = out + (size_t)o * kTmaSrcBytes + (size_t)(cb >> 3) * kTmaDstBoxBytes;
#pragma unroll
        for (int i = 0; i < 8; ++i) {
            *reinterpret_cast<uint4 *>(dst_box + (8 * ca + i) * 128 + (((cb & 7) ^ i) << 4)) =
                make_uint4(p[0][i], p[1][i], p[2][i], p[3][i]);
        }
        asyncProxyFence(); // the copy engine sees these writes
        if (tid == 0) {
            // The next tile's dst stage was last stored NO - 1 tiles ago: wait
            // until that store has read it (at most NO - 2 newer groups pending).
            asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(NO - 2) : "memory");
        }
        __syncthreads(); // this stage written and the src stage read by every thread; the next dst stage free
        if (tid == 0) {
            const TmaTilePlace at = tmaTilePlace(t, tiles_a);
            const unsigned char *stage = out + (size_t)o * kTmaSrcBytes;
            tmaStore2d(&dst_map, (int)(at.tb * kTmaB), (int)(at.ta * kTmaA), stage);
            tmaStore2d(&dst_map, (int)(at.tb * kTmaB + kTmaB / 2), (int)(at.ta * kTmaA), stage + kTmaDstBoxBytes);
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

} // namespace infini::rearrange::nvidia
