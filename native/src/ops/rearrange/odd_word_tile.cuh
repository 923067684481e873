#pragma once
// Odd word tiles: skewed 2-byte transposes (skew_tile.cuh's dst side) whose src
// rows may start on any 2-byte unit (odd pitches, a src pointer off a word),
// with every global load an aligned 4-byte word. Included by kernels_u2.cu
// when INFINI_REARRANGE_ODD_WORDS is on (nvidia.h).
#include "skew_tile.cuh"

namespace infini::rearrange::nvidia {

// Why (notes/rearrange.md, sessions 5-8): on 4097^2 F16 half the src rows
// start on an odd unit. Session 5's skewed tiles read them as 2-byte units
// (64 bytes a warp instruction, 3 sectors for 2: 30.0 us); the skewed word
// tiles read the 32 aligned words at or below a row's unit a0 and fetched the
// odd rows' 64th unit with a gathered 2-byte load (34.0 us, against 27.4 on
// the even pitch of 4098^2 with the same instructions and sectors).
//
// Here a tile is 63 units wide along a (one less than the 64 of the other
// tiles): the 32 aligned words at or below unit a0 of any row hold units
// a0 .. a0 + 62, whichever unit of its word the row's a0 is (q = 0: the low
// half, window [a0, a0 + 64); q = 1: the high half, window [a0 - 1, a0 + 63)).
// So every src row is one warp instruction of 32 aligned words (lane x: word
// x), odd or even, and nothing else is loaded. A row with q = 1 is moved
// down by one unit in registers before it goes to shared memory: lane x
// takes the high half of its word and the low half of lane x + 1's (a
// shuffle and a funnel shift; rows are warp-uniform, so the warps of even
// rows skip both). The tile in shared memory is then plain (column c = unit
// a0 + c): no parity at the read-back.
//
// The dst side is the skewed word tiles' (SPAN tiles of 64 along b per
// block, each dst row segment moved back to its 32-byte sector: whole
// sectors, lane x word x); dst rows a0 .. a0 + 62, so warp 7 has 7 rows.
//
// Where a block lets the next launch place its blocks (programmatic
// dependent launch): INFINI_REARRANGE_ODD_TRIGGER 0 at entry (every other tile
// kernel; the library until session 23), 1 once the block's tile is in
// shared memory (the default), 2 at the block's exit. 4097² F16 on the H100,
// µs a call (eager batch 200 / graph; tools/verify_s23i.sh, notes/rearrange.md):
// 0: 26.66-26.70 / 26.11; 1: 26.13 / 26.01-26.04; 2: 26.17-26.19 / 26.03-26.11;
// the end-to-end bench 26.8 / 26.3 / 26.4. CUPTI's records (tools/kernel_gaps.py):
// with 0 the next grid starts ~5 µs early, and eager calls then run ~1 µs
// longer after their predecessor ends than graph replays do; with 2 the
// overlap is ~0.2 µs and both modes agree.
#ifndef INFINI_REARRANGE_ODD_TRIGGER
#define INFINI_REARRANGE_ODD_TRIGGER 1
#endif

template <int SPAN>
struct OddWordTile {
    static constexpr int kWords = kTileThreadsX;             // aligned words loaded per src row
    static constexpr int kEdge = kOddWordEdge;               // 63 units along a: held by any row's 32 words
    static constexpr int kSector = kSkewSector;              // units in 32 bytes
    static constexpr int kSpan = SPAN * kTileEdge<2>;         // dst units of a row per block
    static constexpr int kRows = kSpan + kSector;            // src rows loaded (along b), from b0 - kSector
    static constexpr int kRowUnits = 2 * kWords + 2;         // 33 words: rows start on distinct banks
    static constexpr int kLoadRows = kRows / kTileThreadsY;  // src rows per warp
    static constexpr int kStoreRows = (kEdge + kTileThreadsY - 1) / kTileThreadsY; // dst rows per warp (warp 7: one less)
    // Resident blocks per SM (the harness measures 4..8). sm_90: single dims
    // fit 6 (span 1: 40 registers, span 2: 40, no spill; span 1 at 6 is the
    // fastest on 4097^2); grouped layouts spill at 6 with span 2, so 5 (48).
    static constexpr int kMinBlocks(bool one) { return one ? 6 : 5; }
    static_assert(kRows % kTileThreadsY == 0, "every warp loads the same number of rows");
    static_assert(kEdge == 2 * kWords - 1, "a row's 32 aligned words hold its 63 units from a0 whatever its parity");

