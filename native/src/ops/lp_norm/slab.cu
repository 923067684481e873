// LPNorm kernel for a reduced axis that is not innermost, where each outer
// index's block of (reduced axis) x (inner dim) elements is one contiguous run
// in x and in y: a slab (the Slab plan, nvidia.cc planSlab). cols.cu's kernels
// give a thread one inner position (or a 16-byte pack of them) and walk the
// axis, so an inner extent of 19 elements leaves 13 lanes of 32 idle and moves
// 2-byte elements one by one (session 37's sweep: Cols cases of odd inner
// extents up to 2x PyTorch's time). Here a block reads a group of plan.slabs
// neighbouring slabs (one run) in 16-byte packs on its own 16-byte grid into
// shared memory, reduces their columns there (a column's rows shared by plan.by
// thread rows, merged in a fixed order: the same bits every call), and writes
// the group back in packs on y's grid.
#include "device.cuh"

namespace infini::lp_norm::nvidia {

namespace {

template <class T>
__global__ void __launch_bounds__(kSlabThreads) slabKernel(const Plan plan, const T *__restrict__ x, T *y) {
    using A = ComputeType<T>;
    constexpr int V = 16 / sizeof(T);
    using P = Pack<T, V>;
    extern __shared__ __align__(16) unsigned char slab_bytes[];
    T *slab = reinterpret_cast<T *>(slab_bytes); // x's slabs, laid out on x's grid
    __shared__ A sh_m[kSlabThreads], sh_s[kSlabThreads];
    __shared__ Factor<A> sh_f[kSlabThreads];
    const int tid = threadIdx.x;
    const int inner = (int)plan.inner;              // a slab's columns (plan.vec == 1)
    const int len = (int)plan.len;                  // a slab's rows
    const int slab_n = len * inner;                 // a slab's elements
    const int cols = inner * plan.slabs;            // a full group's columns
    const int parts = plan.by;                      // thread rows a column
    const int col = tid % cols, q = tid / cols;     // this thread's column (of the group) and thread row
    const int own = (col / inner) * slab_n + col % inner; // its column's first element in the group
    const int fastest = plan.outer.size[plan.outer.nd > 0 ? plan.outer.nd - 1 : 0];
    for (int64_t o = blockIdx.x; o < plan.rows; o += gridDim.x) {
        int64_t ox, oy;
        outerOffsets(plan.outer, o, ox, oy);
        // The slabs of this group (the last group of the fastest outer dim may hold fewer).
        const int64_t left = plan.slabs == 1 ? 1 : plan.slab_edge - (o % fastest) * plan.slabs;
        const int count = left < plan.slabs ? (int)left : plan.slabs;
        const int n = count * slab_n;
        const RowPacks<T, V, true> gx(x + ox, n); // the group on x's 16-byte grid
        const T *x0 = x + ox - gx.head;
        for (int k = tid; k < gx.packs; k += kSlabThreads) {
            int lo, hi;
            gx.span(k, lo, hi);
            *reinterpret_cast<P *>(slab + k * V) =
                lo == 0 && hi == V ? ldPack<T, V>(x0 + k * V, plan.cs) : partialPack<T, V>(x0 + k * V, lo, hi);
        }
        __syncthreads();
        const T *group = slab + gx.head; // element i of the group
        const T *sx = group + own;       // this thread's column: rows r * inner
        if (q < parts && col < count * inner) {
            // One pass: the max and the unscaled sum of |x|^p, then the scaled sum from them (redone
            // scaled where the sum left the plain range), as cols.cu's threads do.
            A m = 0, t = 0;
            withP<true>(plan.p, [&](auto pc) {
                constexpr int kP = decltype(pc)::value;
                for (int r = q; r < len; r += parts) {
                    const A a = absA<A>(widen(sx[r * inner]));
                    m = maxNan(m, a);
                    t += powP<kP>(a, plan.p);
                }
            });
            sh_m[tid] = m;
            sh_s[tid] = scaledSumFrom(m, t, plan.p, [&](const Factor<A> &f) {
                A s = 0;
                for (int r = q; r < len; r += parts) {
                    s += powP<0>(f.apply(absA<A>(widen(sx[r * inner]))), plan.p);
                }
                return s;
            });
        }
        __syncthreads();
        if (tid < count * inner) { // column tid's thread rows merged in order: the max, then each sum rescaled to it
            A top = 0;
            for (int k = 0; k < parts; ++k) {
                top = maxNan(top, sh_m[k * cols + tid]);
            }
            A sum = 0;
            if (scaledSumNeeded(top)) {
                for (int k = 0; k < parts; ++k) {
                    sum += rescaledSum(sh_s[k * cols + tid], sh_m[k * cols + tid], top, plan.p);
                }
            }
            sh_f[tid] = rowFactor(top, sum, plan.p, plan.eps);
        }
        __syncthreads();
        // y's group on its own grid: pack k's element j is group element k * V + j - head, in slab
        // i / slab_n, column i % inner (its factor: slab * inner + column), tracked from the pack's first.
        const RowPacks<T, V, true> gy(y + oy, n);
        T *y0 = y + oy - gy.head;
        for (int k = tid; k < gy.packs; k += kSlabThreads) {
            int lo, hi;
            gy.span(k, lo, hi);
            const int i0 = k * V - gy.head + lo; // the pack's first element of the group (lo > 0 in the first)
            const int sl = i0 / slab_n, within = i0 - sl * slab_n;
            int c = within % inner, r = within / inner, f = sl * inner + c;
            P in{};
#pragma unroll
            for (int j = 0; j < V; ++j) {
                if (j >= lo && j < hi) {
                    in.v[j] = group[k * V - gy.head + j];
                }
            }
            int fac[V];
#pragma unroll
            for (int j = 0; j < V; ++j) {
                fac[j] = f; // elements before lo take the first's factor, unused
                if (j >= lo) {
                    ++c;
                    ++f;
                    if (c == inner) {
                        c = 0;
                        f -= inner;
                        if (++r == len) {
                            r = 0;
                            f += inner;
                        }
                    }
                }
            }
            const P out = mapPack(in, [&](A e, int j) { return sh_f[fac[j]].apply(e); });
            if (lo == 0 && hi == V) {
                stPack<T, V>(y0 + k * V, out, plan.cs);
            } else {
                storePartialPack<T, V>(y0 + k * V, out, lo, hi);
            }
        }
        __syncthreads(); // the next group reuses shared memory
    }
}

// Dynamic shared memory: the slab and a pack of slack on either side of it (its grid's head and tail).
size_t slabSmemBytes(const Plan &plan, size_t elem_size) {
    return ((size_t)(plan.len * plan.inner * plan.slabs) * elem_size + 32 + 15) / 16 * 16;
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
