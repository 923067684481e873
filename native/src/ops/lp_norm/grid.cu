// LPNorm, long rows on sm_90: the Grid plan (issue 13; notes/lp_norm.md,
// "Session 10: the Grid plan"). The library plans it for rows of 2.8-4.4 MB
// beyond Hold's budget (since session 30, INFINI_LP_NORM_GRID_BEYOND_HOLD in
// nvidia.cc: F32 64x1M 197 µs against Cluster's 221 on the H100), not before
// Hold (INFINI_LP_NORM_GRID, off): it runs 32x1M BF16 at 64.6 µs against
// Hold's 54.2 (session 25; its data movement alone takes ~50 µs, its probe
// without factor waits 55.5, the compute warps' sums being the rest);
// tools/lpn7_bench.cu (LPN7_ONLY=grid, gridtrace, gridrule) measures it.
//
// One block an SM, all resident at once (a cooperative launch), and every
// block owns chunk b of every row: the whole GPU reads each row, so no row
// waits for a cluster to be free (the Pipe plan runs 7 clusters of 16 on the
// H100, 112 SMs, in rounds of rows). Each element is read from DRAM once:
// chunk b of row r is bulk-copied (cp.async.bulk) into slot r % N of the
// block's ring, N rows ahead. Per row r, in two steps `lag` rows apart:
//   publish:  the chunk's (max |x|, sum (|x| / max)^p), written to the
//             workspace as one flagged record (below);
//   finish:   once the block's merger warp has read every block's record of
//             the row and merged them in block order (the same bits in every
//             block), the chunk is scaled and stored, and its slot takes row
//             r + N (the roles are described above gridKernel).
// Records carry no separate counter: each 8 bytes of a record are 4 bytes of
// statistics and the call's flag (a 16-byte store, whose 8-byte halves land
// whole), so a reader sees a record complete when every flag matches, with
// no fence on either side. The flag is E + 1, where E is the workspace's
// first word as every block reads it at its start; block 0 stores E + 1
// there once it has merged the last row, i.e. after every block's last
// record, which every block writes after reading E (the record's flag is
// computed from E: it cannot be written before E is read). So each call's
// flag differs from the one every record slot holds from any earlier call
// (until 2^32 calls wrap), and a workspace that held anything else matches
// both copies of the flag in a record only by coincidence (a uniform fill
// holds E itself, never E + 1). No memset: a call is one kernel.
#include "../../common/cuda/bulk_copy.cuh"
#include "../../common/cuda/pdl.cuh"
#include "cached_load.cuh"
#include "cluster_launch.cuh"
#include "device.cuh"
#include <algorithm>

