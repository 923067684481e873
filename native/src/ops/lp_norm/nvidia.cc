// LPNorm on NVIDIA GPUs: choose the kernel and its launch shape at Create.
#include "../../common/cuda/check.cuh"
#include "../../common/cuda/stream_sms.h"
#include "lp_norm.h"
#include "nvidia_plan.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

// Long rows on sm_90: 1 = the TwoPass plan first (two_pass.cu), then Cluster;
// 0 = Cluster first, as before it (build with -DINFINI_LP_NORM_TWO_PASS=0 to
// compare; tools/lpn7_bench.cu times both plans from one build).
#ifndef INFINI_LP_NORM_TWO_PASS
#define INFINI_LP_NORM_TWO_PASS 1
#endif

// Long rows on sm_90: 1 = the Pipe plan (pipe.cu: rows held on chip in a ring
// of bulk copies, each element read once, rows pipelined) before TwoPass, for
// 2-byte elements, clusters of at least 8 blocks (rows of ~0.5M elements and
// more: the shapes measured) and at least two rows a cluster; 0 = TwoPass first, as
// before it. H100, graph µs, TwoPass -> Pipe: 32x1M BF16 65.4 -> 63.6, 64x1M
// 123.3 -> 117.1, 16x1M 41.0 -> 39.8, but 8x1M 22.7 -> 26.4 (one row a
// cluster: nothing to pipeline), hence the rows rule (notes/lp_norm.md,
// session 9). tools/lpn7_bench.cu times both plans from any build.
#ifndef INFINI_LP_NORM_PIPE
#define INFINI_LP_NORM_PIPE 1
#endif

// 1: the Pipe plan also for 8-byte rows of 32K+ elements and for 4-byte rows
// of more than 2 MB with more bytes than L2 holds in all, at least two rows a
// cluster (clusters of any size for 8-byte rows; 8+ blocks for 4-byte), where
// Hold does not plan within its budget; 0: 2-byte rows only, as before
// session 30. H100 graph µs (tools/lpn7_bench.cu LPN7_ONLY=pipewide /
// gridedge / f32big, tools/verify_s30i.sh, notes/lp_norm.md "Session 30"),
// the library's plan -> Pipe, within L2 (the smallest row counts the rows
// rule admits; PyTorch in brackets): F64 132x32K Split 47.9 -> 29.8 (44.4),
// 160x32K 62.1 -> 38.4 (51.8), 80x40K Cluster 39.5 -> 30.4 (38.2), 100x48K
// 44.5 -> 36.2 (52.6), 64x56K 44.9 -> 31.5 (43.1); beyond L2: F64 64x256K
// Cluster 136.4 -> 110.3, 128x256K 251.2 -> 216.5,
// 48x320K 150.6 -> 104.4 (Hold from DRAM 119.9), 128x192K 194.1 -> 168.3,
// 128x128K 132.1 -> 107.2, 256x64K 120.7 -> 106.3, 512x32K Split 175.4 ->
// 103.7, 64x256K p 3 173.8 -> 125.9, 64x352K 214.5 -> 148.3; F32 64x576K
// 133.2 -> 119.7, 64x640K 164.7 -> 136.7, 96x640K 238.9 -> 201.2. F32 rows of
// 2 MB and less lose to Cluster (128x512K 201.3 / 215.1, 128x384K 154.7 /
// 166.1, 256x256K 195.8 / 206.7; 48x512K ties), hence the row rule.
#ifndef INFINI_LP_NORM_PIPE_WIDE
#define INFINI_LP_NORM_PIPE_WIDE 1
#endif

// Long rows on sm_90: 1 = the Grid plan (grid.cu: every block of one
// resident grid owns a chunk of every row, each element read once, the rows'
// statistics exchanged through the workspace) before Pipe and TwoPass,
// wherever it plans; 0 (default) = not planned. H100, graph µs, 32x1M BF16:
// Pipe 63.4, Grid 88-106 by tuning (notes/lp_norm.md, session 10); 75.5 with
// session 24's merger and publisher; 64.6 with session 25's packed sums,
// against Hold's 54.2 (its probe without factor waits: 55.5).
// tools/lpn7_bench.cu (LPN7_ONLY=grid) times it against the others from any build.
#ifndef INFINI_LP_NORM_GRID
#define INFINI_LP_NORM_GRID 0
#endif

// Long rows on sm_90 beyond Hold's budget (holdPays, but Hold refused) whose
// chunks a block are 22-33 KB (rows of 2.8-4.4 MB on 132 SMs): 1 = the Grid
// plan before Pipe, TwoPass, Cluster and Hold reading from DRAM (Pipe ties it
// at 3 MB rows: BF16 64x1.5M 160.0 / 160.9, F32 64x768K 158.2 / 156.9, F64
// 64x384K 159.0 / 155.3); 0 = not. H100 graph µs (tools/lpn7_bench.cu
// LPN7_ONLY=f32big / gridrule, notes/lp_norm.md "Session 30"), the library's
// plan -> Grid: F32 24x1M Cluster 92.9 -> 77.3, 32x1M 122.4 -> 101.6, 64x1M
// 221.4 -> 197.2 (p 3 333.4 -> 255.9), 128x1M 422.3 -> 388.2, 64x768K 176.4
// -> 156.9; BF16 32x2M TwoPass 132.1 -> 102.4, 64x2M 256.2 -> 200.2; F16
// 64x2M p 1 254.2 -> 201.1; F64 32x512K Hold (DRAM) 128.4 -> 99.6, 64x512K
// 268.3 -> 192.5. Grid lost with 16 KB chunks (2 MB rows: F32 128x512K
// Cluster 201.3, Grid 227.5; F64 64x256K Hold 128.8, Grid 151.5), and ties
// Hold within its budget (16 rows of 4 MB: 53.6-55.9 against 54.3-55.1).
#ifndef INFINI_LP_NORM_GRID_BEYOND_HOLD
#define INFINI_LP_NORM_GRID_BEYOND_HOLD 1
#endif

// Long rows on sm_90 that no cluster plan takes (too few of them: 1-4 rows of
// 1M BF16, one long vector), 2-byte elements: 1 = the Sweep plan (sweep.cu:
// chunk statistics over the whole GPU, then merge and scale in a second
// kernel) before Split; 0 = Split, as before it. H100, library calls in
// graphs, Split (with PDL) -> Sweep: 2x1M BF16 15.3 -> 12.5 µs, 4x1M 20.3 ->
// 15.9, 1x16M 62.5 -> 37.9; but 2x2M F32 19.8 -> 22.0, hence 2-byte elements
// only (notes/lp_norm.md, "Session 15"). tools/lpn7_bench.cu (LPN7_ONLY=split)
// times both.
#ifndef INFINI_LP_NORM_SWEEP
#define INFINI_LP_NORM_SWEEP 1
#endif

// 1: holdPays' session-26 region (fewer rows, shorter rows) besides 8+ rows of
// 1M; 0: only the latter (the A/B of tools/verify_s26g.sh).
#ifndef INFINI_LP_NORM_HOLD_WIDE
#define INFINI_LP_NORM_HOLD_WIDE 1
#endif

// 1: holdPays' session-27 region too (4- and 8-byte elements; 2-byte: two
// rows of 4M+, rows of 128K-512K past 16M elements); 0: not (the A/B of
// tools/verify_s27b.sh).
#ifndef INFINI_LP_NORM_HOLD_WIDER
#define INFINI_LP_NORM_HOLD_WIDER 1
#endif

// 1: the Cols plan may cut a long axis of few columns into chunks (cols.cu's
// Stats, Factor and Apply kernels; session 27); 0: never (the A/B of
// tools/verify_s27d.sh).
#ifndef INFINI_LP_NORM_COLS_SPLIT
#define INFINI_LP_NORM_COLS_SPLIT 1
#endif

