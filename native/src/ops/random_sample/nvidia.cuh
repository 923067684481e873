#pragma once
// RandomSample, NVIDIA backend: the stages, the paths between them and what
// one Calculate launches. No sort of the vocabulary, no workspace, no host
// synchronisation, parameters by value (graph-capturable, deterministic).
//
// A row is read by a team of 1, 2, 4 or kCluster blocks (the grid's x; y is
// the row). More than one block is a thread-block cluster (sm_90): each block
// reads a contiguous chunk, and partial results meet in distributed shared
// memory at cluster barriers (pushed into the reader, or pulled between two
// barriers, never after a member's last one). Team size per launch
// (nvidia.cu): kCluster on sm_90 for n > kTeamMinN, halved while the launch
// still gives every SM a block (batches read whole rows per block) and while
// its teams would not all be resident at once (no second wave); 1 on sm_80
// and for short rows. Stages:
//   argmax_lean.cuh  argmaxLeanKernel: every row of the launch takes its
//               argmax. Each thread streams its tiles keeping only the
//               running max and the first tile that reached it, then finds
//               the index in that tile; each block reduces (order key,
//               lowest index) and pushes it to block 0, which writes the
//               result (argmax.cuh; teams of up to 16 blocks, sized by
//               argmax_plan.h; any number of rows in one launch).
//   sample.cuh  sampleKernel: one team per row, all in shared memory (two
//               instances: with 2b. for launches that have such a row, chosen
//               on the host by guessesTopP; without it for the others; each
//               kCluster wide, and kSampleTeam wide for teams of 16):
//     1. sweep 1: the argmax (as above) and, for 2. and 2b., the level-0
//        histogram of the vectors' maxima; argmax rows and rows with a +inf
//        maximum or no finite logit end here;
//     2. small K (K <= kCap): the bucket where the vectors' maxima reach K
//        bounds the K-th element from below; everything at or above it is
//        the candidate set (if more than kCap, ties: the exact way, 3.);
//     2b. top p over more than kCap (K == n, or K > kCap with topp < 1):
//        a guess: everything at or above the bucket above the one where the
//        vectors' maxima reach kSpecVectors (~256 elements); collect (with
//        the row's total weight) and check, with the exact weights, that the
//        candidates (a prefix of the order) reach the threshold; else a
//        second guess from the buckets' lower bounds (vector count x weight
//        of the bucket's lowest value) down to where the weight surely
//        suffices; else (or > kCap candidates) the exact way, the total known;
//     3. exact selection: descent 1 (K < n, n > kCap), a radix select of the
//        K-th element over (key, reversed index) digits until the set S at
//        or above the bucket holds <= kSortSmall / <= kCap / exactly K
//        elements; descent 2 (|S| > kCap: large K, or 2b. fell short), a radix
//        select on the cumulative weight inside S down to <= kCap elements
//        (select.cuh; one sweep and one team merge per level);
//     4. collect: every block pushes its candidates into block 0 (and its
//        share of the total weight); block 0 sorts them (rank sort or
//        bitonic), scans their F64 weights and writes the first c_i >= t.
//   device.cuh  row-level helpers: order keys, radix levels, weights, modes.
//   team.cuh    the cluster / single-block abstraction.
//   launch.cuh  the launchers (cluster attribute, shared-memory size).
//
// Paths and kernel launches per Calculate (decided by host checks of the
// parameters in Calculate; team sizes by the row count):
//   | path                                      | single row | batch of B rows        |
//   | argmax (every row: r == 0, topp <= 0,     | 1 argmax   | 1 argmax               |
//   |   topk == 1 or T <= 0)                    |            |                        |
//   | small K (K <= kCap), top-p only, K > kCap,| 1 sample   | ceil(B / kMaxRows)     |
//   |   rows mixing argmax and sampling         |            |   sample (1 to 1024)   |
// (kMaxRows rows travel by value in one launch; argmax launches carry no
// per-row parameters.)
//
// Weights: w = exp2((v - vmax) * (log2(e) / T)) in F32 (F64 logits: exp in
// F64), accumulated in F64 in a fixed order (the same in every block of a
// team, so that all blocks take the same decisions); the row's total adds
// each 16-byte vector's weights in F32 first (SPEC: F32 or better). Exact ties (equal
// logits -> equal weights, exp(0) = 1, -inf -> 0) are summed exactly as the
// F64 reference sums them; elsewhere the F32 weights differ from the
// reference by ~1e-6 relative, which moves the result only when the threshold
// lies that close to a boundary.
#include "../../common/cuda/check.cuh"
#include "../../common/cuda/pdl_policy.h"
#include "info.h"
#include <cstddef>
#include <cstdint>

