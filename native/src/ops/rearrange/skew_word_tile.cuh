#pragma once
// Skewed word tiles: the skewed tiles of skew_tile.cuh with src rows read as
// aligned 4-byte words and SPAN x 64 dst units per block. Included by
// kernels_u2.cu (the default for skewed transposes, INFINI_REARRANGE_SKEW_WORDS).
#include "skew_tile.cuh"

namespace infini::rearrange::nvidia {

// Why (notes/rearrange.md, session 7): the skewed kernel's dst stores are
// already whole sectors (ncu's 1.585M L2 write sectors on 4097^2 are 1.5 x the
// 1.057M that the stores touch: H100's L2 counts a sector again at the far
// partition, and the aligned word tile shows the same 1.5), so its loss
// against the aligned 4096^2 transpose is on the read side: 80 src rows per
// 64 dst units, each row read as two misaligned 64-byte instructions (6 sector
// requests for 4 sectors of data). Here
// - a block covers SPAN tiles of 64 along b: it loads 64 SPAN + 16 src rows,
//   so the 16 rows a segment may move back cost 1 / (4 SPAN) instead of 1 / 4;
// - a src row's 64 units [a0, a0 + 64) are read as the 32 aligned words
//   at or below unit a0 (one instruction, 4 or 5 sectors) plus, for rows that
//   start on an odd unit, unit a0 + 63 (gathered: one instruction per warp for
//   all its odd rows). The words go to shared memory as loaded; a row's
//   parity (its start's offset in its word) is added to the column when the
//   tile is read back, so no load needs a shift.
// The dst side is the skewed tile's: lane x stores word x of a 128-byte
// segment starting on a sector; row ends in 2-byte stores.
template <int SPAN>
struct SkewWordTile {
    static constexpr int kEdge = kTileEdge<2>;             // units along a
    static constexpr int kSector = kSkewSector;            // units in 32 bytes
    static constexpr int kSpan = SPAN * kEdge;             // dst units of a row per block
    static constexpr int kRows = kSpan + kSector;          // src rows loaded (along b), from b0 - kSector
    static constexpr int kRowUnits = kEdge + 2;            // 33 words: unit c of a row at c + parity
    static constexpr int kLoadRows = kRows / kTileThreadsY; // src rows per warp
    static constexpr int kStoreRows = kEdge / kTileThreadsY; // dst rows per warp
    // Resident blocks per SM: span 1 at 6 (40 registers, no spill; with the
    // whole-row stores the fastest on the H100, notes/rearrange.md "Session 14");
    // span 2 at 5 (48 registers; at 6 grouped layouts spill), 95 KB of shared memory.
    static constexpr int kMinBlocks = SPAN == 1 ? 6 : 5;
    static_assert(kEdge == 2 * kTileThreadsX, "a warp loads one src row as 32 words, stores 32 dst words");
    static_assert(kRows % kTileThreadsY == 0 && kLoadRows <= kTileThreadsX, "one gathered load per warp");

