// LPNorm, long rows on sm_90: the TwoPass plan. A thread-block cluster of
// plan.chunks blocks takes rows g, g + G, ... (G clusters in the grid); block r
// of the cluster owns the row's chunk r. Per row:
//   pass 1: each block streams its chunk from DRAM and sums |x|^p (rows.cu's
//           one-pass form; the scaled statistics, two more reads of the chunk,
//           only where the merged sum is not usable), then the cluster merges
//           the chunks' sums through distributed shared memory in rank order,
//           so every block gets bitwise the same factor (row_stats.cuh);
//   pass 2: each block reads its chunk again, last tile first, so that the
//           lines pass 1 loaded last (the likeliest to be still in L2) come
//           first, and stores x * factor.
// Nothing is held on chip between the passes (no big shared memory, 2 blocks
// fit an SM), so the planner can choose G and the cluster size freely: rows
// in flight G such that G rows fit in L2 (the second read is then an L2 hit),
// G x blocks = about one block per SM, and the rows balanced over the rounds.
// Compare the Cluster plan (rows.cu): each element read once, but one block
// of 160 KB per SM and a row per cluster, so 32 rows ran in 3 waves.
#include "cached_load.cuh"
#include "cluster_launch.cuh"
#include "row_stats.cuh"
#include "stage_trace.cuh"
#include <algorithm>

namespace infini::lp_norm::nvidia {

namespace {

// Threads a block, packs in flight per thread (8 x 16 B x 512 = 64 KB a block;
// F64 4, which fits 64 registers without spilling: 2 blocks an SM).
// Threads a block (-DINFINI_LP_NORM_TP_THREADS=256 for A/B: more, smaller blocks an SM).
#ifndef INFINI_LP_NORM_TP_THREADS
#define INFINI_LP_NORM_TP_THREADS 512
#endif
constexpr int kThreads = INFINI_LP_NORM_TP_THREADS, kMaxClusterSize = 16;
template <class T>
constexpr int kUnroll = sizeof(T) == 8 ? 4 : 8;

// The loads of each pass and whether stores stream, by TwoPassHints (see nvidia_plan.h).
template <TwoPassHints H>
struct HintsOf {
    static constexpr Load kFirst = H == TwoPassHints::KeepFirstPass ? Load::KeepL2 : Load::Plain;
    // The second read is the last use: evict-first (the policy form after evict-last).
    static constexpr Load kSecond = H == TwoPassHints::KeepFirstPass ? Load::DropL2
                                    : H == TwoPassHints::None       ? Load::Plain
                                                                    : Load::Streaming;
    static constexpr bool kStreamStores = H != TwoPassHints::None;
};

// `bytes` (a multiple of 16) from p into L2, without waiting (sm_90).
__device__ __forceinline__ void prefetchL2(const void *p, unsigned bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(bytes) : "memory");
#endif
}

// One block's chunk of a row, streamed from global memory: thread t takes
// packs t, t + kThreads, ... in tiles of kUnroll packs (all of a tile's loads
// issued before its math). The view row_stats.cuh's statistics take.
template <class T, int VEC, TwoPassHints H>
struct ChunkStream {
    static constexpr int kVec = VEC;
    const T *x;
    int count; // packs in the chunk (the planner keeps chunks below 2^27 packs)
    // Optional: `ahead` bytes from `next` (the block's chunk of its next row)
    // prefetched into L2 as the last tile's loads are issued, so that DRAM
    // stays busy while the cluster merges (0: none).
    const T *next;
    unsigned ahead; // thread 0's; 0 in the other threads