namespace infini::random_sample::nvidia {

constexpr int kCluster = 8;         // blocks per row on sm_90 (the portable cluster size)
// Sampling teams of 16 (non-portable clusters) for launches of at most
// kWideRows rows of at least kWideMinN: H100, n=151936 F16 k=50, graph µs
// 25.1 -> 23.6, n=262144 26.8 -> 24.6, but n=32000 17.2 -> 22.5
// (notes/random_sample.md, session 5).
#ifndef INFINI_RS_SAMPLE_TEAM // 8 (= kCluster): no wide teams, an A/B aid
#define INFINI_RS_SAMPLE_TEAM 16
#endif
constexpr int kSampleTeam = INFINI_RS_SAMPLE_TEAM;
// Eager calls launch with programmatic dependent launch (pdl_policy.h), so
// that back-to-back calls overlap one kernel's start with the previous one's
// end; graphs keep plain edges. -DINFINI_RS_PDL=0: plain launches (A/B).
#ifndef INFINI_RS_PDL
#define INFINI_RS_PDL 1
#endif
constexpr PdlPolicy kRandomSamplePdl = INFINI_RS_PDL ? PdlPolicy::NotCapturing : PdlPolicy::Never;
constexpr int kWideRows = 4;
// Sampling teams are halved until a launch's teams all fit at once
// (NvidiaDesc::teamFor); -DINFINI_RS_TEAM_FIT=0: session 8's rule (A/B).
#ifndef INFINI_RS_TEAM_FIT
#define INFINI_RS_TEAM_FIT 1
#endif
constexpr bool kSampleTeamFit = INFINI_RS_TEAM_FIT != 0;
constexpr uint32_t kWideMinN = 131072;
constexpr uint32_t kTeamMinN = 4096; // rows up to this length: one block per row
constexpr int kMaxRows = 1024;      // rows per sample launch (kernel parameters up to 32 KB, CUDA 12.1+)
constexpr int kFewRows = 8;         // a smaller parameter block for single rows and small batches
// The widest team of a launch of (at most) R rows: teams wider than kCluster
// only in launches of few rows.
template <int R>
constexpr int sampleMaxTeam() { return R == kFewRows ? kSampleTeam : kCluster; }
// The sampling instance (its MaxTeam: member arrays, merge groups) that runs
// teams of `team` blocks: kCluster wide up to kCluster, so that those launches
// do not pay for the second merge group and the wider arrays of teams of 16
// (H100, graph µs, team-8 launches on the 16-wide vs the 8-wide instance:
// n=32000 17.9 vs 17.55, 8x151936 26.6 vs 26.25; notes/random_sample.md).
constexpr int sampleInstanceTeam(int team) { return team <= kCluster ? kCluster : kSampleTeam; }

// Where a launch goes: its stream, and whether it may be scheduled while the
// previous kernel of the stream drains (programmatic dependent launch; every
// RandomSample kernel waits for that kernel at entry: pdlWaitPrevious).
struct LaunchStream {
    cudaStream_t stream;
    bool pdl;
    LaunchStream(cudaStream_t s, bool p = false) : stream(s), pdl(p) {} // (implicit: a plain stream)
};

struct RowParams {
    float random_val;
    float topp;
    int topk;
    float temperature;
};

// What every row of a launch shares.
struct RowsArgs {
    const void *probs;
    void *result;
    ptrdiff_t row_stride;    // elements
    ptrdiff_t result_stride; // elements
    uint32_t n;
    int result_size; // bytes of one result element
};

template <int R>
struct SampleArgs {
    RowsArgs rows;
    RowParams p[R];
};

// One dtype's launchers (launch.cuh, instantiated in kernel_<dtype>.cu).
// `team`: kCluster or 1; `rows`: rows of this launch.
struct Launchers {
    // argmax launches (argmax.cuh): threads' own loads, or bulk copies (sm_90,
    // when kArgmaxBulk), and how many teams of `team` blocks of each fit at once.
    infiniStatus_t (*argmax)(const RowsArgs &, int rows, int team, LaunchStream);
    infiniStatus_t (*argmaxBulk)(const RowsArgs &, int rows, int team, LaunchStream);
    infiniStatus_t (*argmaxTeams)(bool bulk, int team, int *teams);
    infiniStatus_t (*sampleFew)(const SampleArgs<kFewRows> &, int rows, int team, LaunchStream);
    infiniStatus_t (*sampleMany)(const SampleArgs<kMaxRows> &, int rows, int team, LaunchStream);
    // Kernel attributes (shared-memory limits, cluster sizes): per device, set at each Create.
    infiniStatus_t (*prepare)(int cc_major);
    // How many sampling teams of `team` blocks fit at once (0: such clusters cannot launch).
    infiniStatus_t (*sampleTeams)(int team, int *teams);
    // Whether this dtype's kernels were compiled with clusters for the current
    // device (not the case for a build without sm_90 code on an sm_90 GPU).
    bool (*clusters)();
};
Launchers launchersF16();
Launchers launchersBF16();
Launchers launchersF32();
Launchers launchersF64();

} // namespace infini::random_sample::nvidia
