// LPNorm, long rows on sm_90: the Pipe plan (issue 13; notes/lp_norm.md,
// "Session 9: the Pipe plan"). Built behind -DINFINI_LP_NORM_PIPE=1 in
// nvidia.cc; tools/lpn7_bench.cu times it against TwoPass from any build.
//
// A cluster of plan.chunks blocks takes rows g, g + G, ... as TwoPass does,
// block r owning chunk r of each row, one block an SM. Unlike TwoPass, each
// element is read from DRAM once: the block holds its chunk in a ring of
// plan.items shared-memory tiles (kTileBytes each) filled by bulk copies
// (cp.async.bulk, common/cuda/bulk_copy.cuh), and the ring is one tile stream
// over the block's rows: tile s of the stream (row s / K, tile s % K of the
// chunk's K tiles) goes to slot s % N. Per row:
//   pass 1: wait for each tile of the chunk, sum |x|^p (row_stats.cuh);
//   merge:  the cluster's sums through distributed shared memory, one cluster
//           barrier (clusterMergeAlternating), so every block gets bitwise
//           the same factor (the scaled statistics re-read the held tiles);
//           while the barrier waits for the other blocks, each thread sums the
//           next row's tiles already in the ring (pass 1 then finishes the rest);
//   pass 2: y = x * factor from the held tiles; as each tile is done the slot
//           takes the stream's tile s + N, i.e. the next row's.
// With N > K the N - K slots past the chunk hold the next row's first tiles
// while this row merges and is written, so DRAM reads of row i + 1 overlap
// the merge and writes of row i (the Cluster plan held rows on chip too, but
// loaded, reduced and stored each wave in turn).
#include "../../common/cuda/bulk_copy.cuh"
#include "../../common/cuda/pdl.cuh"
#include "cluster_launch.cuh"
#include "row_stats.cuh"
#include "stage_trace.cuh"
#include <algorithm>

