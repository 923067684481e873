// LPNorm kernel for a reduced axis that is not innermost, where each outer
// index's block of (reduced axis) x (inner dim) elements is one contiguous run
// in x and in y: a slab (the Slab plan, nvidia.cc planSlab). cols.cu's kernels
// give a thread one inner position (or a 16-byte pack of them) and walk the
// axis, so an inner extent of 19 elements leaves 13 lanes of 32 idle and moves
// 2-byte elements one by one (session 37's sweep: Cols cases of odd inner
// extents up to 2x PyTorch's time). Here a block reads a slab in 16-byte packs
// on its own 16-byte grid into shared memory, reduces its columns there (a
// column's rows shared by plan.by thread rows, merged in a fixed order: the
// same bits every call), and writes it back in packs on y's grid.
#include "device.cuh"

namespace infini::lp_norm::nvidia {

namespace {

template <class T>
__global__ void __launch_bounds__(kSlabThreads) slabKernel(const Plan plan, const T *__restrict__ x, T *y) {
    using A = ComputeType<T>;
    constexpr int V = 16 / sizeof(T);
    using P = Pack<T, V>;
    extern __shared__ __align__(16) unsigned char slab_bytes[];
    T *slab = reinterpret_cast<T *>(slab_bytes); // x's slab, laid out on x's grid
    __shared__ A sh_m[kSlabThreads], sh_s[kSlabThreads];
    __shared__ Factor<A> sh_f[kSlabThreads];
    const int tid = threadIdx.x;
    const int inner = (int)plan.inner; // columns (plan.vec == 1)
    const int parts = plan.by;         // thread rows a column
    const int64_t n = plan.len * inner;
    const int c = tid % inner, q = tid / inner; // this thread's column and thread row
    for (int64_t o = blockIdx.x; o < plan.rows; o += gridDim.x) {
        int64_t ox, oy;
        outerOffsets(plan.outer, o, ox, oy);
        const RowPacks<T, V, true> gx(x + ox, n); // the slab on x's 16-byte grid
        const T *x0 = x + ox - gx.head;
        for (int64_t k = tid; k < gx.packs; k += kSlabThreads) {
            int lo, hi;
            gx.span(k, lo, hi);
            *reinterpret_cast<P *>(slab + k * V) =
                lo == 0 && hi == V ? ldPack<T, V>(x0 + k * V, plan.cs) : partialPack<T, V>(x0 + k * V, lo, hi);
        }
        __syncthreads();
        const T *sx = slab + gx.head; // element i of the slab: row i / inner, column i % inner
        if (q < parts) {
            // One pass: the max and the unscaled sum of |x|^p, then the scaled sum from them (redone
            // scaled where the sum left the plain range), as cols.cu's threads do.
            A m = 0, t = 0;
            withP<true>(plan.p, [&](auto pc) {
                constexpr int kP = decltype(pc)::value;
                for (int64_t r = q; r < plan.len; r += parts) {
                    const A a = absA<A>(widen(sx[r * inner + c]));
                    m = maxNan(m, a);
                    t += powP<kP>(a, plan.p);
                }
            });
            sh_m[tid] = m;
            sh_s[tid] = scaledSumFrom(m, t, plan.p, [&](const Factor<A> &f) {
                A s = 0;
                for (int64_t r = q; r < plan.len; r += parts) {
                    s += powP<0>(f.apply(absA<A>(widen(sx[r * inner + c]))), plan.p);
                }
                return s;
            });
        }
        __syncthreads();
        if (tid < inner) { // column tid's thread rows merged in order: the max, then each sum rescaled to it
            A top = 0;
            for (int k = 0; k < parts; ++k) {
                top = maxNan(top, sh_m[k * inner + tid]);
            }
            A sum = 0;
            if (scaledSumNeeded(top)) {
                for (int k = 0; k < parts; ++k) {
                    sum += rescaledSum(sh_s[k * inner + tid], sh_m[k * inner + tid], top, plan.p);
                }
            }
            sh_f[tid] = rowFactor(top, sum, plan.p, plan.eps);
        }
        __syncthreads();
        // y's slab on its own grid: pack k's element j is slab element k * V + j - head.
        const RowPacks<T, V, true> gy(y + oy, n);
        T *y0 = y + oy - gy.head;
        for (int64_t k = tid; k < gy.packs; k += kSlabThreads) {
            int lo, hi;
            gy.span(k, lo, hi);
            const int64_t i0 = k * V - gy.head;
            int col[V];
            col[0] = (int)(((i0 % inner) + inner) % inner); // i0 < 0 in the first pack
#pragma unroll
            for (int j = 1; j < V; ++j) {
                col[j] = col[j - 1] + 1 == inner ? 0 : col[j - 1] + 1;
            }
            P in{};
#pragma unroll
            for (int j = 0; j < V; ++j) {
                if (j >= lo && j < hi) {
                    in.v[j] = sx[i0 + j];
                }
            }
            const P out = mapPack(in, [&](A e, int j) { return sh_f[col[j]].apply(e); });
            if (lo == 0 && hi == V) {
                stPack<T, V>(y0 + k * V, out, plan.cs);
            } else {
                storePartialPack<T, V>(y0 + k * V, out, lo, hi);
            }
        }
        __syncthreads(); // the next slab reuses shared memory
    }
}

// Dynamic shared memory: the slab and a pack of slack on either side of it (its grid's head and tail).
size_t slabSmemBytes(const Plan &plan, size_t elem_size) {
    return ((size_t)(plan.len * plan.inner) * elem_size + 32 + 15) / 16 * 16;
}

} // namespace

infiniStatus_t launchSlab(const Plan &plan, const void *x, void *y, void *, void *stream) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(plan.dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        slabKernel<T><<<plan.grid_x, kSlabThreads, slabSmemBytes(plan, sizeof(T)), (cudaStream_t)stream>>>(
            plan, static_cast<const T *>(x), static_cast<T *>(y));
        CUDA_TRY(cudaGetLastError());
        return INFINI_STATUS_SUCCESS;
    });
}

} // namespace infini::lp_norm::nvidia