// The most rows of an F64 column a Cols thread holds (session 28; 16 before, as the other types).
#ifndef INFINI_LP_NORM_COLS_HELD_F64
#define INFINI_LP_NORM_COLS_HELD_F64 8
#endif
// The same for the other types (16 before session 34: at 16 rows of 8- and 16-byte packs the Whole
// kernel took 172-176 registers, one block of 256 an SM). At 8, two thread rows share a column of 9-16
// rows and Whole mode's 8-row kernel runs 3 blocks an SM; H200 eager µs, 16 -> 8 (PyTorch's):
// (12,16,512,512) F32 axis 1 133.5 -> 109.5 (231), axis 0 p 1 150.0 -> 118.9 (242), BF16 axis 1 252.4 ->
// 133.5 (191: behind it before), F16 axis 0 p 1 149.6 -> 144.3 (173), (256,10,8192) F32 axis 1 76.8 ->
// 62.6 (109); (64,16,1,4096) BF16 p 3 28.1 either way (tools/verify_s34d.sh).
#ifndef INFINI_LP_NORM_COLS_HELD
#define INFINI_LP_NORM_COLS_HELD 8
#endif
// A Cols block of 4- or 8-byte elements may narrow to rows of this many bytes (whole sectors: at least
// 32), where that lets a thread hold its column's rows within the cap above (0: blocks stay at least 32
// packs wide, and a column of 65-128 rows leaves a thread 9-16 rows: the 16-row kernel, 128-184
// registers, one block an SM). At 256 (16 packs of 16 bytes), H200 graph µs, 0 -> 256: (32,128,1024) F64
// axis 1 52.6 -> 33.2 (PyTorch 33.3: behind it before), (8,128,4096) F32 18.0 -> 17.0, (16,80,2048) F32
// p 1 14.2 -> 13.6. Narrower rows (64 bytes: 32-64 thread rows for columns of 129-512 rows, which are
// otherwise streamed) lost: (256,256,1024) BF16 91 -> 215, (128,192,1024) F32 73.8 -> 76.1, (160,130,512)
// F32 35.5 -> 47.3; and 16-bit types lost even at 256 ((64,80,2048) F16 p 1 29.8 -> 39.0), so they
// never narrow (tools/verify_s35a.sh, s35b, s35c).
#ifndef INFINI_LP_NORM_COLS_MIN_ROW_BYTES
#define INFINI_LP_NORM_COLS_MIN_ROW_BYTES 256
#endif
// The same for 16-bit types (a measuring knob, session 43, written after its device time was spent; 0:
// they never narrow, as session 35 chose). tools/lp_plan_probe.cc over the seed-43 sweep's LPNorm cases
// behind PyTorch: three 16-bit axis-0 cases with odd inner extents, (69,172,19,119) BF16 p 1 130.2 against
// 98.2 µs, (101,166,17,133) BF16 1.30x, (103,301,467) F16 1.10x, hold 9-13 rows a thread on the 16-row
// Whole kernel (one block an SM): columns of 69-103 rows over 8 thread rows of warps 32 wide. At 32, scalar
// columns take rows of 16 threads (one sector) and 16 thread rows, 8-byte packs rows of 4.
// Session 44, call 1 (H200, eager µs), 0 -> 32: 58 random 16-bit columns of 65-512 rows (shaped_cases.py
// colsmid 44, 16-bit) geomean 0.945, behind PyTorch 15 -> 12, worst 1.35x -> 1.17x ((386,102,168) BF16
// axis 1 40.9 -> 32.2, (1162,100,225) F16 135.9 -> 115.7; the worst loss 1.03x); the seed-42/43 LPNorm
// cases behind 0.986 ((59,108,206,6) BF16 46.9 -> 40.5, (103,301,467) F16 68.2 -> 60.6). Merged. Every
// case measured there came from the 16-row kernel; the merged form also narrowed streamed columns of
// 129-256 rows, which the seed-44 sweep then found behind PyTorch (up to 1.45x), so it now takes only the
// 16-row kernel's columns (planCols).
#ifndef INFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B
#define INFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B 32
#endif
// The same for 16-bit types in 16-byte packs (8 elements), where the 16-byte plan still fills the GPU as
// the planner wants (planCols): 128, rows of at least 8 packs, so at most 32 thread rows (the 16-row kernel
// where a column needs more) instead of 4 packs and 64 thread rows, or 2 and 128. Session 50 (H200, eager
// µs): session 49's idle-column guard (its code is in 9a36fe4) lost against the merged default (call 2,
// 1.028 on 60 cases) but for this form of it (5 cases, 0.83). Call 3, 70 fresh 16-bit columns it moved
// (seed 5050, 2-16 packs a row, 129-700 rows): **0.803** (the two default runs 1.000 apart), behind
// PyTorch 39 -> 5; by 128 -> 64 0.69 (18), by 64 -> 32 0.84 (49), (10,120,623,32) F16 axis 2 122.0 -> 76.3
// (PyTorch 110.0), (3406,553,32) F16 axis 1 280.4 -> 180.2 (220.8). Its 3 other cases had lost the 16-byte
// plan to 8-byte packs through the planner's fill test (to 1.18x): they now keep the default's narrowing.
#ifndef INFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B_PACK16
#define INFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B_PACK16 128
#endif

// > 0: a Split plan of at least this many chunks a row merges each row's chunk records once, in a kernel
// of its own (rows.cu's splitFactorKernel), instead of in every Apply block (quadratic in the chunks).
// H200, session 36 (eager µs, default 0 -> 64): one row of 47.5M F16 elements, scalar, 1164 -> 235
// (PyTorch 151); (49844002,) F16 p 3 1775 -> 296; (23677580,) F16 358 -> 118. 0: never.
#ifndef INFINI_LP_NORM_SPLIT_FACTOR_CHUNKS
#define INFINI_LP_NORM_SPLIT_FACTOR_CHUNKS 64
#endif

// A measuring knob: > 0 caps the rows a thread holds in a cut axis (more
// chunks, fewer registers); 0 (the default): as many chunks as two target's
// worth of threads need, and at most 8 rows a thread where they are held
// (planCols). Session 43, call 4, at 8: the seed-42 LPNorm cases 0.998 (behind
// 31 -> 21, (4911, 2421) F64 axis 0 103.1 -> 94.6), but 40 random cut-axis
// cases (shaped_cases.py colscut) 1.221, to 1.94x ((20041, 2118) BF16 axis 0
// 136.6 -> 265.0).
#ifndef INFINI_LP_NORM_COLS_SPLIT_ROWS
#define INFINI_LP_NORM_COLS_SPLIT_ROWS 0
#endif
// F64 columns that holding served worst (the seed-52 sweep had F64 in 26 of its 34 LPNorm lines behind
// PyTorch), streamed instead (ITEMS 0: batches of loads in a loop, the second pass from L1 / L2). Session
// 53, call 1 (H200, eager µs, each against two default runs on 60 cases it moves; tools/verify_s53a.sh):
// - WHOLE_STREAM_F64 1: whole columns a thread would hold 9-16 rows of on the 16-row kernel (one block an
//   SM), where they are pairs, or singles of at most WHOLE_STREAM_F64_SINGLES rows. Pairs:
//   (14,140,177,24) axis 2 158.0 -> 60.0 (PyTorch 66.5), (355,254,30) axis 1 43.3 -> 18.6; singles at 9-10
//   rows 0.69-0.79 ((229,67,393) axis 1 54.4 -> 37.8), at 12 0.91-1.01, at 14-16 lost (1.02-1.16);
// - CUT_STREAM_F64 1: a cut axis of pairs a thread would hold 5-8 rows of in its chunks, in the threads
//   target's chunks streamed: all 18 such cases won, 0.74-0.88 ((9339,626) axis 0 66.7 -> 49.5, PyTorch
//   54.3; (879,5736) 56.6 -> 43.5); singles at 8 rows lost (1.06-1.21), pairs at 4 rows tied or lost.
//   (Held chunks of 16 rows, the other way, lost: 1.107.)
// Call 2, the two rules together against the tree without them on fresh cases (tools/verify_s53b.sh):
// 40 cut axes 0.781 (behind PyTorch 24 -> 3, none slower), 40 whole ones 0.530 (21 -> 0, none slower).
#ifndef INFINI_LP_NORM_COLS_WHOLE_STREAM_F64
#define INFINI_LP_NORM_COLS_WHOLE_STREAM_F64 1
#endif
#ifndef INFINI_LP_NORM_COLS_WHOLE_STREAM_F64_SINGLES
#define INFINI_LP_NORM_COLS_WHOLE_STREAM_F64_SINGLES 11
#endif
#ifndef INFINI_LP_NORM_COLS_CUT_STREAM_F64
#define INFINI_LP_NORM_COLS_CUT_STREAM_F64 1
#endif
// WHOLE_STREAM_F32 1: F32 4-packs kept whole at 9-16 rows a thread streamed too. Session 53, call 2 (H200,
// eager µs, against the 16-row kernel at 2 blocks an SM, 25 fresh cases; tools/verify_s53b.sh): 0.914, behind
// PyTorch 2 -> 0 ((3557,141,40) axis 1 103.6 -> 80.3, PyTorch 98.2), the worst (1311,247,52) p 1 56.8 ->
// 63.3 (PyTorch 85.2). (The cut axis's F32 4-packs at 5-8 rows streamed lost: 1.018 on 25 cases.)
#ifndef INFINI_LP_NORM_COLS_WHOLE_STREAM_F32
#define INFINI_LP_NORM_COLS_WHOLE_STREAM_F32 1
#endif
// A measuring knob for session 54 (0: off): F32 singles of up to this many rows a thread (> 8) streamed
// likewise (16-bit columns do not reach the 16-row kernel: 0 of 3800 colsmid-like probe cases).
#ifndef INFINI_LP_NORM_COLS_WHOLE_STREAM_F32_SINGLES
#define INFINI_LP_NORM_COLS_WHOLE_STREAM_F32_SINGLES 0
#endif
// A measuring knob for session 54 (0: off): > 0 cuts a streamed axis into more chunks (up to 256) so that a
// thread streams at most this many rows of its chunk. The seed-53 sweep's cut axes behind PyTorch stream
// 27-76 rows a thread in 2-24 chunks: (89,707,173) F64 axis 1, 2 chunks of 360 rows, 98.4 against 81.9 µs;
// (625,41,369) F64 axis 0 1.12x; (5239,1393) F64 and (2405,9137) F32 1.04x. (Session 27's (32,4096,512) BF16
// axis 1 had 57 rows streamed at 254.6 against 8 held at 296.1.)
#ifndef INFINI_LP_NORM_COLS_CUT_STREAM_MAX_ROWS
#define INFINI_LP_NORM_COLS_CUT_STREAM_MAX_ROWS 0
#endif

// Session 43 (written after its device time was spent; merged in session 44): > 0 keeps the axis whole where
// planCols would cut it, if blocks of narrower rows (down to this many bytes of packs a thread row: 128
// = 8 packs of 16 bytes) bring a column within held_max rows a thread (more thread rows a block, 256
// threads). The seed-43 sweep's worst LPNorm case, (146,65,404) F64 axis 0 p 1 (50.8 against PyTorch's
// 35.9 µs), has columns of 146 rows: warps 32 packs wide leave 8 thread rows, 19 rows a thread, past F64's
// 8, so the axis is cut into 3 chunks and x read twice; at 8 packs wide, 32 thread rows hold 5 rows
// each. Session 35's 64-byte rows lost where the axis stayed whole anyway; this takes only cut axes, and
// only where the narrower blocks are at least one an SM. 0: off.
// Session 44, call 1 (H200, eager µs, 50 columns of 129-256 rows: shaped_cases.py colsband 44 50): at 128,
// geomean 1.011. F64 gained or held in every case (0.81-1.00: (232,6118) p 3 25.7 -> 20.7), its cut paying
// the slow F64 Factor kernel. F32 and 16-bit gained where the uncut grid fit in one wave of the Whole
// kernel (at most 396 blocks: (232,6200) F32 23.2 -> 15.9, (217,24720) F16 35.4 -> 28.2; 12 of 12 such
// cases 0.69-1.03) and lost past it ((215,14428) F32 22.0 -> 26.3; 16-bit to 1.78x, (193,82696) BF16 46.3
// -> 82.3: there the uncut 16-byte-pack plan displaced an uncut stream of 8-byte packs).
// Call 2, with UNCUT_ONE_WAVE (below), on a fresh set (colsband 45 50): geomean 0.964, behind PyTorch 15 ->
// 8; over the 16 cases whose plan it changes 0.88 ((210,8,1230) F32 26.1 -> 17.5, (226,2,1615) F64 25.1 ->
// 16.9, (205,17928) F16 27.2 -> 25.4), one loss ((129,13626) F64 p 3 28.0 -> 32.5); the seed-42/43 cases
// behind 1.001. Merged: 128, with the one-wave rule.
#ifndef INFINI_LP_NORM_COLS_UNCUT_MIN_ROW_BYTES
#define INFINI_LP_NORM_COLS_UNCUT_MIN_ROW_BYTES 128
#endif
// With UNCUT: 1 keeps types under 8 bytes to uncut grids of at most one wave of the Whole kernel
// (kColsWholeBlocksPerSm blocks an SM), F64 everywhere (session 44's rule, from the call above); 0: every
// type everywhere.
#ifndef INFINI_LP_NORM_COLS_UNCUT_ONE_WAVE
#define INFINI_LP_NORM_COLS_UNCUT_ONE_WAVE 1
#endif
// Resident Whole-mode blocks an SM at up to 8 rows a thread: cols.cu's INFINI_LP_NORM_COLS_WHOLE_MIN_BLOCKS
// (4 since session 49 for kernels holding at most 64 bytes, INFINI_LP_NORM_COLS_WHOLE_SMALL_MIN_BLOCKS; the
// rule above was measured at 3 and keeps 3).
constexpr int64_t kColsWholeBlocksPerSm = 3;

