#pragma once
// Word tiles: a transpose of 2-byte units moved as 4-byte words on both sides.
// Included by kernels_u2.cu.
#include "tile_index.cuh"

namespace infini::rearrange::nvidia {

// A block moves the same 64 x 64 tile as tileKernel<uint16_t> with 256
// threads. The plan allows it only when groups a and b run forwards with unit
// stride, both lengths are even and every other stride is even, and Calculate
// only when both pointers are 4-byte aligned: then every src row (fixed b) and
// every dst row (fixed a) of the tile starts on a word.
//
// Reading: warp y takes src rows y, y + 8, ..., lane x word x of the row.
// Writing: warp y takes dst rows y, y + 8, ..., lane x builds word x of the
// row from units of tile rows 2x and 2x + 1. Tile rows are stored even rows
// first, then odd rows, 33 words apart, so that those 32 pairs of reads hit 32
// banks. Every global access of a warp is 128 contiguous bytes.
struct WordTile {
    static constexpr int kEdge = kTileEdge<2>;            // units along a and along b
    static constexpr int kRowUnits = kEdge + 2;            // 33 words: rows start on distinct banks
    static constexpr int kRows = kEdge / kTileThreadsY;    // rows of a thread, each phase
    static constexpr int kMinBlocks = 6;                   // resident blocks per SM (40 registers)
    static_assert(kEdge == 2 * kTileThreadsX, "a warp moves one row of words");

    __device__ static constexpr int physRow(int r) { return (r >> 1) + (r & 1) * (kEdge / 2); }
};

// A whole tile inside the tensor with groups a and b single dims (ONE): a
// thread's rows are 8 strides apart, reached by constant steps; otherwise
// every row's offsets come from its group and every access is checked.
template <bool ONE, bool WHOLE>
__device__ __forceinline__ void moveWordTile(const TileParams &p, uint16_t (&tile)[WordTile::kEdge][WordTile::kRowUnits],
                                             uint16_t *tile_dst, const uint16_t *tile_src, uint32_t a0,
                                             uint32_t b0) {
    using W = WordTile;
    const int x = threadIdx.x, y = threadIdx.y;
    const int rows = WHOLE ? W::kEdge : (int)min((uint32_t)W::kEdge, p.len_b - b0); // along b
    const int cols = WHOLE ? W::kEdge : (int)min((uint32_t)W::kEdge, p.len_a - a0); // along a
    const bool lane_in = WHOLE || 2 * x < cols; // lengths are even: both units of the word
    uint32_t v[W::kRows];
    // Every load is issued before the first shared-memory store.
#pragma unroll
    for (int j = 0; j < W::kRows; ++j) {
        const int r = y + 8 * j;
        int64_t unused, sb;
        if (ONE && WHOLE) {
            sb = (int64_t)(b0 + r) * p.b.dims[0].src_stride;
        } else {
            groupOffset<ONE>(p.b, b0 + (r < rows ? r : 0), unused, sb);
        }
        v[j] = WHOLE || (lane_in && r < rows) ? loadGlobal(reinterpret_cast<const uint32_t *>(tile_src + sb) + x, j) : 0u;
    }
#pragma unroll
    for (int j = 0; j < W::kRows; ++j) {
        reinterpret_cast<uint32_t *>(tile[W::physRow(y + 8 * j)])[x] = v[j];
    }
    __syncthreads();
    const uint16_t *lo = tile[W::physRow(2 * x)], *hi = tile[W::physRow(2 * x + 1)];
    const bool lane_out = WHOLE || 2 * x < rows;
#pragma unroll
    for (int j = 0; j < W::kRows; ++j) {
        const int c = y + 8 * j;
        if (WHOLE || (lane_out && c < cols)) {
            int64_t da, unused;
            if (ONE && WHOLE) {
                da = (int64_t)(a0 + c) * p.a.dims[0].dst_stride;
            } else {
                groupOffset<ONE>(p.a, a0 + c, da, unused);
            }
            storeGlobal(reinterpret_cast<uint32_t *>(tile_dst + da) + x, (uint32_t)lo[c] | ((uint32_t)hi[c] << 16), 100 + j);
        }
    }
}

template <bool ONE>
__global__ void __launch_bounds__(kTileThreadsX *kTileThreadsY, WordTile::kMinBlocks)
    wordTileKernel(const __grid_constant__ TileParams p, uint16_t *__restrict__ dst, const uint16_t *__restrict__ src) {
    __shared__ uint16_t tile[WordTile::kEdge][WordTile::kRowUnits];
    const TileOrigin o = tileOrigin(p, blockIdx.x);
    const uint32_t a0 = o.ta * WordTile::kEdge, b0 = o.tb * WordTile::kEdge;
    uint16_t *tile_dst = dst + o.od + b0;       // groups b run with unit stride in dst
    const uint16_t *tile_src = src + o.os + a0; // and groups a in src
    if (a0 + WordTile::kEdge <= p.len_a && b0 + WordTile::kEdge <= p.len_b) {
        moveWordTile<ONE, true>(p, tile, tile_dst, tile_src, a0, b0);
    } else {
        moveWordTile<ONE, false>(p, tile, tile_dst, tile_src, a0, b0);
    }
}

} // namespace infini::rearrange::nvidia
