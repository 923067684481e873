#pragma once
// Word tiles: a transpose of 2-byte units moved as 4-byte words on both sides,
// whatever the parity of the rows. Included by kernels_u2.cu.
#include "kernels.cuh"

namespace infini::rearrange::nvidia {

// A block moves TA units along a by TB units along b (tileEdgeA/B) with 256
// threads. Groups a and b run forwards with unit stride (the plan checks), so
// a src row (fixed b) is TA consecutive units and so is a dst row (fixed a).
//
// Reading: warp y takes src rows y, y + 8, ...; lane x the words x, x + 32,
// ... of the row, starting at the word that holds unit a0. A row whose unit
// a0 sits in the upper half of a word (shift 1) starts one unit early; with
// SHIFT the tile is two units narrower than its WA words, so every row fits.
// Words are realigned on their way into shared memory (two 2-byte stores for
// shifted rows), so that column c of a tile row is unit a0 + c.
// Writing: warp y takes dst rows y, y + 8, ...; lane x builds word x, x + 32,
// ... of the row from two tile rows; a row of dst that starts in the upper
// half of a word writes its first and last units alone (the neighbours belong
// to other blocks). Without SHIFT every row starts on a word (the pair rule:
// even lengths and strides, 4-byte pointers) and every access is a full word.
//
// Tile rows are stored even rows first, then odd rows, WA + 1 words apart, so
// that the 32 lanes reading rows 2k and 2k + 1 for k = 0..31 hit 32 banks.
template <int WA, int WB, bool SHIFT>
struct WordTile {
    static_assert(WA % 32 == 0 && WB % 32 == 0, "whole warps of words per row");
    static constexpr int kA = wordTileEdge(WA, SHIFT), kB = wordTileEdge(WB, SHIFT);
    static constexpr int kRowUnits = 2 * (WA + 1);  // WA + 1 words: odd, rows start on distinct banks
    static constexpr int kReadRows = (kB + 7) / 8;   // src rows per thread
    static constexpr int kWriteRows = (kA + 7) / 8;  // dst rows per thread
    static constexpr int kReadWords = WA / 32, kWriteWords = WB / 32;
    static constexpr bool kShift = SHIFT;

