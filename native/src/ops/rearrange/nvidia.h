#pragma once
// Rearrange, NVIDIA backend: kernel parameters (passed by value) and the
// launchers, one translation unit per copy-unit size.
#include "../../common/fast_div.h"
#include <cstddef>
#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

namespace infini::rearrange::nvidia {

// Dims a kernel parameter carries by value; deeper layouts keep their dims in
// a device buffer made at Create.
constexpr int kMaxDims = 12;

struct Dim {
    uint64_t size;
    FastDivU32 div; // by size, when size < 2^32
    int64_t dst_stride, src_stride; // in copy units
};

// One thread per copy unit: its linear index is decomposed over the dims
// (outermost first, innermost last); the innermost dim is dst's fastest.
// 1 (the default since session 40) gives the generic kernel's
// unrolled forms (1..INFINI_REARRANGE_GENERIC_UNROLLED_DIMS dims) lean variants where the copy fits them:
// 32-bit offsets where both tensors' reach and the unit count fit 31 bits, and no dst offsets at all
// where dst is laid out in the linear order (its offset is the index). Session 39's ncu: the generic
// kernel's 12-dim loop on (42,8,9,70,105) int8 ran 116 µs at 46 registers (5 blocks an SM, 59% of warps
// active) and 84.0M warp instructions against PyTorch's 65.6 µs at 18 registers (91%) and 54.5M; the
// 5-dim form took it to 87 µs. Its 8 units a thread in flight keep 8 64-bit dst offsets in registers.
// Session 40, H200 (tools/verify_s40a.sh), session 39's 71 Rearrange cases behind PyTorch, eager µs:
// geomean time 0.806, behind 59 -> 23, no case slower by over 1%; (78,48,44,347) int8 132.2 -> 82.7
// (PyTorch 126.9), (53,10,13,95,58) int8 145.6 -> 92.1 (108.4). 0: the wide offsets only (measuring).
#ifndef INFINI_REARRANGE_GENERIC_LEAN
#define INFINI_REARRANGE_GENERIC_LEAN 1
#endif

struct GenericParams {
    uint64_t total; // copy units
    int ndim;
    const Dim *deep; // device copy of the dims when ndim > kMaxDims, else null
    Dim dims[kMaxDims];
#if INFINI_REARRANGE_GENERIC_LEAN
    int lean; // host side: 0 the kernels above; 1 32-bit offsets; 2 32-bit src offsets, dst's the index
#endif
};

// Transpose through shared memory. Group a: dims contiguous in src, the
// innermost of them src's fastest; group b: dims contiguous in dst, ending
// with dst's fastest. A block moves a T x T tile over (a, b): it reads along a
// and writes along b, so both sides are coalesced; the remaining (outer) dims
// are decomposed from the block index. Indices within a group are decomposed
// over its dims (one multiply when the group is a single dim).
constexpr int kMaxGroup = 4;
constexpr int kTileThreadsX = 32, kTileThreadsY = 8;

struct Group {
    int ndim;
    Dim dims[kMaxGroup]; // outermost first
};

struct TileParams {
    uint32_t len_a, len_b, tiles_a, tiles_b;
    FastDivU32 div_tiles_a, div_tiles_b;
    Group a, b;
    int outer_ndim;
    const Dim *deep; // device copy of the outer dims when outer_ndim > kMaxDims
    Dim outer[kMaxDims];
};

constexpr int kGenericBlock = 256;
// Units a thread of the generic kernel copies (a block's chunk is that many
// times kGenericBlock; the thread's units are kGenericBlock apart, so each
// warp access stays coalesced in dst): INFINI_REARRANGE_GENERIC_BYTES (16) in
// flight a thread, up to 8 units. With one unit a thread, 2-byte units kept
// 4 KB an SM in flight: session 35's sweep had 4-5-D permutations on it at
// 1.3-1.6x torch's time (H200, session 36, one unit -> up to 8: (128,183,10,51)
// F16 39.0 -> 30.8 µs, torch 27.5). A measuring knob for bytes: session 36's
// fresh sweep put int8 permutations on it at up to 1.8x torch's time.
#ifndef INFINI_REARRANGE_GENERIC_BYTES
#define INFINI_REARRANGE_GENERIC_BYTES 16
#endif
#ifndef INFINI_REARRANGE_GENERIC_MAX_UNITS
#define INFINI_REARRANGE_GENERIC_MAX_UNITS 8
#endif
constexpr int genericUnitsPerThread(size_t unit) {
    const size_t n = INFINI_REARRANGE_GENERIC_BYTES / unit;
    return n < 1 ? 1 : n > INFINI_REARRANGE_GENERIC_MAX_UNITS ? INFINI_REARRANGE_GENERIC_MAX_UNITS : (int)n;
}

// The most dims the generic kernel has a specialised (unrolled) form for (4 to 6). Past them it runs the
// kMaxDims loop, whose SASS is 3.4x the 4-dim form's (1968 instructions against 584 for 1-byte units).
// Session 39, call 1 (tools/verify_s39a.sh), session 38's 162 Rearrange cases behind PyTorch, 4 -> 6 (with
// the box kernel's 16-byte loads; boxes were removed in session 46): geomean time 0.930, 51 faster by more
// than 3%, 2 slower (small calls); (17,101,66,3,43) F32 79.4 -> 58.3 µs, (83,14,25,7,98) F32 106.3 -> 78.6;
// behind 144 -> 129.
#ifndef INFINI_REARRANGE_GENERIC_UNROLLED_DIMS
#define INFINI_REARRANGE_GENERIC_UNROLLED_DIMS 6
#endif
static_assert(INFINI_REARRANGE_GENERIC_UNROLLED_DIMS >= 4 && INFINI_REARRANGE_GENERIC_UNROLLED_DIMS <= 6,
              "the generic kernel's unrolled forms: 4 to 6 dims");
// ndim_variant: 1..INFINI_REARRANGE_GENERIC_UNROLLED_DIMS = specialised for that many dims with 32-bit
// indices, 0 = up to kMaxDims dims with 32-bit indices, -1 = any ndim (deep too) with 64-bit indices.
template <size_t Unit>
cudaError_t launchGeneric(const GenericParams &p, int ndim_variant, unsigned grid, void *dst, const void *src,
                          cudaStream_t stream);
// The tile edge of a copy unit: 64 up to 8-byte units (128 bytes or more per
// row for all but 1-byte units); 32 for 16-byte units (a 64 x 64 tile of
// them is beyond static shared memory).
constexpr int tileEdge(size_t unit) { return unit <= 8 ? 64 : 32; }
template <size_t Unit>
constexpr int kTileEdge = tileEdge(Unit);
// 1: 2-byte transposes whose 64-unit tiles the fill gates refuse take 32-unit unit tiles
// (tileKernel<U, kSmallTileEdge>) where those pass the same gates, instead of the generic kernel. The
// seed-46 sweep's largest 2-byte generic cases run at 0.3-0.8 TB/s, level with PyTorch: every
// dst-consecutive unit reads its own src sector. Their a of 33-128 units fills 64-unit tiles 52-75%
// ((74,33,54,10,34) F16 src order (2,1,4,3,0): a 74, b 340, 51%; at 32 units 75%). 0: off.
// Session 47, call 2 (tools/verify_s47b.sh), 103 cases whose plan it changed, eager µs, generic -> small
// tiles: F16 geomean 1.07, int8 1.59. They won where the generic kernel reads a sector a unit, its src
// neighbours (src's unit-stride dim) lying a block's chunk or more apart in dst: (74,33,54,10,34) F16 628
// -> 251 (PyTorch 690), neighbours 605880 units apart; and lost where those neighbours lie in one chunk
// and the generic kernel reuses their sectors at 1.5-2.3 TB/s: (1041,525,81) F16 order (0,2,1), 81 apart,
// 77 -> 143. Hence 2-byte units only, neighbours at least kSmallTileMinApart units apart: on the 32 such
// F16 cases geomean 0.78, behind PyTorch 19 -> 9, 3626 -> 2406 µs in all (fitted there). Confirmed on 71
// fresh cases the rule moves (call 4, tools/verify_s47d.sh, `shaped_cases.py reperm 4747`): geomean
// 0.814, 50 faster by over 5%, 16 slower, 7536 -> 5664 µs in all, behind PyTorch 34 -> 16; (96,28,23,277)
// F16 src order (2,1,3,0) 125.6 -> 53.5 (PyTorch 125.5), (25,65,148,157) 381.2 -> 190.5 (448.8); losses to
// 1.5x ((21,34,449,17) 22.7 -> 33.9). 1 (since then): on.
#ifndef INFINI_REARRANGE_SMALL_TILES
#define INFINI_REARRANGE_SMALL_TILES 1
#endif
constexpr int kSmallTileEdge = 32;
// The small tiles' edge along b (dst's run), 32 along a: 64 (32 x 64 units, 8 a thread) where those pass
// the fill gates, else 32 x 32; 32: 32 x 32 only. The small tiles ran at ~0.7 TB/s with a copy's DRAM
// bytes, bound by their instructions (session 47's ncu on (74,33,54,10,34) F16: 2.4x the generic
// kernel's): a thread's 4 units paid 10 group decompositions and a 1024-unit tile its origin; 32 x 64
// tiles give a thread 8 units for 15 and the origin 2048. Session 48, call 1 (tools/verify_s48a.sh, 32 x
// 64 only), the 81 of session 47's 103 small-tile cases that take them, eager µs against the mean of two
// 32 x 32 runs: geomean 0.871, behind PyTorch 20 -> 15; (23,191,14,14,27) F16 src order (2,1,3,4,0) 91.5
// -> 65.7 (PyTorch 181.8), (5,60,27,79,27) 59.8 -> 44.1 (61.7); losses to 1.14x ((23,215,21,32) order
// (1,3,2,0) 15.9 -> 18.2). The other 22 keep 32 x 32 tiles (as measured in session 47).
#ifndef INFINI_REARRANGE_SMALL_TILE_B
#define INFINI_REARRANGE_SMALL_TILE_B 64
#endif
constexpr int kSmallTileEdgeB = INFINI_REARRANGE_SMALL_TILE_B;
static_assert(kSmallTileEdgeB == 32 || kSmallTileEdgeB == 64, "small tiles of 32 x 32 or 32 x 64 units");
constexpr uint64_t kSmallTileMinApart = (uint64_t)kGenericBlock * genericUnitsPerThread(2); // a block's chunk

// The tile kernels (every launch*Tile below) start with tileKernelEntry():
// `pdl` launches them with programmatic dependent launch (the plan's `pdl`:
// tileKernelsHonourPdl at Create, and the policy kRearrangePdl).
template <size_t Unit>
bool tileKernelsHonourPdl();
template <size_t Unit>
cudaError_t launchTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream,
                       bool pdl, int small_b = 0); // small_b: kSmallTileEdge x small_b tiles (2-byte units); 0: none

