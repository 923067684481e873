// LPNorm, long rows that fit on chip (sm_90): the Hold plan (issue 13;
// notes/lp_norm.md, "Session 17" and "Session 18"; nvidia.cc's holdPays says
// where it measured ahead). Since session 29 also rows that do not fit: the
// part that neither registers nor the ring hold, read twice, then exceeds
// L2, and only its first plan.kept tiles a block keep the evict-last policy
// (the rest come from DRAM again in phase B).
// One kernel of one block an SM, all resident. The rows, flattened, are cut
// into plan.grid_x pieces of plan.chunk_vecs packs; block b owns piece b,
// which spans at most two rows (the planner's rule: a piece is no longer than
// a row). Each element is read from DRAM once and stays on chip until its
// row's factor is known, so the DRAM traffic is a copy's, and no row waits
// for a round of clusters:
//   phase A (warps 0-14, the workers): every read is a bulk copy into a ring
//     of plan.items shared-memory tiles. The piece's first tiles pass into
//     the workers' registers (plan.tpr packs a thread, whole tiles); of the
//     rest, the stream's last tiles stay in the ring, and the earlier ones (the
//     "L2 part": what neither registers nor the ring hold) are read with an L2
//     evict-last policy, summed as they pass and read again in phase B. Per
//     row of the piece: the one-pass sum of |x|^p and, for the piece's (m, s)
//     (the sum is m^p s, s >= 1), either m = its p-th root and s = 1 (2-byte
//     elements with p 1 or 2, a sum in range: kHoldPlainSums) or max |x| and
//     the scaled sum (math.h), as Sweep's statistics kernel does per chunk.
//   exchange (warp 15, the manager): the block sends its (m, s) of
//     each of its rows to every other block of that row through the workspace
//     and waits for theirs; every block of a row merges the same records in
//     block order (mergedFactorBy), so each gets the same factor bits.
//   phase B: y = x * factor from the held tiles first (each freed slot takes a
//     tile of the L2 part, now read from L2), then the registers, then the L2
//     part's tiles.
// The records need no clearing between calls: a record is {max, sum, tag}; its
// producer writes the payload, then the tag kHoldMagic with release semantics;
// its one consumer waits for the tag (acquire), reads the payload and writes
// the tag back to 0. So every call leaves the workspace's tags at 0 for the
// next (stream order; with PDL, nothing touches the workspace before
// pdlWaitPrevious), and a workspace that held anything else matches the
// 64-bit tag only by coincidence. Blocks wait for each other's records, so
// all must be resident at once: the grid is at most one block an SM (the
// planner checks the occupancy), the launch is cooperative (the driver starts
// it whole; INFINI_LP_NORM_HOLD_COOPERATIVE below), and every block publishes
// before it waits.
#include "../../common/cuda/bulk_copy.cuh"
#include "../../common/cuda/pdl.cuh"
#include "cached_load.cuh"
#include "cluster_launch.cuh"
#include "row_stats.cuh"
#include "stage_trace.cuh"
#include <algorithm>
#include <type_traits>