    __device__ static constexpr int physRow(int r) { return (r >> 1) + (r & 1) * (kRows / 2); }
};

// ONE: groups a and b single dims. WHOLE: every src unit a0 - 1 .. a0 + 63 of
// every loaded row and every dst segment lie inside the tensor (no checks).
template <bool ONE, bool WHOLE, int SPAN>
__device__ __forceinline__ void moveSkewWordTile(const TileParams &p,
                                                 uint16_t (&tile)[SkewWordTile<SPAN>::kRows][SkewWordTile<SPAN>::kRowUnits],
                                                 uint8_t (&parity)[SkewWordTile<SPAN>::kRows], uint16_t *tile_dst,
                                                 const uint16_t *tile_src, uint32_t a0, uint32_t b0) {
    using S = SkewWordTile<SPAN>;
    const int x = threadIdx.x, y = threadIdx.y;
    const SkewStart at = skewStart<S, ONE, WHOLE>(p, tile_dst, a0, b0);
    const int cols = at.cols, lo = at.lo, hi = at.hi;
    const int64_t first = at.first, da0 = at.da0;
    int64_t unused;
    // The src unit offset of the row of tile row r (any r: clamped b when out).
    auto rowOffset = [&](int r) {
        const int64_t b = first + r;
        int64_t sb;
        if (ONE && WHOLE) {
            sb = b * p.b.dims[0].src_stride;
        } else {
            const bool in = WHOLE || (b >= 0 && b < (int64_t)p.len_b);
            groupOffset<ONE>(p.b, in ? (uint32_t)b : 0u, unused, sb);
        }
        return sb;
    };
    auto rowIn = [&](int r) {
        const int64_t b = first + r;
        return r >= lo && r < hi && (WHOLE || (b >= 0 && b < (int64_t)p.len_b));
    };
    uint32_t v[S::kLoadRows];
    uint32_t odd_rows = 0; // bit j: row j's start is the high half of its first word
    uint16_t last = 0;     // unit 63 of an odd row, past its 32 words: lane j fetches it for row j of this warp
    // Every load is issued before the first shared-memory store; rows are
    // warp-uniform, so the row checks do not diverge. Single dims and a tile
    // whole along a (the edge tiles along b too, rows checked against b's
    // range): a thread's rows by constant steps, one parity.
    bool loaded = false;
    if constexpr (ONE) {
        if (WHOLE || (INFINI_REARRANGE_EDGE_LOADS && a0 > 0 && a0 + S::kEdge <= p.len_a)) {
            const int64_t stride = p.b.dims[0].src_stride;
            const uint16_t *row = tile_src + (first + y) * stride;
            const int odd = WHOLE ? loadRowWords(row, stride, lo, hi, v)
                                  : loadRowWords<S::kLoadRows, false, true>(row, stride, lo, hi, v, first, p.len_b);
            const int r = y + kTileThreadsY * x;
            if (odd && x < S::kLoadRows && r >= lo && r < hi &&
                (WHOLE || (first + r >= 0 && first + r < (int64_t)p.len_b))) {
                last = loadRun(row + x * kTileThreadsY * stride + S::kEdge - 1, 300);
            }
            loaded = true;
        }
    }
    if (!(ONE && WHOLE) && !loaded) {
#pragma unroll
        for (int j = 0; j < S::kLoadRows; ++j) {
            const int r = y + kTileThreadsY * j;
            const uint16_t *row = tile_src + rowOffset(r);
            const int odd = (int)(((uintptr_t)row >> 1) & 1);
            odd_rows |= (uint32_t)odd << j;
            const uint32_t *words = reinterpret_cast<const uint32_t *>(row - odd);
            const int c = 2 * x - odd; // units c, c + 1 of the row
            v[j] = 0;
            if (rowIn(r)) {
                if (WHOLE || (c >= 0 && c + 1 < cols)) {
                    v[j] = loadRun(words + x, j);
                } else if (c + 1 == 0 || c + 1 == cols) { // one unit of the word in the tile: its high / low half
                    v[j] = c + 1 == 0 ? (uint32_t)loadRun(row + c + 1, 100 + j) << 16
                                      : (uint32_t)loadRun(row + c, 200 + j);
                }
            }
        }
        const int r = y + kTileThreadsY * (x < S::kLoadRows ? x : 0);
        const uint16_t *row = tile_src + rowOffset(r);
        if (x < S::kLoadRows && rowIn(r) && (((uintptr_t)row >> 1) & 1) && (WHOLE || S::kEdge - 1 < cols)) {
            last = loadRun(row + S::kEdge - 1, 300);
        }
    }
    // Tile row y + 8 j is physical row physRow(y) + 4 j (same parity).
    constexpr int kStep = kTileThreadsY / 2 * S::kRowUnits; // units between a thread's rows
    uint16_t *const my_rows = &tile[S::physRow(y)][0];
#pragma unroll
    for (int j = 0; j < S::kLoadRows; ++j) {
        reinterpret_cast<uint32_t *>(my_rows + j * kStep)[x] = v[j];
        if (!ONE && x == 0) {
            parity[y + kTileThreadsY * j] = (uint8_t)((odd_rows >> j) & 1);
        }
    }
    if (x < S::kLoadRows) {
        my_rows[x * kStep + S::kEdge] = last;
    }
    __syncthreads();
    tileLoaded();
    // For single dims a row's parity follows from its b: src offset b * stride.
    // The two tile rows a dst word of a row with sector offset e reads (16 - e
    // + 2x and the next; even steps keep the parity): their parities.
    const int base_parity = (int)(((uintptr_t)tile_src >> 1) & 1);
    const int stride_parity = ONE ? (int)(p.b.dims[0].src_stride & 1) : 0;
    auto oneParities = [&](int e) {
        const int o0 = (base_parity + (int)((first + S::kSector - e) & 1) * stride_parity) & 1;
        return int2{o0, o0 ^ stride_parity};
    };
    if constexpr (ONE && INFINI_REARRANGE_WHOLE_ROWS) {
        storeSkewRows<S, WHOLE>(p, tile, tile_dst + da0, b0, cols, oneParities);
    } else {
#pragma unroll
        for (int j = 0; j < S::kStoreRows; ++j) {
            const int c = y + kTileThreadsY * j; // dst row a0 + c
            if (!WHOLE && c >= cols) {
                continue;
            }
            uint16_t *row = skewDstRow<ONE, WHOLE>(p, tile_dst, da0, a0, c);
            const int e = (int)(((uintptr_t)row >> 1) & (S::kSector - 1));
            // Unit b of segment k comes from tile rows r = 16 - e + 64 k + 2x and
            // r + 1: physical rows physRow(16 - e) + 32 k + x and physRow(17 - e) + 32 k + x.
            int o0 = 0, o1 = 0;
            if (ONE) {
                const int2 o = oneParities(e);
                o0 = o.x;
                o1 = o.y;
            }
            const uint16_t *lo_row = &tile[S::physRow(S::kSector - e) + x][c];
            const uint16_t *hi_row = &tile[S::physRow(S::kSector + 1 - e) + x][c];
#pragma unroll
            for (int k = 0; k < SPAN; ++k) {
                const int r = S::kSector - e + S::kEdge * k + 2 * x; // tile row of unit b
                const int64_t b = (int64_t)b0 - e + S::kEdge * k + 2 * x;
                if (!ONE) {
                    o0 = parity[r];
                    o1 = parity[r + 1];
                }
                constexpr int kSegment = S::kEdge / 2 * S::kRowUnits; // units between segments' physical rows
                storeSkewPair<WHOLE>(p, row, b, lo_row[k * kSegment + o0], hi_row[k * kSegment + o1], 400 + SPAN * j + k);
            }
        }
    }
}

// p: the plan's tile parameters with tiles_b = skewTilesB(len_b, SPAN * 64)
// (SPAN = 2: 19 KB of shared memory).
template <bool ONE, int SPAN = kSkewWordSpan, int MIN_BLOCKS = SkewWordTile<SPAN>::kMinBlocks>
__global__ void __launch_bounds__(kTileThreadsX *kTileThreadsY, MIN_BLOCKS)
    skewWordTileKernel(const __grid_constant__ TileParams p, uint16_t *__restrict__ dst,
                       const uint16_t *__restrict__ src) {
    tileKernelEntry(kTileTriggerAtEntry);
    using S = SkewWordTile<SPAN>;
    __shared__ __align__(16) uint16_t tile[S::kRows][S::kRowUnits];
    __shared__ uint8_t parity[S::kRows];
    const TileOrigin o = tileOrigin(p, blockIdx.x);
    const uint32_t a0 = o.ta * S::kEdge, b0 = o.tb * S::kSpan;
    uint16_t *tile_dst = dst + o.od;            // + dst offset of a; groups b run with unit stride in dst
    const uint16_t *tile_src = src + o.os + a0; // + src offset of b; groups a run with unit stride in src
    if (a0 > 0 && a0 + S::kEdge <= p.len_a && b0 >= (uint32_t)S::kSector && b0 + S::kSpan <= p.len_b) {
        moveSkewWordTile<ONE, true, SPAN>(p, tile, parity, tile_dst, tile_src, a0, b0);
    } else {
        moveSkewWordTile<ONE, false, SPAN>(p, tile, parity, tile_dst, tile_src, a0, b0);
    }
}

} // namespace infini::rearrange::nvidia
