#pragma once
// RandomSample, NVIDIA backend: no sort of the vocabulary.
//
// Rows longer than kChunk first get a prepass of several blocks per row
// (prepassKernel): each split's argmax, the level-0 count histogram for a
// top-K selection, and each split's (max, sum of weights); with only argmax
// rows in a launch its last block per row writes the result and that is all.
// Rows that sample from all n > kCap (top-p only) also get weightHistKernel:
// level-0 count and weight histograms relative to the row's max.
//
// Then one block per row (sampleKernel, everything in shared memory):
//  1. The argmax (key, lowest index): from the prepass, or one sweep (short
//     rows, with the level-0 histogram). Argmax rows, and rows whose max is
//     +inf or that have no finite logit, end here.
//  2. Descent 1 (top-K): radix select over the order key (value bits, then
//     reversed index bits so that ties go to the lower index) with 11-bit
//     count histograms, until the set S of everything at or above the chosen
//     bucket has <= kSortSmall (K <= kSortSmall) or <= kCap elements (a
//     superset of the top K), or exactly K elements (K > kCap). Skipped when
//     n <= kCap or K == n.
//  3. If |S| > kCap (large K, or top-p without top-k), descent 2: radix
//     select over the same digits on the cumulative weight inside S, to find
//     the bucket that holds the threshold crossing, until it has <= kCap
//     elements; the weight above it is the scan's base.
//  4. One sweep collects the candidates (a packed max/min test per 16-byte
//     vector skips the rest), a bitonic sort of only those in shared memory,
//     a block scan of their weights in F64, and the first position with
//     c_i >= t.
//
// Weights: w = exp2((v - vmax) * (log2(e) / T)) in F32 (F64 logits: exp in
// F64), accumulated in F64 everywhere. Exact ties (equal logits -> equal
// weights, exp(0) = 1, -inf -> 0) are therefore summed exactly as the F64
// reference sums them; elsewhere the F32 weights differ from the reference by
// ~1e-6 relative, which moves the result only when the threshold lies that
// close to a boundary.
#include "../../common/cuda/check.cuh"
#include "../../common/cuda/dtype.cuh"
#include "info.h"
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cstdint>