namespace infini::lp_norm::nvidia {

namespace {

// Threads a block (A/B knob). H100, lpn7_bench graph µs, 512 -> 1024 (2 packs
// a thread a tile instead of 4): 32x1M BF16 61.0 -> 63.6, 16x1M 35.8 -> 38.0
// (notes/lp_norm.md, "Session 16").
#ifndef INFINI_LP_NORM_PIPE_THREADS
#define INFINI_LP_NORM_PIPE_THREADS 512
#endif
constexpr int kPipeThreads = INFINI_LP_NORM_PIPE_THREADS, kPipeMaxCluster = 16;
// A bulk copy (and a slot): 32 KB, 4 packs a thread, 7 slots. H100, 32x1M
// BF16 graph row: 16 KB 63.4 µs, 32 KB 62.0, 8 KB 84.6 (a row's steps, each
// a block barrier and a copy issue, cost more than the finer reuse gives;
// notes/lp_norm.md, "Session 11").
#ifndef INFINI_LP_NORM_PIPE_TILE_KB
#define INFINI_LP_NORM_PIPE_TILE_KB 32
#endif
constexpr int kTileBytes = INFINI_LP_NORM_PIPE_TILE_KB << 10;
constexpr int kSlackUnitBytes = 16 << 10; // PipeTuning::slack counts these
constexpr int kTilePacks = kTileBytes / 16;
constexpr int kPacksPerThread = kTilePacks / kPipeThreads;
static_assert(kTilePacks % kPipeThreads == 0, "whole packs per thread in a tile");
constexpr int kMaxSlots = 32;
// The next row's tiles already in the ring are summed while the cluster
// barrier of this row's merge waits for the other blocks (0: not; A/B knob).
// H100, lpn7_bench graph µs, 0 -> 1: 16x1M BF16 38.2 -> 37.3, 8x1M 25.6 ->
// 24.6, 32x1M and 64x1M unchanged (61.0, 110-112; notes/lp_norm.md, "Session 12").
#ifndef INFINI_LP_NORM_PIPE_AHEAD
#define INFINI_LP_NORM_PIPE_AHEAD 1
#endif
constexpr size_t kBarrierBytes = 8 * kMaxSlots; // the slots' barriers, before the ring
// When Pipe's launches use programmatic dependent launch (PipeTuning::pdl -1):
// 0 never, 1 eager calls only, 2 in graphs too. Its clusters are resident for
// the whole kernel, and in its last round only some of them have rows left
// (32 rows on 7 clusters: 4); with PDL the next call's clusters take the
// GPCs that the others leave and wait there, so the launch is not on the
// critical path. H100, graph µs (tools/lpn7_bench.cu, bench_lp_norm; notes/lp_norm.md,
// "Session 13"): 16x1M BF16 37.4 -> 35.9, 64x1M 116.5 -> 110.3, 32x1M 61.1 -> 61.0
// (harness) and 62.9 -> 61.7 (bench).
#ifndef INFINI_LP_NORM_PIPE_PDL
#define INFINI_LP_NORM_PIPE_PDL 2
#endif
constexpr PdlPolicy kPipePdl = pdlPolicyOfKnob(INFINI_LP_NORM_PIPE_PDL);

size_t pipeSmem(int slots) { return kBarrierBytes + (size_t)slots * kTileBytes; }

// Ring slots that fit a block's shared memory beside the kernel's static arrays (14 on the H100).
int pipeRoom(const InfiniopHandle &h) {
    const int64_t room = ((int64_t)h.max_shared_memory_per_block_optin - 1024 - (int64_t)kBarrierBytes) / kTileBytes;
    return (int)std::clamp<int64_t>(room, 0, kMaxSlots);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// The block's tile stream: which row and chunk tile stream tile s is, and its copy.
template <class T, int VEC>
struct TileStream {
    const Plan &plan;
    const T *x;
    uint4 *ring;
    uint64_t *full;
    int64_t cluster, clusters; // this cluster's index; clusters in the grid
    int64_t first;             // the chunk's first pack in a row
    int count, tiles, total;   // packs in the chunk, K, tiles of all the block's rows
    int slots;

    // Thread 0: the copy of stream tile s into its slot (nothing past the stream's end).
    __device__ __forceinline__ void issue(int s) const {
        if (s >= total) {
            return;
        }
        const int k = s / tiles, t = s - k * tiles;
        int64_t ox, oy;
        outerOffsets(plan.outer, cluster + k * clusters, ox, oy);
        const int packs = min(kTilePacks, count - t * kTilePacks);
        const int slot = s % slots;
        bulkExpect(&full[slot], (uint32_t)packs * 16u);
        bulkCopy(ring + (size_t)slot * kTilePacks, x + ox + (first + (int64_t)t * kTilePacks) * VEC,
                 (uint32_t)packs * 16u, &full[slot]);
    }
};

// One row's chunk as held in the ring (stream tiles s0 .. s0 + K - 1), or
// its tiles `from` .. `to` - 1: the view row_stats.cuh's statistics take. The
// first pass over a tile waits for its copy; later passes (the scaled
// fallback) find the phase complete.
template <class T, int VEC>
struct HeldChunk {
    static constexpr int kVec = VEC;
    const uint4 *ring;
    uint64_t *full;
    int s0, from, to, count, slots;

    template <class F>
    __device__ __forceinline__ void forEach(F &&f) const {
        for (int t = from; t < to; ++t) {
            const int s = s0 + t, slot = s % slots;
            bulkWait(&full[slot], (uint32_t)(s / slots) & 1u);
            const uint4 *tile = ring + (size_t)slot * kTilePacks;
#pragma unroll
            for (int k = 0; k < kPacksPerThread; ++k) {
                const int i = k * kPipeThreads + (int)threadIdx.x;
                const uint4 w = t * kTilePacks + i < count ? tile[i] : make_uint4(0, 0, 0, 0);
                Pack<T, VEC> p;
                memcpy(&p, &w, 16);
                f(p, k);
            }
        }
    }
};
#endif

template <class T, int VEC>
__global__ void __launch_bounds__(kPipeThreads, 1) pipeKernel(const Plan plan, const T *x, T *y) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using A = ComputeType<T>;
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ A red_t[32], red_m[32], red_s[32];
    // Launched with PDL, the clusters of this call take the GPCs that the
    // previous call's clusters leave, then wait here: nothing global before
    // (that kernel may still write x or read y).
    pdlWaitPrevious();
    pdlAllowNext();
    uint64_t *full = reinterpret_cast<uint64_t *>(smem);
    uint4 *ring = reinterpret_cast<uint4 *>(smem + kBarrierBytes);
    const int slots = plan.items;
    const int64_t size = plan.chunks;
    const int64_t clusters = gridDim.x / size;
    const int64_t cluster = blockIdx.x / size;
    const int64_t first = (int64_t)cooperative_groups::this_cluster().block_rank() * plan.chunk_vecs;
    const int count = (int)std::max<int64_t>(0, std::min<int64_t>(plan.chunk_vecs, plan.len / VEC - first));
    const int tiles = (count + kTilePacks - 1) / kTilePacks;
    const int rows = cluster < plan.rows ? (int)((plan.rows - cluster + clusters - 1) / clusters) : 0;
    const TileStream<T, VEC> stream{plan, x, ring, full, cluster, clusters, first, count, tiles, rows * tiles, slots};
    if (threadIdx.x == 0) {
        for (int i = 0; i < slots; ++i) {
            bulkBarrierInit(&full[i]);
        }
        for (int s = 0; s < slots; ++s) { // the first row and the next one's first N - K tiles
            stream.issue(s);
        }
    }
    __syncthreads();
    AlternatingExchange exchange;
    // Row k + 1's first tiles sit in the ring during row k's merge (the slots
    // past the chunk); each thread sums them then, in the same order as it
    // would in row k + 1's pass 1 (so the same bits), carrying the sum over.
    const int ahead = INFINI_LP_NORM_PIPE_AHEAD ? min(slots - tiles, tiles) : 0;
    A carried = 0; // this thread's sum over row k's tiles 0 .. done - 1
    int done = 0;
    for (int k = 0; k < rows; ++k) {
        const int s0 = k * tiles;
        INFINI_STAGE_STAMP(k, 0);
        const HeldChunk<T, VEC> chunk{ring, full, s0, 0, tiles, count, slots};
        const HeldChunk<T, VEC> rest{ring, full, s0, done, tiles, count, slots};
        const A t = groupReduce(plainSumPart(rest, plan.p, carried), kPipeThreads, red_t, SumOp{});
        INFINI_STAGE_STAMP(k, 1);
        const bool next = ahead > 0 && k + 1 < rows;
        const HeldChunk<T, VEC> next_tiles{ring, full, s0 + tiles, 0, ahead, count, slots};
        A next_part = 0;
        const Factor<A> f = clusterFactorFrom(t, chunk, kPipeThreads, plan, red_m, red_s, exchange, [&] {
            if (next) {
                next_part = plainSumPart(next_tiles, plan.p, A(0));
            }
        });
        carried = next_part;
        done = next ? ahead : 0;
        INFINI_STAGE_STAMP(k, 2);
        int64_t ox, oy;
        outerOffsets(plan.outer, cluster + k * clusters, ox, oy);
        T *yr = y + oy + first * VEC;
        for (int t = 0; t < tiles; ++t) {
            const int s = s0 + t, slot = s % slots;
            const uint4 *tile = ring + (size_t)slot * kTilePacks;
#pragma unroll
            for (int j = 0; j < kPacksPerThread; ++j) {
                const int i = j * kPipeThreads + (int)threadIdx.x, v = t * kTilePacks + i;
                if (v < count) {
                    Pack<T, VEC> p;
                    memcpy(&p, &tile[i], 16);
                    stPack<T, VEC>(yr + (int64_t)v * VEC, scalePack(p, f), true);
                }
            }
            __syncthreads(); // every thread is done with the slot: it takes stream tile s + N
            if (threadIdx.x == 0) {
                asyncProxyFence(); // our reads before the copy's writes
                stream.issue(s + slots);
            }
        }
        INFINI_STAGE_STAMP(k, 3);
    }
    cooperative_groups::this_cluster().sync(); // no block exits while another reads its published sums
#else
    __trap(); // planned only where kernelCompiledFor(..., 90)
#endif
}

template <class F>
infiniStatus_t withPipeKernel(infiniDtype_t dtype, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        return f(pipeKernel<T, 16 / sizeof(T)>, T{});
    });
}

