// LPNorm, few long rows: the Sweep plan (issue 13; notes/lp_norm.md, "Session
// 15: the Sweep plan"). Two kernels, each over the whole GPU, with every row cut
// into plan.chunks chunks of plan.chunk_vecs packs (item i: row i / C, chunk i % C):
//   sweepStatsKernel: a block reads its item's chunk once and writes the
//     chunk's (max |x|, sum (|x| / max)^p) to the workspace, record i;
//   sweepApplyKernel: a block merges its row's C records in chunk order (the
//     same bits in every block of the row), reads the chunk again and stores
//     x * factor.
// The second read finds the chunk in L2 where it fits: the first kernel loads
// the last plan.prefetch packs of each chunk with an L2 evict-last policy (as
// many as the planner's L2 budget takes over all chunks) and the rest
// evict-first, and the second reads each chunk last group first, so that the
// lines kept come first. Unlike Pipe (a cluster a row, 7 of them on the H100,
// rows in rounds), every SM works on every row, so there is no last round;
// unlike Grid, no block waits for another within a kernel: the kernel
// boundary is the exchange, and the second kernel is the first's
// programmatic dependent (its blocks launch while the first runs and wait for
// its records). Nothing carries over between calls: the first kernel writes
// every record the second reads, so the workspace needs no clearing.
// The library plans it for long rows of 2-byte elements too few for a cluster
// plan (nvidia.cc, INFINI_LP_NORM_SWEEP; H100: one 16M BF16 row 62.5 -> 37.9
// µs against Split). Where the rows fill the clusters, Pipe stays ahead (32x1M
// BF16: 71 against 61 µs): between the kernels both have to finish
// everywhere, and the second read of x comes partly from DRAM.
#include "../../common/cuda/bulk_copy.cuh"
#include "../../common/cuda/pdl.cuh"
#include "cached_load.cuh"
#include "cluster_launch.cuh"
#include "row_stats.cuh"
#include "stage_trace.cuh"
#include <algorithm>