namespace infini::lp_norm::nvidia {

#ifdef INFINI_LP_NORM_GRID_TRACE
// tools/lpn7_bench.cu (LPN7_ONLY=gridtrace): %globaltimer per block and row at
// nine points: 0 the chunk landed, 1 the record stored, 2 compute warp 0 past
// the row's factor wait (never before it has summed row r + lag), 3 the chunk
// stored, 4 the merger's factor posted; the merger's steps for the row: 5 its
// merge entered, 6 the max reduced, 7 the sum reduced, 8 the end of the poll
// round before the merge (the one that saw the row's last record, or an
// earlier one).
constexpr int kGridTracePoints = 9, kGridTraceBlocks = 256, kGridTraceRows = 64;
__device__ unsigned long long g_grid_trace[kGridTraceBlocks][kGridTraceRows][kGridTracePoints];
__device__ __forceinline__ unsigned long long gridClock() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
__device__ __forceinline__ void gridTraceAt(int64_t b, int64_t r, int point, unsigned long long t, bool writer) {
    if (writer && b < kGridTraceBlocks && r < kGridTraceRows) {
        g_grid_trace[b][r][point] = t;
    }
}
__device__ __forceinline__ void gridTrace(int64_t b, int64_t r, int point, bool writer = threadIdx.x == 0) {
    gridTraceAt(b, r, point, gridClock(), writer);
}
#else
__device__ __forceinline__ unsigned long long gridClock() { return 0; }
__device__ __forceinline__ void gridTraceAt(int64_t, int64_t, int, unsigned long long, bool) {}
__device__ __forceinline__ void gridTrace(int64_t, int64_t, int, bool = false) {}
#endif

namespace {

constexpr int kGridThreads = 512, kGridWarps = kGridThreads / 32;
// + publisher, merger, producer (gridKernel's roles)
constexpr int kGridComputeWarps = kGridWarps - 3, kGridComputeThreads = kGridComputeWarps * 32;
constexpr int kGridPublisher = kGridComputeWarps, kGridMerger = kGridComputeWarps + 1;
constexpr int kGridMaxPacks = 5; // packs a compute thread takes of a chunk
constexpr int64_t kGridMaxChunk = (int64_t)kGridComputeThreads * kGridMaxPacks; // packs a block owns of a row (33 KB)
constexpr int64_t kGridMinChunk = 128;                                   // 2 KB: shorter, the exchange dominates
constexpr int kGridMaxSlots = 16;
constexpr int kGridMaxPerLane = 5; // records a lane of the merger reads: grids of up to 160 blocks
constexpr size_t kGridBarrierBytes = 8 * kGridMaxSlots; // the slots' barriers, before the ring

// -DINFINI_LP_NORM_GRID_PROBE_NO_WAIT=1, a probe with wrong results
// (tools/verify_s24i.sh): the compute warps scale by 1 without waiting for the
// factors (H100, 32x1M BF16, graph µs: 61-62 at any lag in session 24, 55.5
// with session 25's packed sums, and ~50 without the sums: the data movement
// alone; notes/lp_norm.md, "Session 25").
#ifndef INFINI_LP_NORM_GRID_PROBE_NO_WAIT
#define INFINI_LP_NORM_GRID_PROBE_NO_WAIT 0
#endif
// With it, -DINFINI_LP_NORM_GRID_PROBE_STAGGER=1: block b moves row
// (k + b * rows / blocks) % rows at its step k, so that the blocks read and
// write different rows at once (is the whole GPU working on one 2 MB row at
// a time what slows the data movement? No: 68.5-70.7 µs, slower).
#ifndef INFINI_LP_NORM_GRID_PROBE_STAGGER
#define INFINI_LP_NORM_GRID_PROBE_STAGGER 0
#endif
// With it, -DINFINI_LP_NORM_GRID_PROBE_NO_MERGE=1: the merger warp polls no
// record (is its polling, up to 20 loads a lane a round trip in every block,
// what slows the data movement?); _PROBE_NO_PUBLISH=1 as well: no record is
// stored either (tools/verify_s25d.sh; notes/lp_norm.md, "Session 25").
#ifndef INFINI_LP_NORM_GRID_PROBE_NO_MERGE
#define INFINI_LP_NORM_GRID_PROBE_NO_MERGE 0
#endif
#ifndef INFINI_LP_NORM_GRID_PROBE_NO_PUBLISH
#define INFINI_LP_NORM_GRID_PROBE_NO_PUBLISH 0
#endif
// _PROBE_NO_SUM=1: the compute warps do not sum the chunks (they still wait
// for them and hand the publisher zeros); _PROBE_NO_SCALE=1: they store the
// packs as landed (a copy), as tools/move_probe.cu's warps do.
#ifndef INFINI_LP_NORM_GRID_PROBE_NO_SUM
#define INFINI_LP_NORM_GRID_PROBE_NO_SUM 0
#endif
#ifndef INFINI_LP_NORM_GRID_PROBE_NO_SCALE
#define INFINI_LP_NORM_GRID_PROBE_NO_SCALE 0
#endif
static_assert(INFINI_LP_NORM_GRID_PROBE_NO_WAIT || !(INFINI_LP_NORM_GRID_PROBE_NO_MERGE || INFINI_LP_NORM_GRID_PROBE_NO_PUBLISH ||
                                                     INFINI_LP_NORM_GRID_PROBE_NO_SUM || INFINI_LP_NORM_GRID_PROBE_NO_SCALE),
              "without the merger or the records, only the probe that never waits for factors ends");
// -DINFINI_LP_NORM_GRID_PLAIN_STORES=1: y stored without the streaming hint
// (st.global instead of st.global.cs), for the probe's A/B (92-115 µs: far slower).
#ifndef INFINI_LP_NORM_GRID_PLAIN_STORES
#define INFINI_LP_NORM_GRID_PLAIN_STORES 0
#endif
// -DINFINI_LP_NORM_GRID_DROP_HINT=1: x's chunks are copied with an L2
// evict-first policy (read once), as Hold's tiles read once are (no change:
// probe 62.4, real kernel 75.3).
#ifndef INFINI_LP_NORM_GRID_DROP_HINT
#define INFINI_LP_NORM_GRID_DROP_HINT 0
#endif

// Dynamic shared memory a block may take: the device's opt-in limit less
// 5 KB for the kernel's static arrays (2.4-4.6 KB on sm_90).
int gridSmemLimit(const InfiniopHandle &h) { return h.max_shared_memory_per_block_optin - 5120; }
size_t gridSmem(const Plan &plan) { return kGridBarrierBytes + (size_t)plan.items * (size_t)plan.chunk_vecs * 16; }

// A block's record of one row: (m, s) in 16-byte words, each holding two
// 4-byte pieces of them beside two copies of the flag (1 word for F32 stats, 2 for F64).
template <class A>
constexpr int kRecordWords = (int)(2 * sizeof(A) / 8);
size_t recordBytes(infiniDtype_t dtype) { return dtype == INFINI_DTYPE_F64 ? 32 : 16; }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Records move at GPU scope: relaxed, no ordering needed beyond each 8-byte
// half landing whole (volatile, i.e. system scope, took ~3 µs a round trip
// on the H100 under load: notes/lp_norm.md, session 10).
__device__ __forceinline__ uint4 loadRecordWord(const uint4 *p) {
    uint4 v;
    asm volatile("ld.relaxed.gpu.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p)
                 : "memory");
    return v;
}
__device__ __forceinline__ void storeRecordWord(uint4 *p, uint4 v) {
    asm volatile("st.relaxed.gpu.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
}

// (m, s) <-> a record's words.
template <class A>
__device__ __forceinline__ void encodeRecord(Stats<A> st, uint32_t flag, uint4 (&w)[kRecordWords<A>]) {
    uint32_t piece[2 * kRecordWords<A>];
    memcpy(&piece[0], &st.m, sizeof(A));
    memcpy(&piece[kRecordWords<A>], &st.s, sizeof(A));
#pragma unroll
    for (int i = 0; i < kRecordWords<A>; ++i) {
        w[i] = make_uint4(piece[2 * i], flag, piece[2 * i + 1], flag);
    }
}
template <class A>
__device__ __forceinline__ Stats<A> decodeRecord(const uint4 (&w)[kRecordWords<A>]) {
    uint32_t piece[2 * kRecordWords<A>];
#pragma unroll
    for (int i = 0; i < kRecordWords<A>; ++i) {
        piece[2 * i] = w[i].x;
        piece[2 * i + 1] = w[i].z;
    }
    Stats<A> st;
    memcpy(&st.m, &piece[0], sizeof(A));
    memcpy(&st.s, &piece[kRecordWords<A>], sizeof(A));
    return st;
}
template <class A>
__device__ __forceinline__ bool recordHas(const uint4 (&w)[kRecordWords<A>], uint32_t flag) {
    bool ok = true;
#pragma unroll
    for (int i = 0; i < kRecordWords<A>; ++i) {
        ok &= w[i].y == flag && w[i].w == flag;
    }
    return ok;
}
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Shared-memory barriers between the block's roles (below): arrival counts 1
// (the copies' bytes; the merger's factor) and kGridComputeWarps (a slot
// summed; a slot read).
__device__ __forceinline__ void barrierInit(uint64_t *bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sharedAddress(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void barrierArrive(uint64_t *bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sharedAddress(bar)) : "memory");
}
#endif

// The block's roles, each its own pipeline so that no global-memory round
// trip sits on another's path (one loop doing all of them ran at ~4 µs a
// row, three serial ~1.3 µs waits under load: notes/lp_norm.md, session 10):
//   compute warps (0 .. kGridComputeWarps - 1): sum row k's chunk (each
//     warp its part, handed to the publisher through shared memory), then
//     scale and store row k - lag once its factor is in shared memory, and
//     free its slot; nothing else between the rows (session 10's compute
//     warps also merged the warps' parts and stored the record, behind a
//     barrier of all of them: ~1.2 µs a row, the pipeline's limit once the
//     merger kept up, session 24);
//   publisher (warp kGridPublisher): merges the compute warps' parts of
//     each row and stores the block's record (the rare scaled fallback: it
//     reads the chunk again itself, from the slot, still held);
//   merger (warp kGridMerger): polls every pending record of rows j .. j + 3
//     (F64: j, j + 1) each round trip, merges each complete row in block
//     order, posts factors;
//   producer (lane 0 of the last warp): refills each freed slot, N rows
//     ahead, with at most `depth` rows in flight.
template <class T, int VEC>
__global__ void __launch_bounds__(kGridThreads, 1) gridKernel(const Plan plan, const T *x, T *y, uint4 *records) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using A = ComputeType<T>;
    using P = Pack<T, VEC>;
    constexpr int W = kRecordWords<A>;
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ A parts[kGridMaxSlots][2][kGridComputeWarps]; // [slot][max, sum][compute warp]
    __shared__ Factor<A> factors[kGridMaxSlots];
    __shared__ uint64_t summed[kGridMaxSlots], posted[kGridMaxSlots], freed[kGridMaxSlots];
    uint64_t *full = reinterpret_cast<uint64_t *>(smem);
    uint4 *ring = reinterpret_cast<uint4 *>(smem + kGridBarrierBytes);
    const int slots = plan.items, lag = plan.tpr, pieces = plan.bx;
    const int lane = (int)threadIdx.x & 31, warp = (int)threadIdx.x >> 5;
    const int64_t blocks = gridDim.x, b = blockIdx.x, rows = plan.rows;
    __shared__ uint32_t call_flag;             // this call's record flag (above)
    uint32_t *const epoch = reinterpret_cast<uint32_t *>(records);
    records += 1; // the records follow the epoch's 16 bytes
    const int64_t first = b * plan.chunk_vecs; // the chunk's first pack in a row
    const int count = (int)std::max<int64_t>(0, std::min<int64_t>(plan.chunk_vecs, plan.len / VEC - first));
    // The row moved at step r (the probe's stagger; r itself otherwise).
    auto physicalRow = [&](int64_t r) {
        return INFINI_LP_NORM_GRID_PROBE_STAGGER ? (r + b * rows / blocks) % rows : r;
    };
    auto slotOf = [&](int64_t r) { return ring + (size_t)(r % slots) * (size_t)plan.chunk_vecs; };
    auto recordOf = [&](int64_t r, int64_t q) { return records + (r * blocks + q) * W; };
    auto issue = [&](int64_t r) { // the producer: chunk b of row r into its slot
        if (r >= rows || count == 0) {
            return;
        }
        int64_t ox, oy;
        outerOffsets(plan.outer, physicalRow(r), ox, oy);
        uint64_t *bar = &full[r % slots];
        bulkExpect(bar, (uint32_t)count * 16u);
        const int step = (count + pieces - 1) / pieces;
        for (int c = 0; c < count; c += step) {
            const uint32_t bytes = (uint32_t)min(step, count - c) * 16u;
            if (INFINI_LP_NORM_GRID_DROP_HINT) {
                bulkCopyHint(slotOf(r) + c, x + ox + (first + c) * VEC, bytes, bar, l2Policy(false));
            } else {
                bulkCopy(slotOf(r) + c, x + ox + (first + c) * VEC, bytes, bar);
            }
        }
    };
    pdlWaitPrevious(); // x may be the previous kernel's output, and the epoch its store
    if (threadIdx.x == 0) {
        uint32_t e;
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(e) : "l"(epoch) : "memory");
        call_flag = e + 1u;
        for (int i = 0; i < slots; ++i) {
            bulkBarrierInit(&full[i]);
            barrierInit(&summed[i], kGridComputeWarps);
            barrierInit(&posted[i], 1);
            barrierInit(&freed[i], kGridComputeWarps);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads(); // the last block-wide barrier: the roles part here
    const uint32_t flag = call_flag;

    if (warp == kGridWarps - 1) { // the producer
        // At most `depth` rows in flight: more only lengthen every load's
        // queue (the records' polls included), not the bandwidth.
        const int64_t depth = plan.by;
        if (lane == 0) {
            for (int64_t r = 0; r < rows; ++r) {
                if (r >= slots) {
                    bulkWait(&freed[(r - slots) % slots], (uint32_t)(((r - slots) / slots) & 1)); // its slot read
                    asyncProxyFence(); // those reads before the copy's writes
                }
                if (r >= depth && count > 0) { // row r - depth landed (its slot is not reissued before r)
                    bulkWait(&full[(r - depth) % slots], (uint32_t)(((r - depth) / slots) & 1));
                }
                issue(r);
            }
        }
        return;
    }
    if (warp == kGridPublisher) {
        if (INFINI_LP_NORM_GRID_PROBE_NO_PUBLISH) {
            return;
        }
        // Each row's parts (a slot's parts are rewritten only after the slot
        // is refilled, i.e. after this row's record was merged everywhere).
        for (int64_t k = 0; k < rows; ++k) {
            const int sl = (int)(k % slots);
            bulkWait(&summed[sl], (uint32_t)((k / slots) & 1));
            const A m = warpReduce(lane < kGridComputeWarps ? parts[sl][0][lane] : A(0), MaxNanOp{});
            const A t = warpReduce(lane < kGridComputeWarps ? parts[sl][1][lane] : A(0), SumOp{});
            const A s = scaledSumFrom(m, t, plan.p, [&](const Factor<A> &sc) {
                const uint4 *slot = slotOf(k);
                A part = 0;
                for (int v = lane; v < count; v += 32) {
                    P pk;
                    memcpy(&pk, &slot[v], 16);
                    addScaledPack<0>(part, pk, sc, plan.p);
                }
                return warpReduce(part, SumOp{});
            });
            if (lane == 0) {
                uint4 w[W];
                encodeRecord(Stats<A>{m, s}, flag, w);
#pragma unroll
                for (int i = 0; i < W; ++i) {
                    storeRecordWord(recordOf(k, b) + i, w[i]);
                }
            }
            gridTrace(b, k, 1, lane == 0);
        }
        return;
    }
    if (warp == kGridMerger) {
        if (INFINI_LP_NORM_GRID_PROBE_NO_MERGE) {
            return;
        }
        // Rows base .. base + kAhead - 1 are pending. Each round trip loads
        // every record of them not seen yet (all at once, then checks them),
        // then merges and posts the complete rows at the front, in order, and
        // moves the window on. (Session 10's merger waited for each missing
        // record in turn, a round trip each: ~2.5-3 µs a row.)
        constexpr int kAhead = W == 1 ? 4 : 2;
        constexpr int L = kGridMaxPerLane;
        uint4 held[kAhead][L][W];
        // Bit h * L + i: record i of this lane for window row h is in held (or
        // lies past the grid: nothing to wait for).
        unsigned past = 0;
#pragma unroll
        for (int i = 0; i < L; ++i) {
            past |= lane + 32 * i >= blocks ? 1u << i : 0u;
        }
        constexpr unsigned kRowBits = (1u << L) - 1;
        unsigned seen = 0;
#pragma unroll
        for (int h = 0; h < kAhead; ++h) {
            seen |= past << (h * L);
        }
        unsigned long long polled = 0; // (the stage trace: the last poll round's end)
        auto merge = [&](int64_t j) { // row j = base, every record seen (window place 0)
            gridTrace(b, j, 5, lane == 0);
            gridTraceAt(b, j, 8, polled, lane == 0);
            A ml = 0;
#pragma unroll
            for (int i = 0; i < L; ++i) {
                if (lane + 32 * i < blocks) {
                    ml = MaxNanOp{}(ml, decodeRecord<A>(held[0][i]).m);
                }
            }
            const A mx = warpReduce(ml, MaxNanOp{});
            gridTrace(b, j, 6, lane == 0);
            A tl = 0;
            if (scaledSumNeeded(mx)) {
#pragma unroll
                for (int i = 0; i < L; ++i) {
                    const Stats<A> st = decodeRecord<A>(held[0][i]);
                    if (lane + 32 * i < blocks) {
                        tl += rescaledSum(st.s, st.m, mx, plan.p);
                    }
                }
            }
            const A total = warpReduce(tl, SumOp{});
            gridTrace(b, j, 7, lane == 0);
            if (lane == 0) {
                factors[j % slots] = rowFactor(mx, total, plan.p, plan.eps);
                barrierArrive(&posted[j % slots]); // release: the factor before the arrival
            }
            gridTrace(b, j, 4, lane == 0);
        };
        for (int64_t base = 0; base < rows;) {
#pragma unroll
            for (int h = 0; h < kAhead; ++h) {
#pragma unroll
                for (int i = 0; i < L; ++i) {
                    if (!((seen >> (h * L + i)) & 1u) && base + h < rows) {
#pragma unroll
                        for (int w = 0; w < W; ++w) {
                            held[h][i][w] = loadRecordWord(recordOf(base + h, lane + 32 * i) + w);
                        }
                    }
                }
            }
#pragma unroll
            for (int h = 0; h < kAhead; ++h) {
#pragma unroll
                for (int i = 0; i < L; ++i) {
                    seen |= recordHas<A>(held[h][i], flag) ? 1u << (h * L + i) : 0u;
                }
            }
            polled = gridClock();
            bool moved = false;
            while (base < rows && __all_sync(0xffffffffu, (seen & kRowBits) == kRowBits)) {
                merge(base);
                ++base;
                moved = true;
#pragma unroll
                for (int h = 0; h + 1 < kAhead; ++h) { // the window moves on by one row
#pragma unroll
                    for (int i = 0; i < L; ++i) {
#pragma unroll
                        for (int w = 0; w < W; ++w) {
                            held[h][i][w] = held[h + 1][i][w];
                        }
                    }
                }
                seen = (seen >> L) | (past << ((kAhead - 1) * L));
            }
            if (!moved) {
                __nanosleep(32);
            }
        }
        if (b == 0 && lane == 0) {
            // Every block's last record is merged: every block has read the
            // epoch. The next call (stream order) takes the next flag.
            asm volatile("fence.acq_rel.gpu;\n\tst.relaxed.gpu.global.u32 [%0], %1;" ::"l"(epoch), "r"(flag)
                         : "memory");
        }
        return;
    }

    // The compute warps: each row summed as it lands, and stored lag rows
    // later once its factor is posted. f(pack, v) for each of this thread's
    // packs of row r's slot.
    auto forPacks = [&](int64_t r, auto &&f) {
        const uint4 *slot = slotOf(r);
#pragma unroll
        for (int i = 0; i < kGridMaxPacks; ++i) {
            const int v = i * kGridComputeThreads + (int)threadIdx.x;
            if (v < count) {
                P pk;
                memcpy(&pk, &slot[v], 16);
                f(pk, v);
            }
        }
    };
    // Row k's chunk summed: this warp's (max |x|, unscaled sum) to the publisher.
    auto sumRow = [&](int64_t k) {
        A m = 0, t = 0; // max |x| and the unscaled sum in one pass
        if (!INFINI_LP_NORM_GRID_PROBE_NO_SUM) {
            // The compute warps, 13 an SM, are bound by these sums' instructions
            // and latency (H100, 32x1M BF16, the probe: 63 µs, 50 without the
            // sums; notes/lp_norm.md, "Session 25"): 2-byte elements with p 1
            // or 2 take Hold's packed form (16-bit maxima of the magnitudes'
            // bits), the others one max and one sum per element place of a
            // pack (VEC chains of a few packs each, merged at the end).
            withP(plan.p, [&](auto pc) {
                constexpr int kP = decltype(pc)::value;
                if constexpr (sizeof(T) == 2 && kP != 0) {
                    unsigned mw = 0;
                    forPacks(k, [&](const P &pk, int) {
                        uint4 w;
                        memcpy(&w, &pk, 16);
                        unsigned pm;
                        t += packedStats<T, kP>(w, pm);
                        mw = maxU16x2(mw, pm);
                    });
                    m = halvesMax<T>(mw);
                } else {
                    A me[VEC], te[VEC];
#pragma unroll
                    for (int e = 0; e < VEC; ++e) {
                        me[e] = 0;
                        te[e] = 0;
                    }
                    forPacks(k, [&](const P &pk, int) {
#pragma unroll
                        for (int e = 0; e < VEC; ++e) {
                            const A a = absA<A>(widen(pk.v[e]));
                            me[e] = MaxNanOp{}(me[e], a);
                            te[e] += powP<kP>(a, plan.p);
                        }
                    });
#pragma unroll
                    for (int w = VEC / 2; w > 0; w /= 2) { // pairwise: log2(VEC) steps
#pragma unroll
                        for (int e = 0; e < w; ++e) {
                            me[e] = MaxNanOp{}(me[e], me[e + w]);
                            te[e] += te[e + w];
                        }
                    }
                    m = me[0];
                    t = te[0];
                }
            });
        }
        m = warpReduce(m, MaxNanOp{});
        t = warpReduce(t, SumOp{});
        if (lane == 0) { // the publisher merges the parts
            parts[k % slots][0][warp] = m;
            parts[k % slots][1][warp] = t;
            barrierArrive(&summed[k % slots]); // release: the parts before the arrival
        }
    };
    // Row j scaled and stored once the merger has posted its factor; then this warp frees its slot.
    auto storeRow = [&](int64_t j) {
        if (!INFINI_LP_NORM_GRID_PROBE_NO_WAIT) {
            bulkWait(&posted[j % slots], (uint32_t)((j / slots) & 1));
        }
        gridTrace(b, j, 2);
        const Factor<A> f = INFINI_LP_NORM_GRID_PROBE_NO_WAIT ? Factor<A>{A(1), A(1)} : factors[j % slots];
        int64_t ox, oy;
        outerOffsets(plan.outer, physicalRow(j), ox, oy);
        T *yr = y + oy + first * VEC;
        forPacks(j, [&](const P &pk, int v) {
            stPack<T, VEC>(yr + (int64_t)v * VEC, INFINI_LP_NORM_GRID_PROBE_NO_SCALE ? pk : scalePack(pk, f), plan.cs);
        });
        __syncwarp();
        if (lane == 0) {
            barrierArrive(&freed[j % slots]); // this warp's reads of the slot are done
        }
        gridTrace(b, j, 3);
    };
    for (int64_t k = 0; k < rows + lag; ++k) {
        if (k < rows) { // sum row k's chunk once it has landed
            if (count > 0) {
                bulkWait(&full[k % slots], (uint32_t)((k / slots) & 1));
            }
            gridTrace(b, k, 0);
            sumRow(k);
        }
        if (k - lag >= 0) {
            storeRow(k - lag);
        }
    }
#else
    __trap(); // planned only where kernelCompiledFor(..., 90)
#endif
}

template <class F>
infiniStatus_t withGridKernel(infiniDtype_t dtype, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        return f(gridKernel<T, 16 / sizeof(T)>, T{});
    });
}

} // namespace