    template <class F>
    __device__ __forceinline__ void forEach(F &&f) const {
        constexpr int kTile = kUnroll<T> * kThreads;
        for (int base = threadIdx.x; base < count; base += kTile) {
            uint4 w[kUnroll<T>];
#pragma unroll
            for (int k = 0; k < kUnroll<T>; ++k) {
                const int v = base + k * kThreads;
                w[k] = v < count ? ldWords<HintsOf<H>::kFirst>(x + v * VEC) : make_uint4(0, 0, 0, 0);
            }
            if (ahead != 0 && base + kTile >= count) {
                prefetchL2(next, ahead);
            }
#pragma unroll
            for (int k = 0; k < kUnroll<T>; ++k) {
                f(asPack<T, VEC>(w[k]), k);
            }
        }
    }
};

// Pass 2: y = x * f over the chunk, last tile first (see the top).
template <class T, int VEC, TwoPassHints H, class A>
__device__ __forceinline__ void scaleChunk(const T *x, T *y, int count, const Factor<A> &f) {
    constexpr int kTile = kUnroll<T> * kThreads;
    for (int tile = (count + kTile - 1) / kTile - 1; tile >= 0; --tile) {
        const int base = tile * kTile + (int)threadIdx.x;
        uint4 w[kUnroll<T>];
#pragma unroll
        for (int k = 0; k < kUnroll<T>; ++k) {
            const int v = base + k * kThreads;
            if (v < count) {
                w[k] = ldWords<HintsOf<H>::kSecond>(x + v * VEC);
            }
        }
#pragma unroll
        for (int k = 0; k < kUnroll<T>; ++k) {
            const int v = base + k * kThreads;
            if (v < count) {
                stPack<T, VEC>(y + v * VEC, scalePack(asPack<T, VEC>(w[k]), f), HintsOf<H>::kStreamStores);
            }
        }
    }
}

template <class T, int VEC, TwoPassHints H>
__global__ void __launch_bounds__(kThreads, 1024 / kThreads) twoPassKernel(const Plan plan, const T *__restrict__ x, T *y) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using A = ComputeType<T>;
    __shared__ A red_t[32], red_m[32], red_s[32];
    const int64_t size = plan.chunks; // blocks a cluster
    const int64_t rank = cooperative_groups::this_cluster().block_rank();
    const int64_t clusters = gridDim.x / size;
    const int64_t first = rank * plan.chunk_vecs;
    const int count = (int)std::max<int64_t>(0, std::min<int64_t>(plan.chunk_vecs, plan.len / VEC - first));
    // Every block of a cluster runs the same rows (the merges are cluster-wide).
    int iter = 0; // (the stage trace's row count)
    for (int64_t row = blockIdx.x / size; row < plan.rows; row += clusters, ++iter) {
        INFINI_STAGE_STAMP(iter, 0);
        int64_t ox, oy, nx = 0, ny;
        outerOffsets(plan.outer, row, ox, oy);
        const bool ahead = plan.prefetch > 0 && threadIdx.x == 0 && row + clusters < plan.rows;
        if (ahead) {
            outerOffsets(plan.outer, row + clusters, nx, ny);
        }
        const ChunkStream<T, VEC, H> chunk{x + ox + first * VEC, count, x + nx + first * VEC,
                                        ahead ? (unsigned)std::min<int64_t>(plan.prefetch, (int64_t)count * 16) : 0u};
        const Factor<A> f =
            clusterFactor(chunk, kThreads, plan, red_t, red_m, red_s, [&] { INFINI_STAGE_STAMP(iter, 1); });
        INFINI_STAGE_STAMP(iter, 2);
        scaleChunk<T, VEC, H>(chunk.x, y + oy + first * VEC, count, f);
        INFINI_STAGE_SYNC();
        INFINI_STAGE_STAMP(iter, 3);
    }
    (void)iter;
#else
    __trap(); // planned only where kernelCompiledFor(..., 90)
#endif
}

// The library instantiates the default hints only; tools/lpn7_bench.cu the others.
template <TwoPassHints H = TwoPassTuning{}.hints, class F>
infiniStatus_t withTwoPassKernel(infiniDtype_t dtype, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        return f(twoPassKernel<T, 16 / sizeof(T), H>, T{});
    });
}

LaunchConfig twoPassConfig(unsigned grid, unsigned cluster, cudaStream_t stream) {
    LaunchConfig config(dim3(grid), dim3(kThreads), 0, stream);
    config.cluster(cluster);
    return config;
}

// Clusters of `size` blocks of the dtype's kernel that the device runs at
// once; 0 when it cannot (or the kernel has no sm_90 code).
int activeClusters(infiniDtype_t dtype, int size) {
    int active = 0;
    withTwoPassKernel(dtype, [&](auto kernel, auto) {
        active = activeClustersOf(kernel, kThreads, size, 0, 0);
        return INFINI_STATUS_SUCCESS;
    });
    return active;
}

} // namespace

