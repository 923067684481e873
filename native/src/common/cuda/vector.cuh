#pragma once
// VEC consecutive elements moved as one memory access (16 or 8 bytes), with an
// optional streaming hint (evict-first in the caches) for data used once in
// tensors larger than L2.
#include <cuda_runtime.h>
#include <cstring>
#include <type_traits>

namespace infini {

template <class T, int VEC>
struct alignas(sizeof(T) * VEC) Pack {
    T v[VEC];
};

// One pack from p (aligned to the pack); `cs`: evict-first. Loaded as whole
// words either way, so that the two forms meet as words (meeting as 16-bit
// elements made the compiler hold each element in its own register).
template <class T, int VEC>
__device__ __forceinline__ Pack<T, VEC> ldPack(const T *p, bool cs) {
    using P = Pack<T, VEC>;
    P r;
    if constexpr (sizeof(P) == 16) {
        const int4 *q = reinterpret_cast<const int4 *>(p);
        const int4 v = cs ? __ldcs(q) : *q;
        memcpy(&r, &v, 16);
    } else if constexpr (sizeof(P) == 8) {
        const int2 *q = reinterpret_cast<const int2 *>(p);
        const int2 v = cs ? __ldcs(q) : *q;
        memcpy(&r, &v, 8);
    } else {
        r = *reinterpret_cast<const P *>(p);
    }
    return r;
}

// 1: plain (write-back) stores of 8- and 16-byte packs as one vector access, as the streaming ones
// (__stwb: the default policy); 0: a store of the Pack struct, which nvcc splits into one store an
// element (PTX st.global.u16 x 8 for a 16-bit pack; session 51: the sm_90 SASS of lp_norm/cols.cu had no
// plain STG.E.128 at all, 796 STG.E.U16, and rows.cu 390 STG.E.U16 beside 144 STG.E.128). Session 51,
// call 3 (H200, eager us, 0 -> 1 in every LPNorm kernel file), 120 LPNorm cases of <= 60 MB (70 packed
// Cols, 50 packed Rows) against two default runs: **0.815**, none slower (the one above 1 a 12-19 us call
// whose default runs differ by 1.5x); (704,421,47) BF16 axis 2 93.8 -> 35.8 (PyTorch 111.0), (480,7326)
// F16 axis 1 p 3 21.4 -> 11.3 (79.6). The whole suite passed on that build.
#ifndef INFINI_PACK_STORE_WB
#define INFINI_PACK_STORE_WB 1
#endif

template <class T, int VEC>
__device__ __forceinline__ void stPack(T *p, const Pack<T, VEC> &v, bool cs) {
    using P = Pack<T, VEC>;
    if constexpr (sizeof(P) == 16 || sizeof(P) == 8) {
        using W = std::conditional_t<sizeof(P) == 16, int4, int2>; // the pack's words
        if (cs || INFINI_PACK_STORE_WB) {
            W w;
            memcpy(&w, &v, sizeof(W));
            W *q = reinterpret_cast<W *>(p);
            cs ? __stcs(q, w) : __stwb(q, w);
            return;
        }
    }
    *reinterpret_cast<P *>(p) = v;
}

// Pack v of a sequence starting at `base`: packs are contiguous when VEC > 1,
// single elements `stride` apart otherwise.
template <class T, int VEC>
__device__ __forceinline__ Pack<T, VEC> loadPack(const T *base, int64_t v, int64_t stride, bool cs) {
    if constexpr (VEC > 1) {
        return ldPack<T, VEC>(base + v * VEC, cs);
    } else {
        Pack<T, VEC> p;
        p.v[0] = base[v * stride];
        return p;
    }
}

template <class T, int VEC>
__device__ __forceinline__ void storePack(T *base, int64_t v, int64_t stride, const Pack<T, VEC> &p, bool cs) {
    if constexpr (VEC > 1) {
        stPack<T, VEC>(base + v * VEC, p, cs);
    } else {
        base[v * stride] = p.v[0];
    }
}

// Elements [lo, hi) of the pack at p (aligned to the pack), zeros elsewhere;
// no other element is read.
template <class T, int VEC>
__device__ __forceinline__ Pack<T, VEC> partialPack(const T *p, int lo, int hi) {
    Pack<T, VEC> pk{};
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
        if (j >= lo && j < hi) {
            pk.v[j] = p[j];
        }
    }
    return pk;
}

// Elements [lo, hi) of pk to the pack at p; no other element is written.
template <class T, int VEC>
__device__ __forceinline__ void storePartialPack(T *p, const Pack<T, VEC> &pk, int lo, int hi) {
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
        if (j >= lo && j < hi) {
            p[j] = pk.v[j];
        }
    }
}

// Elements [lo, hi) of pk to the pack at p: one 16-byte store when that is
// the whole pack (cs: streaming), else element by element.
template <class T, int VEC>
__device__ __forceinline__ void storeSpanPack(T *p, const Pack<T, VEC> &pk, int lo, int hi, bool cs) {
    if (lo == 0 && hi == VEC) {
        stPack<T, VEC>(p, pk, cs);
    } else {
        storePartialPack<T, VEC>(p, pk, lo, hi);
    }
}

} // namespace infini