// Word tiles (word_tile.cuh): the 64 x 64 tiles of 2-byte units moved as
// 4-byte words, where every row of the tile starts on a word (the plan and
// the pointers allow it).
cudaError_t launchWordTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream,
                           bool pdl);
// Wide word tiles: the same kernel moving 2 x 2 of those tiles a block (128 x
// 128 units: src and dst rows of 256 bytes; 48 registers, 5 blocks an SM),
// where that grid still gives every SM kWideWordMinBlocksPerSm blocks (session
// 12, H100, 4096² F16 graph µs: 25.55 -> 25.18 at 4 blocks an SM, and with
// PDL 24.92-24.97 at 4 -> 24.84-24.86 at 5; notes/rearrange.md). p.tiles_a/b
// count kWideWordEdge-unit tiles.
constexpr int kWideWordParts = 2, kWideWordEdge = kWideWordParts * kTileEdge<2>;
constexpr int kWideWordBlocksPerSm = 5, kWideWordMinBlocksPerSm = 4;
cudaError_t launchWideWordTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream,
                               bool pdl);
// Skewed tiles (skew_tile.cuh, skew_word_tile.cuh): 2-byte transposes whose
// dst rows are not all sector-aligned. A dst row's segments move back by up to
// 15 units (to a 32-byte sector), so p.tiles_b = skewTilesB(len_b, span) (one
// more span at most). Two kernels, chosen per call (H100, notes/rearrange.md
// sessions 7 and 8): where every src row starts on a 4-byte word (even src strides
// outside group a, word-aligned src), the skewed word tiles (word loads, spans
// of kSkewWordSpan tiles: 4096^2 dst+1 26.9 us, 4098^2 27.4, against 28.5 and
// 29.7); otherwise session 5's skewed tiles (2-byte loads, one tile per block:
// 4097^2 30.0 us, the word tiles' gathered odd rows 34.0). Span 1 since session
// 14: with the whole-row stores (storeWholeSkewRows) one tile a block at 6 an SM
// beats two at 5 (H100, graph µs: 4098^2 26.3 -> 25.6, 4096^2 dst+1 26.3 -> 25.75).
// INFINI_REARRANGE_SKEW_WORDS=0 never takes the word tiles (for A/B).
#ifndef INFINI_REARRANGE_SKEW_WORDS
#define INFINI_REARRANGE_SKEW_WORDS 1
#endif
#ifndef INFINI_REARRANGE_SKEW_SPAN
#define INFINI_REARRANGE_SKEW_SPAN 1
#endif
constexpr int kSkewSector = 16; // 2-byte units in a 32-byte sector
constexpr int kSkewWordSpan = INFINI_REARRANGE_SKEW_SPAN; // tiles along b per block of skewed word tiles
// Dst units of a row per block: session 5's skewed tiles, the skewed word tiles.
constexpr int kSkewSpanUnits = kTileEdge<2>;
constexpr int kSkewWordSpanUnits = kSkewWordSpan * kTileEdge<2>;
constexpr uint64_t skewTilesB(uint64_t len_b, int span_units) {
    return (len_b + kSkewSector - 1 + span_units - 1) / span_units;
}
// p.tiles_b = skewTilesB(len_b, kSkewSpanUnits).
cudaError_t launchSkewTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream,
                           bool pdl);