// Long rows on sm_90 that fit on chip (every SM's registers and shared
// memory, plus at most half of L2 for the rest), where holdPays (below): 1 =
// the Hold plan (hold.cu: one resident grid, each element read from DRAM once
// and held until its row's factor is known) before Pipe, TwoPass, Cluster and
// Sweep; 0 = not planned.
#ifndef INFINI_LP_NORM_HOLD
#define INFINI_LP_NORM_HOLD 1
#endif

// Long rows on sm_90 that Hold would take but for its L2 budget and that no
// plan before Sweep and Split holds on chip: 1 = Hold anyway (hold.cu), what
// it does not hold read again from DRAM (HoldTuning's keep_fraction of L2
// kept there); 0 = not planned (Sweep or Split instead, as before session 29).
#ifndef INFINI_LP_NORM_HOLD_DRAM
#define INFINI_LP_NORM_HOLD_DRAM 1
#endif

namespace infini::lp_norm::nvidia {

namespace {

constexpr uintptr_t kWorkspaceAlign = 16; // Stats<double> records

int64_t nextPow2(int64_t n) {
    int64_t p = 1;
    while (p < n) {
        p <<= 1;
    }
    return p;
}

size_t computeSize(infiniDtype_t dt) { return dt == INFINI_DTYPE_F64 ? 8 : 4; }

// Fill plan.outer from dims [begin, end) of the info's outer dims; with more
// dims than kMaxOuter, fill `table` with every index's offsets instead (the
// descriptor uploads it).
bool setOuter(Plan &plan, const Info &in, size_t begin, size_t end, std::vector<int64_t> &table) {
    plan.rows = 1;
    for (size_t d = begin; d < end; ++d) {
        plan.rows *= (int64_t)in.outer_shape[d];
    }
    if (end - begin > (size_t)kMaxOuter) {
        if (plan.rows > (int64_t)1 << 26) { // 1 GiB of offsets: refuse instead
            return false;
        }
        table.assign(2 * (size_t)plan.rows, 0);
        std::vector<size_t> idx(end - begin, 0);
        int64_t ox = 0, oy = 0;
        for (int64_t i = 0; i < plan.rows; ++i) {
            table[2 * i] = ox;
            table[2 * i + 1] = oy;
            for (size_t k = end - begin; k-- > 0;) { // odometer, last dim fastest
                ox += in.outer_x[begin + k];
                oy += in.outer_y[begin + k];
                if (++idx[k] < in.outer_shape[begin + k]) {
                    break;
                }
                ox -= (int64_t)in.outer_shape[begin + k] * in.outer_x[begin + k];
                oy -= (int64_t)in.outer_shape[begin + k] * in.outer_y[begin + k];
                idx[k] = 0;
            }
        }
        plan.outer.nd = 0;
        return true;
    }
    plan.outer.nd = (int)(end - begin);
    for (size_t d = begin; d < end; ++d) {
        plan.outer.size[d - begin] = (int64_t)in.outer_shape[d];
        plan.outer.sx[d - begin] = in.outer_x[d];
        plan.outer.sy[d - begin] = in.outer_y[d];
    }
    return true;
}

bool stridesDivisible(const Info &in, size_t end, int vec) {
    for (size_t d = 0; d < end; ++d) {
        if (in.outer_x[d] % vec != 0 || in.outer_y[d] % vec != 0) {
            return false;
        }
    }
    return true;
}

// Where the Hold plan beats the others (H100, graph µs, tools/lpn7_bench.cu
// LPN7_ONLY=hold / holdrule / holdwide, notes/lp_norm.md "Session 18", "Session
// 26" and "Session 27"). 2-byte elements: 8 or more rows of 1M or longer (32x1M
// Pipe 60.9 -> 54.6; 8x1M TwoPass 22.3 -> 17.9); since session 26 also 3-7 rows
// of 1M or longer (3x1M Sweep 14.4 -> 13.6, 4x1M 15.8 -> 14.6, 6x1M Pipe 16.2 ->
// 14.9), one row of 4M or longer (1x4M Sweep 15.9 -> 15.4, 1x16M 37.6 -> 32.4),
// 3+ rows of 512K-1M of 3M+ elements in all (8x512K TwoPass 14.8 -> 12.2,
// 16x512K Pipe 22.3 -> 17.8, 32x512K 35.4 -> 28.8, 64x512K 58.7 -> 55.0) and
// rows of 128K-512K of 8M+ elements (32x256K Pipe 22.4 -> 17.9, 64x256K 35.2 ->
// 29.0, 128x128K 30.2 -> 29.8; session 27: 96x256K 47.6 -> 42.0, 128x256K 60.3
// -> 55.7); p 3 too (4x1M Sweep 23.0 -> 20.7, 16x512K TwoPass 41.7 -> 28.6);
// session 27: two rows of 4M (Sweep 23.0 -> 21.7). Its fixed costs (a resident
// grid, one exchange) lose below: 2x1M Sweep 11.8, Hold 14.4; 2x2M 16.0 / 16.6;
// 8x128K TwoPass 8.0 / 9.5; 128x64K TwoPass 17.1 / 19.3. 4-byte elements
// (session 27; the library's other plans for them are Cluster and Split):
// 8M+ elements of rows of 256K+ (8x1M Split 35.2 -> 29.7, 16x1M Cluster 65.4
// -> 55.1, p 1 65.8 -> 54.9, 8x1M p 3 42.3 -> 37.9, 1x8M Split 38.6 -> 33.3,
// 32x256K Cluster 35.1 -> 29.6); 4M elements lose (4x1M Split 18.8 / 19.6,
// 2x2M 18.9 / 22.0, 1x4M 20.3 / 21.8). 8-byte elements: 2M+ elements of rows
// of 1M+ (2x1M Split 25.7 -> 23.3, 4x1M 48.2 -> 31.5, 8x1M 91.1 -> 55.6, 1x4M
// 50.6 -> 34.1); session 29: rows of 64K-512K too (16x256K Split 48.0 -> 29.6,
// 8x512K 48.1 -> 29.7, 8x256K 25.5 -> 18.8, 4x512K 25.6 -> 20.3, 32x128K 47.9 ->
// 29.7, 32x256K Cluster 75.4 -> 55.1, 64x128K 72.8 -> 55.3, 128x64K 62.7 -> 55.7;
// PyTorch 45.6 / 45.7 / 25.7 / 25.7 / 45.9 / 84.8 / 84.9 / 80.1).
// Past these (what planHold accepts aside), not measured.
// 8-byte rows from this length (session 29: 64K). Session 31 (H100, graph
// µs, tools/verify_s31e.sh, PyTorch in brackets): Hold against the Split plan
// that rows of 32K-48K below Pipe's rows rule had: 64x32K 25.0 -> 18.8 (24.8),
// 80x32K 33.3 -> 21.6 (29.9), 100x32K 41.1 -> 25.4 (35.8), 120x32K 46.4 ->
// 29.6 (41.4), 100x32K p 3 47.3 -> 30.2 (70.7), 56x40K 30.0 -> 20.0 (29.2),
// 64x48K 37.4 -> 24.3 (37.3). Where Pipe's rule admits them, Pipe first
// (planWholeDeviceRows: 132x32K 29.8 in session 30).
#ifndef INFINI_LP_NORM_HOLD_F64_MIN_LEN
#define INFINI_LP_NORM_HOLD_F64_MIN_LEN (32 * 1024)
#endif
bool holdPays(const Plan &plan) {
    constexpr int64_t K = 1024, M = K * K;
    const int64_t rows = plan.rows, len = plan.len, total = rows * len;
    const size_t es = dtypeSize(plan.dtype);
    const bool wider = INFINI_LP_NORM_HOLD_WIDE && INFINI_LP_NORM_HOLD_WIDER;
    if (es != 2) {
        return wider && (es == 4 ? len >= 256 * K && total >= 8 * M : len >= INFINI_LP_NORM_HOLD_F64_MIN_LEN && total >= 2 * M);
    }
    if (rows >= 8 && len >= M) {
        return true;
    }
    if (!INFINI_LP_NORM_HOLD_WIDE) {
        return false;
    }
    if (len >= M) {
        return rows >= 3 || (len >= 4 * M && (rows == 1 || wider));
    }
    if (rows < 3 || len < 128 * K) {
        return false;
    }
    return len >= 512 * K ? total >= 3 * M : total >= 8 * M && (wider || total <= 16 * M);
}

// Whether the Pipe plan is worth asking for (INFINI_LP_NORM_PIPE_WIDE's
// measured region for 4- and 8-byte elements; 2-byte elements: always). The
// rows rule at the call (two rows a cluster) keeps 8-byte shapes to 26 MB+.
bool pipeFits(const InfiniopHandle &h, const Plan &plan) {
    const size_t es = dtypeSize(plan.dtype);
    if (es == 2) {
        return true;
    }
    if (es == 8) {
        return INFINI_LP_NORM_PIPE_WIDE && plan.len >= 32 * 1024;
    }
    const double row_bytes = (double)plan.len * (double)es;
    const bool beyond_l2 = row_bytes * (double)plan.rows > (double)h.l2_cache_bytes;
    return INFINI_LP_NORM_PIPE_WIDE && beyond_l2 && row_bytes > 2.0 * 1024 * 1024;
}

// Plans sized for the whole device: all blocks resident at once (Hold, Grid)
// or thread-block clusters (Cluster, TwoPass, Pipe). A stream with fewer SMs
// (a green context's) takes the descriptor's portable plan instead (stream_sms.h).
bool needsWholeDevice(Kind kind) {
    return kind == Kind::Hold || kind == Kind::Grid || kind == Kind::Cluster || kind == Kind::TwoPass ||
           kind == Kind::Pipe;
}

// Long rows on the plans sized for the whole device (needsWholeDevice), in
// the order measured; false when none of them plans (`plan` unchanged then).
bool planWholeDeviceRows(const InfiniopHandle &h, Plan &plan) {
    if (INFINI_LP_NORM_GRID && planGrid(h, plan)) {
        return true;
    }
    // Pipe with its rows rule: at least two rows a cluster (clusters of 8+ for 2- and 4-byte rows).
    auto planPipeRule = [&] {
        Plan pipe = plan;
        if (INFINI_LP_NORM_PIPE && pipeFits(h, plan) && planPipe(h, pipe) &&
            pipe.chunks >= (dtypeSize(plan.dtype) == 8 ? 1 : 8) && pipe.rows >= 2 * (int64_t)(pipe.grid_x / pipe.chunks)) {
            plan = pipe;
            return true;
        }
        return false;
    };
    // (Hold's region also decides where Grid and Hold from DRAM are asked
    // for below; the failed planners leave rows, len and dtype as they are.)
    const bool hold_pays = INFINI_LP_NORM_HOLD && holdPays(plan);
    // 8-byte rows shorter than 64K: Pipe where it plans, as before session 31 (INFINI_LP_NORM_HOLD_F64_MIN_LEN).
    const bool pipe_first = dtypeSize(plan.dtype) == 8 && plan.len < 64 * 1024;
    if (hold_pays && pipe_first && planPipeRule()) {
        return true;
    }
    if (hold_pays && planHold(h, plan)) {
        return true;
    }
    if (INFINI_LP_NORM_GRID_BEYOND_HOLD && hold_pays) {
        constexpr int64_t kGridMinPaysChunk = (22 << 10) / 16; // 16-byte packs a block owns of a row
        Plan grid = plan;
        if (planGrid(h, grid) && grid.chunk_vecs >= kGridMinPaysChunk) {
            plan = grid;
            return true;
        }
    }
    if (planPipeRule()) {
        return true;
    }
    // TwoPass for 2-byte elements only: on the H100 it beats Cluster there
    // (32x1M BF16 87.9 -> 67.0 us, 64x1M 156.1 -> 126.5, 16x1M 62.4 -> 36.9)
    // but not on F32 (32x1M: Cluster 122.5, TwoPass 133.8; notes/lp_norm.md, session 8).
    if (INFINI_LP_NORM_TWO_PASS && dtypeSize(plan.dtype) == 2 && planTwoPass(h, plan)) {
        return true;
    }
    if (planCluster(h, plan)) { // sm_90: each element read once
        return true;
    }
    // Beyond Hold's L2 budget (session 29, H100 graph µs, Split -> Hold
    // reading the rest again from DRAM: F64 16x1M 173.5 -> 128.3, 32x1M
    // 336.3 -> 268.3, 12x1M 130.4 -> 91.3, 4x4M 183.6 -> 130.2; F32 4x8M
    // 138.2 -> 129.4; Sweep 109-291 on these; PyTorch 149.5 / 290.0 /
    // 116.7 / 150.0 / 170.3). Where Cluster or Pipe plans (F32 64x1M,
    // BF16 64x1M), they read each element once and stay ahead of it.
    if (INFINI_LP_NORM_HOLD_DRAM && hold_pays) {
        HoldTuning beyond;
        beyond.l2_fraction = HUGE_VAL;
        if (planHold(h, plan, beyond)) {
            return true;
        }
    }
    return false;
}

// The Split plan (rows.cu: per-chunk records, then apply) on plan's rows and
// outer dims in packs of plan.vec elements.
infiniStatus_t planSplit(const Info &in, Plan &plan) {
    plan.kind = Kind::Split;
    plan.threads = kSplitThreads;
    plan.tpr = kSplitThreads;
    plan.items = kSplitItems;
    plan.chunk_vecs = kSplitChunkPacks;
    plan.chunks = ceilDiv(rowPacks(plan), kSplitChunkPacks);
    const int64_t blocks = plan.rows * plan.chunks;
    INFINI_REQUIRE(blocks < INT32_MAX, INFINI_STATUS_NOT_IMPLEMENTED);
    plan.grid_x = (unsigned)blocks;
    plan.split_factors = INFINI_LP_NORM_SPLIT_FACTOR_CHUNKS > 0 && plan.chunks >= INFINI_LP_NORM_SPLIT_FACTOR_CHUNKS;
    // A record (two compute-type values) a chunk, then (split_factors) a factor a row.
    plan.workspace = (size_t)(blocks + (plan.split_factors ? plan.rows : 0)) * 2 * computeSize(in.dtype);
    planSplitPdl(plan);
    return INFINI_STATUS_SUCCESS;
}

infiniStatus_t sizeRows(Plan &plan);

// Rows of 4097-6144 packs that may take 6 packs a thread (rowsItems6), at least two a SM, on Rows (a block
// of 1024 threads a row, each element read once) instead of the long-row plans: 1 for 8-byte elements, 2
// (measuring) every type, 0 none. The seed-47 sweep's (731, 11398) F64 p 2 ran Split in 81.0 µs against
// PyTorch's 66.4: ncu (session 48, call 2), Stats 27.8 µs, Apply 52.7 reading x again from DRAM (56 MB),
// 80 registers, 35% of warps active. Call 3 (tools/verify_s48c.sh, at 2), 73 cases it moves, eager µs:
// **F64 faster in all 26 (0.70-0.91, geomean 0.77)**, (731, 11398) 81.3 -> 61.9 (66.4), (2093, 8978) p 3
// 213.0 -> 149.2 (265.9), ragged (1225, 10067) 96.0 -> 87.1 (92.3); F32 1.27 and 16-bit 1.51 slower
// (but for p 3), where the long-row plans overlap a row's phases across blocks.
#ifndef INFINI_LP_NORM_ROWS6_BEYOND
#define INFINI_LP_NORM_ROWS6_BEYOND 1
#endif

// Rows a group of threads cannot hold (over 4096 packs; 6144 under INFINI_LP_NORM_ROWS6_BEYOND), or long
// ones (over four Split chunks) too few to fill the GPU with a group each: the long-row plans' ground.
bool beyondRows(const InfiniopHandle &h, const Plan &plan) {
    const int64_t nv = rowPacks(plan);
    const size_t es = dtypeSize(plan.dtype);
    const bool six = (INFINI_LP_NORM_ROWS6_BEYOND >= 2 || (INFINI_LP_NORM_ROWS6_BEYOND == 1 && es == 8)) &&
                     rowsItems6(plan.vec, plan.ragged, es) && plan.rows >= 2 * (int64_t)h.sm_count;
    return nv > 1024 * (six ? 6 : 4) || (nv > 4 * kSplitChunkPacks && plan.rows < 2 * (int64_t)h.sm_count);
}

// A row per group of threads, or the split form for rows too long to hold or
// too few to fill the GPU. `portable`: none of the plans needsWholeDevice names.
infiniStatus_t planRows(const InfiniopHandle &h, const Info &in, int vec, Plan &plan, std::vector<int64_t> &table,
                        bool portable = false) {
    plan.kind = Kind::Rows;
    plan.vec = vec;
    INFINI_REQUIRE(setOuter(plan, in, 0, in.outer_shape.size(), table), INFINI_STATUS_NOT_IMPLEMENTED);
    const bool beyond = beyondRows(h, plan);
    if (beyond && !portable) {
        if (planWholeDeviceRows(h, plan)) {
            return INFINI_STATUS_SUCCESS;
        }
    }
    if (beyond) {
        if (INFINI_LP_NORM_SWEEP && dtypeSize(plan.dtype) == 2 && planSweep(h, plan)) {
            return INFINI_STATUS_SUCCESS;
        }
        return planSplit(in, plan);
    }
    if (planStream(h, plan)) {
        return INFINI_STATUS_SUCCESS;
    }
    return sizeRows(plan);
}

// A measuring knob (session 36, written without device time to run it): 1 lets ragged rows take the
// Stream plan (stream.cu's RAGGED kernel) where aligned rows of their length would. Session 36's fresh
// sweep had 33 many-row ragged cases behind PyTorch on Rows (median 1.06x, (1138, 17177) F16 1.27x),
// where aligned rows of those lengths stream ahead of it. 0: Rows.
#ifndef INFINI_LP_NORM_RAGGED_STREAM
#define INFINI_LP_NORM_RAGGED_STREAM 0
#endif

// (Session 42's (137,255,58,21) BF16 axis 3, rows of 21 on the ragged Rows plan, 386 against PyTorch's 346
// µs, led to a plain length threshold, INFINI_LP_NORM_RAGGED_MIN_LEN: at 64 it lost over 100 short ragged
// rows, geomean 1.093, F32 / F64 rows of 9-61 up to 2.5x; only 16-bit rows of 19-25 gained. Removed in
// session 44's review; the code is in 0faba39.)
// 2-byte ragged rows of FROM_2B..TO_2B elements (inclusive) keep the scalar plan (FROM_2B 0: none). Session
// 43, call 4 (tools/verify_s43d.sh), 60 random 16-bit rows of 17-40 (tools/shaped_cases.py lpshort16 43
// 60), eager µs, ragged -> scalar for every row of 17-25 (a measuring build): rows of 21-25 gained at every
// length (geomean by length 0.67-0.84; 16 cases, all 9 of the set's cases behind PyTorch among them, 9 ->
// 0: (1642318, 23) F16 p 1 334.1 -> 242.3, PyTorch 281.8; (1163733, 25) BF16 257.1 -> 173.8 (208.9);
// (545759, 3, 21) BF16 313.5 -> 250.4 (281.3)), rows of 17-20 lost (1.06-1.38: (282040, 3, 17) F16 p 3
// 95.8 -> 161.5), rows of 26+ are ragged either way. Call 1's (137,255,58,21) BF16: 386 -> 308 (346). Both
// plans run every ragged row test on the GPU (call 3: the scalar one for 17-25, 52 passed, memcheck 0
// errors); this band picks between them by length alone. Over the set, geomean 0.945.
#ifndef INFINI_LP_NORM_RAGGED_SCALAR_FROM_2B
#define INFINI_LP_NORM_RAGGED_SCALAR_FROM_2B 21
#endif
#ifndef INFINI_LP_NORM_RAGGED_SCALAR_TO_2B
#define INFINI_LP_NORM_RAGGED_SCALAR_TO_2B 25
#endif

// Rows, Stream (INFINI_LP_NORM_RAGGED_STREAM) and Split for ragged rows (plan.ragged, in packs): Rows
// where a group holds a row, else Split.
infiniStatus_t planRaggedRows(const InfiniopHandle &h, const Info &in, Plan &plan, std::vector<int64_t> &table) {
    plan.kind = Kind::Rows;
    INFINI_REQUIRE(setOuter(plan, in, 0, in.outer_shape.size(), table), INFINI_STATUS_NOT_IMPLEMENTED);
    if (beyondRows(h, plan)) {
        return planSplit(in, plan);
    }
    if (planStream(h, plan, INFINI_LP_NORM_RAGGED_STREAM != 0)) { // block groups where their knob allows
        return INFINI_STATUS_SUCCESS;
    }
    return sizeRows(plan);
}

// The Rows plan's threads: a group of plan.tpr threads a row, plan.items packs each.
infiniStatus_t sizeRows(Plan &plan) {
    plan.kind = Kind::Rows;
    const int64_t nv = rowPacks(plan);
    if (nv <= 32) {
        // Short rows: a few threads per row, each with `items` packs, so that
        // the per-row arithmetic is shared by more elements.
        plan.items = (int)std::min<int64_t>(2, nextPow2(nv));
        plan.tpr = (int)nextPow2(ceilDiv(std::max<int64_t>(nv, 1), plan.items));
    } else if (nv <= 128) {
        plan.tpr = 32;
        plan.items = (int)nextPow2(ceilDiv(nv, 32));
    } else {
        plan.items = 4;
        plan.tpr = (int)nextPow2(ceilDiv(nv, 4));
        if (rowsItems6(plan.vec, plan.ragged, dtypeSize(plan.dtype)) && plan.tpr >= 64 &&
            (int64_t)(plan.tpr / 2) * 6 >= nv) {
            plan.tpr /= 2; // half the threads, 6 packs each: fuller lanes, more rows an SM
            plan.items = 6;
        }
    }
    plan.threads = plan.tpr <= 32 ? 256 : plan.tpr; // several rows per block, or one
    const int64_t rows_per_block = plan.threads / plan.tpr;
    const int64_t blocks = ceilDiv(plan.rows, rows_per_block);
    INFINI_REQUIRE(blocks < INT32_MAX, INFINI_STATUS_NOT_IMPLEMENTED);
    plan.grid_x = (unsigned)blocks;
    return INFINI_STATUS_SUCCESS;
}

// The Cols kernels' ITEMS for a thread's `rows` of a column: held in
// registers (4, 8 or 16 slots) up to 16, else 0 (streamed).
int colsItems(int64_t rows) { return rows <= 4 ? 4 : rows <= 8 ? 8 : rows <= 16 ? 16 : 0; }

// Whole columns of `held` rows a thread (of `vec`-element packs) streamed rather than held on the 16-row
// kernel (the WHOLE_STREAM knobs above).
bool streamWhole(infiniDtype_t dtype, int vec, int64_t held) {
    if (held <= 8 || held > 16) {
        return false;
    }
    const bool packs16 = (size_t)vec * dtypeSize(dtype) == 16;
    switch (dtype) {
    case INFINI_DTYPE_F64:
        return INFINI_LP_NORM_COLS_WHOLE_STREAM_F64 && (packs16 || held <= INFINI_LP_NORM_COLS_WHOLE_STREAM_F64_SINGLES);
    case INFINI_DTYPE_F32:
        return packs16 ? INFINI_LP_NORM_COLS_WHOLE_STREAM_F32 : held <= INFINI_LP_NORM_COLS_WHOLE_STREAM_F32_SINGLES;
    default:
        return false;
    }
}

// Threads own inner positions (the last outer dim) and walk the axis.
infiniStatus_t planCols(const InfiniopHandle &h, const Info &in, int vec, Plan &plan,
                        std::vector<int64_t> &table) {
    plan.kind = Kind::Cols;
    plan.vec = vec;
    const size_t nd = in.outer_shape.size();
    INFINI_REQUIRE(setOuter(plan, in, 0, nd - 1, table), INFINI_STATUS_NOT_IMPLEMENTED);
    plan.inner = (int64_t)in.outer_shape[nd - 1] / vec;
    plan.sxi = in.outer_x[nd - 1];
    plan.syi = in.outer_y[nd - 1];
    constexpr int kThreads = 256;
    // Enough threads to fill the GPU: split the axis over by threads when the
    // columns alone are too few, and so that a thread holds at most held_max
    // rows (blocks at least a warp wide): 8 (16 took 172-213 registers, one
    // block an SM, whose loads and arithmetic then never overlapped:
    // (12,16,512,512) F64 axis 1 548 µs under ncu; INFINI_LP_NORM_COLS_HELD).
    const int64_t columns = plan.rows * plan.inner;
    const int64_t target = (int64_t)h.sm_count * 1024;
    int64_t bx = std::min<int64_t>(kThreads, nextPow2(plan.inner));
    int64_t by = 1;
    const int64_t by_max = std::min<int64_t>(kThreads / std::min<int64_t>(bx, 32), nextPow2(plan.len));
    const int64_t held_max = in.dtype == INFINI_DTYPE_F64 ? INFINI_LP_NORM_COLS_HELD_F64 : INFINI_LP_NORM_COLS_HELD;
    while (by < by_max && (columns * by < target || ceilDiv(plan.len, by) > held_max)) {
        by *= 2;
    }
    // Narrower blocks where that brings a column within held_max rows a thread, and where the axis stays
    // whole anyway (below: filled, or at most 16 rows a thread), so that no cut decision changes.
    const int64_t pack_bytes = (int64_t)vec * (int64_t)dtypeSize(in.dtype);
    const bool narrow_2b = INFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B > 0 && dtypeSize(in.dtype) < 4;
    // (16-byte packs keep their wider rows only where the thread rows left still fill the GPU as the
    // planner wants of them; elsewhere they narrow as 8-byte packs, not lose their plan to 8-byte packs.)
    const int64_t min_width_16 = std::max<int64_t>(1, INFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B_PACK16 / 16);
    const bool wide_rows_16 = narrow_2b && pack_bytes == 16 &&
                              columns * (kThreads / std::min(bx, min_width_16)) >=
                                  (int64_t)h.sm_count * kColsPack16MinThreadsPerSm;
    const int64_t min_row_bytes = !narrow_2b     ? INFINI_LP_NORM_COLS_MIN_ROW_BYTES
                                  : wide_rows_16 ? INFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B_PACK16
                                                 : INFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B;
    const int64_t min_width = std::max<int64_t>(1, min_row_bytes / pack_bytes);
    const int64_t by_narrow = std::min<int64_t>(kThreads / std::min(bx, min_width), nextPow2(plan.len));
    // 16-bit types only from the 16-row kernel, never from streamed columns: the seed-44 sweep found
    // columns of 143-196 rows streamed before and narrowed by this behind PyTorch ((196,373,284) BF16 axis 0
    // 113.0 against 77.8 µs, 3311 blocks), as UNCUT's call-1 A/B had found 16-bit streams turned Whole.
    const bool may_narrow = narrow_2b ? ceilDiv(plan.len, by) <= 16
                                      : INFINI_LP_NORM_COLS_MIN_ROW_BYTES > 0 && dtypeSize(in.dtype) >= 4 &&
                                            (columns * by >= target || ceilDiv(plan.len, by) <= 16);
    if (may_narrow && ceilDiv(plan.len, by) > held_max && ceilDiv(plan.len, by_narrow) <= held_max) {
        while (ceilDiv(plan.len, by) > held_max) {
            by *= 2;
        }
    }
    // Too few columns to fill the GPU with a whole column each, and columns too long to hold: the cut
    // axis below. (Columns of up to 16 rows stay whole even where F64's cap could not be met: one
    // kernel, not the cut axis's three.)
    auto cutNeeded = [&] { return INFINI_LP_NORM_COLS_SPLIT && columns * by < target && ceilDiv(plan.len, by) > 16; };
    // A cut avoided by narrower rows (INFINI_LP_NORM_COLS_UNCUT_MIN_ROW_BYTES): the thread rows that bring a
    // column within held_max, where rows of at least that many bytes give them.
    if (INFINI_LP_NORM_COLS_UNCUT_MIN_ROW_BYTES > 0 && cutNeeded()) {
        const int64_t need = nextPow2(ceilDiv(plan.len, held_max)); // thread rows
        const int64_t width = kThreads / need;                         // packs a thread row (0: too many rows)
        const int64_t blocks = width > 0 ? ceilDiv(plan.inner, width) * plan.rows : 0;
        const bool waves_ok = !INFINI_LP_NORM_COLS_UNCUT_ONE_WAVE || in.dtype == INFINI_DTYPE_F64 ||
                              blocks <= (int64_t)h.sm_count * kColsWholeBlocksPerSm;
        if (width * pack_bytes >= INFINI_LP_NORM_COLS_UNCUT_MIN_ROW_BYTES && blocks >= (int64_t)h.sm_count && waves_ok) {
            by = need; // (a thread then holds at most held_max <= 16 rows: the axis stays whole below)
            bx = std::min<int64_t>(width, nextPow2(plan.inner));
        }
    }
    bx = std::min<int64_t>(bx, kThreads / by);
    const int64_t held = ceilDiv(plan.len, by);
    const bool f64 = in.dtype == INFINI_DTYPE_F64;
    plan.items = streamWhole(in.dtype, vec, held) ? 0 : colsItems(held);
    plan.bx = (int)bx;
    plan.by = (int)by;
    const int64_t gx = ceilDiv(plan.inner, bx);
    INFINI_REQUIRE(gx < INT32_MAX, INFINI_STATUS_NOT_IMPLEMENTED);
    plan.grid_x = (unsigned)gx;
    plan.grid_y = (unsigned)std::min<int64_t>(plan.rows, 65535);
    if (!cutNeeded()) {
        return INFINI_STATUS_SUCCESS;
    }
    // The cut (4096x4096 axis 0 uncut: 4 blocks streaming 3 reads, 4.6 ms):
    // the axis into chunks (cols.cu's Stats, Factor and Apply kernels),
    // enough for about two target's worth of threads, each holding 4-8 rows
    // (or streaming its chunk where fewer chunks leave it more than 16),
    // warps of 32 inner packs (8-16 bytes each: whole sectors); at most 256
    // chunks, so that the Factor kernel's merge of a column stays short.
    const int64_t cbx = std::min<int64_t>(32, nextPow2(plan.inner));
    const int64_t cby = kThreads / cbx;
    const int64_t layer = plan.rows * ceilDiv(plan.inner, cbx) * cbx * cby; // threads a chunk of every column
    // Chunks of held columns: at most 8 rows a thread (H100 graph µs, 16 -> 8
    // rows: 4096x4096 axis 0 BF16 103.9 -> 88.1, F16 p 1 89.7 -> 79.6, F32
    // 88.7 -> 87.3). Streamed ones keep the threads target's chunks
    // ((32,4096,512) BF16 axis 1: 57 rows streamed 254.6, 8 held 296.1).
    auto chunkCount = [&](bool streamed) {
        int64_t n = ceilDiv(2 * target, layer);
        if (INFINI_LP_NORM_COLS_SPLIT_ROWS > 0) {
            n = std::max<int64_t>(n, ceilDiv(plan.len, (int64_t)INFINI_LP_NORM_COLS_SPLIT_ROWS * cby));
        } else if (!streamed && ceilDiv(plan.len, n) <= 16 * cby) {
            n = std::max<int64_t>(n, ceilDiv(plan.len, 8 * cby));
        } else if (INFINI_LP_NORM_COLS_CUT_STREAM_MAX_ROWS > 0) {
            n = std::max<int64_t>(n, ceilDiv(plan.len, (int64_t)INFINI_LP_NORM_COLS_CUT_STREAM_MAX_ROWS * cby));
        }
        return std::min<int64_t>({n, ceilDiv(plan.len, 4 * cby), 256});
    };
    int64_t chunks = chunkCount(false);
    if (chunks < 2) {
        return INFINI_STATUS_SUCCESS;
    }
    // F64 pairs held 5-8 rows a thread: streamed instead (INFINI_LP_NORM_COLS_CUT_STREAM_F64), still cut
    // (those past 16 rows stream already, in the same chunks).
    const bool stream_cut = INFINI_LP_NORM_COLS_CUT_STREAM_F64 && f64 && vec == 2 &&
                            ceilDiv(ceilDiv(plan.len, chunks), cby) > 4;
    if (stream_cut) {
        chunks = std::max<int64_t>(2, chunkCount(true));
    }
    const int64_t rows_per_chunk = ceilDiv(ceilDiv(plan.len, chunks), cby) * cby;
    chunks = ceilDiv(plan.len, rows_per_chunk);
    const int64_t per_thread = rows_per_chunk / cby;
    plan.bx = (int)cbx;
    plan.by = (int)cby;
    plan.items = stream_cut ? 0 : colsItems(per_thread);
    plan.chunks = chunks;
    plan.chunk_vecs = rows_per_chunk;
    plan.grid_x = (unsigned)ceilDiv(plan.inner, cbx);
    plan.grid_y = (unsigned)std::min<int64_t>(plan.rows * chunks, 65535);
    // A record (Stats: two compute-type values) a chunk of a column, then a factor a column.
    plan.workspace = (size_t)(plan.rows * (chunks + 1)) * (size_t)plan.inner * (size_t)vec * 2 * computeSize(in.dtype);
    planColsPdl(plan);
    return INFINI_STATUS_SUCCESS;
}

// The Slab plan (slab.cu) where the reduced axis x the inner dim is one contiguous run in x and in y
// (planSlab). 1: in place of a Cols plan without packs (an inner extent, or strides, no multiple of 16
// bytes: one element a thread); 2: wherever it applies (in place of packed Cols too); 0: off. Session 38
// (H200, eager µs, session 37's default -> Slab, PyTorch in brackets; tools/verify_s38c.sh):
// (169,186,9,129) BF16 axis 2 336 -> 99 (163), (77,93,137,5) BF16 p 1 52 -> 27 (39), (89,181,91,13) F16
// 107 -> 73 (85); over packed Cols (103435,4,8) F16 axis 1 320 -> 19 (29), (106631,7,2,8) BF16 axis 2 p 3
// 1004 -> 75 (133), (287990,7,12,2) F16 1345 -> 113 (187); 76 of 80 random slab-shaped cases ahead of
// PyTorch (tools/shaped_cases.py slab 38 80) against 41 before.
#ifndef INFINI_LP_NORM_SLAB
#define INFINI_LP_NORM_SLAB 2
#endif
// Slabs a block (planSlab) where they continue one run: 1 on (session 38), 0 one slab a block.
#ifndef INFINI_LP_NORM_SLAB_GROUPS
#define INFINI_LP_NORM_SLAB_GROUPS 1
#endif

// The Slab plans' inner dim: the fastest outer dim's extent where x and y both have unit stride along it
// (0 where not).
int64_t unitInnerExtent(const Info &in) {
    const size_t nd = in.outer_shape.size();
    if (nd == 0 || in.outer_x[nd - 1] != 1 || in.outer_y[nd - 1] != 1) {
        return 0;
    }
    return (int64_t)in.outer_shape[nd - 1];
}

// The widest inner extent the Slab plan takes (kSlabThreads or more), past kSlabThreads (a thread then
// takes several columns, one thread a column) only in place of the column chunks (planSlabChunks: chunks
// of 256 columns, so an inner extent of 278 left the second chunk's block 22 columns, each row's segment
// read on its own). Session 47, call 3 (tools/verify_s47c.sh, 1024 wherever Slab applies), 101 random
// cases of inner extents 257-1024, eager µs: in place of chunks **geomean 0.66-0.74 by type, worst 0.98,
// behind PyTorch 32 -> 0** ((57,600,2,513) F16 axis 2 475.8 -> 155.9, PyTorch 247.0; the seed-46 sweep's
// (188,73,11,278) BF16 axis 2 248.4 -> 114.4, PyTorch 177.6); in place of packed Cols mixed (F16 0.78,
// F64 0.85, BF16 1.06, F32 1.11: (4971,8,440) F32 40.0 -> 60.0), hence only there. kSlabThreads: off.
#ifndef INFINI_LP_NORM_SLAB_MAX_INNER
#define INFINI_LP_NORM_SLAB_MAX_INNER 1024
#endif
constexpr int64_t kSlabMaxInner = std::max<int64_t>(INFINI_LP_NORM_SLAB_MAX_INNER, kSlabThreads);

// Columns of 17 up to this many rows of 2- and 4-byte types take a thread each in the Slab plan, like
// those of at most 16, where the group then holds at least INFINI_LP_NORM_SLAB_ONE_PART_MIN_COLS of them
// (else, and for F64, parts of about sqrt(len) / 2 thread rows, groups of at most kSlabThreads / parts
// columns). 16: never. Session 51's ncu (H200): (129,239,17,31) BF16 axis 2 in 3 parts, groups of 2 slabs
// (2 KB a block, 15416 blocks), 76.2M instructions (~150 an element), 97.9 us against PyTorch's 71.
// Call 2 (eager us, 16 -> 64 for every type and group, 110 slab cases it moves, two default runs 1.002
// apart over the 69 of >= 20 us): by type, columns of <= 32 rows BF16 0.75, F16 0.76, F32 0.90
// ((129,239,17,31) 99.0 -> 55.5, (32710,25,51) F16 225.6 -> 98.7); of 33-64 rows 0.95-0.99, losing (to
// 1.16x) only where the group held fewer than 80 columns ((347,7,30,42) F32, one slab of 42 columns a
// group, 1.14x); F64 1.08 / 1.18 (to 1.48x). With these rules 46 of the 110 move: 0.826 (0.784 over 33 of
// >= 20 us). Call 5, 45 fresh cases the rules move (notes/sweeps/session51_slab_long_cases.txt; 32 rows
// and 128 columns before): 0.879, the 37 of >= 15 us 0.811 ((18368,39,2,11) F16 axis 1 68.9 -> 43.1,
// (85499,17,16) F32 127.9 -> 85.3), one 15.7 us call 1.14x.
#ifndef INFINI_LP_NORM_SLAB_ONE_PART_MAX_LEN
#define INFINI_LP_NORM_SLAB_ONE_PART_MAX_LEN 64
#endif
constexpr int64_t kSlabOnePartMaxLen = INFINI_LP_NORM_SLAB_ONE_PART_MAX_LEN;
// The least columns a one-part group of such columns holds.
#ifndef INFINI_LP_NORM_SLAB_ONE_PART_MIN_COLS
#define INFINI_LP_NORM_SLAB_ONE_PART_MIN_COLS 80
#endif

// The Slab plan: a block a group of neighbouring slabs (of the fastest outer dim, one run in x and y) of
// at most kSlabMaxBytes, enough groups for two blocks an SM; false leaves the plan as it is. Short
// columns (len <= 16, or up to kSlabOnePartMaxLen by its rules) take a thread each, a group about
// kSlabGroupBytes; longer ones are shared by thread rows of about sqrt(len) / 2 (a column's parts merge
// one after another: that keeps the merge short against each part's walk), a group at most kSlabThreads
// columns. `wide`: slabs of more columns than kSlabThreads too (kSlabMaxInner; a thread a column, several
// a thread). Session 38, call 2: one slab a block ran (999444, 6, 7) F16 axis 1 in 6614 µs, groups of 18
// in 393 (PyTorch 191). `max_bytes`: kSlabMaxBytes, or past it (slabBigBytes) one slab a block.
bool planSlab(const InfiniopHandle &h, const Info &in, Plan &plan, std::vector<int64_t> &table, bool wide,
              int64_t max_bytes = kSlabMaxBytes) {
    const size_t nd = in.outer_shape.size();
    const int64_t inner = unitInnerExtent(in);
    const int64_t len = (int64_t)in.len;
    const int64_t slab_bytes = len * inner * (int64_t)dtypeSize(in.dtype);
    if (in.x_red != inner || in.y_red != inner || inner < 2 || inner > (wide ? kSlabMaxInner : kSlabThreads) ||
        slab_bytes > max_bytes) {
        return false;
    }
    const bool big = slab_bytes > kSlabMaxBytes; // one slab a block, past 48 KB of shared memory (planSlabSmem)
    // Slabs past a group's bytes whose columns are long: each thread's two walks over shared memory (the
    // statistics, then the scaling) cost more than Cols's held rows. Session 38, call 3 (H200, eager µs,
    // Cols -> Slab): (1675,136,5,15) F16 axis 1 45.5 -> 66.8, (1075,305,23) F16 25.8 -> 34.7, (484,230,47)
    // F16 20.5 -> 27.9; but (1369,109,105) BF16 81.5 -> 59.2, (131,31,33,88) F64 axis 2 134.3 -> 79.9.
    if (slab_bytes > kSlabGroupBytes && len > kSlabLongColumn) {
        return false;
    }
    Plan s = plan;
    const int64_t min_groups = 2 * (int64_t)h.sm_count;
    if (!setOuter(s, in, 0, nd - 1, table) || s.rows < min_groups) {
        return false;
    }
    const int k = s.outer.nd - 1; // the fastest outer dim (none where the offsets are a table)
    const bool grouped =
        INFINI_LP_NORM_SLAB_GROUPS && k >= 0 && s.outer.sx[k] == len * inner && s.outer.sy[k] == len * inner;
    // The slabs a group of columns in `parts` thread rows each holds.
    const int64_t edge = grouped ? s.outer.size[k] : 1; // the fastest outer extent, which groups cut
    auto groupSlabs = [&](int64_t parts) {
        if (!grouped) {
            return int64_t(1);
        }
        int64_t slabs = parts == 1 ? kSlabGroupBytes / slab_bytes : kSlabThreads / (inner * parts);
        slabs = std::max<int64_t>(1, std::min({slabs, kSlabMaxBytes / slab_bytes, edge}));
        while (slabs > 1 && s.rows / edge * ceilDiv(edge, slabs) < min_groups) {
            --slabs;
        }
        return slabs;
    };
    int64_t parts = len <= 16 ? 1 : (int64_t)std::ceil(std::sqrt((double)len) / 2);
    if (len > 16 && len <= kSlabOnePartMaxLen && dtypeSize(in.dtype) <= 4 &&
        groupSlabs(1) * inner >= INFINI_LP_NORM_SLAB_ONE_PART_MIN_COLS) {
        parts = 1;
    }
    parts = std::min(parts, std::max<int64_t>(1, kSlabThreads / inner));
    const int64_t slabs = groupSlabs(parts);
    if (grouped) {
        s.rows = s.rows / edge * ceilDiv(edge, slabs);
        s.outer.size[k] = ceilDiv(edge, slabs);
        s.outer.sx[k] *= slabs;
        s.outer.sy[k] *= slabs;
        s.slab_edge = edge;
    }
    if (slabs * slab_bytes < kSlabGroupBytes / 8) { // a block's work too small for its barriers
        return false;
    }
    if (k >= 0 && s.outer.size[k] > INT32_MAX) { // (slab.cu takes the fastest outer extent as an int)
        return false;
    }
    s.kind = Kind::Slab;
    s.vec = 1;
    s.inner = inner;
    s.slabs = (int)slabs;
    if (big && !planSlabSmem(h, s)) {
        return false;
    }
    // Every thread at work where the parts share columns (at most kSlabThreads of them a group).
    s.by = parts == 1 ? 1 : (int)std::min<int64_t>(kSlabThreads / (inner * slabs), len);
    s.grid_x = (unsigned)std::min<int64_t>(s.rows, INT32_MAX);
    plan = s;
    return true;
}

// The Slab plan in column chunks (slab.cu slabChunkKernel) for inner extents past kSlabThreads with unit
// inner stride and columns of at most kSlabChunkMaxLen rows: a block reads `chunk_vecs` columns of every
// row of the axis, each row's segment in 16-byte packs on its own grid (any reduced strides). 1: in
// place of scalar Cols (an inner extent no multiple of a pack: 2-byte loads); 2: of packed Cols too; 0:
// off. Session 39, call 1 (tools/verify_s39a.sh, mode 2), session 38's 130 LPNorm cases behind PyTorch:
// scalar Cols' cases gained up to 2x ((118,33,235,37) F16 axis 1 187.7 -> 94.4 µs, PyTorch 137.6;
// (83,23,35,235) BF16 axis 0 85.9 -> 72.9); packed Cols' lost up to 1.17x ((37,89,28,57) F16 29.1 ->
// 34.1), as did the one scalar case past 100 rows ((103,149,7,91) F16 axis 0, 103 rows: 47.9 -> 59.3):
// mode 1 and the row limit.
#ifndef INFINI_LP_NORM_SLAB_CHUNKS
#define INFINI_LP_NORM_SLAB_CHUNKS 1
#endif
constexpr int64_t kSlabChunkMaxLen = 100;

// The column-chunk Slab plan: chunks of up to kSlabThreads columns (a thread each, at least half of
// them at work) whose rows fit kSlabMaxBytes, enough (outer index, chunk) pairs for two blocks an SM.
bool planSlabChunks(const InfiniopHandle &h, const Info &in, Plan &plan, std::vector<int64_t> &table) {
    const size_t nd = in.outer_shape.size();
    const int64_t inner = unitInnerExtent(in);
    const int64_t len = (int64_t)in.len, es = (int64_t)dtypeSize(in.dtype);
    const int64_t width = std::min<int64_t>(kSlabThreads, kSlabMaxBytes / (len * es) / 32 * 32);
    if (inner <= kSlabThreads || width < kSlabThreads / 2 || len > kSlabChunkMaxLen) {
        return false;
    }
    Plan s = plan;
    if (!setOuter(s, in, 0, nd - 1, table)) {
        return false;
    }
    const int64_t blocks = s.rows * ceilDiv(inner, width);
    if (blocks < 2 * (int64_t)h.sm_count) {
        return false;
    }
    s.kind = Kind::Slab;
    s.vec = 1;
    s.inner = inner;
    s.chunk_vecs = width;
    s.grid_x = (unsigned)std::min<int64_t>(blocks, INT32_MAX);
    plan = s;
    return true;
}

struct NvidiaDescriptor final : Descriptor {
    Plan vec_plan, scalar_plan;
    // Where a plan needs the whole device (needsWholeDevice): the portable plan
    // for the same pointers, for streams with fewer SMs (calculate).
    Plan vec_portable, scalar_portable;
    // Cols of a 16-bit type in 8-element packs: the 4-element plan, for pointers aligned to 8 bytes only.
    Plan narrow_plan;
    bool has_vec = false, has_narrow = false;
    InfiniopHandle handle; // (its SM counts, for the streams' check)
    int64_t *offsets = nullptr; // device copy of the outer-offset table, if any

