#pragma once
// Word tiles: a transpose of 2-byte units moved as 4-byte words on both sides.
// Included by kernels_u2.cu.
#include "tile_index.cuh"

namespace infini::rearrange::nvidia {

// A block moves the same 64 x 64 tile as tileKernel<uint16_t> with 256
// threads (SA x SB such tiles, SA along a and SB along b, moved together:
// src rows of SA x 128 bytes, dst rows of SB x 128; the library takes 1 x 1
// and, for large transposes, 2 x 2 (nvidia.h's wide word tiles; the shapes are
// measured by tools/rearr4_bench.cu --shapes). The plan allows it only
// when groups a and b run forwards with unit stride, both lengths are even and
// every other stride is even, and Calculate only when both pointers are
// 4-byte aligned: then every src row (fixed b) and every dst row (fixed a) of
// the tile starts on a word.
//
// Reading: warp y takes src rows y, y + 8, ..., lane x word x of each 64-unit
// part of the row. Writing: warp y takes dst rows y, y + 8, ..., lane x builds
// word x of each part from units of tile rows 2x and 2x + 1 of that part's 64
// rows. Within each 64 rows, tile rows are stored even rows first, then odd
// rows, an odd number of words apart, so that those 32 pairs of reads hit 32
// banks. Every global access of a warp is 128 contiguous bytes.
template <int SA = 1, int SB = 1>
struct WordTileOf {
    static constexpr int kEdge = kTileEdge<2>;             // units along a and along b of one part
    static constexpr int kA = SA * kEdge, kB = SB * kEdge;  // units along a (a src row), along b (a dst row)
    static constexpr int kRowUnits = kA + 2;               // an odd number of words: rows start on distinct banks
    static constexpr int kRows = kEdge / kTileThreadsY;    // rows of a thread in each part, each phase
    static_assert(kEdge == 2 * kTileThreadsX, "a warp moves one row of words");

    // Where row r (< kEdge) of part `part` (along b) is held.
    __device__ static constexpr int physRow(int part, int r) { return part * kEdge + (r >> 1) + (r & 1) * (kEdge / 2); }
};
struct WordTile : WordTileOf<> {
    static constexpr int kMinBlocks = 6; // resident blocks per SM (40 registers)
};

// A whole tile inside the tensor with groups a and b single dims (ONE): a
// thread's rows are 8 strides apart, reached by constant steps; otherwise
// every row's offsets come from its group and every access is checked.
template <bool ONE, bool WHOLE, int SA, int SB>
__device__ __forceinline__ void moveWordTile(const TileParams &p,
                                             uint16_t (&tile)[WordTileOf<SA, SB>::kB][WordTileOf<SA, SB>::kRowUnits],
                                             uint16_t *tile_dst, const uint16_t *tile_src, uint32_t a0,
                                             uint32_t b0) {
    using W = WordTileOf<SA, SB>;
    const int x = threadIdx.x, y = threadIdx.y;
    const int rows = WHOLE ? W::kB : (int)min((uint32_t)W::kB, p.len_b - b0); // along b
    const int cols = WHOLE ? W::kA : (int)min((uint32_t)W::kA, p.len_a - a0); // along a
    uint32_t v[SB][W::kRows][SA];
    // Every load is issued before the first shared-memory store.
#pragma unroll
    for (int sb = 0; sb < SB; ++sb) {
#pragma unroll
        for (int j = 0; j < W::kRows; ++j) {
            const int r = sb * W::kEdge + y + 8 * j;
            int64_t unused, sbo;
            if (ONE && WHOLE) {
                sbo = (int64_t)(b0 + r) * p.b.dims[0].src_stride;
            } else {
                groupOffset<ONE>(p.b, b0 + (r < rows ? r : 0), unused, sbo);
            }
#pragma unroll
            for (int sa = 0; sa < SA; ++sa) {
                const int w = sa * kTileThreadsX + x; // lengths are even: both units of the word
                v[sb][j][sa] = WHOLE || (2 * w < cols && r < rows)
                                   ? loadGlobal(reinterpret_cast<const uint32_t *>(tile_src + sbo) + w, (sb * W::kRows + j) * SA + sa)
                                   : 0u;
            }
        }
    }
#pragma unroll
    for (int sb = 0; sb < SB; ++sb) {
#pragma unroll
        for (int j = 0; j < W::kRows; ++j) {
#pragma unroll
            for (int sa = 0; sa < SA; ++sa) {
                reinterpret_cast<uint32_t *>(tile[W::physRow(sb, y + 8 * j)])[sa * kTileThreadsX + x] =
                    v[sb][j][sa];
            }
        }
    }
    __syncthreads();
    tileLoaded();
#pragma unroll
    for (int sa = 0; sa < SA; ++sa) {
#pragma unroll
        for (int j = 0; j < W::kRows; ++j) {
            const int c = sa * W::kEdge + y + 8 * j;
#pragma unroll
            for (int sb = 0; sb < SB; ++sb) {
                const int r = sb * W::kEdge + 2 * x;
                if (WHOLE || (r < rows && c < cols)) {
                    int64_t da, unused;
                    if (ONE && WHOLE) {
                        da = (int64_t)(a0 + c) * p.a.dims[0].dst_stride;
                    } else {
                        groupOffset<ONE>(p.a, a0 + c, da, unused);
                    }
                    const uint16_t *lo = tile[W::physRow(sb, 2 * x)], *hi = tile[W::physRow(sb, 2 * x + 1)];
                    storeGlobal(reinterpret_cast<uint32_t *>(tile_dst + da) + sb * kTileThreadsX + x,
                                (uint32_t)lo[c] | ((uint32_t)hi[c] << 16), 100 + (sa * W::kRows + j) * SB + sb);
                }
            }
        }
    }
}

template <bool ONE, int SA = 1, int SB = 1, int MIN_BLOCKS = WordTile::kMinBlocks>
__global__ void __launch_bounds__(kTileThreadsX *kTileThreadsY, MIN_BLOCKS)
    wordTileKernel(const __grid_constant__ TileParams p, uint16_t *__restrict__ dst, const uint16_t *__restrict__ src) {
    tileKernelEntry(kTileTriggerAtEntry);
    using W = WordTileOf<SA, SB>;
    __shared__ uint16_t tile[W::kB][W::kRowUnits];
    const TileOrigin o = tileOrigin(p, blockIdx.x);
    const uint32_t a0 = o.ta * W::kA, b0 = o.tb * W::kB;
    uint16_t *tile_dst = dst + o.od + b0;       // groups b run with unit stride in dst
    const uint16_t *tile_src = src + o.os + a0; // and groups a in src
    if (a0 + W::kA <= p.len_a && b0 + W::kB <= p.len_b) {
        moveWordTile<ONE, true, SA, SB>(p, tile, tile_dst, tile_src, a0, b0);
    } else {
        moveWordTile<ONE, false, SA, SB>(p, tile, tile_dst, tile_src, a0, b0);
    }
}

} // namespace infini::rearrange::nvidia