// p.tiles_b = skewTilesB(len_b, kSkewWordSpanUnits); every src row on a word.
cudaError_t launchSkewWordTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream,
                               bool pdl);

// Odd word tiles (odd_word_tile.cuh, issue 13): skewed transposes whose src
// rows may start on any unit (4097^2: odd pitch), every src load an aligned
// word; 63-unit tiles along a (32 aligned words hold 63 units from any start),
// spans of kOddWordSpan tiles along b. Taken instead of session 5's skewed
// tiles where the skewed word tiles do not apply. H100, graph µs per launch
// (tools/rearr4_bench.cu, session 9): 4097^2 F16 30.00 -> 27.48 (span 1,
// 6 blocks/SM; span 2: 31.85), 4097^2 dst +1 30.11 -> 27.52, 4098^2 src +1
// 29.83 -> 27.39. -DINFINI_REARRANGE_ODD_WORDS=0 (nvcc and host compiler):
// session 5's skewed tiles there, as before.
#ifndef INFINI_REARRANGE_ODD_WORDS
#define INFINI_REARRANGE_ODD_WORDS 1
#endif
#ifndef INFINI_REARRANGE_ODD_SPAN
#define INFINI_REARRANGE_ODD_SPAN 1
#endif
constexpr int kOddWordEdge = 2 * kTileThreadsX - 1; // units along a per tile
constexpr int kOddWordSpan = INFINI_REARRANGE_ODD_SPAN;
constexpr int kOddWordSpanUnits = kOddWordSpan * kTileEdge<2>;
constexpr uint64_t oddWordTilesA(uint64_t len_a) { return (len_a + kOddWordEdge - 1) / kOddWordEdge; }
#if INFINI_REARRANGE_ODD_WORDS
// p.tiles_a = oddWordTilesA(len_a), p.tiles_b = skewTilesB(len_b, kOddWordSpanUnits).
cudaError_t launchOddWordTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream,
                              bool pdl);