namespace infini::random_sample::nvidia {

constexpr int kThreads = 1024;
constexpr int kCap = 2048;           // most candidates sorted in one block
constexpr uint32_t kSortSmall = 256; // top-K selection narrows to this many candidates for K <= this
constexpr int kItems = kCap / kThreads;
constexpr int kDigitBits = 11;
constexpr int kBins = 1 << kDigitBits;
constexpr int kBinsPerThread = kBins / kThreads;
constexpr int kMaxRows = 128; // rows per launch (their parameters travel by value)
constexpr int kPreThreads = 512;  // prepass block
constexpr uint32_t kChunk = 8192; // prepass elements per block (rows longer than this are split)

struct RowParams {
    float random_val;
    float topp;
    int topk;
    float temperature;
};

struct LaunchArgs {
    const void *probs;
    void *result;
    ptrdiff_t row_stride;    // elements
    ptrdiff_t result_stride; // elements
    uint32_t n;
    int result_size; // bytes of one result element
    int rows;
    RowParams p[kMaxRows];
};

// What the prepass (several blocks per row) leaves for the row's block, in
// the workspace: splits == 0 means no prepass (the row's block does pass 1).
struct PreArgs {
    uint32_t *hist;  // [rows][kBins]: level-0 counts (zeroed before the prepass)
    void *entries;   // [rows][splits]: Entry<K>, each split's argmax
    double *msum;    // [rows][splits][2]: split max, sum of exp((v - max) / T)
    double *histw;   // [rows][kBins]: level-0 weights relative to the row's max (top-p over all)
    uint32_t splits; // blocks per row
    uint32_t chunk;  // elements per block, a multiple of 8
    bool any_hist;   // some row of the launch selects a top K (else no histogram to zero)
    bool any_hist2;  // some row samples from all n > kCap (top-p only): the weight-histogram kernel runs
    bool finish_argmax; // every row of the launch takes its argmax: the prepass's last block per row
                        // writes the result (counters in hist[row], zeroed before) and no row block runs
};

template <class T> __device__ inline T fromBits(uint16_t b);
template <> __device__ inline __half fromBits<__half>(uint16_t b) { return __ushort_as_half(b); }
template <> __device__ inline __nv_bfloat16 fromBits<__nv_bfloat16>(uint16_t b) { return __ushort_as_bfloat16(b); }
template <> __device__ inline float fromBits<float>(uint16_t b) { return 0.0f; }
template <> __device__ inline double fromBits<double>(uint16_t b) { return 0.0; }

// Order keys: larger logit -> larger unsigned key; -0 == +0; NaN -> 0 (below -inf).
template <class T> struct KeyOf;
template <> struct KeyOf<__half> {
    using type = uint32_t;
    static constexpr int bits = 16;
    __device__ static uint32_t get(__half v) {
        uint32_t u = __half_as_ushort(v);
        if ((u & 0x7fffu) > 0x7c00u) return 0;
        if (u == 0x8000u) u = 0;
        return (u & 0x8000u) ? (~u & 0xffffu) : (u | 0x8000u);
    }
};
template <> struct KeyOf<__nv_bfloat16> {
    using type = uint32_t;
    static constexpr int bits = 16;
    __device__ static uint32_t get(__nv_bfloat16 v) {
        uint32_t u = __bfloat16_as_ushort(v);
        if ((u & 0x7fffu) > 0x7f80u) return 0;
        if (u == 0x8000u) u = 0;
        return (u & 0x8000u) ? (~u & 0xffffu) : (u | 0x8000u);
    }
};
template <> struct KeyOf<float> {
    using type = uint32_t;
    static constexpr int bits = 32;
    __device__ static uint32_t get(float v) {
        uint32_t u = __float_as_uint(v);
        if ((u & 0x7fffffffu) > 0x7f800000u) return 0;
        if (u == 0x80000000u) u = 0;
        return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
    }
};
template <> struct KeyOf<double> {
    using type = uint64_t;
    static constexpr int bits = 64;
    __device__ static uint64_t get(double v) {
        uint64_t u = (uint64_t)__double_as_longlong(v);
        if ((u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) return 0;
        if (u == 0x8000000000000000ull) u = 0;
        return (u >> 63) ? ~u : (u | 0x8000000000000000ull);
    }
};

// An element's place in the order: key descending, then index ascending.
template <class K>
struct Entry {
    K key;
    uint32_t idx;
};
template <class K>
__device__ inline bool before(const Entry<K> &a, const Entry<K> &b) {
    return a.key != b.key ? a.key > b.key : a.idx < b.idx;
}
struct DoubleMax {
    __device__ double operator()(double a, double b) const { return a > b ? a : b; }
};
template <class K>
struct EntryMax {
    __device__ Entry<K> operator()(const Entry<K> &a, const Entry<K> &b) const { return before(a, b) ? a : b; }
};

// A radix prefix over the composite (key, ridx), ridx = n - 1 - idx.
template <class K>
struct Prefix {
    K kmask = 0, kpref = 0;
    uint32_t imask = 0, ipref = 0;
    __device__ bool matches(K key, uint32_t ridx) const {
        return (key & kmask) == kpref && (ridx & imask) == ipref;
    }
    // The element's masked composite is >= the prefix: it is in the bucket or above.
    __device__ bool atOrAbove(K key, uint32_t ridx) const {
        const K km = key & kmask;
        if (km != kpref) return km > kpref;
        return (ridx & imask) >= ipref;
    }
};

// The logit value of a key (inverse of KeyOf::get; NaN for keys that no
// logit maps to).
template <class T>
__device__ inline ComputeType<T> valueOfKey(typename KeyOf<T>::type key) {
    if constexpr (KeyOf<T>::bits == 16) {
        const uint16_t bits = (key & 0x8000u) ? (uint16_t)(key & 0x7fffu) : (uint16_t)(~key & 0xffffu);
        return widen(fromBits<T>(bits));
    } else if constexpr (KeyOf<T>::bits == 32) {
        return __uint_as_float((key & 0x80000000u) ? (key & 0x7fffffffu) : ~key);
    } else {
        return __longlong_as_double((long long)((key >> 63) ? (key & 0x7fffffffffffffffull) : ~key));
    }
}

// A cheap superset test on the value of an element whose key must lie in
// [lo, hi]: one conversion and two compares instead of the key (a pass then
// runs the exact test only where some lane of the warp passes this one).
template <class T>
struct ValueRange {
    using C = ComputeType<T>;
    C lo, hi;
    T lo_t, hi_t; // the same bounds in T (they are values of T)
    bool all;     // lo == 0: everything, NaN (key 0) included
    __device__ bool maybe(C x) const { return all || (x >= lo && x <= hi); }
};
template <class T>
__device__ inline ValueRange<T> valueRange(typename KeyOf<T>::type lo, typename KeyOf<T>::type hi) {
    using C = ComputeType<T>;
    C vlo = valueOfKey<T>(lo), vhi = valueOfKey<T>(hi);
    vlo = vlo != vlo ? -(C)INFINITY : vlo;
    vhi = vhi != vhi ? (C)INFINITY : vhi;
    return ValueRange<T>{vlo, vhi, narrow<T>(vlo), narrow<T>(vhi), lo == 0};
}
// Keys that can match prefix p2 and be at or above prefix p1.
template <class T, class K>
__device__ inline ValueRange<T> candidateRange(const Prefix<K> &p1, const Prefix<K> &p2) {
    const K lo = p1.kpref > p2.kpref ? p1.kpref : p2.kpref;
    return valueRange<T>(lo, (K)(p2.kpref | ~p2.kmask));
}

// Radix level l over KB key bits, then IB index bits, 11 bits at a time from the top.
struct Level {
    int shift, width;
    bool on_index;
};
__device__ inline bool levelAt(int l, int KB, int IB, Level *lv) {
    const int nk = (KB + kDigitBits - 1) / kDigitBits;
    if (l < nk) {
        const int hi = KB - l * kDigitBits;
        const int w = hi < kDigitBits ? hi : kDigitBits;
        *lv = Level{hi - w, w, false};
        return true;
    }
    const int j = l - nk;
    const int hi = IB - j * kDigitBits;
    if (hi <= 0) return false;
    const int w = hi < kDigitBits ? hi : kDigitBits;
    *lv = Level{hi - w, w, true};
    return true;
}
template <class K>
__device__ inline uint32_t digitOf(const Level &lv, K key, uint32_t ridx) {
    const uint32_t mask = (1u << lv.width) - 1u;
    return lv.on_index ? (ridx >> lv.shift) & mask : (uint32_t)(key >> lv.shift) & mask;
}
template <class K>
__device__ inline Prefix<K> extend(Prefix<K> p, const Level &lv, uint32_t digit) {
    const uint32_t mask = (1u << lv.width) - 1u;
    if (lv.on_index) {
        p.imask |= mask << lv.shift;
        p.ipref |= digit << lv.shift;
    } else {
        p.kmask |= (K)mask << lv.shift;
        p.kpref |= (K)digit << lv.shift;
    }
    return p;
}

// Visits row[begin, end) in vectors of V = 16 / sizeof(T) elements:
// fv(v, i0, cnt) with v[0..cnt) = row[i0 .. i0 + cnt) (cnt may be 0), called
// the same number of times by every thread of the NT-thread block, so fv may
// use warp intrinsics. 16-byte loads where the row allows, U of them issued
// before any is used; the unaligned head comes one element per thread.
template <int NT, class T, class F>
__device__ inline void forVectors(const T *row, uint32_t begin, uint32_t end, F &&fv) {
    constexpr int V = 16 / sizeof(T);
    constexpr int U = 4;
    const uint32_t mis = (uint32_t)(((uintptr_t)(row + begin) & 15u) / sizeof(T));
    const uint32_t head = mis == 0 ? 0u : (uint32_t)V - mis;
    const uint32_t h = begin + (head < end - begin ? head : end - begin);
    if (h > begin) { // uniform branch
        const uint32_t i = begin + threadIdx.x;
        T v[V];
#pragma unroll
        for (int s = 0; s < V; ++s) v[s] = T();
        const bool valid = i < h;
        if (valid) v[0] = row[i];
        fv(v, i, valid ? 1u : 0u);
    }
    for (uint32_t tile = h; tile < end; tile += (uint32_t)NT * V * U) {
        T v[U][V];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const uint32_t i0 = tile + (u * NT + threadIdx.x) * V;
            if (i0 + V <= end) {
                const uint4 raw = __ldg(reinterpret_cast<const uint4 *>(row + i0));
                const uint32_t w[4] = {raw.x, raw.y, raw.z, raw.w};
#pragma unroll
                for (int s = 0; s < V; ++s) {
                    if constexpr (sizeof(T) == 2) {
                        v[u][s] = fromBits<T>((uint16_t)(w[s / 2] >> (16 * (s % 2))));
                    } else if constexpr (sizeof(T) == 4) {
                        v[u][s] = __uint_as_float(w[s]);
                    } else {
                        v[u][s] = __longlong_as_double((long long)(((uint64_t)w[2 * s + 1] << 32) | w[2 * s]));
                    }
                }
            } else {
#pragma unroll
                for (int s = 0; s < V; ++s) v[u][s] = i0 + s < end ? row[i0 + s] : T();
            }
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const uint32_t i0 = tile + (u * NT + threadIdx.x) * V;
            const uint32_t cnt = i0 >= end ? 0u : (end - i0 < (uint32_t)V ? end - i0 : (uint32_t)V);
            fv(v[u], i0, cnt);
        }
    }
}

// Element by element: f(v, idx, valid), called uniformly as above.
template <int NT, class T, class F>
__device__ inline void forRange(const T *row, uint32_t begin, uint32_t end, F &&f) {
    constexpr int V = 16 / sizeof(T);
    forVectors<NT>(row, begin, end, [&](const T (&v)[V], uint32_t i0, uint32_t cnt) {
#pragma unroll
        for (int s = 0; s < V; ++s) f(v[s], i0 + s, (uint32_t)s < cnt);
    });
}
template <class T, class F>
__device__ inline void forRow(const T *row, uint32_t n, F &&f) {
    forRange<kThreads>(row, 0u, n, f);
}

// Packed max / min of a full vector (NaN ignored unless all are NaN).
template <class T, int V>
__device__ inline void vecMaxMin(const T (&v)[V], T &mx, T &mn) {
    if constexpr (std::is_same_v<T, __half>) {
        __half2 a = __halves2half2(v[0], v[1]), b = a;
#pragma unroll
        for (int k = 1; k < V / 2; ++k) {
            const __half2 h = __halves2half2(v[2 * k], v[2 * k + 1]);
            a = __hmax2(a, h);
            b = __hmin2(b, h);
        }
        mx = __hmax(__low2half(a), __high2half(a));
        mn = __hmin(__low2half(b), __high2half(b));
    } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
        __nv_bfloat162 a = __halves2bfloat162(v[0], v[1]), b = a;
#pragma unroll
        for (int k = 1; k < V / 2; ++k) {
            const __nv_bfloat162 h = __halves2bfloat162(v[2 * k], v[2 * k + 1]);
            a = __hmax2(a, h);
            b = __hmin2(b, h);
        }
        mx = __hmax(__low2bfloat16(a), __high2bfloat16(a));
        mn = __hmin(__low2bfloat16(b), __high2bfloat16(b));
    } else {
        mx = v[0];
        mn = v[0];
#pragma unroll
        for (int k = 1; k < V; ++k) {
            mx = fmax(mx, v[k]);
            mn = fmin(mn, v[k]);
        }
    }
}