bool planTwoPass(const InfiniopHandle &h, Plan &plan, const TwoPassTuning &tune) {
    const int64_t es = (int64_t)dtypeSize(plan.dtype);
    const int64_t nv = plan.len / plan.vec; // packs a row
    if (h.cc_major < 9 || plan.vec * es != 16 || nv < 2 * kThreads || plan.rows < 1 || h.sm_count < 1) {
        return false;
    }
    // Rows in flight: as many as fit the L2 share, balanced over the rounds.
    const double budget = std::max(1.0, tune.l2_fraction * (double)h.l2_cache_bytes);
    const int64_t rounds0 = std::max<int64_t>(1, (int64_t)std::ceil((double)plan.rows * (double)(plan.len * es) / budget));
    const int64_t want = ceilDiv(plan.rows, rounds0);
    const int64_t blocks = (int64_t)tune.blocks_per_sm * h.sm_count;
    int64_t size = tune.cluster > 0 ? tune.cluster : std::clamp<int64_t>((blocks + want / 2) / want, 1, kMaxClusterSize);
    size = std::min<int64_t>(size, nv / kThreads); // at least a pack per thread in every chunk
    if (size < 1 || size > kMaxClusterSize) {
        return false;
    }
    const int active = activeClusters(plan.dtype, (int)size);
    if (active < 1) {
        return false;
    }
    int64_t clusters = tune.clusters;
    if (clusters <= 0) {
        // Rounding the cluster size may leave want x size a little above the
        // target: up to 5/4 of it (a few SMs with two blocks) rather than a round more.
        clusters = std::max<int64_t>(1, std::min<int64_t>({want, blocks * 5 / 4 / size, (int64_t)active}));
        clusters = ceilDiv(plan.rows, ceilDiv(plan.rows, clusters)); // the same rows for every cluster
        // Too little of the GPU busy (a few rows, short of the clusters' limit): the other plans.
        if (clusters * size * 2 < h.sm_count) {
            return false;
        }
    }
    clusters = std::min<int64_t>(clusters, plan.rows);
    // 32-bit element offsets within a chunk (v * VEC, v a pack index): chunks below 2 GiB.
    if (clusters * size >= INT32_MAX || ceilDiv(nv, size) >= (int64_t)1 << 27) {
        return false;
    }
    Plan c = plan;
    c.kind = Kind::TwoPass;
    c.threads = kThreads;
    c.tpr = kThreads;
    c.items = 0; // kUnroll<T>, by dtype
    c.chunks = size;
    c.chunk_vecs = ceilDiv(nv, size);
    c.grid_x = (unsigned)(clusters * size);
    c.hints = (int)tune.hints;
    c.prefetch = std::clamp<int64_t>(tune.prefetch, 0, 1 << 24) / 16 * 16;
    c.workspace = 0;
    plan = c;
    return true;
}

namespace {

template <TwoPassHints H>
infiniStatus_t launchTwoPassWith(const Plan &plan, const void *x, void *y, void *stream) {
    return withTwoPassKernel<H>(plan.dtype, [&](auto kernel, auto t) {
        using T = decltype(t);
        if constexpr (H != TwoPassTuning{}.hints) { // (the planner set it for the library's own)
            if (plan.chunks > 8 &&
                cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) {
                return INFINI_STATUS_INTERNAL_ERROR;
            }
        }
        LaunchConfig config = twoPassConfig(plan.grid_x, (unsigned)plan.chunks, (cudaStream_t)stream);
        CUDA_TRY(cudaLaunchKernelEx(config.get(), kernel, plan, (const T *)x, (T *)y));
        return INFINI_STATUS_SUCCESS;
    });
}

} // namespace

infiniStatus_t launchTwoPass(const Plan &plan, const void *x, void *y, void *, void *stream) {
    constexpr TwoPassHints kDefault = TwoPassTuning{}.hints;
    if (plan.hints != (int)kDefault) { // other hints: the harness's own instances
        return INFINI_STATUS_INTERNAL_ERROR;
    }
    return launchTwoPassWith<kDefault>(plan, x, y, stream);
}

} // namespace infini::lp_norm::nvidia