#endif

// Odd tensor-copy tiles (odd_tma_tile.cuh, session 32): plain 2-D transposes
// of 2-byte units (groups a and b single dims with unit strides, no outer
// dims) whose src pitch is odd; the copy engine loads the src side through 8
// maps (one a src row residue mod 8), threads store the skewed dst side. Taken
// before the odd word tiles for kOddTmaMinBytes .. kOddTmaMaxBytes a side
// (H200, rearr4_bench --oddtma: 4.5 MiB a side 29% faster, 8 MiB 14%, 16 MiB
// 4%, 32 MiB 2% slower; H100: 8 MiB 14%, 32 MiB 5% slower).
// -DINFINI_REARRANGE_ODD_TMA=0: never (a measuring knob).
#ifndef INFINI_REARRANGE_ODD_TMA
#define INFINI_REARRANGE_ODD_TMA 1
#endif
#ifndef INFINI_REARRANGE_ODD_TMA_MIN_MB
#define INFINI_REARRANGE_ODD_TMA_MIN_MB 1
#endif
#ifndef INFINI_REARRANGE_ODD_TMA_MAX_MB
#define INFINI_REARRANGE_ODD_TMA_MAX_MB 24
#endif
constexpr int kOddTmaEdge = 64, kOddTmaResidues = 8; // a tile's units along a and b; the src maps
constexpr uint64_t kOddTmaMinBytes = uint64_t(INFINI_REARRANGE_ODD_TMA_MIN_MB) << 20;
constexpr uint64_t kOddTmaMaxBytes = uint64_t(INFINI_REARRANGE_ODD_TMA_MAX_MB) << 20;
struct OddTmaTiling {
    uint32_t len_a = 0, len_b = 0;
    int64_t src_pitch = 0, dst_pitch = 0; // units between src rows (along b), dst rows (along a)
    uint32_t tiles = 0;                   // 64 x 64-unit tiles, a block each; 0: not planned
};
// Whether the odd tensor-copy tiles can run on the current device (their
// sm_90 code, the driver's map encoder).
bool prepareOddTmaTiles();
// Encodes the call's 8 maps and launches; false (nothing launched, *err
// untouched) where the driver refuses a map, so the caller takes another plan.
bool launchOddTmaTile(const OddTmaTiling &t, void *dst, const void *src, cudaStream_t stream, bool pdl,
                      cudaError_t *err);