// Whether some of v[0..cnt) may lie in the range (a superset test).
template <class T, int V>
__device__ inline bool vecMaybe(const ValueRange<T> &r, const T (&v)[V], uint32_t cnt) {
    if (r.all) return cnt > 0;
    if (cnt == (uint32_t)V) {
        T mx, mn;
        vecMaxMin(v, mx, mn);
        return widen(mx) >= r.lo && widen(mn) <= r.hi;
    }
    bool any = false;
#pragma unroll
    for (int s = 0; s < V; ++s) any |= (uint32_t)s < cnt && r.maybe(widen(v[s]));
    return any;
}

// hist[digit] += 1 for the active lanes, one atomic per warp when they agree.
__device__ inline void countAdd(uint32_t *hist, bool active, uint32_t digit) {
    const unsigned act = __ballot_sync(0xffffffffu, active);
    if (act == 0) return;
    const int leader = __ffs(act) - 1;
    const uint32_t d0 = __shfl_sync(0xffffffffu, digit, leader);
    if (__all_sync(0xffffffffu, !active || digit == d0)) {
        if ((int)(threadIdx.x & 31) == leader) atomicAdd(&hist[d0], (uint32_t)__popc(act));
    } else if (active) {
        atomicAdd(&hist[digit], 1u);
    }
}

__device__ inline double warpSum(double x) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
    return x;
}

// cnt[digit] += 1 and wsum[digit] += w for the active lanes.
__device__ inline void countWeightAdd(uint32_t *cnt, double *wsum, bool active, uint32_t digit, double w) {
    const unsigned act = __ballot_sync(0xffffffffu, active);
    if (act == 0) return;
    const int leader = __ffs(act) - 1;
    const uint32_t d0 = __shfl_sync(0xffffffffu, digit, leader);
    if (__all_sync(0xffffffffu, !active || digit == d0)) {
        const double s = warpSum(active ? w : 0.0);
        if ((int)(threadIdx.x & 31) == leader) {
            atomicAdd(&cnt[d0], (uint32_t)__popc(act));
            atomicAdd(&wsum[d0], s);
        }
    } else if (active) {
        atomicAdd(&cnt[digit], 1u);
        atomicAdd(&wsum[digit], w);
    }
}

