#pragma once
// The elementwise framework's NVIDIA engine, host side (no device code: g++
// compiles the factories). Everything shape-dependent is decided here at
// Create and passed to the kernels by value; Calculate only picks the
// vector or scalar form of the contiguous path by the pointers' alignment.
//
// Paths:
//   contiguous  every operand one run of stride 1: one chunk per block,
//               16-byte vector loads/stores, no index arithmetic
//   strided     anything else: per-dim sizes (as fast-division constants) and
//               strides in the kernel's parameters; when the innermost dim is
//               contiguous in the output and each input has stride 1 or 0
//               there (rows, row broadcasts), whole 16-byte vectors of it
//               per index, if the pointers are aligned at Calculate; where
//               that does not apply but the output is contiguous, the
//               gather form: 16-byte vectors of the output and of the inputs
//               of its layout, the other inputs (broadcasts, permuted
//               operands) gathered per vector (GatherArgs)
//   tiled       an input walks the output's innermost dim with a large stride
//               but some other dim with stride 1 (a transposed operand):
//               32x32 tiles staged through shared memory so that every global
//               access is coalesced
#include "../../common/fast_div.h"
#include "../../common/cuda/check.cuh"
#include "elementwise.h"
#include <cstdint>
#include <vector>

namespace infini::elementwise::nvidia {

// Dims a kernel indexes; more (rare: that many unmergeable dims of size > 1)
// are split into several launches on the host.
constexpr int kMaxDims = 6;
// Each launch indexes below this many elements in 32 bits.
constexpr uint64_t kMaxLaunchElems = (uint64_t(1) << 31) - 1;

// Threads a block of the contiguous vector kernel: 1024 for grids of at
// least kWideMinWaves waves of them (2 an SM), else 256 (more SMs busy on
// small calls). H100, tools/mulsched_bench.cu, µs a call against 256 (graph /
// per-call events): 4096² F16 -0.10 / -0.19, BF16 -0.11 / -0.22, 8192² F32
// -1.28 / -1.18; 512 about half of that, 128 and two vectors a thread slower
// (notes/mul.md, "Session 16").
constexpr int kWideBlock = 1024;
constexpr uint64_t kWideMinWaves = 2;
inline int contiguousVecBlock(uint64_t vectors, int sm_count, int block) {
    return vectors >= kWideMinWaves * 2 * (uint64_t)kWideBlock * (uint64_t)sm_count ? kWideBlock : block;
}

// Division by a runtime constant through a multiply-high (common/fast_div.h).
using FastDiv = FastDivU32;

// Kernel parameters of the strided path (passed by value).
struct StridedArgs {
    uint32_t ndim;  // 1..kMaxDims, outermost first
    uint32_t numel; // product of size[]
    FastDiv size[kMaxDims];
    int64_t stride[kMaxDims][kMaxOperands]; // elements
    int64_t offset[kMaxOperands];           // elements, added to each base
    uint32_t splat; // vector form only: bit k-1 when input k is constant along the innermost dim
};

// Kernel parameters of the strided path's gather form: the output contiguous,
// an index per 16-byte vector of it. Inputs of the output's layout (`flat`)
// load vectors at the output's index; the others are gathered: the vector's
// first element decomposed into coordinates once, then stepped.
struct GatherArgs {
    uint32_t ndim;  // 1..kMaxDims, innermost first (unlike StridedArgs)
    uint32_t numel; // elements
    FastDiv size[kMaxDims];
    int64_t stride[kMaxDims][kMaxInputs]; // the inputs' strides (elements); unused for flat ones
    int64_t offset[kMaxOperands];         // elements, added to each base (output first)
    uint32_t flat;                        // bit k-1: input k has the output's layout
};

// 1: the gather form's lane mapping where a gathered input has an innermost stride other than 0 or +-1
// (a transposed operand) and every input's offsets fit 32 bits: consecutive lanes take consecutive
// output elements, kLaneElems a thread a kBlock apart, each element's coordinates decomposed, 32-bit
// offsets. The vector mapping (a thread per 16-byte vector) gives each lane of a warp load its own
// 128-byte line of the transposed operand: 32 L1 wavefronts a load instruction where PyTorch's
// elementwise kernel, consecutive elements across lanes, touches ~7; session 39's ncu on (69,13,80,71)
// BF16 a order (0,2,3,1): ours 32.6 µs, 613 warp instructions per 256 elements, 54% warps active (48
// registers); torch 18.6 µs, same L2 sectors and DRAM bytes. Session 39, call 5 (tools/verify_s39e.sh,
// every gather with such an input on the lane mapping), eager µs, vector -> lane (PyTorch): (69,13,80,71)
// 32.8 -> 21.8 (18.3), (48,17,45,157) F32 46.7 -> 28.5 (29.4), (11,96,254,12) F32 28.4 -> 17.1 (17.4),
// (8,466,20,30) BF16 15.3 -> 10.3 (8.9); but where the transposed input's unit-stride dim lies next to
// the output's rows the vector mapping's lanes share lines and it lost: (468,10,621) F16 a order
// (2,0,1), neighbours 1.2 KB apart, 16.8 -> 22.0 (22.4); (21,201,27,85) BF16, 170 bytes, 33.0 -> 38.7
// (31.9); the winners' neighbours lay 3.4 KB and more apart, hence kLaneMinApartBytes. Session 40,
// H200, with that rule (tools/verify_s40a.sh): 120 random permuted Mul cases geomean 0.925, behind
// PyTorch 30 -> 20, (29,129,101,7) BF16 23.4 -> 14.3 (14.7), (239,15,328,3) F32 31.8 -> 22.5 (23.8);
// session 39's 61 Mul cases behind 0.967; one loss, (5,442,20,72) BF16 a order (2,1,3,0) 11.5 -> 15.0
// (12.8). 1 (default since then): on; 0: the vector mapping only (measuring).
#ifndef INFINI_ELEMENTWISE_LANE_GATHER
#define INFINI_ELEMENTWISE_LANE_GATHER 1
#endif
constexpr int kLaneElems = 4;             // elements a thread and round in the lane mapping
constexpr uint64_t kLaneMinApartBytes = 2048; // see above
// A measuring knob (session 39) beside INFINI_ELEMENTWISE_LANE_GATHER: > 0 sends transposed planes
// of at most this many rows along j whose j neighbours lie over kLaneMinApartBytes of output apart to the
// gather form (and so the lane mapping) instead of narrow tiles, where the output is contiguous. Session
// 39's sweep: (6,167,97,121) F16 a order (1,2,3,0), 6 rows in tiles of 8 (75% full), 54.6 µs against
// PyTorch's 34.5. Session 40 at 12 (tools/verify_s40a.sh), against the lane mapping alone: of 181
// cases two moved, that one 54.4 -> 41.7 and (6,236,28,104) F32 a order (2,3,1,0) 24.0 -> 36.0
// (PyTorch 35.9); both have 6 rows. No rule found from two cases. 0: off.
// Session 52, call 1 (H200, eager µs, at 8 against two default runs on 91 planes of 5-8 rows;
// tools/verify_s52c.sh): 1.22 over all, to 3.3x, but 0.68-0.75 on a third of them. The layout decides:
// the winners' transposed input steps at most nj elements along the output's rows (its unit-stride dim j
// just inside the output's innermost, a order (0,2,1) or (1,2,0)), where (2,1,0) or (2,0,1) read a row
// each lane and lost everywhere; and of those, where j's neighbours lie far apart in the output and the
// tensor is large, the lanes' sectors leave L2 before the next j reads them (F64 and 7-8-row 16-bit
// planes of 28-63 MB lost to 1.24x-2.6x). Hence 8 with both conditions below: the cases they pick
// measured 0.853 (33, none slower than 1.078), behind PyTorch over the set 32 -> 27.
#ifndef INFINI_ELEMENTWISE_LANE_TILE_ROWS
#define INFINI_ELEMENTWISE_LANE_TILE_ROWS 8
#endif
// ... where j's neighbours lie at most this many bytes apart in the output (reused while in L2), or the
// output of a type of at most 4 bytes is at most INFINI_ELEMENTWISE_LANE_TILE_SMALL_BYTES.
#ifndef INFINI_ELEMENTWISE_LANE_TILE_NEAR_BYTES
#define INFINI_ELEMENTWISE_LANE_TILE_NEAR_BYTES (1 << 20)
#endif
#ifndef INFINI_ELEMENTWISE_LANE_TILE_SMALL_BYTES
#define INFINI_ELEMENTWISE_LANE_TILE_SMALL_BYTES (16 << 20)
#endif
// INFINI_ELEMENTWISE_LANE_GATHER's odd rows (session 40): > 0 also gives the lane mapping gather plans
// of 8-byte elements without a scattered input where the output's rows (its innermost extent) are odd and
// at most this many elements long. There the vector mapping decomposes each vector's first element in 64
// bits and, for a vector that straddles two rows, the second row's start too, loading element by element:
// per byte moved that is most work for 8-byte elements (2 a vector). The lane mapping is PyTorch's shape
// of work: consecutive lanes on consecutive elements, 32-bit offsets. Session 41, call 1
// (tools/verify_s41a.sh, 4096 for every element size), session 40's 42 Mul cases behind PyTorch and 120
// random odd-row cases, time against the vector mapping (geomean): F64 0.920 over 62 cases (worst 1.03;
// behind PyTorch 33 -> 16: (135,94,8,15) 14.1 -> 10.0 µs, PyTorch 17.5; (5,113,95,29) 14.6 -> 10.8),
// F32 1.007 (0.71 to 1.69), F16 1.073 and BF16 1.118 (to 1.8x on rows of 2-4K: (3748,3213) F16 b
// (3748,1) 22.3 -> 37.4, PyTorch 32.4). So 8-byte elements only. 0: off.
#ifndef INFINI_ELEMENTWISE_LANE_ODD_ROWS
#define INFINI_ELEMENTWISE_LANE_ODD_ROWS 4096
#endif

// Kernel parameters of the gather form's lane mapping: innermost first, the inputs' 32-bit strides.
struct LaneGatherArgs {
    uint32_t ndim;  // 1..kMaxDims, innermost first
    uint32_t numel; // elements
    FastDiv size[kMaxDims];
    int32_t stride[kMaxDims][kMaxInputs]; // the inputs' strides (elements); unused for flat ones
    int64_t offset[kMaxOperands];         // elements, added to each base (output first)
    uint32_t flat;                        // bit k-1: input k has the output's layout
};

// A tile holds kTileElems elements: 2^tile_j_log along j (8..32; 64 or 128 under
// INFINI_ELEMENTWISE_WIDE_TILES_2B), the rest along i.
constexpr uint32_t kTileElemsLog = 10, kTileElems = 1u << kTileElemsLog;
// 1: a transposed plane shorter than 32 along j (5..31 rows) takes tiles of 8 or 16 along j and
// 128 or 64 along i where they hold more of its data than 32x32 tiles do; such planes under 16 rows
// had no tiles at all (the gather form, or the scalar strided kernel). Session 39, call 2
// (tools/verify_s39b.sh), eager µs, gather -> narrow tiles (PyTorch): (20,12,20,1087) F32 a order
// (2,1,3,0), 20 rows in tiles of 8 (78% full against 62% at 32): 45.9 -> 26.5 (32.1); (16,109,51,119)
// F16 order (1,2,3,0), 16 rows: 78.5 -> 46.4 (43.8). 0: 32x32 tiles only, j >= 16, and only that
// kernel compiled. Set for .cu and .cc files alike.
#ifndef INFINI_ELEMENTWISE_NARROW_TILES
#define INFINI_ELEMENTWISE_NARROW_TILES 1
#endif

// Wide tiles, 6 or 7: a plane of 1- or 2-byte elements whose 32 x 32 tiles are too sparse
// (INFINI_ELEMENTWISE_TILED_MIN_FILL) and whose staged input's j neighbours lie over kLaneMinApartBytes of
// output apart (the lane gather's planes) takes the fullest of the tiles of 64 or 128 along j (16 or 8
// along i) where these are full enough, on kWideTilesMinElems elements or more: a short i (the output's
// rows) then fills 8-row tiles. Session 45, call 1 (tools/verify_s44d.sh), eager µs, wide tiles taken
// wherever as full as 32 x 32 ones (PyTorch): the lane gather's planes gained, (719,353,38) BF16 a order
// (2,1,0) 69.2 -> 43.0 (68.8), (662,479,21) F16 48.4 -> 34.3 (48.0), (2635,76,65) BF16 96.0 -> 73.3
// (95.2), (53,16,19,72) F16 (1.2 M elements) 11.6 -> 8.7, 9 cases 0.62-0.81; but planes tiled already
// lost (1.03-1.23, (228,168,413) BF16 60.0 -> 73.7) as did every case of a few µs (+2.5 µs, (99,48,101)
// BF16 lane gather 6.6 -> 8.9, 0.5 M elements) and the plain gather's planes ((30,142,45,37) BF16 25.1 ->
// 31.1), hence the rule. 0 (or 5): 32 along j at most, and the wide kernels not compiled. Set for .cu and
// .cc files alike.
#ifndef INFINI_ELEMENTWISE_WIDE_TILES_2B
#define INFINI_ELEMENTWISE_WIDE_TILES_2B 7
#endif
constexpr uint64_t kWideTilesMinElems = 1u << 20; // see above
// 1: the tiled kernel computes a thread's element offsets within a tile and their steps once, before the
// tile loop, instead of a 64-bit multiply per element, operand and tile (not for 4-byte types). ncu
// (session 45, call 1, tools/verify_s44d.sh) on Mul (663,368,31) BF16 a order (2,0,1), 28.5 µs against
// PyTorch's 20.7: issue slots 72% busy, warps mostly "not selected", DRAM far from busy (30 MB): bound by
// its instructions, ~80 a 2-byte element. Call 2 (tools/verify_s45a.sh), 178 tiled Mul cases (the sweeps'
// lists and mulperm 45), eager µs, geomean time: F16 0.952, BF16 0.965, F64 0.974, F32 0.993 but its
// cases over 25 µs lost up to 1.10 ((581,169,71) 35.4 -> 38.8: 40 registers against 32, six blocks an SM
// against eight), hence not 4-byte types; (8,117,132,94) BF16 56.4 -> 48.2, (55,127,23,99) BF16 78.2 ->
// 67.8, (663,368,31) 28.9 -> 26.5. 0: offsets per element.
#ifndef INFINI_ELEMENTWISE_TILED_HOIST
#define INFINI_ELEMENTWISE_TILED_HOIST 1
#endif
// 1: the gather form loads a vector of output elements over rows shorter than itself as two runs (the end
// of one row, the start of the next: two coordinate decompositions) where every vector's second run fits
// in its row (rows of size0 >= V - gcd(V, size0): 4, 6 or 7 elements under 2-byte vectors of 8, 2 or 3
// under 4-byte ones), instead of stepping element by element with a carry through every dim. Session 45,
// call 5 (tools/verify_s45d.sh), 150 gathers with rows of V/2 to V-1 elements (tools/shaped_cases.py
// mulshort 45, notes/sweeps/session45_gather_short_cases.txt), eager µs, a per-vector form of the rule:
// geomean 0.83 (F16 0.826, BF16 0.843, F32 0.820), cases over 20 µs 0.768, behind PyTorch 80 -> 40:
// (152,62,64,7) BF16 a order (2,1,0,3) 26.9 -> 15.9 (PyTorch 17.4; the seed-45 sweep's worst Mul case),
// (5901,632,4) BF16 56.1 -> 31.7 (45.6), (3186,597,3) F32 42.0 -> 25.9 (25.8); rows of 5 under 8-element
// vectors, where only some vectors fit (warps then take both paths), lost (1.07 geomean, (235,213,35,5)
// BF16 32.2 -> 39.6), hence the rule for every vector of a launch. 0: element by element.
#ifndef INFINI_ELEMENTWISE_GATHER_SHORT_RUNS
#define INFINI_ELEMENTWISE_GATHER_SHORT_RUNS 1
#endif
constexpr bool kGatherShortRuns = INFINI_ELEMENTWISE_GATHER_SHORT_RUNS != 0;
// The gather form's vectors for 8-byte types (session 49): 32 bytes (4 elements a thread, two 16-byte
// loads an input, still on 16 bytes) where every gathered input runs along the output's rows (innermost
// stride 0 or 1: broadcast or row-contiguous inputs), else 16. H200 eager µs, 16 -> 32 bytes for every 4-
// and 8-byte gather, against two default runs (tools/verify_s49c.sh, 110 cases): F64 with such inputs
// 0.938 (18 cases, behind PyTorch 17 -> 7; (165,41,581) b (1,41,581) 21.6 -> 19.5, PyTorch 20.2), F64 with
// a permuted input 1.005 (up to 1.19x), F32 1.047 (74, up to 1.29x), hence 8-byte types and these inputs
// only. 2-byte types at 8-byte vectors lost too (1.045, call 1; the code is in 0aa23ec). 0: 16 bytes always.
#ifndef INFINI_ELEMENTWISE_GATHER_WIDE_8B
#define INFINI_ELEMENTWISE_GATHER_WIDE_8B 1
#endif
constexpr int kGatherVecBytes = 16, kGatherWideVecBytes = 32;
// The gather kernel of 2-byte types compiled for at least this many blocks of 256 an SM (__launch_bounds__;
// 0: the compiler's choice, 56 registers, 4 blocks). Session 49's ncu of the seed-49 sweep's worst Mul line,
// (741,318,27) BF16 a order (0,2,1): 44% of warps active against PyTorch's 87% (18 registers), the same
// instructions, 23.3 against 19.0 µs. ptxas: 5 blocks 48 registers, nothing spilled; 6 blocks 40
// registers, 222 bytes spilled. Session 50, call 1 (H200, eager µs, 0 -> 5 for every type): 90 16-bit
// gathers 0.992 against the better of two default runs, those of >= 20 µs 0.968 (to 0.90), the worst
// 1.011. Other sizes were not measured and keep the compiler's choice.
#ifndef INFINI_ELEMENTWISE_GATHER_MIN_BLOCKS_2B
#define INFINI_ELEMENTWISE_GATHER_MIN_BLOCKS_2B 5
#endif
// The gather form's 32-bit offsets (relative to bases that hold each input's offset) wherever every gathered
// input's extents times |strides| sum within 31 bits: for 2-byte types (OFF32_2B 1), for the others where
// OFF32 is 1 (a measuring knob, off). Session 53's ncu of (175,95,79,5) BF16 b (1,1,1,5) (rows of 5 under
// 8-element vectors): 25.3 against PyTorch's 19.4 µs, 17.6M instructions against 11.4M, 48 registers (5
// blocks an SM, 56% of warps active against 87%). ptxas: the 16-bit kernel 2400 -> 1664 instructions of
// code. Call 4 (H200, eager µs, every type against two default runs on 60 gathers; tools/verify_s53d.sh):
// BF16 0.936 (18 cases), F16 0.951 (21; (179,55,220,7) BF16 a order (0,3,1,2) 46.5 -> 38.6, PyTorch 48.4),
// the worst 1.060 ((55,562,99,5) BF16 69.7 -> 73.9); F32 0.989 and F64 0.998 (calls of 6-29 µs, within
// their spread). The gather GPU tests on it: 149 passed, memcheck 107 passed, 0 errors.
#ifndef INFINI_ELEMENTWISE_GATHER_OFF32_2B
#define INFINI_ELEMENTWISE_GATHER_OFF32_2B 1
#endif
#ifndef INFINI_ELEMENTWISE_GATHER_OFF32
#define INFINI_ELEMENTWISE_GATHER_OFF32 0
#endif
constexpr bool gatherOff32(size_t elem_size) {
    return elem_size == 2 ? INFINI_ELEMENTWISE_GATHER_OFF32_2B != 0 : INFINI_ELEMENTWISE_GATHER_OFF32 != 0;
}
// A measuring knob (session 53, off; for session 54): 1 compiles the gather kernel a second time unrolled
// for 4 dims (coordinates, decomposition and carry), taken where the simplified layout has at most 4 (nearly
// every gather of behind_sweep.py's 3-4-dim cases). ptxas: the 16-bit 32-bit-offset kernel 1664 -> 1376
// instructions of code, still 48 registers at 5 blocks an SM (6 blocks spill 102-152 bytes).
#ifndef INFINI_ELEMENTWISE_GATHER_DIMS4
#define INFINI_ELEMENTWISE_GATHER_DIMS4 0
#endif
constexpr bool kGatherDims4 = INFINI_ELEMENTWISE_GATHER_DIMS4 != 0;
template <class T> constexpr int gatherMinBlocks() { return sizeof(T) == 2 ? INFINI_ELEMENTWISE_GATHER_MIN_BLOCKS_2B : 0; }

// Kernel parameters of the tiled path: the output's innermost dim `i`, the
// transposed inputs' unit-stride dim `j`, and batch dims (all others).
struct TiledArgs {
    uint32_t ni, nj;       // sizes of i and j
    uint32_t tiles_i, tiles_j, ntiles;
    FastDiv div_tiles_i, div_tiles_j;
    uint32_t nbatch;       // batch dims used (0..kMaxDims-2)
    FastDiv batch_size[kMaxDims];
    int64_t batch_stride[kMaxDims][kMaxOperands];
    int64_t si[kMaxOperands], sj[kMaxOperands];
    int64_t offset[kMaxOperands];
    uint32_t staged; // bit k-1: input k goes through shared memory
    uint32_t tile_j_log; // log2 of a tile's extent along j: 3..5 (5 without INFINI_ELEMENTWISE_NARROW_TILES)
};

enum class Path { Contiguous, Strided, Tiled };

struct Plan {
    Path path = Path::Strided;
    size_t nops = 0;
    size_t elem_size = 0;
    int block = 256;
    // contiguous
    uint64_t numel = 0;
    int64_t offset[kMaxOperands] = {};
    unsigned grid_vec = 1, grid_scalar = 1; // one chunk per block
    int block_vec = 256;                     // the vector form's block: `block` or kWideBlock
    bool pdl = false; // the contiguous kernels may be launched with PDL (Occupancy::pdl)
    // strided: one or more launches
    std::vector<StridedArgs> launches;
    std::vector<unsigned> grids;
    // strided, vector form (one launch): an index per 16-byte vector of the
    // innermost dim; used when the pointers are 16-byte aligned
    bool has_vec = false;
    StridedArgs vec{};
    unsigned grid_vec_strided = 1;
    // strided, gather form (one launch, no vector form): used when the output
    // and the flat inputs are 16-byte aligned
    bool has_gather = false;
    GatherArgs gather{};
    int gather_vec_bytes = kGatherVecBytes; // or kGatherWideVecBytes (INFINI_ELEMENTWISE_GATHER_WIDE_8B)
    bool gather_off32 = false;              // 32-bit offsets (gatherOff32)
    unsigned grid_gather = 1;
    // strided, the gather form's lane mapping (INFINI_ELEMENTWISE_LANE_GATHER): any alignment; taken
    // ahead of the gather form where planned
    bool has_lane = false;
    LaneGatherArgs lane{};
    unsigned grid_lane = 1;
    // tiled
    TiledArgs tiled{};
    unsigned grid_tiled = 1;
};

// Resident blocks per SM of the grid-stride kernels of one operator and dtype
// (from the occupancy calculator at Create): their grids exactly fill the GPU.
// pdl: the contiguous kernels' code on this device waits for the previous
// grid (built from sm_90+ PTX), so programmatic dependent launch is safe.
struct Occupancy {
    int strided = 1, strided_vec = 1, tiled = 1;
    bool pdl = false;
};

// Builds the plan from the validated info, the device's properties and the
// kernels' occupancy.
infiniStatus_t makePlan(const Info &info, const InfiniopHandle &handle, const Occupancy &occ, Plan *plan);

// Fills the occupancy of launch<Op, D>'s kernels on the current device.
template <class Op, infiniDtype_t D>
infiniStatus_t occupancy(Occupancy *occ);

// Runs op on the plan. Defined in nvidia.cuh, explicitly instantiated per
// operator and kernel dtype by INFINI_ELEMENTWISE_NVIDIA_INSTANTIATE.
template <class Op, infiniDtype_t D>
infiniStatus_t launch(const Plan &plan, void *out, const void *const *inputs, void *stream);

struct NvidiaDescriptor final : Descriptor {
    using LaunchFn = infiniStatus_t (*)(const Plan &, void *, const void *const *, void *);
    Plan plan;
    LaunchFn fn;
    NvidiaDescriptor(const InfiniopHandle &h, OpKind kind, const Info &i, Plan p, LaunchFn f)
        : Descriptor(h, kind, i), plan(std::move(p)), fn(f) {}
    infiniStatus_t calculate(void *out, const void *const *inputs, void *stream) const override;
    // Temporaries from the stream-ordered allocator (capturable): copy, run, free.
    infiniStatus_t calculateStaged(void *out, const void *const *inputs, unsigned staged,
                                   void *stream) const override;
};

// The NVIDIA factory of an operator (INFINI_ELEMENTWISE_OPERATOR passes it to
// elementwise::create in NVIDIA builds).
template <class Op>
infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Descriptor **out) {
    NvidiaDescriptor::LaunchFn fn = nullptr;
    infiniStatus_t (*occ_fn)(Occupancy *) = nullptr;
    auto pick = [&](auto tag) {
        fn = &launch<Op, kernelDtype<Op>(decltype(tag)::value)>;
        occ_fn = &occupancy<Op, kernelDtype<Op>(decltype(tag)::value)>;
        return INFINI_STATUS_SUCCESS;
    };
    INFINI_TRY(dispatch(typename Op::Dtypes{}, info.dtype, pick));
    Occupancy occ;
    {
        ScopedCudaDevice device(handle.device_id);
        INFINI_TRY(device.status());
        INFINI_TRY(occ_fn(&occ));
    }
    Plan plan;
    INFINI_TRY(makePlan(info, handle, occ, &plan));
    *out = new NvidiaDescriptor(handle, Op::kKind, info, std::move(plan), fn);
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::elementwise::nvidia