// Tensor-copy tiles (tma_tile.cuh, session 20): plain 2-D transposes of
// 2-byte units (groups a and b single dims, no outer dims) whose row pitches
// are multiples of 16 bytes, on 16-byte aligned pointers; the copy engine
// moves every byte, a persistent block an SM. H100, graph µs against the
// (wide) word tiles (tools/rearr4_bench.cu --tma): 3072² 13.7 / 14.5, 3000 x
// 3008 13.6 / 14.6, 4096² 24.5 / 24.85, 8192 x 2048 24.2 / 24.7; but 2048²
// 7.05 / 6.96 and 8192² 99.0 / 94.0. So they are planned for
// kTmaTileMinBytes .. kTmaTileMaxBytes a side (the sizes measured to gain).
// -DINFINI_REARRANGE_TMA=0: never.
#ifndef INFINI_REARRANGE_TMA
#define INFINI_REARRANGE_TMA 1
#endif
constexpr uint64_t kTmaTileMinBytes = uint64_t(12) << 20, kTmaTileMaxBytes = uint64_t(32) << 20;
constexpr int kTmaTileEdgeA = 64, kTmaTileEdgeB = 128; // units of a tile along a, along b
constexpr int kTmaBlocksPerSm = 1;                     // persistent blocks (10 + 3 stages of 16 KB each)
struct TmaTiling {
    uint32_t len_a = 0, len_b = 0, tiles_a = 0, tiles_b = 0;
    uint64_t src_pitch = 0, dst_pitch = 0; // units between src rows (along b), dst rows (along a)
    unsigned grid = 0;                     // 0: not planned
};
// Whether the tensor-copy tiles can run on the current device (their sm_90
// code, their shared memory, the driver's map encoder); sets their shared
// memory limit there.
bool prepareTmaTiles();
// The maps: src_map of the src matrix (len_b rows of len_a units, box
// kTmaTileEdgeA x kTmaTileEdgeB), dst_map of dst (len_a rows of len_b units,
// box kTmaTileEdgeB / 2 x kTmaTileEdgeA); both with the 128-byte swizzle.
bool encodeTmaMaps(const TmaTiling &t, void *dst, const void *src, CUtensorMap *dst_map, CUtensorMap *src_map);
cudaError_t launchTmaTile(const TmaTiling &t, const CUtensorMap &dst_map, const CUtensorMap &src_map,
                          cudaStream_t stream, bool pdl);

} // namespace infini::rearrange::nvidia