template <class T>
struct Weigher {
    using C = ComputeType<T>;
    C vmax;
    C scale;            // log2(e) / T (F32 path)
    double temperature; // F64 path
    // exp(d / T) for d <= 0, with the same arithmetic as operator().
    __device__ double expOf(C d) const {
        if constexpr (sizeof(C) == 8) {
            return exp(d / temperature);
        } else {
            return (double)exp2f(d * scale);
        }
    }
    // The weight in C (F32, or F64 for F64 logits): -inf and NaN weigh nothing.
    __device__ C weightC(T raw) const {
        const C v = widen(raw);
        if (!(v > -(C)INFINITY)) return (C)0;
        if (v == vmax) return (C)1;
        if constexpr (sizeof(C) == 8) {
            return exp((v - vmax) / temperature);
        } else {
            return exp2f((v - vmax) * scale);
        }
    }
    __device__ double operator()(T raw) const { return (double)weightC(raw); }
};

__device__ inline void storeIndex(void *result, ptrdiff_t offset, int size, uint32_t idx) {
    char *p = static_cast<char *>(result) + offset * size;
    switch (size) {
    case 1: *reinterpret_cast<uint8_t *>(p) = (uint8_t)idx; break;
    case 2: *reinterpret_cast<uint16_t *>(p) = (uint16_t)idx; break;
    case 4: *reinterpret_cast<uint32_t *>(p) = idx; break;
    default: *reinterpret_cast<uint64_t *>(p) = idx; break;
    }
}


// A row's mode, the same in every kernel.
struct RowMode {
    bool argmax;     // the argmax rule
    uint32_t K;      // min(topk, n), topk <= 0 meaning n
    bool descent1;   // top-K selection needed (K < n and n > kCap)
    bool need_total; // topp < 1: the row's total weight is needed
    bool hist2;      // K == n > kCap: the weight crossing is searched among all n
};
__device__ inline RowMode rowMode(const RowParams &p, uint32_t n) {
    RowMode m;
    m.argmax = p.random_val == 0.0f || p.topp <= 0.0f || p.topk == 1 || p.temperature <= 0.0f;
    m.K = (p.topk <= 0 || (uint32_t)p.topk >= n) ? n : (uint32_t)p.topk;
    m.descent1 = !m.argmax && n > (uint32_t)kCap && m.K < n;
    m.need_total = !m.argmax && p.topp < 1.0f;
    m.hist2 = !m.argmax && n > (uint32_t)kCap && m.K == n;
    return m;
}
__device__ inline int indexBits(uint32_t n) {
    int ib = 0;
    while (ib < 32 && ((n - 1) >> ib) != 0) ++ib;
    return ib;
}
template <class T>
__device__ inline Weigher<T> makeWeigher(ComputeType<T> vmax, float temperature) {
    return Weigher<T>{vmax, (ComputeType<T>)(1.4426950408889634 / (double)temperature), (double)temperature};
}

// Prepass, blocks (split, row): each split's argmax, its level-0 count
// histogram (added into the row's histogram in the workspace) and its
// (max, sum of exp((v - max) / T)) accumulated online.
template <class T>
__global__ void __launch_bounds__(kPreThreads) prepassKernel(const __grid_constant__ LaunchArgs args,
                                                             const PreArgs pre) {
    using K = typename KeyOf<T>::type;
    constexpr int KB = KeyOf<T>::bits;
    using C = ComputeType<T>;
    using E = Entry<K>;
    using ReduceE = cub::BlockReduce<E, kPreThreads>;
    using ReduceD = cub::BlockReduce<double, kPreThreads>;
    __shared__ uint32_t hist[kBins];
    __shared__ union {
        typename ReduceE::TempStorage re;
        typename ReduceD::TempStorage rd;
    } tmp;
    __shared__ double s_max;

    const int b = blockIdx.y;
    const uint32_t split = blockIdx.x;
    const uint32_t n = args.n;
    const RowParams p = args.p[b];
    const RowMode mode = rowMode(p, n);
    const T *row = static_cast<const T *>(args.probs) + (ptrdiff_t)b * args.row_stride;
    const uint32_t begin = split * pre.chunk;
    const uint32_t end = n - begin < pre.chunk ? n : begin + pre.chunk;
    Level lv0;
    levelAt(0, KB, indexBits(n), &lv0);
    if (mode.descent1) {
        for (int i = threadIdx.x; i < kBins; i += kPreThreads) hist[i] = 0;
    }
    __syncthreads();
    E best{0, 0xffffffffu};
    forRange<kPreThreads>(row, begin, end, [&](T v, uint32_t i, bool valid) {
        const K key = KeyOf<T>::get(v);
        if (valid && before(E{key, i}, best)) best = E{key, i};
        if (mode.descent1) countAdd(hist, valid, digitOf(lv0, key, n - 1 - i));
    });
    best = ReduceE(tmp.re).Reduce(best, EntryMax<K>());
    const size_t slot = (size_t)b * pre.splits + split;
    if (threadIdx.x == 0) {
        static_cast<E *>(pre.entries)[slot] = best;
        s_max = best.idx < end ? (double)widen(row[best.idx]) : -(double)INFINITY;
    }
    if (mode.need_total && !mode.hist2) {
        // The split's weight relative to its own max M: a second sweep of the
        // chunk (now in cache), F32 terms summed per thread, F64 across threads.
        __syncthreads();
        const C M = (C)s_max;
        C part = (C)0;
        if (M > -(C)INFINITY && M < (C)INFINITY) {
            const Weigher<T> weigh = makeWeigher<T>(M, p.temperature);
            forRange<kPreThreads>(row, begin, end, [&](T v, uint32_t i, bool valid) {
                if (valid) part += weigh.weightC(v);
            });
        }
        const double tot = ReduceD(tmp.rd).Sum((double)part);
        if (threadIdx.x == 0) {
            pre.msum[2 * slot] = (double)M;
            pre.msum[2 * slot + 1] = tot;
        }
    }
    if (mode.descent1) {
        __syncthreads();
        for (int i = threadIdx.x; i < kBins; i += kPreThreads) {
            if (hist[i] != 0) atomicAdd(&pre.hist[(size_t)b * kBins + i], hist[i]);
        }
    }
    if (pre.finish_argmax) {
        // The last block of the row to finish reduces the splits' argmaxes.
        __shared__ bool s_last;
        if (threadIdx.x == 0) {
            __threadfence();
            s_last = atomicAdd(&pre.hist[(size_t)b * kBins], 1u) == pre.splits - 1;
        }
        __syncthreads();
        if (s_last) {
            __threadfence();
            const E *entries = static_cast<const E *>(pre.entries) + (size_t)b * pre.splits;
            E all{0, 0xffffffffu};
            for (uint32_t k = threadIdx.x; k < pre.splits; k += kPreThreads) {
                const E e{__ldcg(&entries[k].key), __ldcg(&entries[k].idx)};
                if (before(e, all)) all = e;
            }
            all = ReduceE(tmp.re).Reduce(all, EntryMax<K>());
            if (threadIdx.x == 0) {
                storeIndex(args.result, (ptrdiff_t)b * args.result_stride, args.result_size, all.idx);
                pre.hist[(size_t)b * kBins] = 0;
            }
        }
    }
}