bool planGrid(const InfiniopHandle &h, Plan &plan, const GridTuning &tune) {
    const int64_t es = (int64_t)dtypeSize(plan.dtype);
    const int64_t nv = plan.len / plan.vec; // packs a row
    if (h.cc_major < 9 || plan.vec * es != 16 || plan.rows < 1 || h.sm_count < 1) {
        return false;
    }
    int coop = 0;
    if (cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, h.device_id) != cudaSuccess || coop == 0) {
        cudaGetLastError();
        return false;
    }
    const int64_t blocks = h.sm_count;
    // Chunks start on 128-byte boundaries (whole L2 lines for the bulk copies) unless tuned otherwise.
    const int64_t align = std::max(1, tune.align_packs);
    const int64_t chunk = ceilDiv(ceilDiv(nv, blocks), align) * align;
    if (blocks > 32 * kGridMaxPerLane || chunk < kGridMinChunk || chunk > kGridMaxChunk) {
        return false; // more records than the merger holds, or chunks too short or too long
    }
    // The ring: as many rows' chunks as the block's shared memory takes (at
    // most kGridMaxSlots, no more than the rows), and the lag inside it with
    // at least one row of reads ahead of the one being summed.
    const int64_t room = ((int64_t)gridSmemLimit(h) - (int64_t)kGridBarrierBytes) / (chunk * 16);
    int64_t slots = std::min<int64_t>({room, (int64_t)kGridMaxSlots, plan.rows});
    if (tune.slots > 0) {
        slots = std::min<int64_t>(slots, tune.slots);
    }
    const int64_t lag = std::max<int64_t>(0, std::min<int64_t>(tune.lag, slots - 2));
    if (slots < 1 || (plan.rows > slots && slots < 3)) {
        return false;
    }
    Plan g = plan;
    g.kind = Kind::Grid;
    g.threads = kGridThreads;
    g.tpr = (int)lag;
    g.bx = std::max(1, tune.pieces);
    g.by = (int)std::clamp<int64_t>(tune.depth, 1, slots); // deeper, its wait would name a reused slot's old phase
    g.items = (int)slots;
    g.chunks = blocks;
    g.chunk_vecs = chunk;
    g.grid_x = (unsigned)blocks;
    g.smem_max = gridSmem(g);
    g.cs = !INFINI_LP_NORM_GRID_PLAIN_STORES; // y is written once and not read again by this call
    g.workspace = 16 + (size_t)plan.rows * (size_t)blocks * recordBytes(plan.dtype); // the epoch, the records
    int per_sm = 0;
    withGridKernel(plan.dtype, [&](auto kernel, auto) {
        per_sm = kernelCompiledFor(kernel, 90) ? blocksPerSmOf(kernel, kGridThreads, g.smem_max, gridSmemLimit(h)) : 0;
        return INFINI_STATUS_SUCCESS;
    });
    if (per_sm < 1) {
        return false;
    }
    plan = g;
    return true;
}

infiniStatus_t launchGrid(const Plan &plan, const void *x, void *y, void *workspace, void *stream) {
    const cudaStream_t st = (cudaStream_t)stream;
    return withGridKernel(plan.dtype, [&](auto kernel, auto t) {
        using T = decltype(t);
        LaunchConfig config(dim3(plan.grid_x), dim3(kGridThreads), plan.smem_max, st);
        config.cooperative(); // every block resident: the blocks wait for each other
        CUDA_TRY(cudaLaunchKernelEx(config.get(), kernel, plan, (const T *)x, (T *)y, static_cast<uint4 *>(workspace)));
        return INFINI_STATUS_SUCCESS;
    });
}

} // namespace infini::lp_norm::nvidia
