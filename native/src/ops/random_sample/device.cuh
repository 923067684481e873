#pragma once
// RandomSample device helpers shared by every stage: order keys of the logit
// types, the (key, index) order, radix levels and prefixes, value prefilters,
// histogram updates, weights and a row's mode.
#include "../../common/cuda/dtype.cuh"
#include "../../common/cuda/for_vectors.cuh"
#include "../../common/cuda/store_index.cuh"
#include "../../common/order_key.h"
#include "nvidia.cuh"
#include <cstring>
#include <limits>
#include <type_traits>

namespace infini::random_sample::nvidia {

constexpr int kCap = 2048;           // most candidates sorted in one block
constexpr uint32_t kSortSmall = 256; // top-K selection narrows to this many candidates for K <= this
constexpr int kDigitBits = 11;
constexpr int kBins = 1 << kDigitBits;

// The bit layout of a logit type: its width, the unsigned type holding its key, +inf's pattern.
template <class T> struct FloatBits;
template <> struct FloatBits<__half> { using Key = uint32_t; using Raw = uint16_t; static constexpr int bits = 16; static constexpr Key inf = kF16InfBits; };
template <> struct FloatBits<__nv_bfloat16> { using Key = uint32_t; using Raw = uint16_t; static constexpr int bits = 16; static constexpr Key inf = kBF16InfBits; };
template <> struct FloatBits<float> { using Key = uint32_t; using Raw = uint32_t; static constexpr int bits = 32; static constexpr Key inf = kF32InfBits; };
template <> struct FloatBits<double> { using Key = uint64_t; using Raw = uint64_t; static constexpr int bits = 64; static constexpr Key inf = kF64InfBits; };
template <class T>
using KeyType = typename FloatBits<T>::Key;

// Order key of a logit (common/order_key.h): larger logit -> larger key; -0 == +0; NaN -> 0.
template <class T>
__device__ inline KeyType<T> keyOf(T v) {
    typename FloatBits<T>::Raw raw;
    memcpy(&raw, &v, sizeof(T));
    return orderKey<KeyType<T>, FloatBits<T>::bits>((KeyType<T>)raw, FloatBits<T>::inf);
}
// The logit value of a key (NaN for key 0 and keys that no logit maps to).
template <class T>
__device__ inline ComputeType<T> valueOfKey(KeyType<T> key) {
    const auto raw = (typename FloatBits<T>::Raw)bitsOfKey<KeyType<T>, FloatBits<T>::bits>(key);
    T v;
    memcpy(&v, &raw, sizeof(T));
    return widen(v);
}

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
template <class K>
struct EntryMax {
    __device__ Entry<K> operator()(const Entry<K> &a, const Entry<K> &b) const { return before(a, b) ? a : b; }
};
template <class K>
__device__ inline Entry<K> noEntry() { return Entry<K>{0, 0xffffffffu}; }
// The first entry of the warp's lanes, in every lane. (`before` is a strict
// total order on entries: any reduction tree gives the same one.)
template <class K>
__device__ inline Entry<K> warpBest(Entry<K> e) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const Entry<K> f{__shfl_xor_sync(0xffffffffu, e.key, o), __shfl_xor_sync(0xffffffffu, e.idx, o)};
        if (before(f, e)) e = f;
    }
    return e;
}
// The first entry of the NT-thread block, in warp 0 (every thread calls it;
// `warps`: NT / 32 shared entries). A fraction of cub::BlockReduce's code,
// whose generic reduction the sampling kernel ran once.
template <int NT, class K>
__device__ inline Entry<K> blockBest(Entry<K> e, Entry<K> *warps) {
    static_assert(NT % 32 == 0 && NT / 32 <= 32, "one entry a warp, reduced by warp 0");
    e = warpBest(e);
    if ((threadIdx.x & 31) == 0) warps[threadIdx.x / 32] = e;
    __syncthreads();
    if (threadIdx.x < 32) e = warpBest(threadIdx.x < NT / 32 ? warps[threadIdx.x] : noEntry<K>());
    return e;
}

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

// A cheap superset test on the value of an element whose key must lie in
// [lo, hi]: one conversion and two compares instead of the key (a sweep then
// runs the exact test only where some lane of the warp passes this one).
template <class T>
struct ValueRange {
    using C = ComputeType<T>;
    C lo, hi;
    bool all; // lo == 0: everything, NaN (key 0) included
    __device__ bool maybe(C x) const { return all || (x >= lo && x <= hi); }
};
template <class T, class K>
__device__ inline ValueRange<T> valueRange(K lo, K hi) {
    using C = ComputeType<T>;
    C vlo = valueOfKey<T>(lo), vhi = valueOfKey<T>(hi);
    vlo = vlo != vlo ? -(C)INFINITY : vlo;
    vhi = vhi != vhi ? (C)INFINITY : vhi;
    return ValueRange<T>{vlo, vhi, lo == 0};
}
// Keys at or above prefix p1 that can match prefix p2.
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
__device__ inline int indexBits(uint32_t n) {
    int ib = 0;
    while (ib < 32 && ((n - 1) >> ib) != 0) ++ib;
    return ib;
}

