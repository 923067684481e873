#pragma once
// Reductions across the threads of a warp, of a power-of-two group of
// consecutive threads, or of a block.
#include <cuda_runtime.h>

namespace infini {

struct SumOp {
    template <class A>
    __device__ __forceinline__ A operator()(A a, A b) const { return a + b; }
};

// Max that ignores NaN (one instruction).
struct MaxOp {
    template <class A>
    __device__ __forceinline__ A operator()(A a, A b) const { return fmax(a, b); }
};

// Max that propagates NaN.
struct MaxNanOp {
    template <class A>
    __device__ __forceinline__ A operator()(A a, A b) const { return (b > a || b != b) ? b : a; }
};

// Over the `width` consecutive lanes of a group (width a power of two <= 32);
// every lane of the warp takes part.
template <class A, class Op>
__device__ __forceinline__ A warpReduce(A v, Op op, int width = 32) {
    for (int o = width / 2; o > 0; o >>= 1) {
        v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

// Over the `tpr` consecutive threads of a group (tpr a power of two; tpr > 32
// means the whole block, whose size is a multiple of 32). Every thread of the
// block calls it and gets the result; `smem` holds 32 values and is not
// reused by another reduction of the same kernel.
template <class A, class Op>
__device__ __forceinline__ A groupReduce(A v, int tpr, A *smem, Op op) {
    v = warpReduce(v, op, tpr < 32 ? tpr : 32);
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

} // namespace infini
