#pragma once
// The statistics of one LPNorm row (or chunk of a row) over a group of
// threads, and their merge across a thread-block cluster (sm_90). `buf` is any
// view of the thread's packs with `kVec` and `forEach(f)` calling f(pack, k)
// for each of its packs (zeros past the row's end count for nothing): packs
// held in registers and shared memory (rows.cu) or streamed from global
// memory (two_pass.cu).
#include "device.cuh"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#include <cooperative_groups.h>
#endif

namespace infini::lp_norm::nvidia {

// (max |x|, sum (|x| / max)^p) over the group of tpr threads. RARE: the
// fallback of the one-pass sum, compiled once for any p (smaller kernels).
template <bool RARE = false, class S, class A>
__device__ __forceinline__ Stats<A> scaledStats(const S &buf, int tpr, int p, A *red_m, A *red_s) {
    A m = 0;
    buf.forEach([&](const auto &pk, int) {
#pragma unroll
        for (int j = 0; j < S::kVec; ++j) {
            m = absMax(m, widen(pk.v[j]));
        }
    });
    m = groupReduce(m, tpr, red_m, MaxNanOp{});
    A s = 0;
    if (scaledSumNeeded(m)) {
        const Factor<A> f = sumScale(m);
        auto sum = [&](auto pc) {
            constexpr int kP = decltype(pc)::value;
            buf.forEach([&](const auto &pk, int) { addScaledPack<kP>(s, pk, f, p); });
        };
        if constexpr (RARE) {
            sum(std::integral_constant<int, 0>{});
        } else {
            withP(p, sum);
        }
    }
    s = groupReduce(s, tpr, red_s, SumOp{});
    return {m, s};
}

// The factor of a row from its chunks' statistics st[0 .. chunks), merged by
// a group of `width` threads (groupReduce's: the whole block, or a warp with
// no shared memory), thread `rank` taking chunks rank, rank + width, ...:
// every group that merges the same records gets the same bits. Called by
// every thread of the group.
template <class A>
__device__ __forceinline__ Factor<A> mergedFactorBy(const Stats<A> *st, int64_t chunks, int p, float eps,
                                                    unsigned rank, unsigned width, A *red_m, A *red_s) {
    A m = 0;
    for (int64_t c = rank; c < chunks; c += width) {
        m = maxNan(m, st[c].m);
    }
    m = groupReduce(m, (int)width, red_m, MaxNanOp{});
    A s = 0;
    if (scaledSumNeeded(m)) {
        for (int64_t c = rank; c < chunks; c += width) {
            const Stats<A> sc = st[c];
            s += rescaledSum(sc.s, sc.m, m, p);
        }
    }
    s = groupReduce(s, (int)width, red_s, SumOp{});
    return rowFactor(m, s, p, eps);
}

// mergedFactorBy over the whole block (Split's and Sweep's apply kernels).
template <class A>
__device__ __forceinline__ Factor<A> mergedFactor(const Stats<A> *st, int64_t chunks, int p, float eps, A *red_m,
                                                  A *red_s) {
    return mergedFactorBy(st, chunks, p, eps, threadIdx.x, blockDim.x, red_m, red_s);
}

// This thread's part of sum |x|^p, unscaled (math.h's one-pass form), added
// to `t` in the order buf.forEach visits its packs. CUBE gives p = 3 a case
// of its own (withP), as the Cols kernels have, for kernels that hold their
// packs in registers across it (rows.cu's Rows and Cluster kernels, where it
// was measured); without it p 3 calls powGeneral.
template <bool CUBE = false, class S, class A>
__device__ __forceinline__ A plainSumPart(const S &buf, int p, A t) {
    withP<CUBE>(p, [&](auto pc) {
        constexpr int kP = decltype(pc)::value;
        buf.forEach([&](const auto &pk, int) {
#pragma unroll
            for (int j = 0; j < S::kVec; ++j) {
                t += powP<kP>(absA<A>(widen(pk.v[j])), p);
            }
        });
    });
    return t;
}

// Sum |x|^p over the group, unscaled.
template <bool CUBE = false, class S, class A>
__device__ __forceinline__ A plainSum(const S &buf, int tpr, int p, A *red_t) {
    return groupReduce(plainSumPart<CUBE>(buf, p, A(0)), tpr, red_t, SumOp{});
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Cluster: every block publishes a value in its shared memory; warp 0 of each
// block reads all of them (lane r: block r's, zeros past the cluster) and
// `merge` turns them into the row's factor, the same in every block (same
// order everywhere). Called by every thread of the cluster.
template <class A, class Merge>
__device__ __forceinline__ Factor<A> clusterMerge(Stats<A> mine, Merge &&merge) {
    namespace cg = cooperative_groups;
    __shared__ Stats<A> published;
    __shared__ Factor<A> factor;
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0) {
        published = mine;
    }
    cluster.sync();
    if (threadIdx.x < 32) {
        Stats<A> st{0, 0};
        if (threadIdx.x < cluster.num_blocks()) {
            st = *cluster.map_shared_rank(&published, threadIdx.x);
        }
        const Factor<A> f = merge(st);
        if (threadIdx.x == 0) {
            factor = f;
        }
    }
    cluster.sync(); // no block leaves or republishes while another reads its `published`
    return factor;
}

// The same exchange with one cluster barrier instead of two: the published
// values alternate between two slots (`parity`, which the caller flips at
// every exchange), so a block republishes a slot only after the next
// exchange's barrier, which every reader of the slot has passed; the factor
// reaches the block's threads through __syncthreads. A kernel that uses it
// must end with a cluster barrier (no block may exit while another still
// reads its slot). `during` runs in every thread between its arrival at the
// cluster barrier and its wait there (work that hides the other blocks'
// arrival; no block-wide synchronisation in it).
template <class A, class Merge, class During>
__device__ __forceinline__ Factor<A> clusterMergeAlternating(Stats<A> mine, unsigned parity, Merge &&merge,
                                                             During &&during) {
    namespace cg = cooperative_groups;
    __shared__ Stats<A> published[2];
    __shared__ Factor<A> factor;
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0) {
        published[parity] = mine;
    }
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    during();
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (threadIdx.x < 32) {
        Stats<A> st{0, 0};
        if (threadIdx.x < cluster.num_blocks()) {
            st = *cluster.map_shared_rank(&published[parity], threadIdx.x);
        }
        const Factor<A> f = merge(st);
        if (threadIdx.x == 0) {
            factor = f;
        }
    }
    __syncthreads(); // (thread 0 rewrites `factor` only after the next exchange's barrier)
    return factor;
}
#endif

