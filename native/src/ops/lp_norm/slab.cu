// LPNorm kernel for a reduced axis that is not innermost, where each outer
// index's block of (reduced axis) x (inner dim) elements is one contiguous run
// in x and in y: a slab (the Slab plan, nvidia.cc planSlab). cols.cu's kernels
// give a thread one inner position (or a 16-byte pack of them) and walk the
// axis, so an inner extent of 19 elements leaves 13 lanes of 32 idle and moves
// 2-byte elements one by one (session 37's sweep: Cols cases of odd inner
// extents up to 2x PyTorch's time). Here a block reads a group of plan.slabs
// neighbouring slabs (one run) in 16-byte packs on its own 16-byte grid into
// shared memory, reduces their columns there (short columns a thread each; a
// longer column's rows shared by plan.by thread rows, merged in a fixed order:
// the same bits every call), scales each column in place once its factor is
// known, and writes the group back in packs on y's grid.
#include "device.cuh"

namespace infini::lp_norm::nvidia {

namespace {

// A column part's statistics (rows q, q + parts, ... of the column at col[0], rows `inner` apart): the
// max and the scaled sum, in one pass where the plain sum stays in range (as cols.cu's threads do).
template <class A, class T>
__device__ __forceinline__ void columnPart(const T *col, int len, int inner, int q, int parts, int p, A &m,
                                           A &s) {
    A t = 0;
    m = 0;
    withP<true>(p, [&](auto pc) {
        constexpr int kP = decltype(pc)::value;
        for (int r = q; r < len; r += parts) {
            const A a = absA<A>(widen(col[r * inner]));
            m = maxNan(m, a);
            t += powP<kP>(a, p);
        }
    });
    s = scaledSumFrom(m, t, p, [&](const Factor<A> &f) {
        A sum = 0;
        for (int r = q; r < len; r += parts) {
            sum += powP<0>(f.apply(absA<A>(widen(col[r * inner]))), p);
        }
        return sum;
    });
}

// Rows q, q + parts, ... of a column in shared memory scaled in place by its factor (rounded to T as
// y's elements are).
template <class A, class T>
__device__ __forceinline__ void scaleColumnPart(T *col, int len, int inner, int q, int parts, const Factor<A> &f) {
    for (int r = q; r < len; r += parts) {
        col[r * inner] = narrow<T>(f.apply(widen(col[r * inner])));
    }
}

// Pack k of a y segment on its 16-byte grid (elements [lo, hi) of it the segment's) from shared memory:
// `from` holds the pack's element j at from[j] (elements outside [lo, hi) are not read).
template <class T, int V>
__device__ __forceinline__ void storePackFromShared(T *at, const T *from, int lo, int hi, bool cs) {
    Pack<T, V> out{};
#pragma unroll
    for (int j = 0; j < V; ++j) {
        if (j >= lo && j < hi) {
            out.v[j] = from[j];
        }
    }
    storeSpanPack<T, V>(at, out, lo, hi, cs);
}

template <class T>
__global__ void __launch_bounds__(kSlabThreads) slabKernel(const Plan plan, const T *__restrict__ x, T *y) {
    using A = ComputeType<T>;
    constexpr int V = 16 / sizeof(T);
    using P = Pack<T, V>;
    extern __shared__ __align__(16) unsigned char slab_bytes[];
    T *slab = reinterpret_cast<T *>(slab_bytes); // x's slabs, laid out on x's grid, then y's values
    __shared__ A sh_m[kSlabThreads], sh_s[kSlabThreads];
    __shared__ Factor<A> sh_f[kSlabThreads];
    const int tid = threadIdx.x;
    const int inner = (int)plan.inner;   // a slab's columns (plan.vec == 1)
    const int len = (int)plan.len;       // a slab's rows
    const int slab_n = len * inner;      // a slab's elements
    const int cols = inner * plan.slabs; // a full group's columns (at most kSlabThreads where parts > 1)
    const int parts = plan.by;           // thread rows a column
    const int fastest = plan.outer.nd > 0 ? (int)plan.outer.size[plan.outer.nd - 1] : 1;
    for (int64_t o = blockIdx.x; o < plan.rows; o += gridDim.x) {
        int64_t ox, oy;
        outerOffsets(plan.outer, o, ox, oy);
        // The slabs of this group (the last group of the fastest outer dim may hold fewer).
        const int64_t left = plan.slabs == 1 ? 1 : plan.slab_edge - (o % fastest) * plan.slabs;
        const int count = left < plan.slabs ? (int)left : plan.slabs;
        const int n = count * slab_n, used = count * inner;
        const RowPacks<T, V, true> gx(x + ox, n); // the group on x's 16-byte grid
        const T *x0 = x + ox - gx.head;
        for (int k = tid; k < gx.packs; k += kSlabThreads) {
            int lo, hi;
            gx.span(k, lo, hi);
            *reinterpret_cast<P *>(slab + k * V) =
                lo == 0 && hi == V ? ldPack<T, V>(x0 + k * V, plan.cs) : partialPack<T, V>(x0 + k * V, lo, hi);
        }
        __syncthreads();
        T *group = slab + gx.head; // element i of the group; column c starts at (c / inner) * slab_n + c % inner
        auto column = [&](int c) { return group + (c / inner) * slab_n + c % inner; };
        if (parts == 1) { // a thread a column at a time, scaled as soon as its factor is known
            for (int c = tid; c < used; c += kSlabThreads) {
                A m, sum;
                columnPart(column(c), len, inner, 0, 1, plan.p, m, sum);
                scaleColumnPart(column(c), len, inner, 0, 1, rowFactor(m, sum, plan.p, plan.eps));
            }
        } else { // a column's rows shared by `parts` thread rows, merged in order (the same bits every call)
            const int c = tid % cols, q = tid / cols;
            const bool mine = q < parts && c < used;
            if (mine) {
                A m, sum;
                columnPart(column(c), len, inner, q, parts, plan.p, m, sum);
                sh_m[tid] = m;
                sh_s[tid] = sum;
            }
            __syncthreads();
            if (tid < used) { // the max, then each part's sum rescaled to it
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
            if (mine) {
                scaleColumnPart(column(c), len, inner, q, parts, sh_f[c]);
            }
        }
        __syncthreads();
        // y's group on its own grid: pack k's element j is group element k * V + j - head.
        const RowPacks<T, V, true> gy(y + oy, n);
        T *y0 = y + oy - gy.head;
        const T *from = group - gy.head;
        for (int k = tid; k < gy.packs; k += kSlabThreads) {
            int lo, hi;
            gy.span(k, lo, hi);
            storePackFromShared<T, V>(y0 + k * V, from + k * V, lo, hi, plan.cs);
        }
        __syncthreads(); // the next group reuses shared memory
    }
}

// Column chunks (the Slab plan with plan.chunk_vecs > 0, INFINI_LP_NORM_SLAB_CHUNKS): inner extents past
// a block's threads, where each of the axis's rows is its own run (any reduced strides). A block takes
// plan.chunk_vecs columns of one outer index: each row's segment read in packs on its own 16-byte grid
// and placed in shared memory on a common grid (row r at r * plan.chunk_vecs), a thread a column (its rows'
// statistics and scaling as above), each segment written back in packs on y's grid.
template <class T>
__global__ void __launch_bounds__(kSlabThreads) slabChunkKernel(const Plan plan, const T *__restrict__ x, T *y) {
    using A = ComputeType<T>;
    constexpr int V = 16 / sizeof(T);
    using P = Pack<T, V>;
    extern __shared__ __align__(16) unsigned char chunk_bytes[];
    T *chunk = reinterpret_cast<T *>(chunk_bytes);
    const int tid = threadIdx.x;
    const int len = (int)plan.len, width = (int)plan.chunk_vecs;
    const int row_packs = (width + 2 * V - 2) / V; // the most packs a segment of `width` spans
    const int64_t chunks = (plan.inner + width - 1) / width;
    for (int64_t b = blockIdx.x; b < plan.rows * chunks; b += gridDim.x) {
        const int64_t o = b / chunks, c0 = (b - o * chunks) * width;
        const int w = plan.inner - c0 < width ? (int)(plan.inner - c0) : width; // this chunk's columns
        int64_t ox, oy;
        outerOffsets(plan.outer, o, ox, oy);
        const T *x0 = x + ox + c0;
        T *y0 = y + oy + c0;
        for (int t = tid; t < len * row_packs; t += kSlabThreads) {
            const int r = t / row_packs, k = t - r * row_packs;
            const T *row = x0 + r * plan.sxr;
            const RowPacks<T, V, true> g(row, w);
            if (k < g.packs) {
                int lo, hi;
                g.span(k, lo, hi);
                const T *at = row - g.head + k * V;
                const P v = lo == 0 && hi == V ? ldPack<T, V>(at, plan.cs) : partialPack<T, V>(at, lo, hi);
                T *to = chunk + r * width + k * V - g.head; // element e of the segment at chunk[r * width + e]
#pragma unroll
                for (int j = 0; j < V; ++j) {
                    if (j >= lo && j < hi) {
                        to[j] = v.v[j];
                    }
                }
            }
        }
        __syncthreads();
        if (tid < w) {
            A m, sum;
            columnPart(chunk + tid, len, width, 0, 1, plan.p, m, sum);
            scaleColumnPart(chunk + tid, len, width, 0, 1, rowFactor(m, sum, plan.p, plan.eps));
        }
        __syncthreads();
        for (int t = tid; t < len * row_packs; t += kSlabThreads) {
            const int r = t / row_packs, k = t - r * row_packs;
            T *row = y0 + r * plan.syr;
            const RowPacks<T, V, true> g(row, w);
            if (k < g.packs) {
                int lo, hi;
                g.span(k, lo, hi);
                storePackFromShared<T, V>(row - g.head + k * V, chunk + r * width + k * V - g.head, lo, hi, plan.cs);
            }
        }
        __syncthreads(); // the next chunk reuses shared memory
    }
}

// Dynamic shared memory: the slab and a pack of slack on either side of it (its grid's head and tail).
size_t slabSmemBytes(const Plan &plan, size_t elem_size) {
    return ((size_t)(plan.len * plan.inner * plan.slabs) * elem_size + 32 + 15) / 16 * 16;
}
// Column chunks: len rows of plan.chunk_vecs elements.
size_t chunkSmemBytes(const Plan &plan, size_t elem_size) {
    return ((size_t)(plan.len * plan.chunk_vecs) * elem_size + 15) / 16 * 16;
}

} // namespace

bool planSlabSmem(const InfiniopHandle &h, const Plan &plan) {
    const infiniStatus_t status = dispatchDtype<INFINI_FLOAT_DTYPES>(plan.dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        cudaFuncAttributes attr{};
        // One limit for every plan of the kernel (a smaller one set later would break earlier plans).
        const size_t limit = (size_t)slabBigBytes(sizeof(T)) + 48; // a slab and its slack, rounded (slabSmemBytes)
        const bool ok = cudaFuncGetAttributes(&attr, slabKernel<T>) == cudaSuccess &&
                        attr.sharedSizeBytes + limit <= (size_t)h.max_shared_memory_per_block_optin &&
                        slabSmemBytes(plan, sizeof(T)) <= limit &&
                        cudaFuncSetAttribute(slabKernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)limit) ==
                            cudaSuccess;
        cudaGetLastError(); // a refusal is an answer, not an error to report later
        return ok ? INFINI_STATUS_SUCCESS : INFINI_STATUS_NOT_IMPLEMENTED;
    });
    return status == INFINI_STATUS_SUCCESS;
}

infiniStatus_t launchSlab(const Plan &plan, const void *x, void *y, void *, void *stream) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(plan.dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        if (plan.chunk_vecs > 0) {
            slabChunkKernel<T><<<plan.grid_x, kSlabThreads, chunkSmemBytes(plan, sizeof(T)), (cudaStream_t)stream>>>(
                plan, static_cast<const T *>(x), static_cast<T *>(y));
        } else {
            slabKernel<T><<<plan.grid_x, kSlabThreads, slabSmemBytes(plan, sizeof(T)), (cudaStream_t)stream>>>(
                plan, static_cast<const T *>(x), static_cast<T *>(y));
        }
        CUDA_TRY(cudaGetLastError());
        return INFINI_STATUS_SUCCESS;
    });
}

} // namespace infini::lp_norm::nvidia