// For rows that search all n (K == n > kCap), blocks (split, row): the
// level-0 count and weight histograms of the chunk, weights relative to the
// row's max (from the prepass's split maxima), added into the workspace.
template <class T>
__global__ void __launch_bounds__(kPreThreads) weightHistKernel(const __grid_constant__ LaunchArgs args,
                                                                const PreArgs pre) {
    using K = typename KeyOf<T>::type;
    constexpr int KB = KeyOf<T>::bits;
    using C = ComputeType<T>;
    using E = Entry<K>;
    using ReduceE = cub::BlockReduce<E, kPreThreads>;
    __shared__ uint32_t cnt[kBins];
    __shared__ double wsum[kBins];
    __shared__ typename ReduceE::TempStorage tmp;
    __shared__ E s_best;

    const int b = blockIdx.y;
    const uint32_t split = blockIdx.x;
    const uint32_t n = args.n;
    const RowParams p = args.p[b];
    const RowMode mode = rowMode(p, n);
    if (!mode.hist2) return; // uniform per block
    const T *row = static_cast<const T *>(args.probs) + (ptrdiff_t)b * args.row_stride;
    const E *entries = static_cast<const E *>(pre.entries) + (size_t)b * pre.splits;
    E best{0, 0xffffffffu};
    for (uint32_t k = threadIdx.x; k < pre.splits; k += kPreThreads) {
        if (before(entries[k], best)) best = entries[k];
    }
    best = ReduceE(tmp).Reduce(best, EntryMax<K>());
    if (threadIdx.x == 0) s_best = best;
    for (int i = threadIdx.x; i < kBins; i += kPreThreads) {
        cnt[i] = 0;
        wsum[i] = 0.0;
    }
    __syncthreads();
    const C vmax = widen(row[s_best.idx]);
    if (!(vmax > -(C)INFINITY) || !(vmax < (C)INFINITY)) return; // the row's block takes the argmax
    const Weigher<T> weigh = makeWeigher<T>(vmax, p.temperature);
    Level lv0;
    levelAt(0, KB, indexBits(n), &lv0);
    const uint32_t begin = split * pre.chunk;
    const uint32_t end = n - begin < pre.chunk ? n : begin + pre.chunk;
    forRange<kPreThreads>(row, begin, end, [&](T v, uint32_t i, bool valid) {
        const K key = KeyOf<T>::get(v);
        countWeightAdd(cnt, wsum, valid, digitOf(lv0, key, n - 1 - i), valid ? weigh(v) : 0.0);
    });
    __syncthreads();
    for (int i = threadIdx.x; i < kBins; i += kPreThreads) {
        if (cnt[i] != 0) {
            atomicAdd(&pre.hist[(size_t)b * kBins + i], cnt[i]);
            atomicAdd(&pre.histw[(size_t)b * kBins + i], wsum[i]);
        }
    }
}

