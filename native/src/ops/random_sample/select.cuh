#pragma once
// Stage helpers of the selection: choosing the bucket of a radix level from a
// (team-merged) histogram, sorting the candidates and finding the crossing.
// Each thread holds kBins / NT bins of the level, in descending digit order
// (thread 0 holds the highest digits).
#include "device.cuh"
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
// (m <= NT): each thread ranks one against all, one barrier, written to
// (okey, oidx). Otherwise a bitonic sort in place (key, idx), padded to a
// power of two (<= kCap). Returns the arrays that hold the order.
template <int NT, class K>
__device__ inline void sortCandidates(K *key, uint32_t *idx, uint32_t m, K *okey, uint32_t *oidx, K **skey,
                                      uint32_t **sidx) {
    const uint32_t tid = threadIdx.x;
    if (m <= (uint32_t)NT) {
        if (tid < m) {
            const Entry<K> e{key[tid], idx[tid]};
            uint32_t rank = 0;
            for (uint32_t j = 0; j < m; ++j) rank += before(Entry<K>{key[j], idx[j]}, e);
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
