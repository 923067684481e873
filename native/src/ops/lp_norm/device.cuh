#pragma once
// LPNorm device code shared by the NVIDIA kernels.
#include "../../common/cuda/check.cuh"
#include "../../common/cuda/dtype.cuh"
#include "math.h"
#include "nvidia_plan.h"

namespace infini::lp_norm::nvidia {

// VEC consecutive elements, loaded and stored as one access (16 bytes when VEC > 1).
template <class T, int VEC>
struct alignas(sizeof(T) * VEC) Pack {
    T v[VEC];
};

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

// One pack from memory; `cs` marks data used once (evict-first in the caches),
// for tensors larger than L2.
template <class T, int VEC>
__device__ __forceinline__ Pack<T, VEC> ldPack(const T *p, bool cs) {
    using P = Pack<T, VEC>;
    P r;
    if constexpr (sizeof(P) == 16) {
        if (cs) {
            int4 v = __ldcs(reinterpret_cast<const int4 *>(p));
            memcpy(&r, &v, 16);
            return r;
        }
    } else if constexpr (sizeof(P) == 8) {
        if (cs) {
            int2 v = __ldcs(reinterpret_cast<const int2 *>(p));
            memcpy(&r, &v, 8);
            return r;
        }
    }
    return *reinterpret_cast<const P *>(p);
}

template <class T, int VEC>
__device__ __forceinline__ void stPack(T *p, const Pack<T, VEC> &v, bool cs) {
    using P = Pack<T, VEC>;
    if constexpr (sizeof(P) == 16) {
        if (cs) {
            int4 w;
            memcpy(&w, &v, 16);
            __stcs(reinterpret_cast<int4 *>(p), w);
            return;
        }
    } else if constexpr (sizeof(P) == 8) {
        if (cs) {
            int2 w;
            memcpy(&w, &v, 8);
            __stcs(reinterpret_cast<int2 *>(p), w);
            return;
        }
    }
    *reinterpret_cast<P *>(p) = v;
}

// Pack v of a row that starts at `base`: packs are contiguous when VEC > 1,
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

template <class A>
__device__ __forceinline__ A absA(A v) {
    return v < A(0) ? -v : v;
}

// The max of |x| ignores NaN (one instruction); a NaN still reaches the result
// through the sum, which it poisons.
struct MaxOp {
    template <class A>
    __device__ __forceinline__ A operator()(A a, A b) const { return fmax(a, b); }
};

// v^p with p known at compile time for 1 and 2 (P = 0: any p, out of line).
template <class A>
__device__ __noinline__ A powGeneral(A v, int p) {
    return powInt(v, p);
}
template <int P, class A>
__device__ __forceinline__ A powP(A v, int p) {
    if constexpr (P == 1) {
        return v;
    } else if constexpr (P == 2) {
        return v * v;
    } else {
        return powGeneral(v, p);
    }
}

// Run f(std::integral_constant<int, P>) with P = p for p = 1, 2 and P = 0
// otherwise, so that each element loop is compiled once per case and the
// one that runs stays small.
template <class F>
__device__ __forceinline__ void withP(int p, F &&f) {
    if (p == 2) {
        f(std::integral_constant<int, 2>{});
    } else if (p == 1) {
        f(std::integral_constant<int, 1>{});
    } else {
        f(std::integral_constant<int, 0>{});
    }
}
struct SumOp {
    template <class A>
    __device__ __forceinline__ A operator()(A a, A b) const { return a + b; }
};

// Reduce over the `tpr` consecutive threads of a group (tpr a power of two;
// tpr > 32 means the whole block). Every thread of the block must call it;
// `smem` holds 32 values and is not reused by another reduction.
template <class A, class Op>
__device__ __forceinline__ A groupReduce(A v, int tpr, A *smem, Op op) {
    const int width = tpr < 32 ? tpr : 32;
    for (int o = width / 2; o > 0; o >>= 1) {
        v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    if (tpr <= 32) {
        return v;
    }
    if ((threadIdx.x & 31) == 0) {
        smem[threadIdx.x >> 5] = v;
    }
    __syncthreads();
    const int nw = blockDim.x >> 5;
    A r = smem[0];
    for (int i = 1; i < nw; ++i) {
        r = op(r, smem[i]);
    }
    return r;
}

template <class A, class Op>
__device__ __forceinline__ A warpReduce(A v, Op op) {
    for (int o = 16; o > 0; o >>= 1) {
        v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

// Partial statistics of one chunk of a row (Split plans).
template <class A>
struct Stats {
    A m, s;
};

} // namespace infini::lp_norm::nvidia
