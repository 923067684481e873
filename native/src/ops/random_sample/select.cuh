#pragma once
// Stage helpers of the selection: choosing the bucket of a radix level from a
// (team-merged) histogram, sorting the candidates and finding the crossing.
// Each thread holds kBins / NT bins of the level, in descending digit order
// (thread 0 holds the highest digits).
#include "device.cuh"
#include "team.cuh"
#include <cub/block/block_scan.cuh>

namespace infini::random_sample::nvidia {

// The chosen bucket of a level, broadcast through shared memory.
struct Pick {
    uint32_t bin, cnt, above; // bucket, its count, the count above it
    double wabove;            // the weight above it
    int pos;
};
template <int NT>
__device__ inline int binOf(int k) { return kBins - 1 - ((int)threadIdx.x * (kBins / NT) + k); }

// By count: the bucket with above < need <= above + cnt.
template <int NT>
__device__ inline void selectByCount(const uint32_t (&c)[kBins / NT], uint32_t need,
                                     typename cub::BlockScan<uint32_t, NT>::TempStorage &ts, Pick &pk) {
    constexpr int BPT = kBins / NT;
    uint32_t in[BPT], ex[BPT];
#pragma unroll
    for (int k = 0; k < BPT; ++k) in[k] = c[k];
    __syncthreads();
    cub::BlockScan<uint32_t, NT>(ts).ExclusiveSum(in, ex);
#pragma unroll
    for (int k = 0; k < BPT; ++k) {
        if (ex[k] < need && need <= ex[k] + c[k]) {
            pk.bin = binOf<NT>(k);
            pk.cnt = c[k];
            pk.above = ex[k];
        }
    }
    __syncthreads();
}

// Two-step merge of a level's counts over a team. Merging every member's
// whole histogram (kBins counts from each of up to 16 members) is bound by
// distributed shared memory's bandwidth: ~7.8 µs at teams of 16 on the H100
// (stage trace, session 6). Each member first sums its own counts by groups
// of kGroup bins (coarseCounts, before the team barrier that publishes them);
// selectMergedByCount then reads only the members' group sums and the bins of
// the one group that holds the bucket.
constexpr int kGroup = 32;
constexpr int kGroups = kBins / kGroup;
static_assert(kGroups == 2 * 32, "selectMergedByCount: one warp, two groups a lane");

// The sum of x over lanes 0..lane of a full warp.
__device__ inline uint32_t warpInclusiveSum(uint32_t x) {
    const unsigned lane = threadIdx.x & 31u;
#pragma unroll
    for (unsigned o = 1; o < 32; o <<= 1) {
        const uint32_t y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o) x += y;
    }
    return x;
}

