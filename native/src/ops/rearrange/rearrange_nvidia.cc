// Rearrange, NVIDIA backend: everything is planned at Create, Calculate only
// picks the plan that the pointers' alignment allows and launches it.
//
// The layout is first expressed in bytes (an extra innermost dim of the
// element size), then for every copy unit of 16, 8, 4, 2 and 1 bytes that
// divides the innermost run common to both tensors and every other stride, a
// plan is made on that unit's layout:
//   - one contiguous run (or a scalar): the generic kernel on one dim up to
//     kKernelCopyMax bytes (a launch costs the host less than
//     cudaMemcpyAsync, which is the call's whole cost there), a single
//     cudaMemcpyAsync D2D beyond;
//   - a transpose (src's fastest dim is not dst's): shared-memory tiles, both
//     sides coalesced; 2-byte units move as 4-byte words where every row of
//     every tile starts on a word (word_tile.cuh), else, where a and b run
//     forwards with unit stride, in skewed tiles whose dst row segments start
//     on 32-byte sectors (skew_word_tile.cuh where every src row starts on
//     a word, skew_tile.cuh otherwise, or odd_word_tile.cuh there with
//     INFINI_REARRANGE_ODD_WORDS; nvidia.h says why);
//   - otherwise one thread per unit, its index decomposed over the dims.
#include "common/cuda/check.cuh"
#include "common/cuda/pdl_policy.h"
#include "nvidia.h"
#include "rearrange.h"
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace infini::rearrange::nvidia {
namespace {

constexpr size_t kUnits[] = {16, 8, 4, 2, 1};
constexpr uint64_t kMinTileEdge = 8; // both transposed dims at least this long
// > 0: a transpose whose tiles would hold less than this percentage of data (a transposed group of a
// few units in a 64-unit tile) goes to the generic kernel instead (coalesced dst writes, reads within
// L2). Session 35's sweep: such tiles ran 3-17% full and up to 12.7x PyTorch's time. H200, session 36,
// eager µs, 0 -> 25 (PyTorch): (13,111,83,15,8) F32 566.6 -> 57.0 (44.1); (128,183,10,51) F16 270.9 ->
// 39.0 (27.3); (89,96,48,9) int8 55.5 -> 15.2 (12.1); Rearrange's bench unchanged. 25 -> 50 over the
// sweep's 155 cases behind PyTorch: 20 faster by 5% or more, 4 slower (at most 9%), e.g. (358,17,49,24)
// F16 (27% full) 104.4 -> 25.1 (21.9), (43,87,67,28) F16 61.4 -> 24.4 (22.1). 0: off.
#ifndef INFINI_REARRANGE_MIN_TILE_FILL
#define INFINI_REARRANGE_MIN_TILE_FILL 50
#endif
// The same gate for 2-byte units (their word and skewed word tiles). Session 40 (H200, the generic kernel
// in its lean forms; tools/verify_s40c.sh), eager µs, 50 -> 65 (PyTorch): (6,39,89,24,38) F16 order
// (4,2,1,0,3), tiles 59% full on skewWordTileKernel, 131.2 -> 50.4 (58.1); (101,53,46,78) 114.1 -> 42.7
// (59.4); (56,70,43,8,5) 45.0 -> 17.7 (21.9); F16 cases behind PyTorch geomean 0.858, none of 10 µs or
// more slower by over 1%; 25 random F16 permutations 0.979. At 80 one lost 2.6x ((42,36,112,13,8) F16,
// 58.8 -> 152.9). Other units keep 50: at 65 int8 / F32 / F64 permutations lost up to 2.3x.
#ifndef INFINI_REARRANGE_MIN_TILE_FILL_2B
#define INFINI_REARRANGE_MIN_TILE_FILL_2B 65
#endif
// Beside the gate above (session 42): 2-byte tiles whose b group (dst's innermost dims, which a's dim
// cuts short) fills less than this percentage of its tiles' span are refused, whatever a's length. The
// seed-41 sweep's worst Rearrange cases were such tiles: (145,122,5,47) F16 order (1,3,0,2), b = 47 units
// (73% of a tile), 26.7 µs on oddWordTileKernel at 54% of warps active against PyTorch's 15.3 (a plain
// elementwise copy). H200, eager µs (tools/verify_s42c.sh), over 78 F16 permutations with tiles 65%+ full
// and b under 88% of its span, the seed-41 F16 cases behind and session 40's random permutations: at 75,
// geomean 0.922 and 44 -> 29 behind PyTorch ((145,122,5,47) 26.7 -> 13.2, (55,24,65,5,27) 86.8 -> 31.6
// (PyTorch 64.4), (200,6,127,11,13) 169.2 -> 56.5 (120.9); one loss, (31,6,37,96,47) 79.5 -> 127.6
// (131.7)); at 90, tiles of b 82-88% full lost up to 4.5x ((8,220,46,8,42) 44.2 -> 199.0). Between, the
// cases of b 75-80% full gained 0.44-0.51x at 90 but three that were well ahead of PyTorch (1.09-1.27x);
// 80 from those runs (geomean 0.851, 18 behind). Session 40's plain fill gate at 80 lost on a short a
// instead ((42,36,112,13,8): a 42, b 11648), which this gate leaves alone. 0: off.
#ifndef INFINI_REARRANGE_MIN_B_FILL_2B
#define INFINI_REARRANGE_MIN_B_FILL_2B 80
#endif
// The same gate for 1-byte units, and for 4- and 8-byte ones. Session 43, call 2 (tools/verify_s43b.sh,
// the gate at 80 for all three), eager µs over 90 permutations with tiles 50%+ full and b under 88% of its
// span (notes/sweeps/session42_bshort_other_cases.txt), the seed-42 sweep's cases behind and session 40's
// random permutations: int8 geomean 0.934 / 0.922 / 1.001, behind PyTorch 6 -> 1 and 7 -> 4
// ((20,51,9,47,33) order (4,2,1,0,3) 62.2 -> 36.2, PyTorch 43.0; (224,565,66) order (0,2,1) 23.6 -> 17.8
// (21.9); one loss, (16,24,84,20,89) order (4,1,0,2,3) 118.6 -> 244.3, still under PyTorch's 248.4);
// F32 1.019 / 0.974 / 1.002 with losses to 1.37x ((4,118,20,13,145) order (4,2,0,1,3) 55.5 -> 76.4);
// F64 1.069 / 1.019 / 1.008. Hence 80 for 1-byte units only. 0: off.
#ifndef INFINI_REARRANGE_MIN_B_FILL_1B
#define INFINI_REARRANGE_MIN_B_FILL_1B 80
#endif
#ifndef INFINI_REARRANGE_MIN_B_FILL
#define INFINI_REARRANGE_MIN_B_FILL 0
#endif
// Skewed tiles (and the skewed / odd word tiles) shift each block's b range to dst's 32-byte sectors,
// which costs a whole extra tile along a short b: 59 units take two, 46% full, where plain 64-unit tiles
// take one (session 37's sweep: (65,44,39,59) F16 order (0,1,3,2) on odd word tiles 47 µs against
// PyTorch's 18, (48,10,9,102,51) order (1,2,4,0,3) on skewed word tiles 205 against 68). > 0: where the
// skew adds a tile along b and leaves b under this percentage full, the plain tiles instead. 0: off.
// Session 38, call 3 (H200, eager µs, 0 -> 60, PyTorch in brackets; tools/verify_s38c.sh over session
// 37's 119 Rearrange cases behind PyTorch, none slower): (48,10,9,102,51) F16 204.9 -> 66.0 (68.3),
// (554,36,26,54) F16 order (3,0,1,2) 95.9 -> 34.0 (72.4), (61,10,51,99) 27.7 -> 10.8 (12.5),
// (67,943,52) order (0,2,1) 17.3 -> 8.4 (11.6).
#ifndef INFINI_REARRANGE_SKEW_MIN_FILL
#define INFINI_REARRANGE_SKEW_MIN_FILL 60
#endif
// Contiguous copies up to this size run as a kernel rather than cudaMemcpyAsync
// (H100, host µs per call, tools/launch_cost.cu: memcpy path 1.23-1.54x an
// empty launch, kernel paths 1.05-1.13x; BENCHMARKS.md, session 4).
constexpr size_t kKernelCopyMax = 1 << 20;
// When the tile kernels take programmatic dependent launch (tileKernelEntry):
// 0 never, 1 eager calls only, 2 in graphs too (A/B knob). H100, µs a launch
// of 16 back to back, plain -> PDL: 4096² F16 graphs 25.28 -> 25.01, eager
// 27.05 -> 25.31; 4097² graphs 27.57 -> 27.36; 8192² 94.63 -> 94.22 (one-tile
// blocks: the next call's blocks take the SMs the last wave frees and wait
// there; notes/rearrange.md, "Session 12").
// 1: planTile also grows the shorter of its two groups first, so that a dim continuing both the src run and
// the dst run (the transposed pair's neighbour in both tensors) goes to the group that needs it, and takes
// the grouping whose tiles pass the fill gates fuller: the seed-45 sweep's (13,112,138,245) F16 src order
// (3,1,2,0) had b take dim 138 (b 245 x 138, a 13: tiles 20% full, the generic kernel at 526 µs, PyTorch
// 528). Session 46, call 2 (tools/verify_s46b.sh, H200), 108 of the 223 of 4112 probe cases whose plan it
// changes (notes/sweeps/session46_grow_cases.txt), eager µs, 0 -> 1: geomean time 0.653 (F16 0.724, int8
// 0.683, F32 0.546, F64 0.647), behind PyTorch 36 -> 3; (16,40,108,139) F64 order (3,1,2,0) 215.2 -> 44.8
// (PyTorch 211.0), (21,25,19,18,84) F32 265.9 -> 55.6 (267.4). Slower: four F16 cases, (121,6,8,10,127)
// 25.6 -> 48.8 (45.8), and three regroups of 2-byte tiles that had passed (REGROUP_TILES_2B below, now
// off). 0: b first (sessions 1-45).
#ifndef INFINI_REARRANGE_GROW_SHORTER
#define INFINI_REARRANGE_GROW_SHORTER 1
#endif
// 1: GROW_SHORTER regroups 2-byte transposes whose b-first tiles pass the gates too; 0: only where those
// are refused (the generic kernel otherwise). Call 2's 35 F16 cases: the 8 such regroups took 1.08x their
// tiles' time in geomean (b of 107-182 units: (77,3,38,121) 9.3 -> 14.3, (23,52,75,3,39) 54.0 -> 79.7,
// (19,56,97,126) 54.7 -> 72.3; gains (153,56,11,62) 27.0 -> 18.6, (17,9,3,37,54) 10.6 -> 8.1), the 27
// generic -> tiles 0.66; int8's regroups gained (0.65-1.01), F32 / F64's held (0.84-1.08).
#ifndef INFINI_REARRANGE_REGROUP_TILES_2B
#define INFINI_REARRANGE_REGROUP_TILES_2B 0
#endif
#ifndef INFINI_REARRANGE_PDL
#define INFINI_REARRANGE_PDL 2
#endif
constexpr PdlPolicy kRearrangePdl = pdlPolicyOfKnob(INFINI_REARRANGE_PDL);


enum class Kind { None, Memcpy, Generic, Tile };

// A transpose cut into other tiles than the plan's `tile` (wide, skewed, odd
// word tiles): that kernel's parameters and grid; grid 0 when not planned.
struct Tiling {
    TileParams p{};
    unsigned grid = 0;
};

struct Plan {
    Kind kind = Kind::None;
    size_t unit = 0;
    ptrdiff_t dst_offset = 0, src_offset = 0; // bytes, on top of the layout's
    size_t bytes = 0;                         // Memcpy (contiguous copies over kKernelCopyMax)
    int variant = 0;                          // Generic
    bool pdl = false;                         // Tile: the tile kernels honour PDL on this device
    bool words = false;                       // Tile: word tiles when the pointers allow
    bool skew = false;                        // Tile: skewed tiles otherwise
    int small_tile_b = 0;                     // Tile: kSmallTileEdge x small_tile_b unit tiles (SMALL_TILES); 0: none
    bool dst_sectored = false;                // Tile: every dst row offset a multiple of 32 bytes
    bool skew_src_words = false;              // Tile: every src row offset even (skewed word tiles allowed)
    TmaTiling tma;                            // Tile: tensor-copy tiles where planned and the pointers allow
    Tiling wide_word;                         // Tile: kWideWordEdge-unit tiles instead of word tiles when planned
    Tiling skewed;                            // skewTilesB(len_b, kSkewSpanUnits) tiles along b (with `skew`)
    Tiling skew_word;                         // skewTilesB(len_b, kSkewWordSpanUnits) tiles along b (with `skew`)
    Tiling odd_word;                          // INFINI_REARRANGE_ODD_WORDS: 63-unit tiles along a, where
                                              // skew_word does not apply
    OddTmaTiling odd_tma;                     // odd tensor-copy tiles, before odd_word where planned
    std::vector<Dim> outer;                   // Tile, while planning
    unsigned grid = 0;
    GenericParams generic{};
    TileParams tile{};
};

// `l` (strides in bytes) with copy units of `unit` bytes, if the innermost
// run contiguous in both tensors and every other stride allow it.
bool toUnits(const SimpleLayout &l, size_t unit, SimpleLayout *out) {
    const size_t nd = l.ndim();
    if (unit > 1) {
        if (nd == 0 || l.strides[kDst][nd - 1] != 1 || l.strides[kSrc][nd - 1] != 1 || l.shape[nd - 1] % unit != 0) {
            return false;
        }
        for (size_t d = 0; d + 1 < nd; ++d) {
            if (l.strides[kDst][d] % (ptrdiff_t)unit != 0 || l.strides[kSrc][d] % (ptrdiff_t)unit != 0) {
                return false;
            }
        }
    }
    std::vector<size_t> shape(l.shape);
    std::vector<ptrdiff_t> ds(l.strides[kDst]), ss(l.strides[kSrc]);
    for (size_t d = 0; d < nd; ++d) {
        if (d + 1 == nd && unit > 1) {
            shape[d] /= unit;
        } else {
            ds[d] /= (ptrdiff_t)unit;
            ss[d] /= (ptrdiff_t)unit;
        }
    }
    *out = simplifyLayout(nd, shape.data(), {ds.data(), ss.data()}, kDst);
    return true;
}

Dim makeDim(uint64_t size, int64_t dst_stride, int64_t src_stride) {
    Dim d{};
    d.size = size;
    d.div = FastDivU32(size <= UINT32_MAX ? (uint32_t)size : 1u);
    d.dst_stride = dst_stride;
    d.src_stride = src_stride;
    return d;
}

#if INFINI_REARRANGE_GENERIC_LEAN
// The generic kernel's lean variant for g (GenericParams::lean): 2 where dst is laid out in the linear
// order (innermost dim stride 1, each outer one the product inside it), 1 where both tensors' reach
// and the unit count fit 31 bits, else 0.
int genericLeanForm(const GenericParams &g) {
    uint64_t reach_dst = 0, reach_src = 0, linear = 1;
    bool dst_linear = true;
    for (int d = g.ndim - 1; d >= 0; --d) {
        const Dim &dim = g.dims[d];
        reach_dst += (dim.size - 1) * (uint64_t)std::llabs(dim.dst_stride);
        reach_src += (dim.size - 1) * (uint64_t)std::llabs(dim.src_stride);
        dst_linear = dst_linear && dim.dst_stride == (int64_t)linear;
        linear *= dim.size;
    }
    if (g.total > (uint64_t)INT32_MAX || reach_dst > (uint64_t)INT32_MAX || reach_src > (uint64_t)INT32_MAX) {
        return 0;
    }
    return dst_linear ? 2 : 1;
}
#endif

// Blocks of the generic kernel for `total` units of `unit` bytes.
uint64_t genericGrid(uint64_t total, size_t unit) {
    const uint64_t chunk = (uint64_t)kGenericBlock * (uint64_t)genericUnitsPerThread(unit);
    return (total + chunk - 1) / chunk;
}

// f(the copy unit as a constant): what f returns (a launch's error, a kernel property).
template <class F>
auto launchUnit(size_t unit, F &&f) {
    switch (unit) {
    case 1: return f(std::integral_constant<size_t, 1>{});
    case 2: return f(std::integral_constant<size_t, 2>{});
    case 4: return f(std::integral_constant<size_t, 4>{});
    case 8: return f(std::integral_constant<size_t, 8>{});
    default: return f(std::integral_constant<size_t, 16>{});
    }
}

struct NvidiaDesc final : Desc {
    Plan plans[5]; // by kUnits index
    std::vector<void *> buffers; // device copies of deep dims

    int sm_count;

    NvidiaDesc(const InfiniopHandle &h, const Info &i) : Desc(h, i), sm_count(h.sm_count) {}

    ~NvidiaDesc() override {
        if (!buffers.empty()) {
            ScopedCudaDevice dev(device_id);
            for (void *b : buffers) {
                cudaFree(b);
            }
        }
    }

    // A device copy of `dims` (Create only: synchronous).
    infiniStatus_t upload(const std::vector<Dim> &dims, const Dim **out) {
        void *buf = nullptr;
        CUDA_TRY(cudaMalloc(&buf, dims.size() * sizeof(Dim)));
        buffers.push_back(buf);
        CUDA_TRY(cudaMemcpy(buf, dims.data(), dims.size() * sizeof(Dim), cudaMemcpyHostToDevice));
        *out = static_cast<const Dim *>(buf);
        return INFINI_STATUS_SUCCESS;
    }

    // A transpose: src's fastest dim a is not dst's fastest dim b. Group b
    // grows outward over dims contiguous in dst, group a over dims contiguous
    // in src, each until it spans a few tiles; the rest are outer dims.
    bool planTile(const SimpleLayout &l, Plan *plan) {
        const size_t nd = l.ndim();
        const auto &ds = l.strides[kDst];
        const auto &ss = l.strides[kSrc];
        const size_t b = nd - 1;
        size_t a = nd;
        for (size_t d = 0; d < b; ++d) {
            if (std::llabs(ss[d]) == 1) {
                a = d;
            }
        }
        if (nd < 2 || a == nd || std::llabs(ss[b]) == 1) {
            return false;
        }
        const int edge = tileEdge(plan->unit);
        const uint64_t enough = 4 * (uint64_t)edge;
        // Group b: a suffix of the dst-ordered dims; group a: dims whose src stride continues the run. Each
        // grows until it spans a few tiles, b first; with INFINI_REARRANGE_GROW_SHORTER also the shorter
        // first (a dim that continues both runs then goes to the group that needs it), and the grouping
        // whose tiles pass the fill gates fuller is taken.
        struct Grouping {
            std::vector<size_t> ga, gb;
            uint64_t len_a, len_b;
            std::vector<char> used;
        };
        auto group = [&](bool shorter_first) {
            Grouping g{{a}, {b}, l.shape[a], l.shape[b], std::vector<char>(nd, 0)};
            g.used[a] = g.used[b] = 1;
            auto nextB = [&]() -> size_t {
                const size_t inner = g.gb.back();
                if (g.len_b >= enough || g.gb.size() >= (size_t)kMaxGroup || inner == 0) {
                    return nd;
                }
                const size_t d = inner - 1;
                const bool continues = !g.used[d] && ds[d] == ds[inner] * (ptrdiff_t)l.shape[inner];
                return continues && g.len_b * l.shape[d] <= UINT32_MAX ? d : nd;
            };
            auto nextA = [&]() -> size_t {
                const size_t inner = g.ga.back();
                if (g.len_a >= enough || g.ga.size() >= (size_t)kMaxGroup) {
                    return nd;
                }
                for (size_t d = 0; d < nd; ++d) {
                    if (!g.used[d] && ss[d] == ss[inner] * (ptrdiff_t)l.shape[inner]) {
                        return g.len_a * l.shape[d] <= UINT32_MAX ? d : nd;
                    }
                }
                return nd;
            };
            for (;;) {
                const size_t nb = nextB(), na = nextA();
                if (nb == nd && na == nd) {
                    break;
                }
                const bool grow_a = na != nd && (nb == nd || (shorter_first && g.len_a < g.len_b));
                const size_t d = grow_a ? na : nb;
                (grow_a ? g.ga : g.gb).push_back(d);
                (grow_a ? g.len_a : g.len_b) *= l.shape[d];
                g.used[d] = 1;
            }
            return g;
        };
        // The fill gates (0: off): the tiles' fill, and b's fill of its tiles' span. A grouping's fill, or
        // -1 where it is refused.
        const bool two_byte = plan->unit == 2;
        const int min_fill = two_byte ? INFINI_REARRANGE_MIN_TILE_FILL_2B : INFINI_REARRANGE_MIN_TILE_FILL;
        const int min_b_fill = two_byte            ? INFINI_REARRANGE_MIN_B_FILL_2B
                               : plan->unit == 1 ? INFINI_REARRANGE_MIN_B_FILL_1B
                                                 : INFINI_REARRANGE_MIN_B_FILL;
        auto fillOf = [&](const Grouping &g, int e, int eb = 0) { // tiles of e x e units, or e along a x eb along b
            eb = eb > 0 ? eb : e;
            if (g.len_a < kMinTileEdge || g.len_b < kMinTileEdge || g.len_a > UINT32_MAX || g.len_b > UINT32_MAX) {
                return -1.0;
            }
            const double span_a = (double)((g.len_a + e - 1) / e) * e;
            const double span_b = (double)((g.len_b + eb - 1) / eb) * eb;
            const double fill = 100.0 * (double)g.len_a * (double)g.len_b / (span_a * span_b);
            return fill < min_fill || 100.0 * (double)g.len_b < min_b_fill * span_b ? -1.0 : fill;
        };
        const Grouping b_first = group(false);
        const Grouping shorter_first = INFINI_REARRANGE_GROW_SHORTER ? group(true) : b_first;
        // The fuller of the two groupings at tile edge e; at 64 units 2-byte tiles keep a b-first grouping
        // that passes (INFINI_REARRANGE_REGROUP_TILES_2B).
        auto fuller = [&](int e, int eb = 0) -> const Grouping & {
            const bool keep = e == edge && two_byte && !INFINI_REARRANGE_REGROUP_TILES_2B && fillOf(b_first, e) >= 0;
            return !keep && fillOf(shorter_first, e, eb) > fillOf(b_first, e, eb) ? shorter_first : b_first;
        };
        int tile_edge = edge, tile_edge_b = edge; // along a, along b
        const Grouping *chosen = &fuller(edge);
        if (fillOf(*chosen, edge) < 0) {
            // Both groupings refused at 64 units: 32-unit unit tiles where they pass (INFINI_REARRANGE_SMALL_TILES),
            // for 2-byte units whose src neighbours lie in different chunks of the generic kernel's blocks.
            if (!INFINI_REARRANGE_SMALL_TILES || plan->unit != 2 || (uint64_t)std::llabs(ds[a]) < kSmallTileMinApart) {
                return false;
            }
            tile_edge = kSmallTileEdge;
            double small_fill = -1;
            for (int eb : {kSmallTileEdgeB, kSmallTileEdge}) { // 32 x 64 units where they pass, else 32 x 32
                tile_edge_b = eb;
                chosen = &fuller(tile_edge, eb);
                small_fill = fillOf(*chosen, tile_edge, eb);
                if (small_fill >= 0) {
                    break;
                }
            }
            if (small_fill < 0) {
                return false;
            }
        }
        const std::vector<size_t> &ga = chosen->ga, &gb = chosen->gb;
        const std::vector<char> &used = chosen->used;
        const uint64_t len_a = chosen->len_a, len_b = chosen->len_b;
        TileParams &t = plan->tile;
        t.len_a = (uint32_t)len_a;
        t.len_b = (uint32_t)len_b;
        t.tiles_a = (uint32_t)((len_a + tile_edge - 1) / tile_edge);
        t.tiles_b = (uint32_t)((len_b + tile_edge_b - 1) / tile_edge_b);
        t.div_tiles_a = FastDivU32(t.tiles_a);
        t.div_tiles_b = FastDivU32(t.tiles_b);
        auto fill = [&](Group &g, const std::vector<size_t> &dims) { // given innermost first
            g.ndim = (int)dims.size();
            for (size_t k = 0; k < dims.size(); ++k) {
                size_t d = dims[dims.size() - 1 - k];
                g.dims[k] = makeDim(l.shape[d], ds[d], ss[d]);
            }
        };
        fill(t.a, ga);
        fill(t.b, gb);
        uint64_t blocks = (uint64_t)t.tiles_a * t.tiles_b;
        plan->outer.clear();
        for (size_t d = 0; d < nd; ++d) {
            if (!used[d]) {
                plan->outer.push_back(makeDim(l.shape[d], ds[d], ss[d]));
                blocks *= l.shape[d];
            }
        }
        if (blocks > (uint64_t)INT32_MAX) {
            return false;
        }
        t.outer_ndim = (int)plan->outer.size();
        t.deep = nullptr;
        if (plan->outer.size() <= (size_t)kMaxDims) {
            std::copy(plan->outer.begin(), plan->outer.end(), t.outer);
        }
        plan->kind = Kind::Tile;
        plan->grid = (unsigned)blocks;
        plan->pdl = launchUnit(plan->unit, [](auto u) { return tileKernelsHonourPdl<decltype(u)::value>(); });
        if (tile_edge != edge) { // the small unit tiles have no word, skewed or tensor-copy forms
            plan->small_tile_b = tile_edge_b;
            return true;
        }
        // `t` cut into other tiles (the wide, skewed and odd word tiles):
        // their counts along a and b, with their dividers, and the grid.
        const uint64_t outer_blocks = blocks / ((uint64_t)t.tiles_a * t.tiles_b);
        struct Retiled {
            TileParams p;
            uint64_t blocks;
        };
        auto retile = [&](uint64_t tiles_a, uint64_t tiles_b) {
            Retiled r{t, outer_blocks * tiles_a * tiles_b};
            r.p.tiles_a = (uint32_t)tiles_a;
            r.p.tiles_b = (uint32_t)tiles_b;
            r.p.div_tiles_a = FastDivU32(r.p.tiles_a);
            r.p.div_tiles_b = FastDivU32(r.p.tiles_b);
            return r;
        };
        // Word tiles for 2-byte units: a and b run forwards with unit stride,
        // even lengths, every other stride even (then every row of every tile
        // starts on a word when the pointers do; Calculate checks them).
        bool words = plan->unit == 2 && ss[a] == 1 && ds[b] == 1 && len_a % 2 == 0 && len_b % 2 == 0;
        for (size_t d = 0; d < nd && words; ++d) {
            bool in_a = std::find(ga.begin(), ga.end(), d) != ga.end();
            bool in_b = std::find(gb.begin(), gb.end(), d) != gb.end();
            words = (in_a || ss[d] % 2 == 0) && (in_b || ds[d] % 2 == 0);
        }
        plan->words = words;
        // Wide word tiles where their grid still gives every SM its blocks
        // (small transposes keep the 64-unit tiles' parallelism).
        if (words && len_a <= UINT32_MAX - kWideWordEdge && len_b <= UINT32_MAX - kWideWordEdge) {
            const Retiled w =
                retile((len_a + kWideWordEdge - 1) / kWideWordEdge, (len_b + kWideWordEdge - 1) / kWideWordEdge);
            if (w.blocks >= (uint64_t)kWideWordMinBlocksPerSm * (uint64_t)std::max(sm_count, 1)) {
                plan->wide_word = {w.p, (unsigned)w.blocks};
            }
        }
        planTmaTiles(ga, gb, l, len_a, len_b, plan);
        // dst rows on 32-byte sectors (with a sector-aligned dst pointer):
        // word tiles win there; off sectors skewed tiles win (4098² F16 on
        // the H100: 29.7 µs skewed, 33.1 word tiles; notes/rearrange.md).
        plan->dst_sectored = true;
        for (size_t d = 0; d < nd; ++d) {
            bool in_b = std::find(gb.begin(), gb.end(), d) != gb.end();
            plan->dst_sectored = plan->dst_sectored && (in_b || ds[d] % kSkewSector == 0);
        }
        // Skewed tiles for the other 2-byte transposes whose a and b run
        // forwards with unit stride (odd pitches, pointers off a word).
        const uint64_t index_room = UINT32_MAX - 2 * (uint64_t)std::max({kSkewSpanUnits, kSkewWordSpanUnits, kOddWordSpanUnits});
        const Retiled skew = retile(t.tiles_a, skewTilesB(len_b, kSkewSpanUnits));
        const Retiled skew_word = retile(t.tiles_a, skewTilesB(len_b, kSkewWordSpanUnits));
        plan->skew = plan->unit == 2 && ss[a] == 1 && ds[b] == 1 && len_a <= index_room && len_b <= index_room &&
                     skew.blocks <= (uint64_t)INT32_MAX; // b0 + span, a0 + 64 and block indices in 32 bits
        const uint64_t skew_tiles_b = skew.p.tiles_b;
        if (INFINI_REARRANGE_SKEW_MIN_FILL > 0 && skew_tiles_b > t.tiles_b &&
            100 * len_b < (uint64_t)INFINI_REARRANGE_SKEW_MIN_FILL * skew_tiles_b * kSkewSpanUnits) {
            plan->skew = false;
        }
        if (plan->skew) {
            plan->skewed = {skew.p, (unsigned)skew.blocks};
            plan->skew_word = {skew_word.p, (unsigned)skew_word.blocks};
            // Src rows (one per b index) start on words when every src stride
            // outside group a is even (and the pointer is on a word).
            bool src_words = INFINI_REARRANGE_SKEW_WORDS != 0;
            for (size_t d = 0; d < nd && src_words; ++d) {
                src_words = std::find(ga.begin(), ga.end(), d) != ga.end() || ss[d] % 2 == 0;
            }
            plan->skew_src_words = src_words;
#if INFINI_REARRANGE_ODD_WORDS
            const Retiled odd = retile(oddWordTilesA(len_a), skewTilesB(len_b, kOddWordSpanUnits));
            if (odd.blocks <= (uint64_t)INT32_MAX) {
                plan->odd_word = {odd.p, (unsigned)odd.blocks};
            }
#endif
            planOddTmaTiles(ga, gb, l, len_a, len_b, plan);
        }
        return true;
    }

    // The row pitches (units) of a plain 2-D transpose of 2-byte units (groups
    // a and b single dims, no outer dims) of min_bytes .. max_bytes a side
    // whose pitches cover their rows: the shape both tensor-copy tilings take;
    // false for any other.
    static bool plainTransposePitches(const std::vector<size_t> &ga, const std::vector<size_t> &gb,
                                      const SimpleLayout &l, uint64_t len_a, uint64_t len_b, const Plan &plan,
                                      uint64_t min_bytes, uint64_t max_bytes, ptrdiff_t *src_pitch,
                                      ptrdiff_t *dst_pitch) {
        const uint64_t side_bytes = len_a * len_b * 2;
        if (ga.size() != 1 || gb.size() != 1 || !plan.outer.empty() || side_bytes < min_bytes ||
            side_bytes > max_bytes) {
            return false;
        }
        *src_pitch = l.strides[kSrc][gb[0]];
        *dst_pitch = l.strides[kDst][ga[0]];
        return *src_pitch >= (ptrdiff_t)len_a && *dst_pitch >= (ptrdiff_t)len_b;
    }

    // Odd tensor-copy tiles (nvidia.h) for a plain 2-D skewed transpose whose
    // src pitch is odd, at the sizes where they gain.
    void planOddTmaTiles(const std::vector<size_t> &ga, const std::vector<size_t> &gb, const SimpleLayout &l,
                         uint64_t len_a, uint64_t len_b, Plan *plan) {
        ptrdiff_t src_pitch = 0, dst_pitch = 0;
        if (INFINI_REARRANGE_ODD_TMA == 0 || len_b < (uint64_t)kOddTmaResidues ||
            !plainTransposePitches(ga, gb, l, len_a, len_b, *plan, kOddTmaMinBytes, kOddTmaMaxBytes, &src_pitch,
                                   &dst_pitch) ||
            src_pitch % 2 == 0) {
            return;
        }
        const uint64_t tiles = (len_a + kOddTmaEdge - 1) / kOddTmaEdge * skewTilesB(len_b, kOddTmaEdge);
        if (tiles > (uint64_t)INT32_MAX || !prepareOddTmaTiles()) {
            return;
        }
        OddTmaTiling &t = plan->odd_tma;
        t.len_a = (uint32_t)len_a;
        t.len_b = (uint32_t)len_b;
        t.src_pitch = src_pitch;
        t.dst_pitch = dst_pitch;
        t.tiles = (uint32_t)tiles;
    }

    // Tensor-copy tiles (nvidia.h) for a plain 2-D word-tile transpose whose
    // row pitches are multiples of 16 bytes and cover their rows, at the sizes
    // where they gain; Calculate takes them when both pointers are on 16 bytes.
    void planTmaTiles(const std::vector<size_t> &ga, const std::vector<size_t> &gb, const SimpleLayout &l,
                      uint64_t len_a, uint64_t len_b, Plan *plan) {
        ptrdiff_t src_pitch = 0, dst_pitch = 0;
        if (INFINI_REARRANGE_TMA == 0 || !plan->words ||
            !plainTransposePitches(ga, gb, l, len_a, len_b, *plan, kTmaTileMinBytes, kTmaTileMaxBytes, &src_pitch,
                                   &dst_pitch) ||
            src_pitch % 8 != 0 || dst_pitch % 8 != 0 || !prepareTmaTiles()) {
            return;
        }
        TmaTiling &t = plan->tma;
        t.len_a = (uint32_t)len_a;
        t.len_b = (uint32_t)len_b;
        t.tiles_a = (uint32_t)((len_a + kTmaTileEdgeA - 1) / kTmaTileEdgeA);
        t.tiles_b = (uint32_t)((len_b + kTmaTileEdgeB - 1) / kTmaTileEdgeB);
        t.src_pitch = (uint64_t)src_pitch;
        t.dst_pitch = (uint64_t)dst_pitch;
        t.grid = (unsigned)std::min<uint64_t>((uint64_t)t.tiles_a * t.tiles_b,
                                              (uint64_t)std::max(sm_count, 1) * kTmaBlocksPerSm);
    }

    infiniStatus_t uploadDeep(Plan *plan) {
        if (plan->outer.size() > (size_t)kMaxDims) {
            INFINI_TRY(upload(plan->outer, &plan->tile.deep));
            for (Tiling *t : {&plan->wide_word, &plan->skewed, &plan->skew_word, &plan->odd_word}) {
                t->p.deep = plan->tile.deep;
            }
        }
        return INFINI_STATUS_SUCCESS;
    }

    infiniStatus_t planUnit(const SimpleLayout &l, size_t unit, Plan *plan) {
        plan->unit = unit;
        plan->dst_offset = l.offset[kDst] * (ptrdiff_t)unit;
        plan->src_offset = l.offset[kSrc] * (ptrdiff_t)unit;
        const size_t nd = l.ndim();
        const auto &ds = l.strides[kDst];
        const auto &ss = l.strides[kSrc];
        if (nd == 0 || (nd == 1 && ds[0] == 1 && ss[0] == 1)) {
            const uint64_t n = nd == 0 ? 1 : l.shape[0];
            if (n * unit > kKernelCopyMax) {
                plan->kind = Kind::Memcpy;
                plan->bytes = n * unit;
                return INFINI_STATUS_SUCCESS;
            }
            plan->kind = Kind::Generic; // small: the same copy as one dim of the generic kernel
            GenericParams &g = plan->generic;
            g.total = n;
            g.ndim = 1;
            g.deep = nullptr;
            g.dims[0] = makeDim(n, 1, 1);
            plan->variant = 1;
            plan->grid = genericGrid(n, unit);
            return INFINI_STATUS_SUCCESS;
        }
        if (planTile(l, plan)) {
            return uploadDeep(plan);
        }
        // Everything else: the generic kernel. (Sessions 37-45 sent transposes inside a block of innermost
        // dims dense in both tensors, 1- and 2-byte units from 10 MB, to box transposes through shared
        // memory. Session 46, call 3 (tools/verify_s46c.sh, H200), 107 such cases, eager µs: the generic
        // kernel took 0.667 of the boxes' time, behind PyTorch 97 -> 0; (457,108,11,13) F16 order (0,1,3,2)
        // 28.4 -> 14.0 (PyTorch 19.3). The box code is in 0ee7ff8.)
        plan->kind = Kind::Generic;
        GenericParams &g = plan->generic;
        g.total = l.numel();
        g.ndim = (int)nd;
        g.deep = nullptr;
        std::vector<Dim> dims;
        for (size_t d = 0; d < nd; ++d) {
            dims.push_back(makeDim(l.shape[d], ds[d], ss[d]));
        }
        if (nd > (size_t)kMaxDims) {
            INFINI_TRY(upload(dims, &g.deep));
            plan->variant = -1;
        } else {
            std::copy(dims.begin(), dims.end(), g.dims);
            plan->variant = g.total <= UINT32_MAX ? (nd <= INFINI_REARRANGE_GENERIC_UNROLLED_DIMS ? (int)nd : 0) : -1;
#if INFINI_REARRANGE_GENERIC_LEAN
            g.lean = plan->variant >= 1 ? genericLeanForm(g) : 0;
#endif
        }
        const uint64_t grid = genericGrid(g.total, unit);
        INFINI_REQUIRE(grid <= (uint64_t)INT32_MAX, INFINI_STATUS_BAD_TENSOR_SHAPE);
        plan->grid = (unsigned)grid;
        return INFINI_STATUS_SUCCESS;
    }

    infiniStatus_t plan() {
        const SimpleLayout &l = info.layout;
        if (l.empty) {
            return INFINI_STATUS_SUCCESS;
        }
        // The layout in bytes: strides scaled, the element as an innermost dim.
        const size_t es = info.elem_size;
        const size_t nd = l.ndim();
        std::vector<size_t> shape(l.shape);
        std::vector<ptrdiff_t> ds(nd + 1), ss(nd + 1);
        for (size_t d = 0; d < nd; ++d) {
            ds[d] = l.strides[kDst][d] * (ptrdiff_t)es;
            ss[d] = l.strides[kSrc][d] * (ptrdiff_t)es;
        }
        shape.push_back(es);
        ds[nd] = ss[nd] = 1;
        const SimpleLayout bytes = simplifyLayout(nd + 1, shape.data(), {ds.data(), ss.data()}, kDst);
        for (size_t k = 0; k < 5; ++k) {
            SimpleLayout units;
            if (toUnits(bytes, kUnits[k], &units)) {
                INFINI_TRY(planUnit(units, kUnits[k], &plans[k]));
                plans[k].dst_offset += l.offset[kDst] * (ptrdiff_t)es + bytes.offset[kDst];
                plans[k].src_offset += l.offset[kSrc] * (ptrdiff_t)es + bytes.offset[kSrc];
            }
        }
        return INFINI_STATUS_SUCCESS;
    }

    infiniStatus_t calculate(void *dst, const void *src, void *stream_ptr) const override {
        if (info.layout.empty) {
            return INFINI_STATUS_SUCCESS;
        }
        ScopedCudaDevice dev(device_id);
        INFINI_TRY(dev.status());
        auto stream = static_cast<cudaStream_t>(stream_ptr);
        for (size_t k = 0; k < 5; ++k) {
            const Plan &p = plans[k];
            if (p.kind == Kind::None) {
                continue;
            }
            char *d = static_cast<char *>(dst) + p.dst_offset;
            const char *s = static_cast<const char *>(src) + p.src_offset;
            if (((uintptr_t)d | (uintptr_t)s) % p.unit != 0) {
                continue;
            }
            switch (p.kind) {
            case Kind::Memcpy:
                CUDA_TRY(cudaMemcpyAsync(d, s, p.bytes, cudaMemcpyDeviceToDevice, stream));
                return INFINI_STATUS_SUCCESS;
            case Kind::Generic:
                CUDA_TRY(launchUnit(p.unit, [&](auto u) {
                    return launchGeneric<decltype(u)::value>(p.generic, p.variant, p.grid, d, s, stream);
                }));
                break;
            case Kind::Tile: {
                const bool pdl = p.pdl && pdlWanted(kRearrangePdl, stream);
                CUtensorMap dst_map, src_map;
                if (p.tma.grid != 0 && ((uintptr_t)d | (uintptr_t)s) % 16 == 0 &&
                    encodeTmaMaps(p.tma, d, s, &dst_map, &src_map)) {
                    CUDA_TRY(launchTmaTile(p.tma, dst_map, src_map, stream, pdl));
                } else if (p.words && ((uintptr_t)d | (uintptr_t)s) % 4 == 0 &&
                    (!p.skew || (p.dst_sectored && (uintptr_t)d % 32 == 0))) {
                    CUDA_TRY(p.wide_word.grid != 0
                                 ? launchWideWordTile(p.wide_word.p, p.wide_word.grid, d, s, stream, pdl)
                                 : launchWordTile(p.tile, p.grid, d, s, stream, pdl));
                } else if (p.skew && p.skew_src_words && (uintptr_t)s % 4 == 0) {
                    CUDA_TRY(launchSkewWordTile(p.skew_word.p, p.skew_word.grid, d, s, stream, pdl));
                } else if (cudaError_t err = cudaSuccess;
                           p.skew && p.odd_tma.tiles != 0 && launchOddTmaTile(p.odd_tma, d, s, stream, pdl, &err)) {
                    CUDA_TRY(err);
#if INFINI_REARRANGE_ODD_WORDS
                } else if (p.skew && p.odd_word.grid != 0) {
                    CUDA_TRY(launchOddWordTile(p.odd_word.p, p.odd_word.grid, d, s, stream, pdl));
#endif
                } else if (p.skew) {
                    CUDA_TRY(launchSkewTile(p.skewed.p, p.skewed.grid, d, s, stream, pdl));
                } else {
                    CUDA_TRY(launchUnit(p.unit, [&](auto u) {
                        return launchTile<decltype(u)::value>(p.tile, p.grid, d, s, stream, pdl, p.small_tile_b);
                    }));
                }
                break;
            }
            case Kind::None:
                break;
            }
            CUDA_TRY_LAUNCH();
            return INFINI_STATUS_SUCCESS;
        }
        return INFINI_STATUS_INTERNAL_ERROR; // the 1-byte plan always exists
    }
};

} // namespace

infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Desc **desc) {
    auto *op = new NvidiaDesc(handle, info);
    infiniStatus_t status;
    {
        ScopedCudaDevice dev(handle.device_id);
        status = dev.status();
        if (status == INFINI_STATUS_SUCCESS) {
            status = guard([&] { return op->plan(); });
        }
    }
    if (status != INFINI_STATUS_SUCCESS) {
        delete op;
        return status;
    }
    *desc = op;
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::rearrange::nvidia