// Clusters of `size` blocks with `slots` ring slots that the device runs at
// once; 0 when it cannot. The kernel's shared-memory limit is set for the
// deepest ring the device takes, so that plans of any depth launch.
int pipeActiveClusters(const InfiniopHandle &h, infiniDtype_t dtype, int size, int slots) {
    int active = 0;
    if (slots <= pipeRoom(h)) {
        withPipeKernel(dtype, [&](auto kernel, auto) {
            active = activeClustersOf(kernel, kPipeThreads, size, pipeSmem(slots), pipeSmem(pipeRoom(h)));
            return INFINI_STATUS_SUCCESS;
        });
    }
    return active;
}

} // namespace

bool planPipe(const InfiniopHandle &h, Plan &plan, const PipeTuning &tune) {
    const int64_t es = (int64_t)dtypeSize(plan.dtype);
    const int64_t nv = plan.len / plan.vec; // packs a row
    if (h.cc_major < 9 || plan.vec * es != 16 || plan.rows < 1 || h.sm_count < 1 || nv < 2 * kTilePacks) {
        return false;
    }
    // The ring: as many tiles as one block's shared memory takes (less the
    // kernel's static arrays), or tune.slots.
    const int64_t room = pipeRoom(h);
    const int64_t slots = tune.slots > 0 ? std::min<int64_t>(tune.slots, room) : room;
    // Clusters as small as leave `slack` slots past the chunk (the next row's
    // first tiles), up to 16 blocks (at least one slot past it); tune.cluster forces it.
    int64_t size = tune.cluster;
    const int64_t slack = (int64_t)tune.slack * kSlackUnitBytes / kTileBytes;
    if (size <= 0) {
        for (size = 1; size < kPipeMaxCluster; ++size) {
            if (ceilDiv(ceilDiv(nv, size), kTilePacks) + slack <= slots) {
                break;
            }
        }
    }
    const int64_t chunk = ceilDiv(nv, std::max<int64_t>(size, 1));
    const int64_t tiles = ceilDiv(chunk, kTilePacks);
    // Every block a non-empty chunk (the index math assumes it), the chunk held whole.
    if (size < 1 || size > kPipeMaxCluster || slots < 2 || tiles + 1 > slots || (size - 1) * chunk >= nv) {
        return false;
    }
    const int active = pipeActiveClusters(h, plan.dtype, (int)size, (int)slots);
    if (active < 1) {
        return false;
    }
    // As many clusters as run at once, not fewer for the same rows in each (as
    // TwoPass does): rounds are not waves here, a cluster done early leaves the
    // DRAM to the others.
    const int64_t clusters = std::min<int64_t>(tune.clusters > 0 ? std::min<int64_t>(tune.clusters, active) : active,
                                               plan.rows);
    if (clusters * size * 2 < h.sm_count || clusters * size >= INT32_MAX) { // too little of the GPU busy
        return false;
    }
    Plan c = plan;
    c.kind = Kind::Pipe;
    c.threads = kPipeThreads;
    c.tpr = kPipeThreads;
    c.items = (int)slots;
    c.chunks = size;
    c.chunk_vecs = chunk;
    c.grid_x = (unsigned)(clusters * size);
    c.smem_max = pipeSmem((int)slots);
    c.workspace = 0;
    withPipeKernel(plan.dtype, [&](auto kernel, auto) {
        c.pdl_ok = kernelHonoursPdl(kernel);
        return INFINI_STATUS_SUCCESS;
    });
    c.pdl = tune.pdl < 0 ? kPipePdl : (PdlPolicy)tune.pdl;
    plan = c;
    return true;
}

infiniStatus_t launchPipe(const Plan &plan, const void *x, void *y, void *, void *stream) {
    return withPipeKernel(plan.dtype, [&](auto kernel, auto t) {
        using T = decltype(t);
        const cudaStream_t st = (cudaStream_t)stream;
        LaunchConfig config(dim3(plan.grid_x), dim3(kPipeThreads), plan.smem_max, st);
        config.cluster((unsigned)plan.chunks).pdl(plan.pdl_ok && pdlWanted(plan.pdl, st));
        CUDA_TRY(cudaLaunchKernelEx(config.get(), kernel, plan, (const T *)x, (T *)y));
        return INFINI_STATUS_SUCCESS;
    });
}

} // namespace infini::lp_norm::nvidia