    // Tile row r, -1 <= r <= kB + 1 (the writer's neighbours, read but dropped).
    __device__ static constexpr int physRow(int r) { return (r >> 1) + (r & 1) * (kB / 2); }
    __device__ static int shiftOf(const uint16_t *p) { return SHIFT ? (int)(((uintptr_t)p >> 1) & 1) : 0; }
};

// The tile of one block. FULL: kA x kB units inside the tensor, and with
// SHIFT not at either end of group a (every word a row touches is inside the
// tensor); otherwise every access is checked.
template <class W, bool ONE, bool FULL>
__device__ __forceinline__ void moveWordTile(const TileParams &p, uint16_t (&tile)[W::kB + 1][W::kRowUnits],
                                             uint16_t *tile_dst, const uint16_t *tile_src, uint32_t a0,
                                             uint32_t b0) {
    constexpr bool SHIFT = W::kShift;
    const int x = threadIdx.x, y = threadIdx.y;
    const int rows = FULL ? W::kB : (int)min((uint32_t)W::kB, p.len_b - b0); // tile rows (along b)
    const int cols = FULL ? W::kA : (int)min((uint32_t)W::kA, p.len_a - a0); // tile columns (along a)
    uint32_t v[W::kReadRows][W::kReadWords];
    uint32_t shifted = 0; // bit j: the thread's row j starts one unit early
    // Every load is issued before the first shared-memory store.
#pragma unroll
    for (int j = 0; j < W::kReadRows; ++j) {
        const int r = y + 8 * j;
#pragma unroll
        for (int i = 0; i < W::kReadWords; ++i) {
            v[j][i] = 0;
        }
        if ((FULL && (W::kB % 8 == 0 || j + 1 < W::kReadRows)) || r < rows) {
            int64_t unused, sb;
            groupOffset<ONE>(p.b, b0 + r, unused, sb);
            const uint16_t *row = tile_src + sb; // unit a0 of the row
            const int s = W::shiftOf(row);
            shifted |= (uint32_t)s << j;
            const uint32_t *words = reinterpret_cast<const uint32_t *>(row - s) + x;
#pragma unroll
            for (int i = 0; i < W::kReadWords; ++i) {
                const int lo = 2 * (x + 32 * i) - s; // tile column of the word's lower unit
                if (FULL && (!SHIFT || i + 1 < W::kReadWords)) {
                    v[j][i] = words[32 * i];
                } else if (lo < cols) {
                    if (FULL || ((int64_t)a0 + lo >= 0 && (int64_t)a0 + lo + 1 < (int64_t)p.len_a)) {
                        v[j][i] = words[32 * i];
                    } else {
                        const uint32_t l = lo >= 0 ? row[lo] : 0u;
                        const uint32_t h = lo + 1 < cols ? row[lo + 1] : 0u;
                        v[j][i] = l | (h << 16);
                    }
                }
            }
        }
    }
#pragma unroll
    for (int j = 0; j < W::kReadRows; ++j) {
        const int r = y + 8 * j;
        if ((FULL && (W::kB % 8 == 0 || j + 1 < W::kReadRows)) || r < rows) {
            uint16_t *trow = tile[W::physRow(r)];
#pragma unroll
            for (int i = 0; i < W::kReadWords; ++i) {
                const int k = x + 32 * i;
                if (!SHIFT || !(shifted >> j & 1)) {
                    reinterpret_cast<uint32_t *>(trow)[k] = v[j][i];
                } else { // units 2k - 1 and 2k of the tile row
                    if (k > 0) {
                        trow[2 * k - 1] = (uint16_t)v[j][i];
                    }
                    trow[2 * k] = (uint16_t)(v[j][i] >> 16);
                }
            }
        }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < W::kWriteRows; ++j) {
        const int c = y + 8 * j;
        if ((FULL && (W::kA % 8 == 0 || j + 1 < W::kWriteRows)) || c < cols) {
            int64_t da, unused;
            groupOffset<ONE>(p.a, a0 + c, da, unused);
            uint16_t *row = tile_dst + da;
            const int s = W::shiftOf(row);
            uint32_t *words = reinterpret_cast<uint32_t *>(row - s) + x;
#pragma unroll
            for (int i = 0; i < W::kWriteWords; ++i) {
                const int lo = 2 * (x + 32 * i) - s; // tile row of the word's lower unit
                const uint32_t l = tile[W::physRow(lo)][c], h = tile[W::physRow(lo + 1)][c];
                if (lo >= 0 && lo + 1 < rows) {
                    words[32 * i] = l | (h << 16);
                } else if (SHIFT) { // at most one of the two units is in the tile
                    if (lo >= 0 && lo < rows) {
                        row[lo] = (uint16_t)l;
                    } else if (lo + 1 >= 0 && lo + 1 < rows) {
                        row[lo + 1] = (uint16_t)h;
                    }
                }
            }
        }
    }
}

// The common case: a whole tile inside the tensor, groups a and b single
// dims. A thread's rows are 8 apart, so their offsets differ by multiples of
// 8 strides: one shift for all of them, rows reached by constant steps, and
// which units a lane moves alone is known before the first access.
template <class W>
__device__ __forceinline__ void moveWholeWordTile(const TileParams &p, uint16_t (&tile)[W::kB + 1][W::kRowUnits],
                                                  uint16_t *tile_dst, const uint16_t *tile_src, uint32_t a0,
                                                  uint32_t b0) {
    constexpr bool SHIFT = W::kShift;
    const int x = threadIdx.x, y = threadIdx.y;
    uint32_t v[W::kReadRows][W::kReadWords];
    {
        const int64_t stride = p.b.dims[0].src_stride; // units between src rows
        const uint16_t *row = tile_src + (int64_t)(b0 + y) * stride;
        const int s = W::shiftOf(row);
        const uint32_t *words = reinterpret_cast<const uint32_t *>(row - s) + x;
#pragma unroll
        for (int j = 0; j < W::kReadRows; ++j) {
#pragma unroll
            for (int i = 0; i < W::kReadWords; ++i) {
                const bool in = W::kB % 8 == 0 || j + 1 < W::kReadRows || y + 8 * j < W::kB;
                const bool used = !SHIFT || i + 1 < W::kReadWords || 2 * (x + 32 * i) - s < W::kA;
                v[j][i] = in && used ? words[j * 4 * stride + 32 * i] : 0u;
            }
        }
        uint16_t *trow = tile[W::physRow(y)]; // rows y + 8j are 4j tile rows further
#pragma unroll
        for (int j = 0; j < W::kReadRows; ++j) {
            if (W::kB % 8 == 0 || j + 1 < W::kReadRows || y + 8 * j < W::kB) {
#pragma unroll
                for (int i = 0; i < W::kReadWords; ++i) {
                    const int k = x + 32 * i;
                    uint16_t *t = trow + 4 * j * W::kRowUnits;
                    if (!SHIFT || s == 0) {
                        reinterpret_cast<uint32_t *>(t)[k] = v[j][i];
                    } else { // units 2k - 1 and 2k of the tile row
                        if (k > 0) {
                            t[2 * k - 1] = (uint16_t)v[j][i];
                        }
                        t[2 * k] = (uint16_t)(v[j][i] >> 16);
                    }
                }
            }
        }
    }
    __syncthreads();
    const int64_t stride = p.a.dims[0].dst_stride; // units between dst rows
    uint16_t *row = tile_dst + (int64_t)(a0 + y) * stride;
    const int s = W::shiftOf(row);
    uint32_t *words = reinterpret_cast<uint32_t *>(row - s) + x;
#pragma unroll
    for (int i = 0; i < W::kWriteWords; ++i) {
        const int lo = 2 * (x + 32 * i) - s; // tile row of the word's lower unit
        const uint16_t *tl = tile[W::physRow(lo)] + y, *th = tile[W::physRow(lo + 1)] + y;
        const bool whole = lo >= 0 && lo + 1 < W::kB;
        const bool low_only = SHIFT && lo >= 0 && lo < W::kB && !whole;
        const bool high_only = SHIFT && lo < 0;
#pragma unroll
        for (int j = 0; j < W::kWriteRows; ++j) {
            if (W::kA % 8 == 0 || j + 1 < W::kWriteRows || y + 8 * j < W::kA) {
                const uint32_t l = tl[8 * j], h = th[8 * j];
                const int64_t off = j * 4 * stride + 32 * i; // words
                if (whole) {
                    words[off] = l | (h << 16);
                } else if (low_only) {
                    reinterpret_cast<uint16_t *>(words + off)[0] = (uint16_t)l;
                } else if (high_only) {
                    reinterpret_cast<uint16_t *>(words + off)[1] = (uint16_t)h;
                }
            }
        }
    }
}

// MIN_BLOCKS: resident blocks per SM the registers must allow; ONE: groups a
// and b are single dims.
template <int WA, int WB, bool SHIFT, bool ONE, int MIN_BLOCKS>
__global__ void __launch_bounds__(kTileThreadsX *kTileThreadsY, MIN_BLOCKS)
    wordTileKernel(const __grid_constant__ TileParams p, uint16_t *__restrict__ dst, const uint16_t *__restrict__ src) {
    using W = WordTile<WA, WB, SHIFT>;
    __shared__ uint16_t tile[W::kB + 1][W::kRowUnits]; // + 1: the writer's neighbour rows
    const TileOrigin o = tileOrigin(p, blockIdx.x);
    const uint32_t a0 = o.ta * W::kA, b0 = o.tb * W::kB;
    uint16_t *tile_dst = dst + o.od + b0;             // groups b run with unit stride in dst
    const uint16_t *tile_src = src + o.os + a0;       // and groups a in src
    if ((!SHIFT || a0 > 0) && a0 + W::kA < p.len_a && b0 + W::kB <= p.len_b) {
        if constexpr (ONE) {
            moveWholeWordTile<W>(p, tile, tile_dst, tile_src, a0, b0);
        } else {
            moveWordTile<W, ONE, true>(p, tile, tile_dst, tile_src, a0, b0);
        }
    } else {
        moveWordTile<W, ONE, false>(p, tile, tile_dst, tile_src, a0, b0);
    }
}

template <int WA, int WB, int MIN_BLOCKS>
cudaError_t launchWordTileWith(const TileParams &p, bool aligned, unsigned grid, void *dst, const void *src,
                               cudaStream_t stream) {
    const dim3 block(kTileThreadsX, kTileThreadsY);
    auto *d = static_cast<uint16_t *>(dst);
    auto *s = static_cast<const uint16_t *>(src);
    const bool one = p.a.ndim == 1 && p.b.ndim == 1;
    if (aligned) {
        if (one) {
            wordTileKernel<WA, WB, false, true, MIN_BLOCKS><<<grid, block, 0, stream>>>(p, d, s);
        } else {
            wordTileKernel<WA, WB, false, false, MIN_BLOCKS><<<grid, block, 0, stream>>>(p, d, s);
        }
    } else if (one) {
        wordTileKernel<WA, WB, true, true, MIN_BLOCKS><<<grid, block, 0, stream>>>(p, d, s);
    } else {
        wordTileKernel<WA, WB, true, false, MIN_BLOCKS><<<grid, block, 0, stream>>>(p, d, s);
    }
    return cudaGetLastError();
}

} // namespace infini::rearrange::nvidia
