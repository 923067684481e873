#pragma once
// LPNorm device code shared by the NVIDIA kernels (rows.cu, cols.cu); the
// generic pieces are in common/cuda (vector.cuh, reduce.cuh).
#include "../../common/cuda/check.cuh"
#include "../../common/cuda/dtype.cuh"
#include "../../common/cuda/reduce.cuh"
#include "../../common/cuda/vector.cuh"
#include "math.h"
#include "nvidia_plan.h"
#include <type_traits>

namespace infini::lp_norm::nvidia {

using infini::loadPack;
using infini::Pack;
using infini::storePack;

// Element offsets of outer index i in x and y.
__device__ __forceinline__ void outerOffsets(const Outer &o, int64_t i, int64_t &ox, int64_t &oy) {
    if (o.table != nullptr) {
        ox = o.table[2 * i];
        oy = o.table[2 * i + 1];
        return;
    }
    ox = 0;
    oy = 0;
#pragma unroll
    for (int d = kMaxOuter - 1; d > 0; --d) {
        if (d < o.nd) {
            int64_t q = i / o.size[d];
            int64_t r = i - q * o.size[d];
            ox += r * o.sx[d];
            oy += r * o.sy[d];
            i = q;
        }
    }
    if (o.nd > 0) {
        ox += i * o.sx[0];
        oy += i * o.sy[0];
    }
}

// A row's packs of VEC elements (rows.cu, stream.cu; slab.cu's slabs). RAGGED (plan.ragged):
// on the 16-byte grid of the row's own address, `head` elements of the first
// pack before the row and `last` of the last pack's in it; else len / VEC
// whole packs from the row's start.
template <class T, int VEC, bool RAGGED>
struct RowPacks {
    int head;
    int64_t packs;
    int last;
    __device__ __forceinline__ RowPacks(const T *row, int64_t len) {
        head = RAGGED ? (int)((reinterpret_cast<uintptr_t>(row) / sizeof(T)) % VEC) : 0;
        packs = RAGGED ? (head + len + VEC - 1) / VEC : len / VEC;
        last = (int)(head + len - (packs - 1) * VEC);
    }
    // The elements [lo, hi) of pack v that are the row's.
    __device__ __forceinline__ void span(int64_t v, int &lo, int &hi) const {
        lo = v == 0 ? head : 0;
        hi = v == packs - 1 ? last : VEC;
    }
};

// Element j of a pack -> compute type; BF16 pairs read as one 32-bit word.
template <class T, int VEC>
__device__ __forceinline__ ComputeType<T> wideAt(const Pack<T, VEC> &p, int j) {
    if constexpr (std::is_same_v<T, __nv_bfloat16> && VEC % 2 == 0) {
        unsigned w;
        memcpy(&w, &p.v[j & ~1], 4);
        return __uint_as_float((j & 1) ? (w & 0xffff0000u) : (w << 16));
    } else {
        return widen(p.v[j]);
    }
}

// y[j] = g(x[j] in the compute type, j) for a pack. 16-bit types round pairs
// with one instruction into one register (rounding element by element made
// BF16 kernels keep every half-word in its own register and spill).
template <class T, int VEC, class G>
__device__ __forceinline__ Pack<T, VEC> mapPack(const Pack<T, VEC> &x, G &&g) {
    Pack<T, VEC> y;
    if constexpr (sizeof(T) == 2 && VEC % 2 == 0) {
#pragma unroll
        for (int j = 0; j < VEC; j += 2) {
            const auto a = g(wideAt(x, j), j), b = g(wideAt(x, j + 1), j + 1);
            if constexpr (std::is_same_v<T, __half>) {
                const __half2 h = __floats2half2_rn(a, b);
                memcpy(&y.v[j], &h, 4);
            } else {
                const __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
                memcpy(&y.v[j], &h, 4);
            }
        }
    } else {
#pragma unroll
        for (int j = 0; j < VEC; ++j) {
            y.v[j] = narrow<T>(g(widen(x.v[j]), j));
        }
    }
    return y;
}

// y = f(x) for a pack.
template <class T, int VEC, class A>
__device__ __forceinline__ Pack<T, VEC> scalePack(const Pack<T, VEC> &x, const Factor<A> &f) {
    return mapPack(x, [&](A v, int) { return f.apply(v); });
}

template <class A>
__device__ __forceinline__ A absA(A v) {
    return v < A(0) ? -v : v;
}

// v^p with p known at compile time for 1, 2 and 3 (P = 0: any p, out of line,
// or inline with INLINE: a kernel that holds data in registers across it, as
// hold.cu's workers do, would have them all spilled around a call). P = 3 is
// v * (v * v), the bits powInt gives for p = 3.
template <class A>
__device__ __noinline__ A powGeneral(A v, int p) {
    return powInt(v, p);
}
template <int P, bool INLINE = false, class A>
__device__ __forceinline__ A powP(A v, int p) {
    if constexpr (P == 1) {
        return v;
    } else if constexpr (P == 2) {
        return v * v;
    } else if constexpr (P == 3) {
        return v * (v * v);
    } else if constexpr (INLINE) {
        return powInt(v, p);
    } else {
        return powGeneral(v, p);
    }
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Lane-wise unsigned maximum of two pairs of 16-bit lanes (sm_90's max.u16x2).
__device__ __forceinline__ unsigned maxU16x2(unsigned a, unsigned b) {
    unsigned d;
    asm("max.u16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}

// The sum of x^P over the 2-byte elements of four words (for P 1 their sign
// bits cleared), in two chains.
template <class T, int P>
__device__ __forceinline__ float wordsPowSum(const unsigned (&a)[4]) {
    float lo = 0, hi = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        float2 v;
        if constexpr (std::is_same_v<T, __nv_bfloat16>) {
            v = make_float2(__uint_as_float(a[k] << 16), __uint_as_float(a[k] & 0xffff0000u));
        } else {
            __half2 h;
            memcpy(&h, &a[k], 4);
            v = __half22float2(h);
        }
        if constexpr (P == 2) {
            lo = fmaf(v.x, v.x, lo);
            hi = fmaf(v.y, v.y, hi);
        } else {
            lo += v.x;
            hi += v.y;
        }
    }
    return lo + hi;
}
// A pack of 2-byte elements (grid.cu's compute warps; hold.cu's workers with
// INFINI_LP_NORM_HOLD_PLAIN_SUMS=0): returns the sum of |x|^P (P 1 or 2), and
// sets mw to the lanes' max |x| as bits. With the sign cleared, F16 and BF16
// order as unsigned integers, NaN above infinity: the maximum keeps NaN as
// MaxNanOp does.
template <class T, int P>
__device__ __forceinline__ float packedStats(const uint4 &w, unsigned &mw) {
    const unsigned a[4] = {w.x & 0x7fff7fffu, w.y & 0x7fff7fffu, w.z & 0x7fff7fffu, w.w & 0x7fff7fffu};
    mw = maxU16x2(maxU16x2(a[0], a[1]), maxU16x2(a[2], a[3]));
    return wordsPowSum<T, P>(a);
}

// packedStats' sum alone (hold.cu's workers, which take no max: a third fewer
// instructions; p 2 squares the words as they are).
template <class T, int P>
__device__ __forceinline__ float packedPowSum(const uint4 &w) {
    constexpr unsigned kMask = P == 1 ? 0x7fff7fffu : 0xffffffffu;
    const unsigned a[4] = {w.x & kMask, w.y & kMask, w.z & kMask, w.w & kMask};
    return wordsPowSum<T, P>(a);
}

// The larger of the two 16-bit lanes of packedStats' maxima, as a float.
template <class T>
__device__ __forceinline__ float halvesMax(unsigned mw) {
    if constexpr (std::is_same_v<T, __nv_bfloat16>) {
        return __uint_as_float(max(mw & 0xffff0000u, mw << 16));
    } else {
        return __half2float(__ushort_as_half((unsigned short)max(mw & 0xffffu, mw >> 16)));
    }
}
#endif

// s += sum over the pack's elements of (|x| scaled by sc)^p: the scaled sum's term.
template <int P, class A, class T, int VEC>
__device__ __forceinline__ void addScaledPack(A &s, const Pack<T, VEC> &pk, const Factor<A> &sc, int p) {
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
        s += powP<P>(sc.apply(absA<A>(widen(pk.v[j]))), p);
    }
}

// A chunk's scaled sum sum (|x| / m)^p from its one-pass results (max m,
// unscaled sum t): t / m^p where t is in range (m^p is then in range too),
// else scaled(sumScale(m)), the sum redone with the scale (another read of the
// chunk: zeros, extreme values; rare); 0 where rowFactor reads no sum.
// m and t must be uniform over the threads that `scaled` synchronises.
template <class A, class Scaled>
__device__ __forceinline__ A scaledSumFrom(A m, A t, int p, Scaled &&scaled) {
    if (!scaledSumNeeded(m)) {
        return A(0);
    }
    if (plainSumUsable(t)) {
        return t / powInt(m, p);
    }
    return scaled(sumScale(m));
}

// Run f(std::integral_constant<int, P>) with P = p for p = 1, 2 (and 3 with
// CUBE) and P = 0 otherwise, so that each element loop is compiled once per
// case and the one that runs stays small. CUBE where a kernel holds rows in
// registers across the element loop: P = 0's call spills them around every
// element (session 35's sweep: p 3 Cols cases 1.5-1.65x PyTorch's time).
template <bool CUBE = false, class F>
__device__ __forceinline__ void withP(int p, F &&f) {
    if (p == 2) {
        f(std::integral_constant<int, 2>{});
    } else if (CUBE && p == 3) {
        f(std::integral_constant<int, 3>{});
    } else if (p == 1) {
        f(std::integral_constant<int, 1>{});
    } else {
        f(std::integral_constant<int, 0>{});
    }
}

// use(i, load(i)) for i = first, first + step, ... < end, in order, the loads
// of kBatch of them issued before their uses (more bytes in flight; a use that
// stores, where y may be x, would otherwise keep every later load waiting).
template <int kBatch, class Load, class Use>
__device__ __forceinline__ void forBatchedLoads(int64_t first, int64_t end, int step, Load &&load, Use &&use) {
    using V = std::decay_t<decltype(load(first))>;
    int64_t i = first;
    for (; i + (kBatch - 1) * step < end; i += kBatch * step) {
        V v[kBatch];
#pragma unroll
        for (int k = 0; k < kBatch; ++k) {
            v[k] = load(i + k * step);
        }
#pragma unroll
        for (int k = 0; k < kBatch; ++k) {
            use(i + k * step, v[k]);
        }
    }
    for (; i < end; i += step) {
        use(i, load(i));
    }
}

// 16 bytes global -> shared without registers (sm_80+); `bytes` < 16 zero-fills the rest.
__device__ __forceinline__ void copyAsync16(void *dst, const void *src, int bytes) {
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(bytes) : "memory");
}

__device__ __forceinline__ void commitAsyncGroup() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Wait until at most `pending` (0..15; a run-time value) of this thread's
// committed copy groups are still in flight.
__device__ __forceinline__ void waitAsyncGroups(int pending) {
#define LPN_WAIT_CASE(n)                                                                                               \
    case n: asm volatile("cp.async.wait_group " #n ";" ::: "memory"); return;
    switch (pending) {
        LPN_WAIT_CASE(1) LPN_WAIT_CASE(2) LPN_WAIT_CASE(3) LPN_WAIT_CASE(4) LPN_WAIT_CASE(5) LPN_WAIT_CASE(6)
        LPN_WAIT_CASE(7) LPN_WAIT_CASE(8) LPN_WAIT_CASE(9) LPN_WAIT_CASE(10) LPN_WAIT_CASE(11) LPN_WAIT_CASE(12)
        LPN_WAIT_CASE(13) LPN_WAIT_CASE(14) LPN_WAIT_CASE(15)
    default: asm volatile("cp.async.wait_group 0;" ::: "memory"); return;
    }
#undef LPN_WAIT_CASE
}

// Partial statistics of one chunk of a row (Split and Cluster plans).
template <class A>
struct Stats {
    A m, s;
};

} // namespace infini::lp_norm::nvidia