// This member's group sums of histogram `cnt` (complete: after a block
// barrier) into groups[kGroups]; group g holds bins kBins-1-kGroup*g down to
// kBins-kGroup*(g+1) (descending, like binOf). Every thread calls it.
template <int NT>
__device__ inline void coarseCounts(const uint32_t *cnt, uint32_t *groups) {
    constexpr int BPT = kBins / NT;
    constexpr int kLanesPerGroup = kGroup / BPT;
    static_assert(kGroup % BPT == 0 && kLanesPerGroup <= 32 && (kLanesPerGroup & (kLanesPerGroup - 1)) == 0,
                  "a group's bins lie in consecutive lanes of one warp");
    uint32_t s = 0;
#pragma unroll
    for (int k = 0; k < BPT; ++k) s += cnt[binOf<NT>(k)];
#pragma unroll
    for (int o = kLanesPerGroup / 2; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (threadIdx.x % kLanesPerGroup == 0) groups[threadIdx.x / kLanesPerGroup] = s;
}

// selectByCount over the team's merged histogram `cnt`, given every member's
// coarseCounts in `groups` (both published by a team barrier): the bucket
// with above < need <= above + cnt, or pk.bin = ~0u when the team holds fewer
// than `need`. Warp 0 does the work: one round of remote loads for the group
// sums, one for the chosen group's bins. Every thread calls it.
template <int MaxTeam>
__device__ inline void selectMergedByCount(const uint32_t *cnt, const uint32_t *groups, unsigned team,
                                           uint32_t need, Pick &pk) {
    __syncthreads(); // earlier readers of pk are done
    if (threadIdx.x < 32) {
        const unsigned lane = threadIdx.x;
        const unsigned all = 0xffffffffu;
        // Lane l: groups 2l and 2l+1 (8 bytes), summed over the members.
        uint2 h[MaxTeam];
#pragma unroll
        for (unsigned m = 0; m < (unsigned)MaxTeam; ++m) {
            h[m] = m < team ? *reinterpret_cast<const uint2 *>(Team::at(groups + 2 * lane, m)) : make_uint2(0, 0);
        }
        uint32_t c0 = 0, c1 = 0;
#pragma unroll
        for (unsigned m = 0; m < (unsigned)MaxTeam; ++m) {
            c0 += h[m].x;
            c1 += h[m].y;
        }
        const uint32_t pair = c0 + c1;
        const uint32_t ex = warpInclusiveSum(pair) - pair;
        int g = -1;
        uint32_t above = 0;
        if (ex < need && need <= ex + c0) {
            g = 2 * (int)lane;
            above = ex;
        } else if (ex + c0 < need && need <= ex + pair) {
            g = 2 * (int)lane + 1;
            above = ex + c0;
        }
        const unsigned found = __ballot_sync(all, g >= 0);
        if (found == 0) {
            if (lane == 0) pk.bin = 0xffffffffu;
        } else {
            const int src = __ffs(found) - 1;
            g = __shfl_sync(all, g, src);
            above = __shfl_sync(all, above, src);
            const uint32_t bin = (uint32_t)(kBins - 1 - (g * kGroup + (int)lane));
            uint32_t v[MaxTeam];
#pragma unroll
            for (unsigned m = 0; m < (unsigned)MaxTeam; ++m) v[m] = m < team ? *Team::at(cnt + bin, m) : 0u;
            uint32_t f = 0;
#pragma unroll
            for (unsigned m = 0; m < (unsigned)MaxTeam; ++m) f += v[m];
            const uint32_t fex = above + (warpInclusiveSum(f) - f);
            if (fex < need && need <= fex + f) {
                pk.bin = bin;
                pk.cnt = f;
                pk.above = fex;
            }
        }
    }
    __syncthreads();
}

// By weight: the bucket with above < t <= above + w, else (rounding only) the
// lowest bucket with weight.
template <int NT>
__device__ inline void selectByWeight(const uint32_t (&c)[kBins / NT], const double (&w)[kBins / NT], double t,
                                      typename cub::BlockScan<double, NT>::TempStorage &ts, Pick &pk) {
    constexpr int BPT = kBins / NT;
    double in[BPT], ex[BPT];
#pragma unroll
    for (int k = 0; k < BPT; ++k) in[k] = w[k];
    if (threadIdx.x == 0) {
        pk.bin = 0xffffffffu;
        pk.pos = -1;
    }
    __syncthreads();
    cub::BlockScan<double, NT>(ts).ExclusiveSum(in, ex);
    int found = -1, last = -1;
#pragma unroll
    for (int k = 0; k < BPT; ++k) {
        if (ex[k] < t && t <= ex[k] + w[k]) found = k;
        if (w[k] > 0.0) last = k;
    }
    if (found >= 0) {
        pk.bin = binOf<NT>(found);
        pk.cnt = c[found];
        pk.wabove = ex[found];
    }
    __syncthreads();
    if (pk.bin == 0xffffffffu && last >= 0) atomicMax(&pk.pos, (int)threadIdx.x * BPT + last);
    __syncthreads();
    if (pk.bin == 0xffffffffu) {
        const int pos = pk.pos;
        if (pos < 0) {
            if (threadIdx.x == 0) { // unreachable: S always holds the max, of weight 1
                pk.bin = kBins - 1;
                pk.cnt = 0;
                pk.wabove = 0.0;
            }
        } else if ((int)threadIdx.x == pos / BPT) {
#pragma unroll
            for (int k = 0; k < BPT; ++k) {
                if (k == pos % BPT) {
                    pk.bin = kBins - 1 - pos;
                    pk.cnt = c[k];
                    pk.wabove = ex[k];
                }
            }
        }
    }
    __syncthreads();
}

// Sorts m <= kCap candidates (key descending, index ascending). Few of them
// (m <= NT): each is ranked against all by a group of G lanes (the widest
// power of two, up to a warp, with m * G <= NT: G = 8 for a top 50), each
// lane counting every G-th, one barrier, written to (okey, oidx). Otherwise
// a bitonic sort in place (key, idx), padded to a power of two (<= kCap).
// Returns the arrays that hold the order.
template <int NT, bool Groups, class K>
__device__ inline void sortCandidates(K *key, uint32_t *idx, uint32_t m, K *okey, uint32_t *oidx, K **skey,
                                      uint32_t **sidx) {
    const uint32_t tid = threadIdx.x;
    if (m <= (uint32_t)NT) {
        uint32_t G = 1;
        while (Groups && G < 32 && m * G * 2 <= (uint32_t)NT) G <<= 1;
        const uint32_t c = tid / G;
        uint32_t rank = 0;
        Entry<K> e{};
        if (c < m) {
            e = Entry<K>{key[c], idx[c]};
            for (uint32_t j = tid % G; j < m; j += G) rank += before(Entry<K>{key[j], idx[j]}, e);
        }
        for (uint32_t o = G / 2; o > 0; o >>= 1) rank += __shfl_xor_sync(0xffffffffu, rank, o); // (groups lie within a warp)
        if (c < m && tid % G == 0) {
            okey[rank] = e.key;
            oidx[rank] = e.idx;
        }
        __syncthreads();
        *skey = okey;
        *sidx = oidx;
        return;
    }
    uint32_t m2 = 1;
    while (m2 < m) m2 <<= 1;
    for (uint32_t i = m + tid; i < m2; i += NT) {
        key[i] = 0;
        idx[i] = 0xffffffffu;
    }
    __syncthreads();
    for (uint32_t k = 2; k <= m2; k <<= 1) {
        for (uint32_t j = k >> 1; j > 0; j >>= 1) {
            for (uint32_t i = tid; i < m2; i += NT) {
                const uint32_t l = i ^ j;
                if (l > i) {
                    const Entry<K> ei{key[i], idx[i]}, el{key[l], idx[l]};
                    if ((i & k) == 0 ? before(el, ei) : before(ei, el)) {
                        key[i] = el.key;
                        idx[i] = el.idx;
                        key[l] = ei.key;
                        idx[l] = ei.idx;
                    }
                }
            }
            __syncthreads();
        }
    }
    *skey = key;
    *sidx = idx;
}

} // namespace infini::random_sample::nvidia