template <class T>
__global__ void __launch_bounds__(kThreads) sampleKernel(const __grid_constant__ LaunchArgs args, const PreArgs pre) {
    using K = typename KeyOf<T>::type;
    constexpr int KB = KeyOf<T>::bits;
    using E = Entry<K>;
    using ReduceE = cub::BlockReduce<E, kThreads>;
    using ReduceD = cub::BlockReduce<double, kThreads>;
    using ScanU = cub::BlockScan<uint32_t, kThreads>;
    using ScanD = cub::BlockScan<double, kThreads>;
    constexpr int V = 16 / sizeof(T);

    struct Hist {
        uint32_t cnt[kBins];
        double w[kBins];
    };
    struct Cand {
        K key[kCap];
        uint32_t idx[kCap];
    };
    __shared__ union {
        Hist hist;
        Cand cand;
    } big;
    __shared__ union {
        typename ReduceE::TempStorage re;
        typename ReduceD::TempStorage rd;
        typename ScanU::TempStorage su;
        typename ScanD::TempStorage sd;
    } tmp;
    __shared__ E s_best;
    __shared__ uint32_t s_bin, s_bin_cnt, s_bin_above, s_count;
    __shared__ double s_bin_wabove, s_t, s_total;
    __shared__ int s_pos;

    const int b = blockIdx.x;
    const RowParams p = args.p[b];
    const uint32_t n = args.n;
    const T *row = static_cast<const T *>(args.probs) + (ptrdiff_t)b * args.row_stride;
    const ptrdiff_t out_off = (ptrdiff_t)b * args.result_stride;
    const int tid = threadIdx.x;
    const int IB = indexBits(n);
    const RowMode mode = rowMode(p, n);
    const bool argmax_mode = mode.argmax;
    const uint32_t K_eff = mode.K;
    const bool descent1 = mode.descent1;

    auto clearHist = [&](bool weights) {
        for (int i = tid; i < kBins; i += kThreads) {
            big.hist.cnt[i] = 0;
            if (weights) big.hist.w[i] = 0.0;
        }
    };

    // ---- Pass 1: argmax (+ descent 1, level 0), or what the prepass left.
    Level lv0;
    levelAt(0, KB, IB, &lv0);
    E best{0, 0xffffffffu};
    if (pre.splits > 0) {
        const E *entries = static_cast<const E *>(pre.entries) + (size_t)b * pre.splits;
        for (uint32_t k = tid; k < pre.splits; k += kThreads) {
            if (before(entries[k], best)) best = entries[k];
        }
        if (descent1) {
            for (int i = tid; i < kBins; i += kThreads) big.hist.cnt[i] = pre.hist[(size_t)b * kBins + i];
        }
    } else {
        if (descent1) clearHist(false);
        __syncthreads();
        forRow(row, n, [&](T v, uint32_t i, bool valid) {
            const K key = KeyOf<T>::get(v);
            if (valid && before(E{key, i}, best)) best = E{key, i};
            if (descent1) countAdd(big.hist.cnt, valid, digitOf(lv0, key, n - 1 - i));
        });
    }
    best = ReduceE(tmp.re).Reduce(best, EntryMax<K>());
    if (tid == 0) s_best = best;
    __syncthreads();
    best = s_best;
    const T vmax_raw = row[best.idx];
    const ComputeType<T> vmax = widen(vmax_raw);
    if (argmax_mode || !(vmax > -(ComputeType<T>)INFINITY) || !(vmax < (ComputeType<T>)INFINITY)) {
        if (tid == 0) storeIndex(args.result, out_off, args.result_size, best.idx);
        return;
    }
    const Weigher<T> weigh = makeWeigher<T>(vmax, p.temperature);
    const double r = p.random_val;
    const double topp = p.topp < 1.0f ? (double)p.topp : 1.0;
    const bool need_total = mode.need_total;
    // The row's total weight from the prepass: sum over splits of sum_s * exp((max_s - vmax) / T).
    bool total_known = false;
    const bool pre_hist2 = pre.splits > 0 && mode.hist2; // level 0 of descent 2 comes from the workspace
    if (pre.splits > 0 && need_total && !pre_hist2) {
        double part = 0.0;
        for (uint32_t k = tid; k < pre.splits; k += kThreads) {
            const double *ms = pre.msum + 2 * ((size_t)b * pre.splits + k);
            const ComputeType<T> mk = (ComputeType<T>)ms[0];
            if (ms[1] > 0.0) part += mk == vmax ? ms[1] : ms[1] * weigh.expOf(mk - vmax);
        }
        __syncthreads();
        const double tot = ReduceD(tmp.rd).Sum(part);
        if (tid == 0) s_total = tot;
        __syncthreads();
        total_known = true;
    }

    // Chooses, in the current level's histogram (bins in descending digit
    // order), the bin where the target is crossed. By count: above < need <=
    // above + cnt. By weight: above < t <= above + w, else the lowest bin with
    // weight. Writes s_bin, s_bin_cnt, s_bin_above, s_bin_wabove.
    auto selectByCount = [&](uint32_t need) {
        uint32_t c[kBinsPerThread], ex[kBinsPerThread];
#pragma unroll
        for (int k = 0; k < kBinsPerThread; ++k) c[k] = big.hist.cnt[kBins - 1 - (tid * kBinsPerThread + k)];
        __syncthreads();
        ScanU(tmp.su).ExclusiveSum(c, ex);
#pragma unroll
        for (int k = 0; k < kBinsPerThread; ++k) {
            if (ex[k] < need && need <= ex[k] + c[k]) {
                s_bin = kBins - 1 - (tid * kBinsPerThread + k);
                s_bin_cnt = c[k];
                s_bin_above = ex[k];
            }
        }
        __syncthreads();
    };
    auto selectByWeight = [&](double t) {
        double w[kBinsPerThread], ex[kBinsPerThread];
        uint32_t c[kBinsPerThread];
#pragma unroll
        for (int k = 0; k < kBinsPerThread; ++k) {
            const int bin = kBins - 1 - (tid * kBinsPerThread + k);
            w[k] = big.hist.w[bin];
            c[k] = big.hist.cnt[bin];
        }
        if (tid == 0) s_pos = -1;
        __syncthreads();
        ScanD(tmp.sd).ExclusiveSum(w, ex);
        int found = -1, last = -1;
#pragma unroll
        for (int k = 0; k < kBinsPerThread; ++k) {
            if (ex[k] < t && t <= ex[k] + w[k]) found = k;
            if (w[k] > 0.0) last = k;
        }
        if (found >= 0) {
            s_bin = kBins - 1 - (tid * kBinsPerThread + found);
            s_bin_cnt = c[found];
            s_bin_wabove = ex[found];
        }
        __syncthreads();
        // No crossing (only through rounding): the lowest bin with weight.
        if (s_bin == 0xffffffffu && last >= 0) atomicMax(&s_pos, tid * kBinsPerThread + last);
        __syncthreads();
        if (s_bin == 0xffffffffu) {
            const int pos = s_pos;
            if (pos < 0) {
                if (tid == 0) { // unreachable: S always holds the max, of weight 1
                    s_bin = kBins - 1;
                    s_bin_cnt = 0;
                    s_bin_wabove = 0.0;
                }
            } else if (tid == pos / kBinsPerThread) {
                const int k = pos % kBinsPerThread;
                s_bin = kBins - 1 - pos;
                s_bin_cnt = c[k];
                s_bin_wabove = ex[k];
            }
        }
        __syncthreads();
    };

    // ---- Descent 1: the set S of everything at or above prefix p1.
    Prefix<K> p1;
    uint32_t s_size = n;
    if (descent1) {
        uint32_t above = 0;
        for (int l = 0;; ++l) {
            Level lv;
            levelAt(l, KB, IB, &lv);
            if (l > 0) {
                clearHist(false);
                __syncthreads();
                const ValueRange<T> range = valueRange<T>(p1.kpref, (K)(p1.kpref | ~p1.kmask));
                forVectors<kThreads>(row, 0u, n, [&](const T (&v)[V], uint32_t i0, uint32_t cnt) {
                    if (!__any_sync(0xffffffffu, vecMaybe(range, v, cnt))) return;
#pragma unroll
                    for (int e = 0; e < V; ++e) {
                        const K key = KeyOf<T>::get(v[e]);
                        const uint32_t ridx = n - 1 - (i0 + e);
                        countAdd(big.hist.cnt, (uint32_t)e < cnt && p1.matches(key, ridx), digitOf(lv, key, ridx));
                    }
                });
                __syncthreads();
            }
            selectByCount(K_eff - above);
            const uint32_t bin = s_bin;
            above += s_bin_above;
            const uint32_t through = above + s_bin_cnt;
            p1 = extend(p1, lv, bin);
            __syncthreads();
            Level next;
            // Stop once S is small enough to sort (a deeper level costs one cheap
            // sweep, sorting kCap candidates costs more), or exactly the top K.
            const uint32_t stop_at = K_eff > (uint32_t)kCap ? K_eff : (K_eff > kSortSmall ? (uint32_t)kCap : kSortSmall);
            if (through <= stop_at || !levelAt(l + 1, KB, IB, &next)) {
                s_size = through;
                break;
            }
        }
    }

    // ---- Descent 2 (|S| > kCap): the bucket of the weight crossing inside S.
    Prefix<K> p2;
    double base = 0.0;
    bool t_known = false;
    double t = 0.0;
    if (s_size > (uint32_t)kCap) {
        for (int l = 0;; ++l) {
            Level lv;
            if (!levelAt(l, KB, IB, &lv)) break; // cannot happen: one element per bin at the end
            double my_total = 0.0;
            const ValueRange<T> range = candidateRange<T>(p1, p2);
            const bool sum_all_level = l == 0 && need_total && !total_known && !pre_hist2;
            if (l == 0 && pre_hist2) {
                for (int i = tid; i < kBins; i += kThreads) {
                    big.hist.cnt[i] = pre.hist[(size_t)b * kBins + i];
                    big.hist.w[i] = pre.histw[(size_t)b * kBins + i];
                }
            } else {
                clearHist(true);
            }
            __syncthreads();
            if (!(l == 0 && pre_hist2)) { // level 0 from the workspace needs no sweep
                forVectors<kThreads>(row, 0u, n, [&](const T (&v)[V], uint32_t i0, uint32_t cnt) {
                    if (!sum_all_level && !__any_sync(0xffffffffu, vecMaybe(range, v, cnt))) return;
#pragma unroll
                    for (int e = 0; e < V; ++e) {
                        const bool valid = (uint32_t)e < cnt;
                        const K key = KeyOf<T>::get(v[e]);
                        const uint32_t ridx = n - 1 - (i0 + e);
                        const bool act = valid && p1.atOrAbove(key, ridx) && p2.matches(key, ridx);
                        double w = 0.0;
                        if ((act || sum_all_level) && valid) w = weigh(v[e]);
                        if (sum_all_level && valid) my_total += w;
                        countWeightAdd(big.hist.cnt, big.hist.w, act, digitOf(lv, key, ridx), w);
                    }
                });
            }
            if (l == 0) {
                // c_{K-1} is the weight of S; the total weight of the row for top-p.
                if (need_total && !total_known && !pre_hist2) {
                    const double tot = ReduceD(tmp.rd).Sum(my_total);
                    if (tid == 0) s_total = tot;
                }
                __syncthreads();
                double cs = 0.0;
                for (int i = tid; i < kBins; i += kThreads) cs += big.hist.w[i];
                __syncthreads();
                cs = ReduceD(tmp.rd).Sum(cs);
                if (tid == 0) {
                    // With the histogram from the workspace S is the whole row: c_{n-1} = cs.
                    if (pre_hist2) s_total = cs;
                    double bound = cs;
                    if (need_total && topp * s_total < bound) bound = topp * s_total;
                    s_t = r * bound;
                }
                __syncthreads();
                t = s_t;
                t_known = true;
            } else {
                __syncthreads();
            }
            if (tid == 0) s_bin = 0xffffffffu;
            __syncthreads();
            selectByWeight(t - base);
            const uint32_t bin = s_bin;
            const uint32_t cnt = s_bin_cnt;
            base += s_bin_wabove;
            p2 = extend(p2, lv, bin);
            __syncthreads();
            if (cnt <= (uint32_t)kCap) break;
        }
    }

    // ---- Collect the candidates (and the total weight when still needed).
    if (tid == 0) s_count = 0;
    __syncthreads();
    const bool collect_total = !t_known && need_total && !total_known;
    double my_total = 0.0;
    const ValueRange<T> range = candidateRange<T>(p1, p2);
    forVectors<kThreads>(row, 0u, n, [&](const T (&v)[V], uint32_t i0, uint32_t cnt) {
        if (collect_total) {
#pragma unroll
            for (int e = 0; e < V; ++e) {
                if ((uint32_t)e < cnt) my_total += weigh(v[e]);
            }
        }
        if (!__any_sync(0xffffffffu, vecMaybe(range, v, cnt))) return;
#pragma unroll
        for (int e = 0; e < V; ++e) {
            const uint32_t i = i0 + e;
            const K key = KeyOf<T>::get(v[e]);
            const uint32_t ridx = n - 1 - i;
            const bool take = (uint32_t)e < cnt && p1.atOrAbove(key, ridx) && p2.matches(key, ridx);
            const unsigned m = __ballot_sync(0xffffffffu, take);
            if (m == 0) continue;
            const int lane = tid & 31;
            const int leader = __ffs(m) - 1;
            uint32_t start = 0;
            if (lane == leader) start = atomicAdd(&s_count, (uint32_t)__popc(m));
            start = __shfl_sync(0xffffffffu, start, leader);
            if (take) {
                const uint32_t pos = start + __popc(m & ((1u << lane) - 1u));
                if (pos < (uint32_t)kCap) { // always true; guards shared memory
                    big.cand.key[pos] = key;
                    big.cand.idx[pos] = i;
                }
            }
        }
    });
    if (collect_total) {
        const double tot = ReduceD(tmp.rd).Sum(my_total);
        if (tid == 0) s_total = tot;
    }
    __syncthreads();
    const uint32_t m = s_count < (uint32_t)kCap ? s_count : (uint32_t)kCap;

    // ---- Bitonic sort of the candidates (descending key, ascending index).
    uint32_t m2 = 1;
    while (m2 < m) m2 <<= 1;
    for (uint32_t i = m + tid; i < m2; i += kThreads) {
        big.cand.key[i] = 0;
        big.cand.idx[i] = 0xffffffffu;
    }
    __syncthreads();
    for (uint32_t k = 2; k <= m2; k <<= 1) {
        for (uint32_t j = k >> 1; j > 0; j >>= 1) {
            for (uint32_t i = tid; i < m2; i += kThreads) {
                const uint32_t l = i ^ j;
                if (l > i) {
                    const E ei{big.cand.key[i], big.cand.idx[i]};
                    const E el{big.cand.key[l], big.cand.idx[l]};
                    const bool up = (i & k) == 0;
                    if (up ? before(el, ei) : before(ei, el)) {
                        big.cand.key[i] = el.key;
                        big.cand.idx[i] = el.idx;
                        big.cand.key[l] = ei.key;
                        big.cand.idx[l] = ei.idx;
                    }
                }
            }
            __syncthreads();
        }
    }

    // ---- Scan the candidates' weights (F64) and find the crossing.
    // Without descent 2 the candidates are a superset of the top K, in order:
    // only the first K count.
    const uint32_t limit = (!t_known && K_eff < m) ? K_eff : m;
    double w[kItems], ex[kItems];
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const uint32_t pos = tid * kItems + k;
        w[k] = pos < limit ? weigh(row[big.cand.idx[pos]]) : 0.0;
    }
    if (tid == 0) s_pos = -1;
    double agg;
    ScanD(tmp.sd).ExclusiveSum(w, ex, agg);
    if (!t_known) {
        // c_{K-1} is the scan's total; topp * c_{n-1} uses the row's total.
        double bound = agg;
        if (need_total) {
            __syncthreads(); // s_total visible (written before the sort's barriers anyway)
            if (topp * s_total < bound) bound = topp * s_total;
        }
        t = r * bound;
    }
    int found = -1, last = -1;
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const uint32_t pos = tid * kItems + k;
        if (pos < limit) {
            const double before_c = base + ex[k];
            if (before_c < t && t <= before_c + w[k]) found = (int)pos;
            if (w[k] > 0.0) last = (int)pos;
        }
    }
    __syncthreads();
    if (found >= 0) s_pos = found;
    __syncthreads();
    if (s_pos < 0 && last >= 0) atomicMax(&s_pos, last); // rounding only: the last weighted position
    __syncthreads();
    if (tid == 0) {
        const int pos = s_pos >= 0 ? s_pos : 0;
        storeIndex(args.result, out_off, args.result_size, big.cand.idx[pos]);
    }
}