    NvidiaDescriptor(const InfiniopHandle &h, const Info &i) : Descriptor(h, i), handle(h) {}
    ~NvidiaDescriptor() override {
        if (offsets != nullptr) {
            ScopedCudaDevice dev(device_id);
            cudaFree(offsets);
        }
    }

    infiniStatus_t make(const InfiniopHandle &h) {
        const Info &in = info;
        if (in.empty) {
            return INFINI_STATUS_SUCCESS;
        }
        Plan base;
        base.dtype = in.dtype;
        base.p = in.p;
        base.eps = in.eps;
        base.len = (int64_t)in.len;
        base.sxr = in.x_red;
        base.syr = in.y_red;
        // Data used once and larger than L2: evict-first loads and stores.
        const size_t bytes = in.rows * in.len * (in.dtype == INFINI_DTYPE_F64 ? 8 : in.dtype == INFINI_DTYPE_F32 ? 4 : 2);
        base.cs = bytes > (size_t)h.l2_cache_bytes;
        const int es = in.dtype == INFINI_DTYPE_F64 ? 8 : in.dtype == INFINI_DTYPE_F32 ? 4 : 2;
        // Elements per pack: 16 bytes (16-bit types in Cols: below).
        int vec = 16 / es;
        const size_t nd = in.outer_shape.size();
        const bool cols = !(in.x_red == 1 && in.y_red == 1) && nd > 0 &&
                          std::llabs(in.outer_x[nd - 1]) < std::llabs(in.x_red) &&
                          std::llabs(in.outer_y[nd - 1]) < std::llabs(in.y_red);
        scalar_plan = base;
        vec_plan = base;
        std::vector<int64_t> table;
        if (cols) {
            INFINI_TRY(planCols(h, in, 1, scalar_plan, table));
            auto packs = [&](int v) {
                return in.outer_x[nd - 1] == 1 && in.outer_y[nd - 1] == 1 && in.outer_shape[nd - 1] % v == 0 &&
                       in.x_red % v == 0 && in.y_red % v == 0 && stridesDivisible(in, nd - 1, v);
            };
            // 16-bit types: kColsPack16Bit elements a pack (nvidia_plan.h) where the axis stays whole, its
            // threads fill at least half the GPU and p is 1 or 2; else 4 (8 bytes; cols.cu's kernels).
            // H200 graph µs, 16-byte packs against 8-byte ones: (12,16,512,512) BF16 axis 1 132.3 -> 104.2,
            // F16 axis 0 p 1 144.0 -> 117.1, (1024,8,4096) BF16 81.0 -> 66.1, (64,80,2048) F16 p 1 41.1 ->
            // 29.8; but with fewer threads (16,80,2048) F16 12.1 -> 13.4, (4,96,8192) BF16 13.4 -> 15.1,
            // and with p 3 (a call that spills the held rows) (64,16,1,4096) BF16 26.8 -> 39.7
            // (tools/verify_s35c.sh). A cut axis lost with them (session 28).
            const int wide = es == 2 ? kColsPack16Bit : vec, narrow = es == 2 ? 4 : vec;
            for (int v : {wide, narrow}) {
                if (!has_vec && packs(v)) {
                    vec_plan = base;
                    INFINI_TRY(planCols(h, in, v, vec_plan, table));
                    const int64_t threads = vec_plan.rows * vec_plan.inner * vec_plan.by;
                    has_vec = v == narrow || (vec_plan.chunks <= 1 && (in.p == 1 || in.p == 2) &&
                                              threads >= (int64_t)h.sm_count * kColsPack16MinThreadsPerSm);
                }
            }
            if (has_vec && vec_plan.vec != narrow && packs(narrow)) {
                narrow_plan = base;
                INFINI_TRY(planCols(h, in, narrow, narrow_plan, table));
                has_narrow = true;
            }
            if (INFINI_LP_NORM_SLAB != 0 && (INFINI_LP_NORM_SLAB >= 2 || !has_vec)) {
                Plan slab = base;
                // Slabs wider than a block's threads only where no packed Cols plan exists (the chunks' cases).
                if (planSlab(h, in, slab, table, !has_vec)) { // any alignment: each slab on its own 16-byte grid
                    scalar_plan = slab;
                    has_vec = has_narrow = false;
                }
            }
            if (INFINI_LP_NORM_SLAB_CHUNKS != 0 && scalar_plan.kind == Kind::Cols &&
                (INFINI_LP_NORM_SLAB_CHUNKS >= 2 || !has_vec)) {
                Plan chunk = base;
                if (planSlabChunks(h, in, chunk, table)) { // each row's segment on its own 16-byte grid
                    scalar_plan = chunk;
                    has_vec = has_narrow = false;
                }
            }
            if (INFINI_LP_NORM_SLAB != 0 && scalar_plan.kind == Kind::Cols) { // one slab a block past 32 KB
                Plan slab = base;
                if (planSlab(h, in, slab, table, !has_vec, slabBigBytes(dtypeSize(in.dtype)))) {
                    scalar_plan = slab;
                    has_vec = has_narrow = false;
                }
            }
        } else {
            INFINI_TRY(planRows(h, in, 1, scalar_plan, table));
            const bool packed = in.x_red == 1 && in.y_red == 1 && stridesDivisible(in, nd, vec);
            has_vec = packed && base.len % vec == 0;
            if (has_vec) {
                INFINI_TRY(planRows(h, in, vec, vec_plan, table));
            } else if (in.x_red == 1 && in.y_red == 1 && base.len > 2 * vec &&
                       !(es == 2 && INFINI_LP_NORM_RAGGED_SCALAR_FROM_2B > 0 &&
                         base.len >= (int64_t)INFINI_LP_NORM_RAGGED_SCALAR_FROM_2B &&
                         base.len <= (int64_t)INFINI_LP_NORM_RAGGED_SCALAR_TO_2B) &&
                       (packed || in.outer_x == in.outer_y) &&
                       (scalar_plan.kind == Kind::Rows || scalar_plan.kind == Kind::Split)) {
                // Rows whose length is no multiple of a pack, where every row of y sits on the 16-byte
                // grid as x's does (the same outer strides, or strides all multiples of a pack; the
                // pointers as far apart at Calculate): packs on that grid, partial at the rows' ends.
                // H200, session 35's sweep (scalar plans): one row of 47.5M F16 1176 µs against
                // PyTorch's 154; (15555, 2857) F16 363 against 158.
                vec_plan.vec = vec;
                vec_plan.ragged = true;
                INFINI_TRY(planRaggedRows(h, in, vec_plan, table));
                // Session 36 (H200, eager µs, scalar -> ragged): Rows 0.36-1.0x the scalar plan's time, e.g.
                // (15555, 2857) F16 360.6 -> 132.8 (PyTorch 159.3); Split of 2- and 4-byte rows 0.7-1.15x,
                // (47482228,) F16 234.8 -> 164.3 (154.7); Split of F64 rows slower: (4973377,) 43.2 ->
                // 53.6, (1122, 10633) 98.8 -> 127.7. F64 Split stays scalar.
                has_vec = !(vec_plan.kind == Kind::Split && es == 8);
            }
            scalar_portable = base;
            vec_portable = base;
            if (needsWholeDevice(scalar_plan.kind)) {
                INFINI_TRY(planRows(h, in, 1, scalar_portable, table, true));
            }
            if (has_vec && needsWholeDevice(vec_plan.kind)) {
                INFINI_TRY(planRows(h, in, vec, vec_portable, table, true));
            }
        }
        if (!table.empty()) {
            ScopedCudaDevice dev(device_id);
            INFINI_TRY(dev.status());
            const size_t bytes = table.size() * sizeof(int64_t);
            CUDA_TRY(cudaMalloc(&offsets, bytes));
            CUDA_TRY(cudaMemcpy(offsets, table.data(), bytes, cudaMemcpyHostToDevice));
            scalar_plan.outer.table = vec_plan.outer.table = offsets;
            scalar_portable.outer.table = vec_portable.outer.table = narrow_plan.outer.table = offsets;
        }
        // Measured on an H100 (notes/lp_norm.md): the cache hints help the
        // Split and Cols kernels a little and cost the Rows kernel a few percent.
        for (Plan *pl : {&scalar_plan, &vec_plan, &scalar_portable, &vec_portable, &narrow_plan}) {
            if (pl->kind == Kind::Rows) {
                pl->cs = false;
            }
        }
        // The statistics records want 16-byte alignment; the caller's workspace
        // may start anywhere, so it is asked for with the slack to align it.
        const size_t need = std::max({scalar_plan.workspace, has_vec ? vec_plan.workspace : 0,
                                      scalar_portable.workspace, has_vec ? vec_portable.workspace : 0,
                                      has_narrow ? narrow_plan.workspace : 0});
        workspace_size = need == 0 ? 0 : need + kWorkspaceAlign - 1;
        return INFINI_STATUS_SUCCESS;
    }

