#pragma once
// Skewed tiles: 2-byte transposes whose dst rows do not all start on a 32-byte
// sector (odd pitches, shifted pointers). Included by kernels_u2.cu.
#include "tile_index.cuh"

namespace infini::rearrange::nvidia {

// Why: with an odd dst pitch, the unit tile kernel's 128-byte row segments
// start anywhere in a sector, so most segments touch 5 sectors, two of them
// shared with the neighbouring block's segments. Those partially written
// sectors, not the access width, cost 4097^2 its 72% of the copy roofline
// (notes/rearrange.md, 2026-11-23). Here every dst row segment is moved to the
// sector boundary at or below its place: for dst row a, tile tb covers
//     b in [64 tb - e_a, 64 tb + 64 - e_a),
// e_a = the row's sector offset in units (0..15, from the pointer itself), so
// every dst word a block writes lies in 4 whole sectors that no other block
// touches (the first and last segment of a row are cut at the row's ends).
// The block loads the src rows b0 - 16 .. b0 + 63 (80 rows for 64; its
// neighbour along b has just loaded the extra 16, they hit L2) and writes
// 4-byte words, lane x of a warp word x of a 128-byte aligned segment.
//
// The plan allows it for 2-byte units where groups a and b run forwards with
// unit stride (src offset of a group-a index = the index, dst offset of a
// group-b index = the index); any 2-byte aligned pointers.
struct SkewTile {
    static constexpr int kEdge = kTileEdge<2>;          // 64 units along a, and per dst row segment
    static constexpr int kSector = kSkewSector;          // units in 32 bytes: the most a segment moves back
    static constexpr int kRows = kEdge + kSector;        // src rows loaded (along b), from b0 - kSector
    static constexpr int kRowUnits = kEdge + 2;          // 33 words: rows start on distinct banks
    static constexpr int kLoadRows = kRows / kTileThreadsY;  // src rows per warp
    static constexpr int kStoreRows = kEdge / kTileThreadsY; // dst rows per warp
    static constexpr int kMinBlocks = 6;                 // resident blocks per SM (the word tile's)
    static_assert(kEdge == 2 * kTileThreadsX, "a warp loads one src row as 2 x 32 units, stores one dst row as 32 words");
    static_assert(kRows % kTileThreadsY == 0, "every warp loads the same number of rows");