// How clusterFactor exchanges the blocks' values: clusterMerge (two cluster
// barriers), or clusterMergeAlternating (one; the exchange counts its calls).
// `during`: work for the wait (see clusterMergeAlternating; SyncedExchange
// runs it before its first barrier).
struct SyncedExchange {
    template <class A, class Merge, class During>
    __device__ __forceinline__ Factor<A> operator()(Stats<A> mine, Merge &&merge, During &&during) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        during();
        return clusterMerge(mine, merge);
#else
        return {};
#endif
    }
};
struct AlternatingExchange {
    unsigned calls = 0;
    template <class A, class Merge, class During>
    __device__ __forceinline__ Factor<A> operator()(Stats<A> mine, Merge &&merge, During &&during) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        return clusterMergeAlternating(mine, calls++ & 1u, merge, during);
#else
        return {};
#endif
    }
};

// Nothing: clusterFactor's default hook after a block's pass 1.
struct NoHook {
    __device__ void operator()() const {}
};

// The row's factor from the cluster's chunks, given the block's one-pass sum
// `t` (group-reduced): merged first; the scaled statistics of `buf` (a second
// exchange) only where the merged sum is not usable. `exchange` merges
// (SyncedExchange or AlternatingExchange; every block of the cluster must use
// the same); `during` runs while the first exchange waits.
template <class S, class A, class Exchange, class During = NoHook>
__device__ __forceinline__ Factor<A> clusterFactorFrom(A t, const S &buf, int threads, const Plan &plan, A *red_m,
                                                       A *red_s, Exchange &exchange, During during = During{}) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const Factor<A> f = exchange(
        Stats<A>{0, t},
        [&](Stats<A> st) {
            const A total = warpReduce(st.s, SumOp{});
            // q1 = 0 marks "not usable" (a real factor's q1 is a power of two).
            return plainSumUsable(total) ? plainFactor(total, plan.p, plan.eps) : Factor<A>{A(0), A(0)};
        },
        during);
    if (f.q1 != A(0)) {
        return f;
    }
    const Stats<A> mine = scaledStats<true>(buf, threads, plan.p, red_m, red_s);
    return exchange(
        mine,
        [&](Stats<A> st) {
            const A m = warpReduce(st.m, MaxNanOp{});
            const A term = scaledSumNeeded(m) ? rescaledSum(st.s, st.m, m, plan.p) : A(0);
            return rowFactor(m, warpReduce(term, SumOp{}), plan.p, plan.eps);
        },
        NoHook{});
#else
    __trap(); // planned only on sm_90 and later
    return {};
#endif
}

// The same from the block's chunk: its one-pass sum first. `after_pass1`
// runs in every thread once its block has summed its chunk (a stage trace's
// hook: tools/lpn7_bench.cu).
template <bool CUBE = false, class S, class A, class Hook, class Exchange>
__device__ __forceinline__ Factor<A> clusterFactorWith(const S &buf, int threads, const Plan &plan, A *red_t, A *red_m,
                                                       A *red_s, Hook after_pass1, Exchange &exchange) {
    const A t = plainSum<CUBE>(buf, threads, plan.p, red_t);
    after_pass1();
    return clusterFactorFrom(t, buf, threads, plan, red_m, red_s, exchange);
}

// clusterFactorWith through clusterMerge (two cluster barriers an exchange).
template <bool CUBE = false, class S, class A, class Hook = NoHook>
__device__ __forceinline__ Factor<A> clusterFactor(const S &buf, int threads, const Plan &plan, A *red_t, A *red_m,
                                                   A *red_s, Hook after_pass1 = Hook{}) {
    SyncedExchange exchange;
    return clusterFactorWith<CUBE>(buf, threads, plan, red_t, red_m, red_s, after_pass1, exchange);
}

} // namespace infini::lp_norm::nvidia