    infiniStatus_t calculate(void *workspace, size_t, void *y, const void *x, void *stream) const override {
        const uintptr_t ws = ((uintptr_t)workspace + kWorkspaceAlign - 1) & ~(kWorkspaceAlign - 1);
        workspace = reinterpret_cast<void *>(ws);
        const size_t es = info.dtype == INFINI_DTYPE_F64 ? 8 : info.dtype == INFINI_DTYPE_F32 ? 4 : 2;
        const char *xp = static_cast<const char *>(x) + info.x_off * (ptrdiff_t)es;
        char *yp = static_cast<char *>(y) + info.y_off * (ptrdiff_t)es;
        auto aligned = [&](const Plan &pl) {
            if (pl.ragged) { // rows anywhere on the grid, y's as x's
                return ((uintptr_t)xp - (uintptr_t)yp) % 16 == 0;
            }
            const uintptr_t align = (uintptr_t)pl.vec * es;
            return (uintptr_t)xp % align == 0 && (uintptr_t)yp % align == 0;
        };
        const bool use_vec = has_vec && aligned(vec_plan);
        const Plan &chosen = use_vec ? vec_plan : has_narrow && aligned(narrow_plan) ? narrow_plan : scalar_plan;
        ScopedCudaDevice dev(device_id);
        INFINI_TRY(dev.status());
        const Plan &portable = use_vec ? vec_portable : scalar_portable;
        if (!needsWholeDevice(chosen.kind)) {
            return launch(chosen, xp, yp, workspace, stream);
        }
        // Hold's blocks wait for each other, so on a stream with fewer SMs its
        // plain launch waited forever (session 31; its cooperative launch may
        // be refused there instead, not tried): asked before its launch (a
        // driver call, ~0.5 us of host time on the H100, beside kernels of 5 us
        // and more). The cluster and Grid's launches are refused there: asked
        // only then.
        const cudaStream_t st = (cudaStream_t)stream;
        if (chosen.kind == Kind::Hold && !streamHasWholeDevice(handle, st)) {
            return launch(portable, xp, yp, workspace, stream);
        }
        return launchOrPortable(handle, st, [&](bool whole) {
            return launch(whole ? chosen : portable, xp, yp, workspace, stream);
        });
    }