    // Tile rows (b) stored even rows first, then odd rows: lane x reading rows
    // r + 2x (and r + 2x + 1) of one column hits 32 distinct banks for any r.
    __device__ static constexpr int physRow(int r) { return (r >> 1) + (r & 1) * (kRows / 2); }
};

// The src rows the block needs, [*lo, *hi) in tile rows: all ROWS (80 here),
// or ROWS - 16 when every dst row of the tile has the same sector offset (dst
// strides of group a multiples of 16 units: then the offset is row a0's).
// ONE: group a is a single dim.
template <int ROWS = kTileEdge<2> + kSkewSector, bool ONE = false>
__device__ __forceinline__ void skewRowsNeeded(const TileParams &p, const uint16_t *row_a0, int *lo, int *hi) {
    bool uniform = true;
    for (int d = 0; d < (ONE ? 1 : p.a.ndim); ++d) {
        uniform = uniform && p.a.dims[d].dst_stride % kSkewSector == 0;
    }
    if (uniform) {
        const int e = (int)(((uintptr_t)row_a0 >> 1) & (kSkewSector - 1));
        *lo = kSkewSector - e;
        *hi = ROWS - e;
    } else {
        *lo = 0;
        *hi = ROWS;
    }
}

// Dst row a0 + c of a tile (unit b of the row at row[b]); da0: row a0's offset.
template <bool ONE, bool WHOLE>
__device__ __forceinline__ uint16_t *skewDstRow(const TileParams &p, uint16_t *tile_dst, int64_t da0, uint32_t a0,
                                                int c) {
    int64_t da, unused;
    if (ONE && WHOLE) {
        da = da0 + (int64_t)c * p.a.dims[0].dst_stride;
    } else {
        groupOffset<ONE>(p.a, a0 + c, da, unused);
    }
    return tile_dst + da;
}

// Units b, b + 1 of a dst row: one word where both lie in the row (always in
// whole tiles), else 2-byte stores of those that do (row ends). slot: the
// word store's; slot + 100 and slot + 200 the unit stores'.
template <bool WHOLE>
__device__ __forceinline__ void storeSkewPair(const TileParams &p, uint16_t *row, int64_t b, uint16_t u0, uint16_t u1,
                                              int slot) {
    if (WHOLE || (b >= 0 && b + 1 < (int64_t)p.len_b)) {
        storeGlobal(reinterpret_cast<uint32_t *>(row + b), (uint32_t)u0 | ((uint32_t)u1 << 16), slot);
    } else {
        if (b >= 0 && b < (int64_t)p.len_b) {
            storeGlobal(row + b, u0, slot + 100);
        }
        if (b + 1 >= 0 && b + 1 < (int64_t)p.len_b) {
            storeGlobal(row + b + 1, u1, slot + 200);
        }
    }
}

// The dst side of a skewed word tile of single dims (odd_word_tile.cuh,
// skew_word_tile.cuh): dst row a0 + c lies c * s units after row a0 (s: group
// a's dst stride), so the rows y + 8 j of a thread have only two sector
// offsets, e0 for even j and e1 for odd j (16 strides keep a row's offset in
// its sector: 32 s bytes). Their tile reads then differ by immediate offsets
// (column y + 8 j) and their dst words by (j / 2) x 16 strides, where the
// general loop recomputes each row's address, offset and tile rows (ncu, H100,
// 4097² F16: 16.4M warp instructions, issue 73% busy; notes/rearrange.md,
// "Session 14"). units(e): the units added to the two tile rows a dst word
// reads for a row of offset e (the skewed word tiles' src parity), as int2.
// WHOLE: every dst row of the tile and every word lie in the tensor; else rows
// c >= cols are skipped and words at a row's ends are cut (storeSkewPair).
// INFINI_REARRANGE_WHOLE_ROWS=0: the general loop there too, and whole odd word
// tiles load their rows with the per-row check (the A/B of session 14).
#ifndef INFINI_REARRANGE_WHOLE_ROWS
#define INFINI_REARRANGE_WHOLE_ROWS 1
#endif
// Edge tiles along b of single dims, whole along a (odd and skewed word
// tiles), load as whole tiles do (rows by constant steps, checked against b's
// range) instead of row by row with per-lane checks. 0: the general path
// there (A/B, session 14).
#ifndef INFINI_REARRANGE_EDGE_LOADS
#define INFINI_REARRANGE_EDGE_LOADS INFINI_REARRANGE_WHOLE_ROWS
#endif
template <class S, bool WHOLE, class Units>
__device__ __forceinline__ void storeSkewRows(const TileParams &p, const uint16_t (&tile)[S::kRows][S::kRowUnits],
                                              uint16_t *row_a0, uint32_t b0, int cols, Units units) {
    const int x = threadIdx.x, y = threadIdx.y;
    const int64_t s = p.a.dims[0].dst_stride;
    uint16_t *const row[2] = {row_a0 + y * s, row_a0 + (y + kTileThreadsY) * s}; // dst rows a0 + y, a0 + y + 8
    const uint16_t *lo[2], *hi[2];
    int64_t b[2]; // unit b of lane x's first word in dst rows a0 + y (+ 8)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int e = (int)(((uintptr_t)row[h] >> 1) & (S::kSector - 1));
        const int2 u = units(e);
        // Unit b of segment k comes from tile rows r = 16 - e + 64 k + 2x and r + 1.
        lo[h] = &tile[S::physRow(S::kSector - e) + x][y + u.x];
        hi[h] = &tile[S::physRow(S::kSector + 1 - e) + x][y + u.y];
        b[h] = (int64_t)b0 - e + 2 * x;
    }
    const int64_t step = 2 * kTileThreadsY * s; // units from dst row c to c + 16
#pragma unroll
    for (int j = 0; j < S::kStoreRows; ++j) {
        const int c = y + kTileThreadsY * j; // dst row a0 + c
        if (WHOLE ? S::kEdge % kTileThreadsY != 0 && j == S::kStoreRows - 1 && c >= S::kEdge : c >= cols) {
            continue; // (a whole tile of 63 rows: warp 7 has 7)
        }
        const int h = j & 1;
        uint16_t *const dst_row = row[h] + (j >> 1) * step;
#pragma unroll
        for (int k = 0; k < S::kSpan / kTileEdge<2>; ++k) {
            constexpr int kSegment = kTileEdge<2> / 2 * S::kRowUnits; // units between segments' physical rows
            const int i = kTileThreadsY * j + k * kSegment;
            storeSkewPair<WHOLE>(p, dst_row, b[h] + kTileEdge<2> * k, lo[h][i], hi[h][i],
                                 400 + S::kSpan / kTileEdge<2> * j + k);
        }
    }
}