namespace infini::lp_norm::nvidia {

namespace {

#ifndef INFINI_LP_NORM_HOLD_THREADS
#define INFINI_LP_NORM_HOLD_THREADS 512
#endif
constexpr int kHoldThreads = INFINI_LP_NORM_HOLD_THREADS;
constexpr int kHoldWorkers = kHoldThreads - 32; // the last warp manages (holdKernel)
// 16-byte packs a worker holds in registers (96 of its 128 registers at one
// 512-thread block an SM): 180 KB an SM beside the ring's 225 KB.
#ifndef INFINI_LP_NORM_HOLD_REG_PACKS
#define INFINI_LP_NORM_HOLD_REG_PACKS 24
#endif
constexpr int kHoldRegPacks = INFINI_LP_NORM_HOLD_REG_PACKS;
// A tile: two packs a worker (15 KB), so that a register tile fills the same
// two of every worker's registers; 15 of them fit beside the records.
constexpr int kHoldPacksPerWorker = 2;
constexpr int kHoldTilePacks = kHoldPacksPerWorker * kHoldWorkers, kHoldTileBytes = kHoldTilePacks * 16;
static_assert(kHoldRegPacks % kHoldPacksPerWorker == 0, "register tiles fill whole pairs of registers");
constexpr int kHoldMaxTiles = 16;
// Packs a piece holds in registers when its workers hold `tpr` packs each:
// whole tiles (they reach the registers through the ring).
__host__ __device__ constexpr int holdRegPacks(int tpr) {
    return kHoldWorkers * tpr / kHoldTilePacks * kHoldTilePacks;
}
constexpr size_t kHoldBarrierBytes = 8 * kHoldMaxTiles; // the slots' barriers, before the ring
// Blocks a row may span (the records a block merges for it: shared memory).
constexpr int kHoldMaxPartners = 1024;
constexpr unsigned long long kHoldMagic = 0x4c504e486f6c6431ull; // "LPNHold1"
// When Hold's launches use programmatic dependent launch: 0 never, 1 eager
// calls only, 2 in graphs too (its blocks fill every SM; the next call's
// blocks take the SMs that ours leave and wait there).
#ifndef INFINI_LP_NORM_HOLD_PDL
#define INFINI_LP_NORM_HOLD_PDL 2
#endif
constexpr PdlPolicy kHoldPdl = pdlPolicyOfKnob(INFINI_LP_NORM_HOLD_PDL);
// 1 (the default since session 32): Hold's launches carry the cooperative
// attribute, so the driver starts the grid only once all its blocks can be
// resident at once. A plain launch (0, a measuring knob) can be partly
// resident, and then wait forever where a grid that needs many SMs at once
// (another Hold grid, the cooperative Grid plan, Pipe's clusters of 16) comes
// on a stream of higher priority and takes the SM its last block waits for
// (tests/priority_cases.py; a cooperative launch only on the higher-priority
// stream did not help). Its price: eager calls ~1.2-1.6 us longer on the H100
// (32x1M BF16 55.2 -> 56.7, 8x1M 18.2 -> 19.4, F32 16x1M 54.6 -> 56.2), graph
// replays unchanged (notes/lp_norm.md, "Session 32").
#ifndef INFINI_LP_NORM_HOLD_COOPERATIVE
#define INFINI_LP_NORM_HOLD_COOPERATIVE 1
#endif
// -DINFINI_LP_NORM_HOLD_DROP_HINT=0: the tiles read once are copied without
// an L2 policy instead of evict-first (A/B; H100: 32x1M BF16 58.1 -> 63.1 µs
// without it, the L2 part losing its lines).
#ifndef INFINI_LP_NORM_HOLD_DROP_HINT
#define INFINI_LP_NORM_HOLD_DROP_HINT 1
#endif
constexpr bool kHoldDropHint = INFINI_LP_NORM_HOLD_DROP_HINT != 0;
// Phase B's stores: 1 streaming (st.global.cs, evict-first in L2), 0 plain
// (write-back, L2's default policy): a measuring knob (session 34: is the
// write phase, ~3.5 TB/s on the H200, bound by the stores' policy?).
#ifndef INFINI_LP_NORM_HOLD_STORE_CS
#define INFINI_LP_NORM_HOLD_STORE_CS 1
#endif
// Tiles the read phase keeps in flight per worker (0: as many as the ring has
// slots). With every slot's copies issued at the start the first tile landed
// at 7.4 µs instead of bulk copies' 3.3. H100, session 20, graph µs, whole
// ring / 4 / 6 ahead / bulk: 32x1M BF16 55.6 / 55.4 / 55.3 / 55.6; 20x1M
// 37.0 / 35.7 / 35.9 / 36.1; 12x1M 24.7 / 24.3 / 24.4 / 25.3.
#ifndef INFINI_LP_NORM_HOLD_AHEAD
#define INFINI_LP_NORM_HOLD_AHEAD 4
#endif
constexpr int kHoldAhead = INFINI_LP_NORM_HOLD_AHEAD;
// -DINFINI_LP_NORM_HOLD_PER_THREAD=0: session 18's bulk copies (worker 0
// issues a tile's copy, a workers' barrier before each refill), for the A/B.
#ifndef INFINI_LP_NORM_HOLD_PER_THREAD
#define INFINI_LP_NORM_HOLD_PER_THREAD 1
#endif
constexpr bool kHoldPerThread = INFINI_LP_NORM_HOLD_PER_THREAD != 0;
// Tiles of its piece's start that a block asks L2 for (one bulk prefetch by
// thread 0) before anything else, even before it waits for the previous
// kernel: a hint, whose lines the loads after the wait read from L2. The
// first tile then lands at ~2.0 µs instead of ~3.2. H100, graph µs, session
// 22 (notes/lp_norm.md), 0 / 2 / 3 / 4 / 5 / 6 tiles: 32x1M BF16 55.5 / 54.8
// / 54.8 / 55.1 / 55.4 / 55.7; 16x1M 29.7 / 29.0 / 29.3 / 29.6 / 30.1 /
// 30.5; 4x1M 16.2 / 14.8 / 14.9 / 14.8 / 14.9 / 15.0 (8 and 16 tiles: slower).
#ifndef INFINI_LP_NORM_HOLD_PREFETCH_TILES
#define INFINI_LP_NORM_HOLD_PREFETCH_TILES 2
#endif
constexpr int kHoldPrefetch = INFINI_LP_NORM_HOLD_PREFETCH_TILES * kHoldTileBytes;
// Phase A for 2-byte elements with p 1 or 2 sums x^p alone (device.cuh's
// packedPowSum), without the max (a third fewer instructions): a piece's row
// whose plain sum t is in range is sent as (m, s) = (t^(1/p), 1), the same sum
// m^p s (the exchange's merge needs no true max, only m^p s and s >= 1); any
// other (inf, NaN, all zero, extreme magnitudes) is read again for its max,
// then for its scaled sum. 0: packedStats' maxima and sums, as before session
// 26 (notes/lp_norm.md, "Session 26").
#ifndef INFINI_LP_NORM_HOLD_PLAIN_SUMS
#define INFINI_LP_NORM_HOLD_PLAIN_SUMS 1
#endif
constexpr bool kHoldPlainSums = INFINI_LP_NORM_HOLD_PLAIN_SUMS != 0;
// -DINFINI_LP_NORM_HOLD_PROBE_NO_SUM=1, a probe with wrong results: phase A
// does not sum the tiles (what would faster sums give? notes/lp_norm.md,
// "Session 26").
#ifndef INFINI_LP_NORM_HOLD_PROBE_NO_SUM
#define INFINI_LP_NORM_HOLD_PROBE_NO_SUM 0
#endif

// One block's statistics of one row, on its way to another block of the row.
template <class A>
struct alignas(16) HoldRecord {
    A m, s;
    unsigned long long tag;
};

// Dynamic shared memory: the barriers, the ring, and the rows' records as merged.
size_t holdSmem(int slots, int64_t partners, size_t stats_bytes) {
    return kHoldBarrierBytes + (size_t)slots * kHoldTileBytes + 2 * (size_t)partners * stats_bytes;
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
template <class A>
__device__ __forceinline__ void sendRecord(HoldRecord<A> *r, const Stats<A> &v) {
    r->m = v.m;
    r->s = v.s;
    asm volatile("st.release.gpu.global.b64 [%0], %1;" ::"l"(&r->tag), "l"(kHoldMagic) : "memory");
}
__device__ __forceinline__ float loadRelaxed(const float *p) {
    float v;
    asm volatile("ld.relaxed.gpu.global.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ double loadRelaxed(const double *p) {
    double v;
    asm volatile("ld.relaxed.gpu.global.f64 %0, [%1];" : "=d"(v) : "l"(p) : "memory");
    return v;
}
template <class A>
__device__ __forceinline__ Stats<A> takeRecord(HoldRecord<A> *r) {
    unsigned long long tag;
    do {
        asm volatile("ld.acquire.gpu.global.b64 %0, [%1];" : "=l"(tag) : "l"(&r->tag) : "memory");
    } while (tag != kHoldMagic);
    const Stats<A> v{loadRelaxed(&r->m), loadRelaxed(&r->s)}; // from L2, after the acquire
    asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(&r->tag), "l"(0ull) : "memory");
    return v;
}

// Barriers: every thread (the workers and the manager, named barrier 1), or
// the workers only (2). The manager and the workers reach barrier 1 at
// different places in the code, whole warps each, as warp-specialised kernels
// use named barriers. -DINFINI_LP_NORM_HOLD_BAR_ALIGNED=0: the non-aligned
// form (barrier.sync), which PTX allows in divergent code but which costs
// registers here (spills; tools/verify_s17g.sh runs racecheck on both).
#ifndef INFINI_LP_NORM_HOLD_BAR_ALIGNED
#define INFINI_LP_NORM_HOLD_BAR_ALIGNED 1
#endif
#if INFINI_LP_NORM_HOLD_BAR_ALIGNED
#define HOLD_BARRIER "bar.sync"
#else
#define HOLD_BARRIER "barrier.sync"
#endif
__device__ __forceinline__ void holdBarrierAll() { asm volatile(HOLD_BARRIER " 1, %0;" ::"n"(kHoldThreads) : "memory"); }
__device__ __forceinline__ void holdBarrierWorkers() {
    asm volatile(HOLD_BARRIER " 2, %0;" ::"n"(kHoldWorkers) : "memory");
}

// A block's piece: `count` packs from flattened pack `start`; the first
// `regs` (`rtiles` whole tiles, or all the piece) in the workers' registers,
// then `tiles` tiles of which the last `held` stay in the ring; packs from
// local index `split` on are in the next row.
struct HoldPiece {
    int64_t start, row;
    int count, regs, rtiles, tiles, held, split;
    int kept; // the L2 part's first tiles that are read with the evict-last policy (plan.kept)

    // The read phase's stream tiles (the register tiles, then the others),
    // and the L2 part's (the others' first tiles - held, read again later).
    __device__ __forceinline__ int readTiles() const { return rtiles + tiles; }
    __device__ __forceinline__ int l2Tiles() const { return tiles - held; }
};

// The tile stream of a piece, every DRAM read of the kernel: every worker
// copies its own packs of each tile (per-thread async copies, arriving on the
// slot's barrier once landed) and reads only those, so a slot is refilled
// with no block-wide barrier. (Bulk copies read the pieces at ~2.73 TB/s and
// the threads' own loads at ~2.87, tools/readrate_probe.cu; these at ~2.91.
// When the threads loaded the register packs themselves, with no ring, those
// loads landed last and the read phase ran at ~1.9 TB/s; notes/lp_norm.md,
// "Session 18".) Stream tile s < rtiles is register tile s (copied into the
// workers' registers, its slot freed); then tile s - rtiles of the other packs
// (the first tiles - held, the "L2 part", with an evict-last policy, read
// again later); then, from rtiles + tiles on, the L2 part again. Slot s % slots.
template <class T, int VEC>
struct HoldStream {
    const T *x;
    const HoldPiece &pc;
    uint4 *ring;
    uint64_t *full;
    int slots;
    uint64_t keep, drop;

    __device__ __forceinline__ int end() const { return pc.readTiles() + pc.l2Tiles(); }
    __device__ __forceinline__ int firstPack(int s) const {
        if (s < pc.rtiles) {
            return s * kHoldTilePacks;
        }
        s -= pc.rtiles;
        return pc.regs + (s < pc.tiles ? s : s - pc.tiles) * kHoldTilePacks;
    }
    __device__ __forceinline__ const uint4 *slot(int s) const { return ring + (size_t)(s % slots) * kHoldTilePacks; }
    __device__ __forceinline__ void wait(int s) const { bulkWait(&full[s % slots], (uint32_t)(s / slots) & 1u); }
    // Every worker: its packs of stream tile s, then its arrival on the slot's
    // barrier (nothing past the stream's end). Bulk form: worker 0 alone, the
    // whole tile, the barrier counting its bytes.
    __device__ __forceinline__ void issue(int s) const {
        if (s >= end()) {
            return;
        }
        const int first = firstPack(s), limit = s < pc.rtiles ? pc.regs : pc.count;
        const bool again_later = s >= pc.rtiles && s - pc.rtiles < pc.l2Tiles();
        const bool hinted = kHoldDropHint || again_later;
        const uint64_t policy = again_later && s - pc.rtiles < pc.kept ? keep : drop;
        uint4 *tile = const_cast<uint4 *>(slot(s));
        const T *src = x + (pc.start + first) * VEC;
        uint64_t *bar = &full[s % slots];
        if constexpr (kHoldPerThread) {
#pragma unroll
            for (int k = 0; k < kHoldPacksPerWorker; ++k) {
                const int i = k * kHoldWorkers + (int)threadIdx.x;
                if (first + i < limit) {
                    asyncCopy16(tile + i, src + (int64_t)i * VEC, hinted, policy);
                }
            }
            asyncArrive(bar);
        } else {
            const uint32_t bytes = (uint32_t)min(kHoldTilePacks, limit - first) * 16u;
            bulkExpect(bar, bytes);
            if (hinted) {
                bulkCopyHint(tile, src, bytes, bar, policy);
            } else {
                bulkCopy(tile, src, bytes, bar);
            }
        }
    }
    // issue(s) by those who issue: every worker, or worker 0 after a workers'
    // barrier (every worker's reads of the slot done; then the copy engine's
    // writes are ordered after them).
    __device__ __forceinline__ void refill(int s) const {
        if constexpr (kHoldPerThread) {
            issue(s);
        } else {
            holdBarrierWorkers();
            if (threadIdx.x == 0) {
                asyncProxyFence();
                issue(s);
            }
        }
    }
    // Read-phase tiles in flight (kHoldAhead, at most the ring's slots).
    __device__ __forceinline__ int ahead() const { return kHoldAhead > 0 ? min(kHoldAhead, slots) : slots; }
    // Every worker, once done with its packs of stream tile s: the same places take tile s + slots.
    __device__ __forceinline__ void release(int s) const { refill(s + slots); }
    // Every worker, once done with its packs of read-phase tile s: the tile
    // ahead() on (its places were read before: ahead() <= slots). With the
    // whole ring ahead, held tiles keep their slots (their refills, the L2
    // part read again, come from phase B's releases), as before.
    __device__ __forceinline__ void advance(int s) const {
        const int a = ahead();
        if (a < slots ? s + a < pc.readTiles() : s < pc.readTiles() - pc.held) {
            refill(s + a);
        }
    }
    // f(local pack index, its 16 bytes) for this worker's packs of stream tile s.
    template <class F>
    __device__ __forceinline__ void forTile(int s, F &&f) const {
        const uint4 *tile = slot(s);
        const int first = firstPack(s);
#pragma unroll
        for (int k = 0; k < kHoldPacksPerWorker; ++k) {
            const int i = k * kHoldWorkers + (int)threadIdx.x;
            if (first + i < pc.count) {
                f(first + i, tile[i]);
            }
        }
    }
};

// Every worker, before anything is held: the ring's first copies (worker 0
// has initialised the barriers). Out of line, so that its registers do not
// count against the held packs'. (The piece comes by value: a reference would
// put the caller's in local memory.)
template <class T, int VEC>
__device__ __noinline__ void startRing(const T *x, const HoldPiece pc, uint4 *ring, uint64_t *full, int slots,
                                       uint64_t keep, uint64_t drop) {
    const HoldStream<T, VEC> stream{x, pc, ring, full, slots, keep, drop};
    if (kHoldPerThread || threadIdx.x == 0) {
        for (int s = 0; s < stream.ahead(); ++s) {
            stream.issue(s);
        }
    }
}

// What the workers and the manager pass through shared memory.
template <class A>
struct HoldShared {
    A part[kHoldWorkers / 32][2][2]; // per worker warp and row: max |x| and the one-pass sum (then the scaled sum)
    Factor<A> scale[2];              // the fallback's scale per row, when `rescan`
    int rescan[2];
    Factor<A> factor[2];
};

#endif

// The elements of a 16-byte pack of T as compute values, f(value) each, read
// word by word (taking 16-bit elements one at a time made the compiler keep
// each in its own register, and the held packs spilled).
template <class T, class F>
__device__ __forceinline__ void forElems(const uint4 &w, F &&f) {
    const unsigned u[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        if constexpr (std::is_same_v<T, __nv_bfloat16>) {
            f(__uint_as_float(u[k] << 16));
            f(__uint_as_float(u[k] & 0xffff0000u));
        } else if constexpr (std::is_same_v<T, __half>) {
            __half2 h;
            memcpy(&h, &u[k], 4);
            const float2 v = __half22float2(h);
            f(v.x);
            f(v.y);
        } else if constexpr (std::is_same_v<T, float>) {
            f(__uint_as_float(u[k]));
        } else if (k % 2 == 0) {
            f(__hiloint2double((int)u[k + 1], (int)u[k]));
        }
    }
}

// x * factor for a 16-byte pack of T (device.cuh's scalePack on the pack's words).
template <class T, class A>
__device__ __forceinline__ uint4 scaleWords(const uint4 &w, const Factor<A> &f) {
    Pack<T, 16 / sizeof(T)> p;
    memcpy(&p, &w, 16);
    const Pack<T, 16 / sizeof(T)> r = scalePack(p, f);
    uint4 o;
    memcpy(&o, &r, 16);
    return o;
}

// P: plan.p for 1 and 2, else 0 (one kernel each, so that none carries another's code).
// Warps 0 .. kHoldWorkers / 32 - 1 are the workers: they hold the packs, sum
// and scale them; the last warp is the manager: the block's statistics, the
// exchange and the factors. Every division, square root and the rest of
// math.h's rare paths (calls in the compiled code) run in the manager's
// branch, where nothing is held: a call where the held registers are live
// would make the compiler spill them all.
template <class T, int VEC, int P>
__global__ void __launch_bounds__(kHoldThreads, 1)
    holdKernel(const Plan plan, const T *x, T *y, HoldRecord<ComputeType<T>> *inbox) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using A = ComputeType<T>;
    constexpr int kWarps = kHoldWorkers / 32;
    constexpr bool kPlain = kHoldPlainSums && sizeof(T) == 2 && P != 0; // phase A: packedPowSum, no max
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ HoldShared<A> sh;
    const int slots = plan.items;
    const int64_t partners = plan.chunks, piece = plan.chunk_vecs, nv = plan.len / VEC, total = plan.rows * nv;
    HoldPiece pc;
    pc.start = (int64_t)blockIdx.x * piece;
    pc.count = (int)std::min<int64_t>(piece, total - pc.start);
    pc.regs = min(pc.count, holdRegPacks(plan.tpr));
    pc.rtiles = (pc.regs + kHoldTilePacks - 1) / kHoldTilePacks;
    pc.tiles = (pc.count - pc.regs + kHoldTilePacks - 1) / kHoldTilePacks;
    pc.held = min(pc.tiles, slots);
    pc.kept = plan.kept < 0 ? pc.tiles : (int)plan.kept;
    pc.row = pc.start / nv;
    pc.split = (int)std::min<int64_t>(pc.count, (pc.row + 1) * nv - pc.start);
    if constexpr (kHoldPrefetch > 0) {
        // A hint only: the loads that use these lines come after the wait, from L2.
        const int64_t bytes = std::min<int64_t>(kHoldPrefetch, (int64_t)pc.count * 16);
        if (threadIdx.x == 0 && bytes > 0) {
            bulkPrefetchL2(x + pc.start * VEC, (uint32_t)bytes);
        }
    }
    pdlWaitPrevious(); // x may be the previous kernel's output, and the workspace its records
    pdlAllowNext();
    INFINI_STAGE_STAMP(0, 0);
    const int sides = pc.split < pc.count ? 2 : 1;
    uint64_t *full = reinterpret_cast<uint64_t *>(smem);
    const HoldStream<T, VEC> stream{x, pc, reinterpret_cast<uint4 *>(smem + kHoldBarrierBytes), full, slots,
                                    l2Policy(true), l2Policy(false)};

    if (threadIdx.x >= kHoldWorkers) { // the manager warp
        Stats<A> *merged = reinterpret_cast<Stats<A> *>(smem + kHoldBarrierBytes + (size_t)slots * kHoldTileBytes);
        const int lane = (int)threadIdx.x & 31;
        holdBarrierAll(); // (1) the workers' sums are in
        Stats<A> mine[2];
        A plain[2];
        bool rescan[2] = {false, false}; // the row's scaled sum is read again from x
        for (int r = 0; r < sides; ++r) { // in warp order: the same bits at every call
            const A m = warpReduce(lane < kWarps ? sh.part[lane][r][0] : A(0), MaxNanOp{});
            const A t = warpReduce(lane < kWarps ? sh.part[lane][r][1] : A(0), SumOp{});
            plain[r] = t;
            if constexpr (kPlain) { // no max from phase A: see kHoldPlainSums
                const bool usable = plainSumUsable(t);
                mine[r].m = usable ? rootInt(t, plan.p) : A(0);
                rescan[r] = !usable;
            } else {
                mine[r].m = m;
                rescan[r] = scaledSumNeeded(m) && !plainSumUsable(t);
            }
            if (lane == 0) {
                sh.rescan[r] = rescan[r];
                sh.scale[r] = rescan[r] && !kPlain ? sumScale(m) : Factor<A>{A(1), A(1)};
            }
        }
        if (lane == 0 && sides == 1) {
            sh.rescan[1] = 0;
        }
        holdBarrierAll(); // (2) the fallback's scales (kPlain: which rows to read again) are out
        if (rescan[0] || rescan[1]) {
            if constexpr (kPlain) {
                holdBarrierAll(); // (2a) the workers' maxima of those rows are in
                for (int r = 0; r < sides; ++r) {
                    if (rescan[r]) {
                        mine[r].m = warpReduce(lane < kWarps ? sh.part[lane][r][0] : A(0), MaxNanOp{});
                        rescan[r] = scaledSumNeeded(mine[r].m); // NaN, inf, all zero: decided by the max
                        if (lane == 0) {
                            sh.rescan[r] = rescan[r];
                            sh.scale[r] = rescan[r] ? sumScale(mine[r].m) : Factor<A>{A(1), A(1)};
                        }
                    }
                }
                holdBarrierAll(); // (2b) their scales are out
            }
            holdBarrierAll(); // (3) the workers' scaled sums are in
        }
        for (int r = 0; r < sides; ++r) {
            if (rescan[r]) {
                mine[r].s = warpReduce(lane < kWarps ? sh.part[lane][r][1] : A(0), SumOp{});
            } else if constexpr (kPlain) {
                mine[r].s = scaledSumNeeded(mine[r].m) ? A(1) : A(0);
            } else {
                mine[r].s = scaledSumNeeded(mine[r].m) ? plain[r] / powInt(mine[r].m, plan.p) : A(0);
            }
        }
        // The exchange: lane j sends this block's statistics of each row to the
        // row's blocks j, j + 32, ..., then takes theirs.
        int64_t first[2], blocks[2];
        for (int r = 0; r < 2; ++r) {
            const int64_t row = pc.row + r;
            first[r] = row * nv / piece;
            blocks[r] = r < sides ? ((row + 1) * nv - 1) / piece - first[r] + 1 : 0;
        }
        for (int r = 0; r < sides; ++r) {
            const int me = (int)(blockIdx.x - first[r]); // this block's place among the row's
            for (int64_t j = lane; j < blocks[r]; j += 32) {
                const int64_t b = first[r] + j;
                if (b != blockIdx.x) {
                    const int side = (b * piece) / nv == pc.row + r ? 0 : 1; // the row is block b's first or second
                    sendRecord(inbox + (b * 2 + side) * partners + me, mine[r]);
                }
            }
        }
        for (int r = 0; r < sides; ++r) {
            for (int64_t j = lane; j < blocks[r]; j += 32) {
                merged[r * partners + j] = first[r] + j == blockIdx.x
                                               ? mine[r]
                                               : takeRecord(inbox + ((int64_t)blockIdx.x * 2 + r) * partners + j);
            }
        }
        __syncwarp();
        for (int r = 0; r < sides; ++r) {
            // One warp merges the row's records in block order: every block of the row gets the same bits.
            const Factor<A> f =
                mergedFactorBy<A>(merged + r * partners, blocks[r], plan.p, plan.eps, lane, 32u, nullptr, nullptr);
            if (lane == 0) {
                sh.factor[r] = f;
            }
        }
        holdBarrierAll(); // (4) the factors are out
        return;
    }

    // The workers. Worker 0 initialises the slots' barriers (an arrival a worker a phase), then all start the ring.
    if (threadIdx.x == 0) {
        for (int i = 0; i < slots; ++i) {
            if constexpr (kHoldPerThread) {
                barrierInit(&full[i], kHoldWorkers);
            } else {
                bulkBarrierInit(&full[i]);
            }
        }
    }
    holdBarrierWorkers();
    startRing<T, VEC>(x, pc, stream.ring, full, slots, stream.keep, stream.drop);
    // Phase A. Per row of the piece (0: pc.row, 1: the next): the one-pass sum
    // and (but with kPlain) max |x|. 2-byte elements with p 1 or 2 take the
    // packed forms, a word at a time: kPlain, the sums alone (~16
    // instructions a pack; no sums at all would save ~1 µs more at 32x1M
    // BF16); else packedStats (magnitudes' bits, maxima 16 bits at a time:
    // a third of session 17's instructions, which the read phase was bound
    // by). The others go element by element.
    constexpr bool kPacked = sizeof(T) == 2 && P != 0 && !kPlain;
    A m0 = 0, t0 = 0, m1 = 0, t1 = 0;
    unsigned mw0 = 0, mw1 = 0; // kPacked: the rows' max |x| bits, two 16-bit lanes
    auto add = [&](int i, const uint4 &w) {
        if (INFINI_LP_NORM_HOLD_PROBE_NO_SUM) {
            return;
        }
        A pt = 0;
        if constexpr (kPlain) {
            pt = packedPowSum<T, P>(w);
        } else if constexpr (kPacked) {
            unsigned mw;
            pt = packedStats<T, P>(w, mw);
            if (i < pc.split) {
                mw0 = maxU16x2(mw0, mw);
            } else {
                mw1 = maxU16x2(mw1, mw);
            }
        } else {
            A pm = 0;
            forElems<T>(w, [&](A v) {
                const A a = absA<A>(v);
                pm = MaxNanOp{}(pm, a);
                pt += powP<P, true>(a, plan.p);
            });
            if (i < pc.split) {
                m0 = MaxNanOp{}(m0, pm);
            } else {
                m1 = MaxNanOp{}(m1, pm);
            }
        }
        if (i < pc.split) {
            t0 += pt;
        } else {
            t1 += pt;
        }
    };
    // The register tiles, one at a time as the others (so the code stays
    // small: straight-line code runs from L2 at a few µs a KB while DRAM is
    // saturated): summed, then copied into the worker's registers held[2s]
    // and held[2s + 1] (the branch on s, the same for every worker, keeps the
    // indices known at compile time, so held stays in registers), then the
    // slot freed for a later tile. (Packs past the piece's end are copied
    // too, from the slot's old contents, and never stored.)
    uint4 held[kHoldRegPacks];
#pragma unroll
    for (int k = 0; k < kHoldRegPacks; ++k) {
        held[k] = make_uint4(0, 0, 0, 0);
    }
    for (int s = 0; s < pc.rtiles; ++s) {
        stream.wait(s);
        if (s % 2 == 0 && s < 12) {
            INFINI_STAGE_STAMP(2 + s / 2, 0); // (trace: register tiles 0, 2, .., 10 landed, then passed)
        }
        stream.forTile(s, add);
        const uint4 *mine = stream.slot(s) + threadIdx.x;
#pragma unroll
        for (int r = 0; r < kHoldRegPacks / kHoldPacksPerWorker; ++r) {
            if (r == s) {
#pragma unroll
                for (int q = 0; q < kHoldPacksPerWorker; ++q) {
                    held[r * kHoldPacksPerWorker + q] = mine[q * kHoldWorkers];
                }
            }
        }
        stream.advance(s);
        if (s % 2 == 0 && s < 12) {
            INFINI_STAGE_STAMP(2 + s / 2, 1);
        }
    }
    INFINI_STAGE_STAMP(1, 0); // (the stage trace's extra points: tools/lpn7_bench.cu, holdtrace)
    for (int s = pc.rtiles; s < pc.readTiles(); ++s) {
        stream.wait(s);
        if ((s - pc.rtiles) % 4 == 0 && s - pc.rtiles < 24) {
            INFINI_STAGE_STAMP(2 + (s - pc.rtiles) / 4, 2); // (trace: the other tiles 0, 4, .., 20 landed)
        }
        stream.forTile(s, add);
        stream.advance(s);
    }
    if constexpr (kPacked) {
        m0 = halvesMax<T>(mw0);
        m1 = halvesMax<T>(mw1);
    }
    const int warp = (int)threadIdx.x >> 5, lane = (int)threadIdx.x & 31;
    m0 = warpReduce(m0, MaxNanOp{});
    t0 = warpReduce(t0, SumOp{});
    m1 = warpReduce(m1, MaxNanOp{});
    t1 = warpReduce(t1, SumOp{});
    if (lane == 0) {
        sh.part[warp][0][0] = m0;
        sh.part[warp][0][1] = t0;
        sh.part[warp][1][0] = m1;
        sh.part[warp][1][1] = t1;
    }
    holdBarrierAll(); // (1)
    INFINI_STAGE_STAMP(0, 1);
    holdBarrierAll(); // (2)
    if (sh.rescan[0] || sh.rescan[1]) { // rare: the scaled sums, read again from x (nothing written yet)
        // f(e) for each of this worker's elements of the piece's row r (0: pc.row, 1: the next), from x.
        auto rereadRow = [&](int r, auto &&f) {
            const int lo = r == 0 ? 0 : pc.split, hi = r == 0 ? pc.split : pc.count;
            for (int i = lo + (int)threadIdx.x; i < hi; i += kHoldWorkers) {
                forElems<T>(ldWords<Load::Plain>(x + (pc.start + i) * VEC), f);
            }
        };
        if constexpr (kPlain) { // first the maxima of those rows (phase A took none)
            A mx[2] = {0, 0};
            for (int r = 0; r < 2; ++r) {
                if (sh.rescan[r]) {
                    rereadRow(r, [&](A e) { mx[r] = MaxNanOp{}(mx[r], absA<A>(e)); });
                    mx[r] = warpReduce(mx[r], MaxNanOp{});
                }
            }
            if (lane == 0) {
                sh.part[warp][0][0] = mx[0];
                sh.part[warp][1][0] = mx[1];
            }
            holdBarrierAll(); // (2a)
            holdBarrierAll(); // (2b)
        }
        A part[2] = {0, 0};
        for (int r = 0; r < 2; ++r) {
            if (!sh.rescan[r]) {
                continue;
            }
            const Factor<A> sc = sh.scale[r];
            A sum = 0;
            rereadRow(r, [&](A e) { sum += powP<P, true>(sc.apply(absA<A>(e)), plan.p); });
            part[r] = warpReduce(sum, SumOp{});
        }
        if (lane == 0) {
            sh.part[warp][0][1] = part[0];
            sh.part[warp][1][1] = part[1];
        }
        holdBarrierAll(); // (3)
    }
    holdBarrierAll(); // (4)
    INFINI_STAGE_STAMP(0, 2);
    const Factor<A> fa = sh.factor[0], fb = sides == 2 ? sh.factor[1] : fa;

    // Phase B: the held tiles (their slots then take the L2 part again), the registers, the L2 part.
    T *yp = y + pc.start * VEC;
    auto store = [&](int i, const uint4 &w) {
        uint4 *to = reinterpret_cast<uint4 *>(yp + (int64_t)i * VEC);
        const uint4 v = scaleWords<T>(w, i >= pc.split ? fb : fa);
        if (INFINI_LP_NORM_HOLD_STORE_CS) {
            __stcs(to, v);
        } else {
            *to = v;
        }
    };
    for (int s = pc.readTiles() - pc.held; s < pc.readTiles(); ++s) {
        stream.forTile(s, store);
        if (pc.held < pc.tiles) {
            stream.release(s);
        }
    }
    INFINI_STAGE_STAMP(1, 1);
#pragma unroll
    for (int k = 0; k < kHoldRegPacks; ++k) {
        const int i = k * kHoldWorkers + (int)threadIdx.x;
        if (i < pc.regs) {
            store(i, held[k]);
        }
    }
    INFINI_STAGE_STAMP(1, 2);
    for (int s = pc.readTiles(); s < stream.end(); ++s) {
        stream.wait(s);
        stream.forTile(s, store);
        stream.release(s);
    }
    INFINI_STAGE_STAMP(0, 3);
    INFINI_STAGE_STAMP(1, 3);
#else
    __trap(); // planned only where kernelCompiledFor(..., 90)
#endif
}

template <class F>
infiniStatus_t withHoldKernel(infiniDtype_t dtype, int p, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        constexpr int V = 16 / sizeof(T);
        return p == 2 ? f(holdKernel<T, V, 2>, T{}) : p == 1 ? f(holdKernel<T, V, 1>, T{}) : f(holdKernel<T, V, 0>, T{});
    });
}

} // namespace