// Launches rows [0, args.rows) (<= kMaxRows): the prepass when pre.splits > 0
// (after zeroing its histograms), then one block per row.
template <class T>
infiniStatus_t launch(const LaunchArgs &args, const PreArgs &pre, cudaStream_t stream) {
    if (pre.splits > 0) {
        if (pre.any_hist || pre.any_hist2 || pre.finish_argmax) {
            CUDA_TRY(cudaMemsetAsync(pre.hist, 0, sizeof(uint32_t) * kBins * (size_t)args.rows, stream));
        }
        if (pre.any_hist2) {
            CUDA_TRY(cudaMemsetAsync(pre.histw, 0, sizeof(double) * kBins * (size_t)args.rows, stream));
        }
        prepassKernel<T><<<dim3(pre.splits, args.rows), kPreThreads, 0, stream>>>(args, pre);
        CUDA_TRY_LAUNCH();
        if (pre.any_hist2) {
            weightHistKernel<T><<<dim3(pre.splits, args.rows), kPreThreads, 0, stream>>>(args, pre);
            CUDA_TRY_LAUNCH();
        }
        if (pre.finish_argmax) {
            return INFINI_STATUS_SUCCESS;
        }
    }
    sampleKernel<T><<<args.rows, kThreads, 0, stream>>>(args, pre);
    CUDA_TRY_LAUNCH();
    return INFINI_STATUS_SUCCESS;
}