// Where a skewed tile starts (skew_tile, skew_word_tile, odd_word_tile): its
// columns along a, the b of tile row 0, row a0's dst offset and the tile
// rows [lo, hi) whose dst segments it writes. ROWS_ONE: skewRowsNeeded's
// single-dim form for group a (the unit tile keeps the general one).
struct SkewStart {
    int cols;
    int64_t first, da0;
    int lo, hi;
};
template <class S, bool ONE, bool WHOLE, bool ROWS_ONE = ONE>
__device__ __forceinline__ SkewStart skewStart(const TileParams &p, const uint16_t *tile_dst, uint32_t a0, uint32_t b0) {
    SkewStart s;
    s.cols = WHOLE ? S::kEdge : (int)min((uint32_t)S::kEdge, p.len_a - a0);
    s.first = (int64_t)b0 - S::kSector;
    int64_t unused;
    groupOffset<ONE>(p.a, a0, s.da0, unused);
    skewRowsNeeded<S::kRows, ROWS_ONE>(p, tile_dst + s.da0, &s.lo, &s.hi);
    return s;
}

// The word tiles' loads for single dims and a whole tile (odd_word_tile.cuh,
// skew_word_tile.cuh): this thread's N words of its src rows, `row` (row
// first + y) and every 8th after it, which lie 8 src strides apart (one
// parity, constant steps), 0 for rows outside [lo, hi). Returns the rows'
// parity (1: each row's unit 0 is the high half of its first word). ALL: the
// caller knows [lo, hi) holds every row (no per-row predicate). EDGE_B: tile
// row r is src row `first` + r, and rows outside [0, len_b) are 0 too (a tile
// at either end along b, whole along a).
template <int N, bool ALL = false, bool EDGE_B = false>
__device__ __forceinline__ int loadRowWords(const uint16_t *row, int64_t stride, int lo, int hi, uint32_t (&v)[N],
                                            int64_t first = 0, int64_t len_b = 0) {
    const int x = threadIdx.x, y = threadIdx.y;
    const int odd = (int)(((uintptr_t)row >> 1) & 1);
    const uint32_t *words = reinterpret_cast<const uint32_t *>(row - odd) + x;
    const int64_t step = kTileThreadsY / 2 * stride; // words between a thread's rows
#pragma unroll
    for (int j = 0; j < N; ++j, words += step) {
        const int r = y + kTileThreadsY * j;
        const bool in = ALL || (r >= lo && r < hi && (!EDGE_B || (first + r >= 0 && first + r < len_b)));
        v[j] = in ? loadRun(words, j) : 0u;
    }
    return odd;
}

// ONE: groups a and b are single dims (rows reached by constant steps).
// WHOLE: the tile, its 80 src rows and every dst segment lie inside the
// tensor (no checks).
template <bool ONE, bool WHOLE>
__device__ __forceinline__ void moveSkewTile(const TileParams &p,
                                             uint16_t (&tile)[SkewTile::kRows][SkewTile::kRowUnits],
                                             uint16_t *tile_dst, const uint16_t *tile_src, uint32_t a0, uint32_t b0) {
    using S = SkewTile;
    const int x = threadIdx.x, y = threadIdx.y;
    const SkewStart at = skewStart<S, ONE, WHOLE, false>(p, tile_dst, a0, b0);
    const int cols = at.cols, lo = at.lo, hi = at.hi;
    const int64_t first = at.first, da0 = at.da0;
    int64_t unused;
    uint16_t v[S::kLoadRows][2];
    // Every load is issued before the first shared-memory store. Tile row r is
    // warp-uniform, so the row checks do not diverge.
#pragma unroll
    for (int j = 0; j < S::kLoadRows; ++j) {
        const int r = y + kTileThreadsY * j;
        const int64_t b = first + r;
        const bool row_in = r >= lo && r < hi && (WHOLE || (b >= 0 && b < (int64_t)p.len_b));
        int64_t sb;
        if (ONE && WHOLE) {
            sb = b * p.b.dims[0].src_stride;
        } else {
            groupOffset<ONE>(p.b, row_in ? (uint32_t)b : 0u, unused, sb);
        }
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int c = x + kTileThreadsX * i;
            v[j][i] = row_in && (WHOLE || c < cols) ? loadRun(tile_src + sb + c, 2 * j + i) : (uint16_t)0;
        }
    }
