#pragma once
// LPNorm on NVIDIA GPUs: the launch plan decided at Create (plain C++, shared
// by the host planner nvidia.cc and the kernels' launchers in *.cu).
#include "../../common/cuda/pdl_policy.h"
#include "../../common/host_device.h"
#include "../../common/handle.h"
#include "infinicore.h"
#include <cstddef>
#include <cstdint>

namespace infini::lp_norm::nvidia {

// ceil(a / b) for a >= 0, b > 0 (the planners' counts of chunks, tiles, blocks).
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The non-reduced dims that a kernel decomposes a row (or column-group) index
// over. Layouts with more dims than that (after simplification) use a table of
// offsets in device memory instead, built at Create.
constexpr int kMaxOuter = 8;
struct Outer {
    int nd = 0;
    int64_t size[kMaxOuter] = {};
    int64_t sx[kMaxOuter] = {}, sy[kMaxOuter] = {};
    const int64_t *table = nullptr; // (x offset, y offset) per index, when not null
};

enum class Kind {
    Rows,  // a group of threads (up to a block) per row, the row held in registers
    Split, // long rows: per-chunk stats into the workspace, then merge and scale
    Cluster, // long rows on sm_90: a cluster of blocks per row, stats merged in shared memory
    Stream, // many rows of a few KB on sm_90: a warp (or block) per row, rows streamed through shared memory
    TwoPass, // long rows on sm_90: a cluster per row streams it twice (stats, then scale), nothing held
    Pipe,    // long rows on sm_90: a cluster per row holds it in a ring of bulk-copied tiles, rows pipelined
    Grid,    // long rows on sm_90: every block (one an SM, all resident) owns a chunk of every row, stats via workspace
    Sweep,   // few long rows on sm_90: two kernels over the whole GPU (chunk statistics, then merge and scale)
    Hold,    // few long rows on sm_90 that fit on chip: one resident grid holds them, stats via workspace records
    Cols,  // the axis is not innermost: threads own inner positions and walk the axis
    Slab,  // the axis is not innermost, axis x inner one contiguous run in x and y: a block a run (slab.cu)
};

// The largest slab (elements of the reduced axis x inner dim, in bytes), or group of slabs, the Slab plan
// takes: with a pack of slack either side and the kernel's static arrays, within the 48 KB a block gets
// unasked (past it, one slab a block where the plan would be Cols: slabBigBytes, below).
constexpr int64_t kSlabMaxBytes = 32 * 1024;
// One slab a block past kSlabMaxBytes, up to these many KB (4-byte types; the others), in dynamic shared
// memory past the 48 KB a block gets unasked (planSlabSmem), only where the plan would otherwise be Cols
// (not in place of the column chunks: planSlabChunks). Session 48, call 1 (tools/verify_s48a.sh, 96 KB
// wherever Slab applied), 104 random cases, eager µs against the mean of two default runs: in place of
// Cols up to 48 KB geomean 0.722 (20 cases, worst 1.02), 4-byte ones up to 72 KB 0.51-0.92 (the seed-47
// sweep's worst LPNorm case, (65,18,69,261) F32 axis 2 p 1, 70 KB slabs: 143.3 -> 73.1, PyTorch 110.2);
// past those, and 16-bit / F64 slabs of 48-72 KB, mixed (up to 1.28x: (14,40,126,265) F16 p 3, 65 KB);
// in place of the column chunks 1.03 (up to 1.41x: (15,22,48,854) F16, 80 KB). Over the 28 cases the rule
// takes, 0.695, worst 1.02, behind PyTorch 11 -> 0. 32 (both): off.
#ifndef INFINI_LP_NORM_SLAB_BIG_KB
#define INFINI_LP_NORM_SLAB_BIG_KB 48
#endif
#ifndef INFINI_LP_NORM_SLAB_BIG_KB_4B
#define INFINI_LP_NORM_SLAB_BIG_KB_4B 72
#endif
// The largest single slab a block of elements of `elem_size` bytes (kSlabMaxBytes: no big slabs).
constexpr int64_t slabBigBytes(size_t elem_size) {
    const int64_t kb = elem_size == 4 ? INFINI_LP_NORM_SLAB_BIG_KB_4B : INFINI_LP_NORM_SLAB_BIG_KB;
    return kb * 1024 > kSlabMaxBytes ? kb * 1024 : kSlabMaxBytes;
}
constexpr int kSlabThreads = 256; // a block; past this many columns a thread takes several (nvidia.cc)
// A group's bytes where each column takes one thread (planSlab).
constexpr int64_t kSlabGroupBytes = 8 * 1024;
// Column length past which slabs larger than kSlabGroupBytes stay on Cols (planSlab).
constexpr int64_t kSlabLongColumn = 128;

// The Split plan's chunks (rows.cu): a block of kSplitThreads threads, kSplitItems packs a thread.
constexpr int kSplitThreads = 256, kSplitItems = 8;
constexpr int64_t kSplitChunkPacks = (int64_t)kSplitThreads * kSplitItems;

struct Plan {
    Kind kind = Kind::Rows;
    infiniDtype_t dtype = INFINI_DTYPE_F32;
    int vec = 1; // elements per load: 16 bytes' worth, or 1
    int p = 2;
    bool cs = false;    // streaming cache hints (tensor larger than L2)
    float eps = 0;
    int64_t len = 0;          // reduced length, in elements
    int64_t sxr = 0, syr = 0; // reduced strides
    Outer outer;              // Rows/Split: every other dim; Cols: all but the inner one
    int64_t rows = 0;         // number of outer indices
    // Rows / Split
    int tpr = 1;        // threads per row (power of two; Grid: the lag, GridTuning)
    int items = 1;      // vectors held per thread (Pipe: ring slots a block)
    int threads = 256;  // block size
    int64_t chunks = 1; // Split / Cluster: chunks per row (Cluster: blocks per cluster); Cols: of the axis
    int64_t chunk_vecs = 0; // Split: packs a chunk; Cols: rows of the axis a chunk; Slab: columns a chunk (0: whole slabs)
    bool split_factors = false; // Split: a kernel merges each row's chunk records once (rows.cu)
    bool ragged = false; // Rows / Split in packs of rows whose length is no multiple of a pack (rows.cu)
    // Cols (Slab: inner in elements, by thread rows a column)
    int64_t inner = 0; // inner positions, in vectors
    int64_t sxi = 0, syi = 0;
    int bx = 1, by = 1;
    // Slab: slabs a block (neighbours in the fastest outer dim, one run in x and y), and that dim's extent
    int slabs = 1;
    int64_t slab_edge = 0;
    // Grid
    unsigned grid_x = 1, grid_y = 1;
    size_t smem_max = 0; // Stream: the kernel's shared-memory limit; Pipe: its dynamic shared memory
    bool pdl_ok = false; // Stream, Pipe, Split: the (dependent) kernel on this device waits for real (kernelHonoursPdl)
    PdlPolicy pdl = PdlPolicy::Never; // Pipe: when its launches use PDL; Split: when its apply kernel does
    int hints = 0;       // TwoPass: a TwoPassHints
    int64_t prefetch = 0; // TwoPass: bytes of its next row a block prefetches into L2 before each merge;
                          // Sweep: packs at the end of each chunk the first kernel keeps in L2
    int64_t kept = -1;    // Hold: the L2 part's first tiles a block reads with an evict-last policy (-1: all)
    size_t workspace = 0;
};

// Rows of more than 128 packs (vector plans) that would fill at most 3/4 of their threads' 4 packs take
// half the threads with 6 packs each (nvidia.cc's sizeRows, rows.cu's ITEMS 6 kernels): fuller lanes and
// more rows an SM. Not 16-bit ragged rows, whose ITEMS 6 kernels spill (302 bytes for F16). Session 45,
// call 2 (tools/verify_s45a.sh), 82 row cases whose plan it changes (tools/shaped_cases.py lpmid 45),
// eager µs (PyTorch's): (1552, 9717) F32 p 3 72.4 -> 42.0 (101.0), (14859, 597) F64 p 3 72.4 -> 55.8
// (152.7), (17271, 645) F32 29.8 -> 26.7, no F32 / F64 / aligned 16-bit case slower; 16-bit ragged rows
// 1.07-1.45x slower ((29341, 1313) F16 96.8 -> 138.3), hence their exclusion. 0: 4 packs a thread.
#ifndef INFINI_LP_NORM_ROWS_ITEMS6
#define INFINI_LP_NORM_ROWS_ITEMS6 1
#endif
// Whether rows of `vec`-element packs (ragged or not) of `elem_size`-byte elements may take the 6-pack
// threads: the planner's rule (sizeRows) and the kernels rows.cu compiles for it, in one place.
constexpr bool rowsItems6(int vec, bool ragged, size_t elem_size) {
    return INFINI_LP_NORM_ROWS_ITEMS6 && vec > 1 && !(ragged && elem_size == 2);
}

// Elements in a Cols pack of a 16-bit type where the axis stays whole and the planner takes it
// (nvidia.cc, which says where; cols.cu's kernels): 8, 16 bytes (session 35), or 4, 8 bytes (before).
// A cut axis always takes 4 (16-byte packs lost there: session 28, 4096x4096 axis 0 BF16 77 -> 154 µs).
#ifndef INFINI_LP_NORM_COLS_PACK_16BIT
#define INFINI_LP_NORM_COLS_PACK_16BIT 8
#endif
constexpr int kColsPack16Bit = INFINI_LP_NORM_COLS_PACK_16BIT;
// The threads an SM (rows x inner packs x thread rows) a 16-bit Cols plan in kColsPack16Bit packs needs
// for the planner to take it over 8-byte packs (nvidia.cc).
constexpr int64_t kColsPack16MinThreadsPerSm = 512;

// Launch a plan on `stream` (x and y already offset to element 0).
infiniStatus_t launchRows(const Plan &plan, const void *x, void *y, void *workspace, void *stream);
infiniStatus_t launchSplit(const Plan &plan, const void *x, void *y, void *workspace, void *stream);
infiniStatus_t launchCols(const Plan &plan, const void *x, void *y, void *workspace, void *stream);
infiniStatus_t launchSlab(const Plan &plan, const void *x, void *y, void *workspace, void *stream);
infiniStatus_t launchCluster(const Plan &plan, const void *x, void *y, void *workspace, void *stream);
infiniStatus_t launchStream(const Plan &plan, const void *x, void *y, void *workspace, void *stream);
infiniStatus_t launchTwoPass(const Plan &plan, const void *x, void *y, void *workspace, void *stream);
infiniStatus_t launchPipe(const Plan &plan, const void *x, void *y, void *workspace, void *stream);
infiniStatus_t launchGrid(const Plan &plan, const void *x, void *y, void *workspace, void *stream);
infiniStatus_t launchSweep(const Plan &plan, const void *x, void *y, void *workspace, void *stream);
infiniStatus_t launchHold(const Plan &plan, const void *x, void *y, void *workspace, void *stream);

// A Slab plan of one slab a block past kSlabMaxBytes (slabBigBytes): lets the Slab kernel of the plan's
// dtype take that much dynamic shared memory on this device (slab.cu); false where it cannot.
bool planSlabSmem(const InfiniopHandle &h, const Plan &plan);
// A Cols plan with a cut axis (chunks > 1): its Factor and Apply kernels' PDL
// fields, as planSplitPdl's (INFINI_LP_NORM_COLS_SPLIT_PDL, cols.cu).
void planColsPdl(Plan &plan);
// A Split plan's PDL fields: whether its apply kernel waits for real on this
// device (pdl_ok), and the build's policy (INFINI_LP_NORM_SPLIT_PDL, rows.cu).
void planSplitPdl(Plan &plan);
// Turn a Rows/Split plan (vector packs) into a Cluster plan when the device
// can run one cluster per row; false leaves the plan as it is.
bool planCluster(const InfiniopHandle &h, Plan &plan);
// The TwoPass plan's cache hints (two_pass.cu). Streaming: pass 1 plain loads,
// pass 2 evict-first loads and stores (the stores must not push x out of L2
// before pass 2 reads it); KeepFirstPass: pass 1 with an L2 evict-last
// policy as well; None: no hints.
enum class TwoPassHints { Streaming, KeepFirstPass, None };
// How the TwoPass planner shapes the grid: rows in flight so that they fill at
// most l2_fraction of L2, about blocks_per_sm blocks an SM; cluster/clusters
// > 0 force the cluster size / the number of clusters (tools/lpn7_bench.cu).
struct TwoPassTuning {
    double l2_fraction = 0.7;
    int blocks_per_sm = 2; // session 8, H100: 32x1M BF16 72.6 -> 67.0 us against 1, 64x1M 137.1 -> 126.5
    int cluster = 0, clusters = 0;
    // session 8, H100, with 2 blocks per SM: 32x1M BF16 69.7 -> 66.3 us, 64x1M 127.5 -> 123.8
    TwoPassHints hints = TwoPassHints::KeepFirstPass;
    int64_t prefetch = 0; // bytes (see Plan::prefetch)
};
// Turn a Rows/Split plan (16-byte packs) into a TwoPass plan (sm_90 code on
// an sm_90 device, enough rows x blocks to fill half the SMs); false leaves
// the plan as it is.
bool planTwoPass(const InfiniopHandle &h, Plan &plan, const TwoPassTuning &tune = TwoPassTuning{});
// How the Pipe planner (pipe.cu) shapes the grid: ring slots a block (0: as
// many tiles (32 KB) as its shared memory takes, 7 on the H100), the smallest
// cluster that leaves `slack` x 16 KB of slots past its chunk (the next row's
// first tiles, in flight while this row merges; 6 gives clusters of 16 for
// 1M-element BF16 rows), as many clusters as run at once; cluster/clusters > 0
// force them (tools/lpn7_bench.cu).
struct PipeTuning {
    int slots = 0;
    int slack = 6; // in 16 KB, whatever the tile size
    int cluster = 0, clusters = 0;
    int pdl = -1; // a PdlPolicy, or -1: the build's (INFINI_LP_NORM_PIPE_PDL)
};
// Turn a Rows/Split plan (16-byte packs) into a Pipe plan (sm_90 code on an
// sm_90 device, the row held by at most 16 blocks, enough clusters to fill
// half the SMs); false leaves the plan as it is.
bool planPipe(const InfiniopHandle &h, Plan &plan, const PipeTuning &tune = PipeTuning{});
// How the Grid planner (grid.cu) shapes its ring: `lag` rows between a row's
// published statistics and its finish (tpr in the plan), ring slots a block
// (0: as many rows' chunks as its shared memory takes, at most 16), the
// chunks' alignment and the copies a chunk is read in.
struct GridTuning {
    // H100, 32x1M BF16, graph µs (session 24, the merger polling every pending
    // record and the publisher warp): lag 3 81.7, 5 77.2, 8 75.9, 10 75.5;
    // session 25, the compute warps' packed sums: lag 5 67.2, 8 64.7, 10 64.6.
    int lag = 10;
    int slots = 0;
    int align_packs = 8; // chunk starts: multiples of this many 16-byte packs
    int pieces = 1;      // bulk copies a block reads its chunk of a row in (bx in the plan)
    int depth = 3;       // rows a block has in flight at most (by in the plan)
};
// Turn a Rows/Split plan (16-byte packs) into a Grid plan (sm_90 code on an
// sm_90 device with cooperative launch and at most 160 SMs, one block an SM,
// chunks of 2-35 KB a block); false leaves the plan as it is.
bool planGrid(const InfiniopHandle &h, Plan &plan, const GridTuning &tune = GridTuning{});
// How the Sweep planner (sweep.cu) shapes its two kernels: about
// blocks_per_sm blocks an SM (each row cut into that many chunks over the
// rows), each with a ring of `slots` bulk-copied tiles, l2_fraction of L2
// kept for the second read of x (evict-last copies in the first kernel), and
// when the launches use PDL (a PdlPolicy, or -1: always, graphs too).
struct SweepTuning {
    int blocks_per_sm = 1;
    double l2_fraction = 0.6;
    int pdl = -1;
    // Ring slots a block (32 KB each; 0: as many as its share of shared memory
    // takes, 7 on the H100). H100 graph µs, 7 -> 4: 1x1M BF16 11.5 -> 10.5,
    // 2x1M 12.4 -> 11.7, 4x1M 16.0 -> 15.4, 1x16M 38.8 -> 38.0 (notes/lp_norm.md,
    // "Session 15").
    int slots = 4;
};
// Turn a Rows/Split plan (16-byte packs) into a Sweep plan (sm_90 code on an
// sm_90 device); false leaves it as it is.
bool planSweep(const InfiniopHandle &h, Plan &plan, const SweepTuning &tune = SweepTuning{});
// How the Hold planner (hold.cu) shapes its kernel: ring slots a block (15 KB
// each; 0: as many as its shared memory takes, 15 on the H100), the packs held
// in registers, the share of L2 that may hold the packs read twice (neither in
// registers nor in the ring), and when its launches use PDL (a PdlPolicy, or
// -1: the build's, INFINI_LP_NORM_HOLD_PDL).
struct HoldTuning {
    int slots = 0;
    int reg_packs = -1; // 16-byte packs a worker holds in registers (-1: as many as the kernel has room for, 24)
    double l2_fraction = 0.5;
    int pdl = -1;
    // The share of L2 that the L2 part's evict-last lines may fill: past it
    // (an l2_fraction above it), each block's later L2-part tiles are read
    // evict-first, as the tiles read once are.
    double keep_fraction = 0.5;
};
// Turn a Rows/Split plan (16-byte packs, rows one after the other in x and y)
// into a Hold plan (sm_90 code on an sm_90 device, pieces of one SM each no
// longer than a row, what the SMs do not hold within tune's L2 budget); false
// leaves the plan as it is.
bool planHold(const InfiniopHandle &h, Plan &plan, const HoldTuning &tune = HoldTuning{});
// Turn a block-per-row Rows plan (vector packs) into a Stream plan: a warp a
// row (`warp_groups`: rows of 2-14 KB, at least two per warp of the grid), or
// (INFINI_LP_NORM_BLOCK_STREAM, for longer rows) a block a row; false leaves it as it is.
bool planStream(const InfiniopHandle &h, Plan &plan, bool warp_groups = true);

// Packs a row spans: ragged rows start anywhere on the 16-byte grid.
INFINI_HD int64_t rowPacks(const Plan &plan) {
    return plan.ragged ? (plan.len + 2 * plan.vec - 2) / plan.vec : plan.len / plan.vec;
}

// How the Stream plan uses programmatic dependent launch (PDL, stream.cu): when
// (PdlPolicy, common/cuda/pdl_policy.h) and where each warp triggers; the
// library's choice is kStreamPdl there; tools/pdl6_bench.cu times the others.
//
// Where a warp lets the next call's grid be scheduled (a block counts at its
// first warp's; the grid once every block has, or exited).
enum class PdlTrigger {
    Entry,    // right after the wait (dev/pdl5)
    LastLoad, // after issuing the loads of its last row
    LastRow,  // before waiting for its last row's loads
};
struct StreamPdl {
    PdlPolicy use = PdlPolicy::Never;
    PdlTrigger trigger = PdlTrigger::LastLoad;
    // Shared memory reserved so that no SM takes a third block: the next call's
    // waiting blocks then only take room that ours have left.
    bool two_per_sm = true;
};
infiniStatus_t launchStreamKernel(const Plan &plan, const void *x, void *y, void *stream, const StreamPdl &pdl);

} // namespace infini::lp_norm::nvidia