// Workspace of the prepass for `rows` rows of `splits` blocks each.
inline size_t prepassBytes(size_t rows, size_t splits) {
    if (splits == 0) return 0;
    return rows * ((sizeof(uint32_t) + sizeof(double)) * kBins + splits * (sizeof(Entry<uint64_t>) + 2 * sizeof(double)));
}
inline PreArgs prepassLayout(void *workspace, size_t rows, uint32_t splits, uint32_t chunk) {
    PreArgs pre{};
    if (splits == 0) return pre;
    char *w = static_cast<char *>(workspace);
    pre.msum = reinterpret_cast<double *>(w);
    w += rows * splits * 2 * sizeof(double);
    pre.entries = w;
    w += rows * splits * sizeof(Entry<uint64_t>);
    pre.hist = reinterpret_cast<uint32_t *>(w);
    w += rows * kBins * sizeof(uint32_t);
    pre.histw = reinterpret_cast<double *>(w);
    pre.splits = splits;
    pre.chunk = chunk;
    return pre;
}

infiniStatus_t launchF16(const LaunchArgs &args, const PreArgs &pre, cudaStream_t stream);
infiniStatus_t launchBF16(const LaunchArgs &args, const PreArgs &pre, cudaStream_t stream);
infiniStatus_t launchF32(const LaunchArgs &args, const PreArgs &pre, cudaStream_t stream);
infiniStatus_t launchF64(const LaunchArgs &args, const PreArgs &pre, cudaStream_t stream);

} // namespace infini::random_sample::nvidia