    static infiniStatus_t launch(const Plan &plan, const char *xp, char *yp, void *workspace, void *stream) {
        switch (plan.kind) {
        case Kind::Rows: return launchRows(plan, xp, yp, workspace, stream);
        case Kind::Split: return launchSplit(plan, xp, yp, workspace, stream);
        case Kind::Cols: return launchCols(plan, xp, yp, workspace, stream);
        case Kind::Slab: return launchSlab(plan, xp, yp, workspace, stream);
        case Kind::Cluster: return launchCluster(plan, xp, yp, workspace, stream);
        case Kind::Stream: return launchStream(plan, xp, yp, workspace, stream);
        case Kind::TwoPass: return launchTwoPass(plan, xp, yp, workspace, stream);
        case Kind::Pipe: return launchPipe(plan, xp, yp, workspace, stream);
        case Kind::Grid: return launchGrid(plan, xp, yp, workspace, stream);
        case Kind::Sweep: return launchSweep(plan, xp, yp, workspace, stream);
        case Kind::Hold: return launchHold(plan, xp, yp, workspace, stream);
        }
        return INFINI_STATUS_INTERNAL_ERROR;
    }
};

} // namespace

infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Descriptor **out) {
    // The planners ask the handle's device (occupancy, cluster and shared-memory limits; the Slab and Hold
    // kernels' attributes are set there), whichever device the calling thread has current.
    ScopedCudaDevice dev(handle.device_id);
    INFINI_TRY(dev.status());
    auto *desc = new NvidiaDescriptor(handle, info);
    infiniStatus_t st = desc->make(handle);
    if (st != INFINI_STATUS_SUCCESS) {
        delete desc;
        return st;
    }
    *out = desc;
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::lp_norm::nvidia