namespace infini::lp_norm::nvidia {

namespace {

constexpr int kSweepThreads = 512;
// A bulk copy and a ring slot: 32 KB, 4 packs a thread (as Pipe's tiles).
constexpr int kSweepTileBytes = 32 << 10, kSweepTilePacks = kSweepTileBytes / 16;
constexpr int kSweepPacksPerThread = kSweepTilePacks / kSweepThreads;
constexpr int kSweepMaxSlots = 16;
constexpr size_t kSweepBarrierBytes = 8 * kSweepMaxSlots; // the slots' barriers, before the ring

size_t sweepSmem(int slots) { return kSweepBarrierBytes + (size_t)slots * kSweepTileBytes; }
// The kernels' dynamic shared-memory limit: the device's opt-in less 1 KB for the static arrays.
size_t sweepSmemLimit(const InfiniopHandle &h) { return (size_t)h.max_shared_memory_per_block_optin - 1024; }

// The packs of an item's chunk: `count` from `first` in its row.
struct SweepItem {
    int64_t row, first;
    int count;
};
template <int VEC>
__device__ __forceinline__ SweepItem sweepItem(const Plan &plan, int64_t item) {
    const int64_t row = item / plan.chunks, first = (item - row * plan.chunks) * plan.chunk_vecs;
    const int64_t left = plan.len / VEC - first;
    return {row, first, (int)std::max<int64_t>(0, std::min<int64_t>(plan.chunk_vecs, left))};
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// A block's items (blockIdx.x, + gridDim.x, ...) as one stream of tiles through
// a ring of plan.items slots filled by bulk copies: stream tile s is tile t of
// the block's item s / K (K = plan.tpr tiles an item), t = s % K, or K - 1 -
// s % K when `reverse` (last tile first), in slot s % N.
template <class T, int VEC>
struct SweepRing {
    const Plan &plan;
    const T *x;
    uint4 *ring;
    uint64_t *full;
    bool reverse;
    uint64_t keep, drop; // L2 policies: tiles in the chunk's last plan.prefetch packs, the others

    __device__ __forceinline__ int64_t itemOf(int s) const { return blockIdx.x + (int64_t)(s / plan.tpr) * gridDim.x; }
    __device__ __forceinline__ int tileOf(int s) const {
        const int t = s % plan.tpr;
        return reverse ? plan.tpr - 1 - t : t;
    }
    // Packs of tile t of an item (0 past its chunk's end).
    __device__ __forceinline__ int packsOf(const SweepItem &it, int t) const {
        return max(0, min(kSweepTilePacks, it.count - t * kSweepTilePacks));
    }
    __device__ __forceinline__ const uint4 *slot(int s) const { return ring + (size_t)(s % plan.items) * kSweepTilePacks; }
    __device__ __forceinline__ void wait(int s) const { bulkWait(&full[s % plan.items], (uint32_t)(s / plan.items) & 1u); }

    // Thread 0: the copy of stream tile s (nothing past the block's last item).
    __device__ __forceinline__ void issue(int s) const {
        const int64_t item = itemOf(s);
        if (item >= plan.rows * plan.chunks) {
            return;
        }
        const SweepItem it = sweepItem<VEC>(plan, item);
        const int t = tileOf(s), packs = packsOf(it, t);
        uint64_t *bar = &full[s % plan.items];
        bulkExpect(bar, (uint32_t)packs * 16u);
        if (packs > 0) {
            int64_t ox, oy;
            outerOffsets(plan.outer, it.row, ox, oy);
            const bool kept = (t + 1) * kSweepTilePacks > it.count - plan.prefetch;
            bulkCopyHint(const_cast<uint4 *>(slot(s)), x + ox + (it.first + (int64_t)t * kSweepTilePacks) * VEC,
                         (uint32_t)packs * 16u, bar, kept ? keep : drop);
        }
    }
    // Thread 0, once every thread is done with stream tile s's slot: its next tile.
    __device__ __forceinline__ void release(int s) const {
        if (threadIdx.x == 0) {
            asyncProxyFence(); // our reads before the copy's writes
            issue(s + plan.items);
        }
    }
    // Called by every thread: the barriers, and the first N tiles in flight.
    __device__ __forceinline__ void start() const {
        if (threadIdx.x == 0) {
            for (int i = 0; i < plan.items; ++i) {
                bulkBarrierInit(&full[i]);
            }
            for (int s = 0; s < plan.items; ++s) {
                issue(s);
            }
        }
        __syncthreads();
    }
};
#endif

template <class T, int VEC>
__global__ void __launch_bounds__(kSweepThreads, 1)
    sweepStatsKernel(const Plan plan, const T *x, Stats<ComputeType<T>> *records) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using A = ComputeType<T>;
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ A red_m[32], red_t[32], red_s[32];
    pdlWaitPrevious(); // x may be the previous kernel's output
    pdlAllowNext();    // the apply kernel's blocks may launch now (they wait for our records)
    INFINI_STAGE_STAMP(0, 0);
    const SweepRing<T, VEC> ring{plan, x, reinterpret_cast<uint4 *>(smem + kSweepBarrierBytes),
                                 reinterpret_cast<uint64_t *>(smem), false, l2Policy(true), l2Policy(false)};
    ring.start();
    const int64_t items = plan.rows * plan.chunks;
    int s = 0;
    for (int64_t item = blockIdx.x; item < items; item += gridDim.x) {
        const SweepItem it = sweepItem<VEC>(plan, item);
        A m = 0, t = 0; // max |x| and the unscaled sum, in one pass
        withP(plan.p, [&](auto pc) {
            constexpr int kP = decltype(pc)::value;
            for (int j = 0; j < plan.tpr; ++j, ++s) {
                const int packs = ring.packsOf(it, ring.tileOf(s));
                ring.wait(s);
                if (s == 0) {
                    INFINI_STAGE_STAMP(0, 1);
                }
                const uint4 *tile = ring.slot(s);
#pragma unroll
                for (int k = 0; k < kSweepPacksPerThread; ++k) {
                    const int i = k * kSweepThreads + (int)threadIdx.x;
                    if (i < packs) {
                        const Pack<T, VEC> pk = asPack<T, VEC>(tile[i]);
#pragma unroll
                        for (int e = 0; e < VEC; ++e) {
                            const A a = absA<A>(widen(pk.v[e]));
                            m = MaxNanOp{}(m, a);
                            t += powP<kP>(a, plan.p);
                        }
                    }
                }
                __syncthreads(); // every thread is done with the slot
                ring.release(s);
            }
        });
        if (s == plan.tpr) {
            INFINI_STAGE_STAMP(0, 2);
        }
        m = groupReduce(m, kSweepThreads, red_m, MaxNanOp{});
        t = groupReduce(t, kSweepThreads, red_t, SumOp{});
        // m and t are block-uniform; the fallback reads the chunk once more.
        const A sc_sum = scaledSumFrom(m, t, plan.p, [&](const Factor<A> &sc) {
            int64_t ox, oy;
            outerOffsets(plan.outer, it.row, ox, oy);
            const T *xc = x + ox + it.first * VEC;
            A part = 0;
            for (int v = (int)threadIdx.x; v < it.count; v += kSweepThreads) {
                addScaledPack<0>(part, asPack<T, VEC>(ldWords<Load::Plain>(xc + (int64_t)v * VEC)), sc, plan.p);
            }
            return groupReduce(part, kSweepThreads, red_s, SumOp{});
        });
        if (threadIdx.x == 0) {
            records[item] = Stats<A>{m, sc_sum};
        }
        if (s == plan.tpr) {
            INFINI_STAGE_STAMP(0, 3);
        }
        __syncthreads(); // red_* are read before the next item rewrites them
    }
#else
    __trap(); // planned only where kernelCompiledFor(..., 90)
#endif
}

template <class T, int VEC>
__global__ void __launch_bounds__(kSweepThreads, 1)
    sweepApplyKernel(const Plan plan, const T *x, T *y, const Stats<ComputeType<T>> *records) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using A = ComputeType<T>;
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ A red_m[32], red_s[32];
    // x is ready (every block of the stats kernel passed its wait before this
    // grid could launch) and the stats kernel only reads it, so the first
    // tiles are copied at once; the records and y need the wait.
    INFINI_STAGE_STAMP(1, 0);
    const uint64_t drop = l2Policy(false); // the last read of x: no reason to keep it
    const SweepRing<T, VEC> ring{plan, x, reinterpret_cast<uint4 *>(smem + kSweepBarrierBytes),
                                 reinterpret_cast<uint64_t *>(smem), true, drop, drop};
    ring.start();
    pdlWaitPrevious(); // the stats kernel's records (and, through it, every earlier kernel)
    pdlAllowNext();
    const int64_t items = plan.rows * plan.chunks;
    int s = 0;
    for (int64_t item = blockIdx.x; item < items; item += gridDim.x) {
        const SweepItem it = sweepItem<VEC>(plan, item);
        // Every block of the row merges the same records in the same order: the same factor.
        const Factor<A> f = mergedFactor(records + it.row * plan.chunks, plan.chunks, plan.p, plan.eps, red_m, red_s);
        if (s == 0) {
            INFINI_STAGE_STAMP(1, 1);
        }
        int64_t ox, oy;
        outerOffsets(plan.outer, it.row, ox, oy);
        T *yc = y + oy + it.first * VEC;
        for (int j = 0; j < plan.tpr; ++j, ++s) {
            const int t = ring.tileOf(s), packs = ring.packsOf(it, t);
            ring.wait(s);
            if (s == 0) {
                INFINI_STAGE_STAMP(1, 2);
            }
            const uint4 *tile = ring.slot(s);
            T *yt = yc + (int64_t)t * kSweepTilePacks * VEC;
#pragma unroll
            for (int k = 0; k < kSweepPacksPerThread; ++k) {
                const int i = k * kSweepThreads + (int)threadIdx.x;
                if (i < packs) {
                    stPack<T, VEC>(yt + (int64_t)i * VEC, scalePack(asPack<T, VEC>(tile[i]), f), true);
                }
            }
            __syncthreads(); // every thread is done with the slot (and, at an item's end, with red_m / red_s)
            ring.release(s);
        }
        if (s == plan.tpr) {
            INFINI_STAGE_STAMP(1, 3);
        }
    }
#else
    __trap(); // planned only where kernelCompiledFor(..., 90)
#endif
}

template <class F>
infiniStatus_t withSweepKernels(infiniDtype_t dtype, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        constexpr int V = 16 / sizeof(T);
        return f(sweepStatsKernel<T, V>, sweepApplyKernel<T, V>, T{});
    });
}

} // namespace