// v[e] for an e known only at run time (selects, not local memory).
template <class T, int V>
__device__ inline T vecAt(const T (&v)[V], int e) {
    T x = v[0];
#pragma unroll
    for (int s = 1; s < V; ++s) x = e == s ? v[s] : x;
    return x;
}

// Packed max / min of a full vector (NaN ignored unless all are NaN).
template <class T, int V>
__device__ inline void vecMaxMin(const T (&v)[V], T &mx, T &mn) {
    if constexpr (sizeof(T) == 2) {
        using T2 = std::conditional_t<std::is_same_v<T, __half>, __half2, __nv_bfloat162>;
        T2 a{v[0], v[1]}, b = a;
#pragma unroll
        for (int k = 1; k < V / 2; ++k) {
            const T2 h{v[2 * k], v[2 * k + 1]};
            a = __hmax2(a, h);
            b = __hmin2(b, h);
        }
        mx = __hmax(a.x, a.y);
        mn = __hmin(b.x, b.y);
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

// Folds v[0..cnt) = row[i0 ..] into this thread's best (key, lowest index)
// and returns the largest key among them. A full vector costs one packed max
// and one key; the element is looked up only when it beats `best` (rare), and
// a thread's vectors come in increasing index order, so the first equal wins.
// Lean (the sampling kernel, whose code size matters more than a few
// instructions a vector; session rs7): the element is found by comparing
// values (one compare each, not a key each), and vectors that are not whole
// (the head, the row's last) go through a loop instead of V copies. The same
// entry either way.
template <bool Lean = false, class T, int V, class K>
__device__ inline K vecBest(const T (&v)[V], uint32_t i0, uint32_t cnt, Entry<K> &best) {
    if (cnt == (uint32_t)V) {
        T mx = v[0];
        if constexpr (sizeof(T) == 2) {
            T mn;
            vecMaxMin(v, mx, mn);
        } else {
#pragma unroll
            for (int k = 1; k < V; ++k) mx = fmax(mx, v[k]);
        }
        const K kmax = keyOf(mx);
        if (kmax > best.key || best.idx == 0xffffffffu) {
            if constexpr (Lean) {
                // Equal keys are equal values (-0 == +0), unless mx is NaN
                // (then every element is, all keys 0: element 0).
                uint32_t first = 0;
#pragma unroll
                for (int s = V - 1; s >= 0; --s) {
                    if (widen(v[s]) == widen(mx)) first = s;
                }
                best = Entry<K>{kmax, i0 + first};
            } else {
#pragma unroll
                for (int s = V - 1; s >= 0; --s) {
                    if (keyOf(v[s]) == kmax) best = Entry<K>{kmax, i0 + s};
                }
            }
        }
        return kmax;
    }
    K kmax = 0;
    if constexpr (Lean) {
#pragma unroll 1
        for (uint32_t s = 0; s < cnt; ++s) {
            const Entry<K> e{keyOf(vecAt(v, (int)s)), i0 + s};
            if (before(e, best)) best = e;
            kmax = e.key > kmax ? e.key : kmax;
        }
    } else {
#pragma unroll
        for (int s = 0; s < V; ++s) {
            if ((uint32_t)s < cnt) {
                const Entry<K> e{keyOf(v[s]), i0 + s};
                if (before(e, best)) best = e;
                kmax = e.key > kmax ? e.key : kmax;
            }
        }
    }
    return kmax;
}

// Whether some of v[0..cnt) may lie in the range (a superset test). Lean:
// vectors that are not whole go through a loop (as vecBest's).
template <bool Lean = false, class T, int V>
__device__ inline bool vecMaybe(const ValueRange<T> &r, const T (&v)[V], uint32_t cnt) {
    if (r.all) return cnt > 0;
    if (cnt == (uint32_t)V) {
        T mx, mn;
        vecMaxMin(v, mx, mn);
        return widen(mx) >= r.lo && widen(mn) <= r.hi;
    }
    bool any = false;
    if constexpr (Lean) {
#pragma unroll 1
        for (uint32_t s = 0; s < cnt; ++s) any |= r.maybe(widen(vecAt(v, (int)s)));
    } else {
#pragma unroll
        for (int s = 0; s < V; ++s) any |= (uint32_t)s < cnt && r.maybe(widen(v[s]));
    }
    return any;
}

// f(e, marked) for the elements e of a vector (0 <= e < V) that some lane of
// the warp marks (mark(e), called once for each e in increasing order), in
// increasing e, every lane of the warp with the same e. Sparse: the marks
// first, then one inlined copy of f in a loop over the e's that some lane
// marks; else V unrolled copies of f, called for every e (f must then do
// nothing where no lane marks e, as a ballot that finds none). Both make the
// same calls that do something, in the same order. (Every lane of the warp
// calls it.)
template <int V, bool Sparse, class M, class F>
__device__ inline void forMarked(M &&mark, F &&f) {
    if constexpr (Sparse) {
        uint32_t mine = 0;
#pragma unroll
        for (int e = 0; e < V; ++e) mine |= mark(e) ? 1u << e : 0u;
#pragma unroll 1
        for (uint32_t todo = __reduce_or_sync(0xffffffffu, mine); todo != 0; todo &= todo - 1) {
            const int e = __ffs((int)todo) - 1;
            f(e, ((mine >> e) & 1u) != 0);
        }
    } else {
#pragma unroll
        for (int e = 0; e < V; ++e) f(e, mark(e));
    }
}

__device__ inline double warpSum(double x) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
    return x;
}

// cnt[digit] += 1 (and, with weights, wsum[digit] += w) for the active lanes,
// one atomic per warp when they agree.
template <bool Weights>
__device__ inline void histAdd(uint32_t *cnt, double *wsum, bool active, uint32_t digit, double w) {
    const unsigned act = __ballot_sync(0xffffffffu, active);
    if (act == 0) return;
    const int leader = __ffs(act) - 1;
    const uint32_t d0 = __shfl_sync(0xffffffffu, digit, leader);
    if (__all_sync(0xffffffffu, !active || digit == d0)) {
        double s = 0.0;
        if constexpr (Weights) s = warpSum(active ? w : 0.0);
        if ((int)(threadIdx.x & 31) == leader) {
            atomicAdd(&cnt[d0], (uint32_t)__popc(act));
            if constexpr (Weights) atomicAdd(&wsum[d0], s);
        }
    } else if (active) {
        atomicAdd(&cnt[digit], 1u);
        if constexpr (Weights) atomicAdd(&wsum[digit], w);
    }
}

// -DINFINI_RS_VECTOR_WEIGHTS=0: the collect's total an element at a time in
// F64 (session 8's code), for A/B against Weigher::addWeights' vector sums.
#ifndef INFINI_RS_VECTOR_WEIGHTS
#define INFINI_RS_VECTOR_WEIGHTS 1
#endif
constexpr bool kVectorWeights = INFINI_RS_VECTOR_WEIGHTS != 0;
// -DINFINI_RS_WIDE_ROWS=0: no row takes the overflow-safe weight loops (the
// code before the F32-limit fix, for A/B).
#ifndef INFINI_RS_WIDE_ROWS
#define INFINI_RS_WIDE_ROWS 1
#endif

template <class T>
struct Weigher {
    using C = ComputeType<T>;
    C vmax;
    C scale;            // log2(e) / T (F32 path)
    double temperature; // F64 path
    // F32 path: v - vmax may overflow to -inf for a finite v (only when vmax
    // >= 2^103, half an ulp of F32's maximum: 3e38 against -3e38). Decided
    // once a row, so that other rows' loops stay as they were.
    bool wide;
    // The weight's exponent log2(e) (v - vmax) / T in F32. WIDE: where v - vmax
    // overflows, each term is scaled first (with T = 1e38 that weight is
    // e^-6, as the CPU's double gives it, not 0).
    template <bool WIDE>
    __device__ C exponent(C v) const {
        const C d = v - vmax;
        if constexpr (WIDE) {
            return d == -(C)INFINITY ? v * scale - vmax * scale : d * scale;
        } else {
            return d * scale;
        }
    }
    // The weight of value v: exp((v - vmax) / T); -inf and NaN weigh nothing.
    __device__ double ofValue(C v) const {
        if (!(v > -(C)INFINITY)) return 0.0;
        if (v == vmax) return 1.0;
        if constexpr (sizeof(C) == 8) {
            return exp((v - vmax) / temperature);
        } else {
            return (double)exp2f(wide ? exponent<true>(v) : exponent<false>(v));
        }
    }
    __device__ double operator()(T raw) const { return ofValue(widen(raw)); }
    // acc plus the weights of v[0..cnt) (the collect's total, on every vector
    // of a top-p row). F64 logits: added in order, in F64. F32 weights: a
    // vector's summed in F32 (a fixed tree; exact for weights of 1, whose
    // exponent is exactly 0), then added to acc: one F64 conversion and add
    // a vector, not one an element (the collect of a 64-row batch was bound
    // by them, session 9). The vector's rounding (<= 3 x 2^-24 relative) is
    // of the weights' own order. ex2.approx.ftz: weights under 2^-126 (of
    // the max's 1) count as 0.
    template <int V>
    __device__ double addWeights(double acc, const T (&v)[V], uint32_t cnt) const {
        if constexpr (sizeof(C) == 8) {
#pragma unroll
            for (int e = 0; e < V; ++e) {
                if ((uint32_t)e < cnt) acc += (*this)(v[e]);
            }
            return acc;
        } else {
            return wide ? addWeightsF32<true>(acc, v, cnt) : addWeightsF32<false>(acc, v, cnt);
        }
    }
    template <bool WIDE, int V>
    __device__ double addWeightsF32(double acc, const T (&v)[V], uint32_t cnt) const {
        if constexpr (!kVectorWeights) { // (A/B: one F64 conversion and add an element)
#pragma unroll
            for (int e = 0; e < V; ++e) {
                const C x = widen(v[e]);
                const double w = (double)exp2f(exponent<WIDE>(x));
                acc += (uint32_t)e < cnt && x > -(C)INFINITY ? (x == vmax ? 1.0 : w) : 0.0;
            }
            return acc;
        } else {
            float w[V];
#pragma unroll
            for (int e = 0; e < V; ++e) {
                const float x = widen(v[e]);
                float y;
                asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(exponent<WIDE>(x)));
                w[e] = (uint32_t)e < cnt && x > -INFINITY ? y : 0.0f; // (-inf, NaN: 0)
            }
#pragma unroll
            for (int h = V / 2; h > 0; h /= 2) {
#pragma unroll
                for (int e = 0; e < h; ++e) w[e] += w[e + h];
            }
            return acc + (double)w[0];
        }
    }
};
// scale: log2(e) / T, at most the largest finite C. A temperature below
// ~4.2e-39 (subnormal) would round it to +inf, and the maximum's own weight in
// the vector sums, ex2(0 * inf), to NaN (the row then fell through to its last
// index). Clamped, the maximum weighs 1 and any v at least 2^-100 below it
// 0 (ex2 of less than -2^28), as exp((v - vmax) / T) does for such T; only
// logits within ~2^-120 of the maximum (subnormal-sized ones) weigh more
// than the definition gives them.
template <class T>
__device__ inline Weigher<T> makeWeigher(ComputeType<T> vmax, float temperature) {
    using C = ComputeType<T>;
    const double scale = 1.4426950408889634 / (double)temperature;
    const double most = (double)std::numeric_limits<C>::max();
    const bool wide = INFINI_RS_WIDE_ROWS != 0 && sizeof(C) == 4 && (double)vmax >= 1.0141204801825835e31; // 2^103
    return Weigher<T>{vmax, (C)(scale < most ? scale : most), (double)temperature, wide};
}