#pragma unroll
    for (int j = 0; j < S::kLoadRows; ++j) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            tile[S::physRow(y + kTileThreadsY * j)][x + kTileThreadsX * i] = v[j][i];
        }
    }
    __syncthreads();
    tileLoaded();
#pragma unroll
    for (int j = 0; j < S::kStoreRows; ++j) {
        const int c = y + kTileThreadsY * j; // dst row a0 + c
        if (!WHOLE && c >= cols) {
            continue;
        }
        // Session 5's code, kept as it was (identical SASS to main for the A/B);
        // skewDstRow and storeSkewPair do the same for skewed word tiles.
        int64_t da;
        if (ONE && WHOLE) {
            da = da0 + (int64_t)c * p.a.dims[0].dst_stride;
        } else {
            groupOffset<ONE>(p.a, a0 + c, da, unused);
        }
        uint16_t *row = tile_dst + da; // unit b of this dst row at row[b]
        const int e = (int)(((uintptr_t)row >> 1) & (S::kSector - 1));
        const int r = S::kSector - e + 2 * x; // tile row of unit b
        const int64_t b = (int64_t)b0 - e + 2 * x;
        const uint16_t u0 = tile[S::physRow(r)][c], u1 = tile[S::physRow(r + 1)][c];
        if (WHOLE || (b >= 0 && b + 1 < (int64_t)p.len_b)) {
            storeGlobal(reinterpret_cast<uint32_t *>(row + b), (uint32_t)u0 | ((uint32_t)u1 << 16), 100 + j);
        } else {
            if (b >= 0 && b < (int64_t)p.len_b) {
                storeGlobal(row + b, u0, 200 + j);
            }
            if (b + 1 >= 0 && b + 1 < (int64_t)p.len_b) {
                storeGlobal(row + b + 1, u1, 300 + j);
            }
        }
    }
}

// p: the plan's tile parameters with tiles_b = skewTilesB(len_b, 64): the last
// segment of a row ends at 64 tiles_b - e_a >= len_b.
template <bool ONE, int MIN_BLOCKS = SkewTile::kMinBlocks>
__global__ void __launch_bounds__(kTileThreadsX *kTileThreadsY, MIN_BLOCKS)
    skewTileKernel(const __grid_constant__ TileParams p, uint16_t *__restrict__ dst, const uint16_t *__restrict__ src) {
    tileKernelEntry(kTileTriggerAtEntry);
    __shared__ uint16_t tile[SkewTile::kRows][SkewTile::kRowUnits];
    const TileOrigin o = tileOrigin(p, blockIdx.x);
    const uint32_t a0 = o.ta * SkewTile::kEdge, b0 = o.tb * SkewTile::kEdge;
    uint16_t *tile_dst = dst + o.od;            // + dst offset of a; groups b run with unit stride in dst
    const uint16_t *tile_src = src + o.os + a0; // + src offset of b; groups a run with unit stride in src
    if (a0 + SkewTile::kEdge <= p.len_a && b0 >= (uint32_t)SkewTile::kSector && b0 + SkewTile::kEdge <= p.len_b) {
        moveSkewTile<ONE, true>(p, tile, tile_dst, tile_src, a0, b0);
    } else {
        moveSkewTile<ONE, false>(p, tile, tile_dst, tile_src, a0, b0);
    }
}

} // namespace infini::rearrange::nvidia