bool planSweep(const InfiniopHandle &h, Plan &plan, const SweepTuning &tune) {
    const int64_t es = (int64_t)dtypeSize(plan.dtype);
    const int64_t nv = plan.len / plan.vec; // packs a row
    if (h.cc_major < 9 || plan.vec * es != 16 || plan.rows < 1 || h.sm_count < 1 || nv < kSweepThreads) {
        return false;
    }
    // The ring: blocks_per_sm blocks an SM share its shared memory (at most kSweepMaxSlots slots a block).
    const int bps = std::max(tune.blocks_per_sm, 1);
    const int64_t room = ((int64_t)sweepSmemLimit(h) / bps - (int64_t)kSweepBarrierBytes) / kSweepTileBytes;
    const int slots = (int)std::min<int64_t>(tune.slots > 0 ? tune.slots : room, std::min<int64_t>(room, kSweepMaxSlots));
    if (slots < 2) {
        return false;
    }
    int per_sm = 0;
    bool pdl_ok = false;
    withSweepKernels(plan.dtype, [&](auto stats, auto apply, auto) {
        if (kernelCompiledFor(stats, 90)) {
            const size_t limit = sweepSmemLimit(h);
            per_sm = std::min(blocksPerSmOf(stats, kSweepThreads, sweepSmem(slots), limit),
                              blocksPerSmOf(apply, kSweepThreads, sweepSmem(slots), limit));
            pdl_ok = kernelHonoursPdl(stats) && kernelHonoursPdl(apply);
        }
        return INFINI_STATUS_SUCCESS;
    });
    if (per_sm < 1) {
        return false;
    }
    // As many chunks a row as give about one item a block; chunks of whole
    // 128-byte lines, and no more tiles than an int counts.
    const int64_t blocks = (int64_t)std::min(bps, per_sm) * h.sm_count;
    const int64_t want = std::max<int64_t>(1, blocks / plan.rows);
    const int64_t chunk = ceilDiv(ceilDiv(nv, want), 8) * 8;
    const int64_t chunks = ceilDiv(nv, chunk);
    const int64_t items = plan.rows * chunks;
    const int64_t tiles = ceilDiv(chunk, kSweepTilePacks);
    const int64_t grid = std::min(items, blocks);
    if (items >= INT32_MAX || tiles * ceilDiv(items, grid) + slots >= INT32_MAX) {
        return false;
    }
    // The packs of each chunk kept in L2 for the second read: the budget's share of x.
    const double x_bytes = (double)plan.rows * (double)plan.len * (double)es;
    const double budget = std::max(0.0, tune.l2_fraction) * (double)h.l2_cache_bytes;
    const double kept = x_bytes > 0 ? std::min(1.0, budget / x_bytes) : 1.0;
    Plan c = plan;
    c.kind = Kind::Sweep;
    c.threads = kSweepThreads;
    c.tpr = (int)tiles; // tiles an item
    c.items = slots;    // ring slots a block
    c.chunks = chunks;
    c.chunk_vecs = chunk;
    c.prefetch = (int64_t)(kept * (double)chunk);
    c.grid_x = (unsigned)grid;
    c.smem_max = sweepSmem(slots);
    c.cs = true;
    c.workspace = (size_t)items * (es == 8 ? sizeof(Stats<double>) : sizeof(Stats<float>));
    c.pdl_ok = pdl_ok;
    c.pdl = tune.pdl < 0 ? PdlPolicy::Always : (PdlPolicy)tune.pdl;
    plan = c;
    return true;
}

infiniStatus_t launchSweep(const Plan &plan, const void *x, void *y, void *workspace, void *stream) {
    const cudaStream_t st = (cudaStream_t)stream;
    const bool pdl = plan.pdl_ok && pdlWanted(plan.pdl, st);
    return withSweepKernels(plan.dtype, [&](auto stats, auto apply, auto t) {
        using T = decltype(t);
        using S = Stats<ComputeType<T>>;
        S *records = static_cast<S *>(workspace);
        const dim3 grid(plan.grid_x), block(kSweepThreads);
        CUDA_TRY(launchKernel(stats, grid, block, plan.smem_max, st, pdl, plan, (const T *)x, records));
        CUDA_TRY(launchKernel(apply, grid, block, plan.smem_max, st, pdl, plan, (const T *)x, (T *)y,
                              (const S *)records));
        return INFINI_STATUS_SUCCESS;
    });
}

} // namespace infini::lp_norm::nvidia