// A row's mode, decided from its parameters alone.
struct RowMode {
    bool argmax;     // the argmax rule
    uint32_t K;      // min(topk, n), topk <= 0 meaning n
    bool descent1;   // top-K selection needed (K < n and n > kCap)
    bool need_total; // topp < 1: the row's total weight is needed
};
__host__ __device__ inline RowMode rowMode(const RowParams &p, uint32_t n) {
    RowMode m;
    m.argmax = p.random_val == 0.0f || p.topp <= 0.0f || p.topk == 1 || p.temperature <= 0.0f;
    m.K = (p.topk <= 0 || (uint32_t)p.topk >= n) ? n : (uint32_t)p.topk;
    m.descent1 = !m.argmax && n > (uint32_t)kCap && m.K < n;
    m.need_total = !m.argmax && p.topp < 1.0f;
    return m;
}
// Top p over more than kCap elements (K == n, or K > kCap with topp < 1):
// the crossing is guessed from the vectors' maxima and verified (sample.cuh).
// The host asks it too: launches with such a row run the kernel that has
// that code (sampleKernel's TopP).
__host__ __device__ inline bool guessesTopP(const RowMode &m, uint32_t n) {
    return !m.argmax && n > (uint32_t)kCap && m.K > (uint32_t)kCap && (m.K == n || m.need_total);
}

// The contiguous chunk of a row that team member q of `team` reads: equal
// parts in whole 16-byte vectors.
template <class T>
__device__ inline void chunkOf(uint32_t n, int team, uint32_t q, uint32_t *begin, uint32_t *end) {
    constexpr uint32_t V = 16 / sizeof(T);
    const uint32_t per = ((n + team - 1) / team + V - 1) / V * V;
    const uint64_t b = (uint64_t)q * per;
    *begin = b < n ? (uint32_t)b : n;
    *end = n - *begin < per ? n : *begin + per;
}

} // namespace infini::random_sample::nvidia