    // Tile rows (b) stored even rows first, then odd rows (skew_tile.cuh).
    __device__ static constexpr int physRow(int r) { return (r >> 1) + (r & 1) * (kRows / 2); }
};

// Word w (lane x's) of a row whose unit a0 is the high half of its word
// (q = 1), moved down one unit: units 2x, 2x + 1 of the tile. Every lane of
// the warp calls it (q is warp-uniform); lane 31's high half is past the tile.
__device__ __forceinline__ uint32_t shiftRowWord(uint32_t w) {
    const uint32_t next = __shfl_down_sync(0xffffffffu, w, 1);
    return __funnelshift_r(w, next, 16);
}

// ONE: groups a and b single dims. WHOLE: every src unit a0 - 1 .. a0 + 63 of
// every loaded row and every dst segment lie inside the tensor (no checks).
template <bool ONE, bool WHOLE, int SPAN>
__device__ __forceinline__ void moveOddWordTile(const TileParams &p,
                                                uint16_t (&tile)[OddWordTile<SPAN>::kRows][OddWordTile<SPAN>::kRowUnits],
                                                uint16_t *tile_dst, const uint16_t *tile_src, uint32_t a0,
                                                uint32_t b0) {
    using S = OddWordTile<SPAN>;
    const int x = threadIdx.x, y = threadIdx.y;
    const SkewStart at = skewStart<S, ONE, WHOLE>(p, tile_dst, a0, b0);
    const int cols = at.cols, lo = at.lo, hi = at.hi;
    const int64_t first = at.first, da0 = at.da0;
    int64_t unused;
    uint32_t v[S::kLoadRows];
    // Every load is issued before the first shuffle and shared-memory store;
    // rows are warp-uniform, so neither the row checks nor q diverge. Single
    // dims and a tile whole along a (the edge tiles along b too, with rows
    // checked against b's range): a thread's rows by constant steps, one q.
    bool loaded = false;
    if constexpr (ONE) {
        if (WHOLE || (INFINI_REARRANGE_EDGE_LOADS && a0 > 0 && a0 + S::kEdge + 1 <= p.len_a)) {
            const int64_t stride = p.b.dims[0].src_stride;
            const uint16_t *const row = tile_src + (first + y) * stride;
            int q;
            if (!WHOLE) {
                q = loadRowWords<S::kLoadRows, false, true>(row, stride, lo, hi, v, first, p.len_b);
            } else if (INFINI_REARRANGE_WHOLE_ROWS && lo == 0 && hi == S::kRows) {
                // Every row where dst rows have varied sector offsets (the general case).
                q = loadRowWords<S::kLoadRows, true>(row, stride, lo, hi, v);
            } else {
                q = loadRowWords(row, stride, lo, hi, v);
            }
            if (q) {
#pragma unroll
                for (int j = 0; j < S::kLoadRows; ++j) {
                    v[j] = shiftRowWord(v[j]);
                }
            }
            loaded = true;
        }
    }
    if (!(ONE && WHOLE) && !loaded) {
        // bit j: row j's unit a0 is the high half of its word. Single dims: a
        // thread's rows share one q (also for rows out of the tensor: zeros).
        uint32_t shift_rows = 0;
        if (ONE) {
            const int64_t sb = (first + y) * p.b.dims[0].src_stride;
            shift_rows = ((((uintptr_t)tile_src >> 1) + (uint64_t)sb) & 1) ? ~0u : 0u;
        }
#pragma unroll
        for (int j = 0; j < S::kLoadRows; ++j) {
            const int r = y + kTileThreadsY * j;
            const int64_t b = first + r;
            const bool in = r >= lo && r < hi && (WHOLE || (b >= 0 && b < (int64_t)p.len_b));
            int64_t sb;
            groupOffset<ONE>(p.b, in ? (uint32_t)b : 0u, unused, sb);
            const uint16_t *row = tile_src + sb;
            int q = (int)(((uintptr_t)row >> 1) & 1);
            if (ONE) {
                q = (int)(shift_rows & 1);
            } else {
                shift_rows |= (uint32_t)q << j;
            }
            const int64_t u = (int64_t)a0 + 2 * x - q; // row units u, u + 1 (of the whole src row) in word x
            v[j] = 0;
            if (in) {
                if (WHOLE || (u >= 0 && u + 1 < (int64_t)p.len_a)) {
                    v[j] = loadRun(reinterpret_cast<const uint32_t *>(row - q) + x, j);
                } else if (u + 1 == 0) { // the row's first unit: the word's high half
                    v[j] = (uint32_t)loadRun(row - q + 2 * x + 1, 100 + j) << 16;
                } else if (u + 1 == (int64_t)p.len_a) { // the row's last unit: the low half
                    v[j] = loadRun(row - q + 2 * x, 200 + j);
                }
            }
        }
#pragma unroll
        for (int j = 0; j < S::kLoadRows; ++j) {
            if ((shift_rows >> j) & 1) {
                v[j] = shiftRowWord(v[j]);
            }
        }
    }
    constexpr int kStep = kTileThreadsY / 2 * S::kRowUnits; // units between a thread's rows (same parity)
    uint16_t *const my_rows = &tile[S::physRow(y)][0];
#pragma unroll
    for (int j = 0; j < S::kLoadRows; ++j) {
        reinterpret_cast<uint32_t *>(my_rows + j * kStep)[x] = v[j];
    }
    __syncthreads();
    tileLoaded(INFINI_REARRANGE_ODD_TRIGGER == 1); // (oddWordTileKernel)
    if constexpr (ONE && INFINI_REARRANGE_WHOLE_ROWS) {
        storeSkewRows<S, WHOLE>(p, tile, tile_dst + da0, b0, cols, [](int) { return int2{0, 0}; });
    } else {
#pragma unroll
        for (int j = 0; j < S::kStoreRows; ++j) {
            const int c = y + kTileThreadsY * j; // dst row a0 + c
            if ((!WHOLE || j == S::kStoreRows - 1) && c >= cols) { // WHOLE: only c = 63 (warp 7's last row)
                continue;
            }
            uint16_t *row = skewDstRow<ONE, WHOLE>(p, tile_dst, da0, a0, c);
            const int e = (int)(((uintptr_t)row >> 1) & (S::kSector - 1));
            // Unit b of segment k comes from tile rows r = 16 - e + 64 k + 2x and
            // r + 1: physical rows physRow(16 - e) + 32 k + x and physRow(17 - e) + 32 k + x.
            const uint16_t *lo_row = &tile[S::physRow(S::kSector - e) + x][c];
            const uint16_t *hi_row = &tile[S::physRow(S::kSector + 1 - e) + x][c];
#pragma unroll
            for (int k = 0; k < SPAN; ++k) {
                constexpr int kSegment = kTileEdge<2> / 2 * S::kRowUnits; // units between segments' physical rows
                const int64_t b = (int64_t)b0 - e + kTileEdge<2> * k + 2 * x;
                storeSkewPair<WHOLE>(p, row, b, lo_row[k * kSegment], hi_row[k * kSegment], 400 + SPAN * j + k);
            }
        }
    }
}

// p: the plan's tile parameters with tiles_a = oddWordTilesA(len_a) (63-unit
// tiles along a) and tiles_b = skewTilesB(len_b, SPAN * 64).
template <bool ONE, int SPAN = kOddWordSpan, int MIN_BLOCKS = OddWordTile<SPAN>::kMinBlocks(ONE)>
__global__ void __launch_bounds__(kTileThreadsX *kTileThreadsY, MIN_BLOCKS)
    oddWordTileKernel(const __grid_constant__ TileParams p, uint16_t *__restrict__ dst,
                      const uint16_t *__restrict__ src) {
    tileKernelEntry(INFINI_REARRANGE_ODD_TRIGGER == 0);
    using S = OddWordTile<SPAN>;
    __shared__ __align__(16) uint16_t tile[S::kRows][S::kRowUnits];
    const TileOrigin o = tileOrigin(p, blockIdx.x);
    const uint32_t a0 = o.ta * S::kEdge, b0 = o.tb * S::kSpan;
    uint16_t *tile_dst = dst + o.od;            // + dst offset of a; groups b run with unit stride in dst
    const uint16_t *tile_src = src + o.os + a0; // + src offset of b; groups a run with unit stride in src
    if (a0 > 0 && a0 + S::kEdge + 1 <= p.len_a && b0 >= (uint32_t)S::kSector && b0 + S::kSpan <= p.len_b) {
        moveOddWordTile<ONE, true, SPAN>(p, tile, tile_dst, tile_src, a0, b0);
    } else {
        moveOddWordTile<ONE, false, SPAN>(p, tile, tile_dst, tile_src, a0, b0);
    }
}

} // namespace infini::rearrange::nvidia