bool planHold(const InfiniopHandle &h, Plan &plan, const HoldTuning &tune) {
    const int64_t es = (int64_t)dtypeSize(plan.dtype);
    const int64_t nv = plan.len / std::max(plan.vec, 1); // packs a row
    const Outer &o = plan.outer;
    // Rows of whole packs, one after the other in x and in y (the pieces are flat ranges).
    const bool dense = o.table == nullptr && plan.sxr == 1 && plan.syr == 1 &&
                       (plan.rows == 1 || (o.nd == 1 && o.sx[0] == plan.len && o.sy[0] == plan.len));
    if (h.cc_major < 9 || plan.vec * es != 16 || !dense || nv * plan.vec != plan.len || plan.rows < 1 ||
        h.sm_count < 1) {
        return false;
    }
    const size_t stats_bytes = es == 8 ? sizeof(Stats<double>) : sizeof(Stats<float>);
    const size_t record_bytes = es == 8 ? sizeof(HoldRecord<double>) : sizeof(HoldRecord<float>);
    // A piece a block: as many blocks as SMs (one each), pieces of whole 128-byte lines.
    const int64_t total = plan.rows * nv;
    const int64_t piece = ceilDiv(ceilDiv(total, h.sm_count), 8) * 8;
    const int64_t grid = ceilDiv(total, piece);
    // At most two rows a piece; blocks a row at most: its packs over a piece, plus one.
    const int64_t partners = std::min<int64_t>(grid, ceilDiv(nv, piece) + 1);
    if (piece > nv || partners > kHoldMaxPartners || piece >= (1 << 30)) {
        return false;
    }
    bool ok = false;
    withHoldKernel(plan.dtype, plan.p, [&](auto kernel, auto) {
        cudaFuncAttributes attr{};
        if (!kernelCompiledFor(kernel, 90) || cudaFuncGetAttributes(&attr, kernel) != cudaSuccess) {
            cudaGetLastError();
            return INFINI_STATUS_SUCCESS;
        }
        const int64_t room = ((int64_t)h.max_shared_memory_per_block_optin - (int64_t)attr.sharedSizeBytes -
                              (int64_t)kHoldBarrierBytes - 2 * partners * (int64_t)stats_bytes) /
                             kHoldTileBytes;
        const int slots = (int)std::min<int64_t>(room, tune.slots > 0 ? tune.slots : kHoldMaxTiles);
        if (slots < 2) {
            return INFINI_STATUS_SUCCESS;
        }
        const size_t smem = holdSmem(slots, partners, stats_bytes);
        // Every block resident at once (they wait for each other). The kernel's
        // limit: the most any plan asks (the same for every plan of the kernel).
        const size_t limit = (size_t)h.max_shared_memory_per_block_optin - attr.sharedSizeBytes;
        if (blocksPerSmOf(kernel, kHoldThreads, smem, limit) * (int64_t)h.sm_count < grid) {
            return INFINI_STATUS_SUCCESS;
        }
        // What neither the registers nor the ring hold is read twice; it must fit the L2 budget.
        const int regs = tune.reg_packs >= 0 ? std::min(tune.reg_packs, kHoldRegPacks) : kHoldRegPacks;
        const int64_t on_chip = (int64_t)holdRegPacks(regs) + (int64_t)slots * kHoldTilePacks;
        const double again = (double)grid * (double)std::max<int64_t>(0, piece - on_chip) * 16.0;
        if (again > tune.l2_fraction * (double)h.l2_cache_bytes) {
            return INFINI_STATUS_SUCCESS;
        }
        // Past keep_fraction of L2, only the L2 part's first tiles are kept (the
        // rest read evict-first, and again from DRAM in phase B).
        const double keep = tune.keep_fraction * (double)h.l2_cache_bytes;
        const int64_t kept = again <= keep ? -1 : (int64_t)(keep / ((double)grid * kHoldTileBytes));
        Plan c = plan;
        c.kind = Kind::Hold;
        c.threads = kHoldThreads;
        c.tpr = regs; // packs a worker holds in registers
        c.items = slots;
        c.chunks = partners;
        c.chunk_vecs = piece;
        c.grid_x = (unsigned)grid;
        c.smem_max = smem;
        c.kept = kept;
        c.cs = true;
        c.workspace = (size_t)grid * 2 * (size_t)partners * record_bytes;
        c.pdl_ok = kernelHonoursPdl(kernel);
        c.pdl = tune.pdl < 0 ? kHoldPdl : (PdlPolicy)tune.pdl;
        plan = c;
        ok = true;
        return INFINI_STATUS_SUCCESS;
    });
    return ok;
}

infiniStatus_t launchHold(const Plan &plan, const void *x, void *y, void *workspace, void *stream) {
    const cudaStream_t st = (cudaStream_t)stream;
    return withHoldKernel(plan.dtype, plan.p, [&](auto kernel, auto t) {
        using T = decltype(t);
        using R = HoldRecord<ComputeType<T>>;
        LaunchConfig config(dim3(plan.grid_x), dim3(kHoldThreads), plan.smem_max, st);
        config.pdl(plan.pdl_ok && pdlWanted(plan.pdl, st));
        if (INFINI_LP_NORM_HOLD_COOPERATIVE) {
            config.cooperative();
        }
        CUDA_TRY(cudaLaunchKernelEx(config.get(), kernel, plan, (const T *)x, (T *)y, static_cast<R *>(workspace)));
        return INFINI_STATUS_SUCCESS;
    });
}

} // namespace infini::lp_norm::nvidia
