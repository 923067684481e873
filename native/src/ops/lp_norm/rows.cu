// LPNorm kernels for a reduced axis that is innermost (or walked with a stride):
// a group of threads per row holding the row in registers (Rows), and the
// split form for long rows (Split): per-chunk statistics, then merge and scale.
#include "device.cuh"

namespace infini::lp_norm::nvidia {

namespace {

// One row (Rows) or one chunk of a row (STATS) per group of plan.tpr threads;
// each thread holds up to ITEMS packs, thread t owning packs t, t + tpr, ...
// so that a group's loads are contiguous.
template <class T, int VEC, int ITEMS, bool STATS, bool BATCH>
__global__ void __launch_bounds__(STATS ? 256 : 1024) rowsKernel(const Plan plan, const T *__restrict__ x, T *y,
                                                   Stats<ComputeType<T>> *stats) {
    using A = ComputeType<T>;
    using P = Pack<T, VEC>;
    __shared__ A red_max[32], red_sum[32];
    const int tpr = plan.tpr;
    const int lane = threadIdx.x & (tpr - 1);
    int64_t row, first, count; // packs [first, first + count) of the row
    if constexpr (STATS) {
        row = blockIdx.x / plan.chunks;
        const int64_t chunk = blockIdx.x - row * plan.chunks;
        first = chunk * plan.chunk_vecs;
        const int64_t nv = plan.len / VEC;
        count = nv - first < plan.chunk_vecs ? nv - first : plan.chunk_vecs;
    } else {
        row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
        first = 0;
        count = plan.len / VEC;
    }
    const bool valid = row < plan.rows;
    int64_t ox, oy;
    outerOffsets(plan.outer, valid ? row : 0, ox, oy);
    const T *xr = x + ox + first * VEC * plan.sxr;

    // Zeros past the end count for nothing. BATCH: every load issued before
    // any math (more bytes in flight, more registers); else as the compiler
    // schedules them.
    P buf[ITEMS];
    A m = 0;
    if constexpr (BATCH) {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            const int64_t v = lane + (int64_t)k * tpr;
            buf[k] = valid && v < count ? loadPack<T, VEC>(xr, v, plan.sxr, plan.cs) : P{};
        }
    }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const int64_t v = lane + (int64_t)k * tpr;
        if (BATCH || (valid && v < count)) {
            if constexpr (!BATCH) {
                buf[k] = loadPack<T, VEC>(xr, v, plan.sxr, plan.cs);
            }
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                m = fmax(m, absA<A>(widen(buf[k].v[j])));
            }
        }
    }
    m = groupReduce(m, tpr, red_max, MaxOp{});
    A s = 0;
    if (m > A(0) && m < A(INFINITY)) {
        const Factor<A> f = sumScale(m);
        withP(plan.p, [&](auto pc) {
            constexpr int kP = decltype(pc)::value;
#pragma unroll
            for (int k = 0; k < ITEMS; ++k) {
                const int64_t v = lane + (int64_t)k * tpr;
                if (BATCH || (valid && v < count)) {
#pragma unroll
                    for (int j = 0; j < VEC; ++j) {
                        s += powP<kP>(f.apply(absA<A>(widen(buf[k].v[j]))), plan.p);
                    }
                }
            }
        });
    }
    s = groupReduce(s, tpr, red_sum, SumOp{});
    if constexpr (STATS) {
        if (threadIdx.x == 0) {
            stats[blockIdx.x] = {m, s};
        }
    } else {
        const Factor<A> f = rowFactor(m, s, plan.p, plan.eps);
        T *yr = y + oy;
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            const int64_t v = lane + (int64_t)k * tpr;
            if (valid && v < count) {
                P out;
#pragma unroll
                for (int j = 0; j < VEC; ++j) {
                    out.v[j] = narrow<T>(f.apply(widen(buf[k].v[j])));
                }
                storePack<T, VEC>(yr, v, plan.syr, out, plan.cs);
            }
        }
    }
}

// Split, second pass: merge the row's chunk statistics (warp 0), then scale
// the chunk. Blocks run in the reverse order of the first pass so that the
// chunks read last there are still in L2.
template <class T, int VEC, int ITEMS>
__global__ void __launch_bounds__(256, 3) splitApplyKernel(const Plan plan, const T *__restrict__ x, T *y,
                                                        const Stats<ComputeType<T>> *stats) {
    using A = ComputeType<T>;
    using P = Pack<T, VEC>;
    const int64_t b = (int64_t)gridDim.x - 1 - blockIdx.x;
    const int64_t row = b / plan.chunks;
    const int64_t chunk = b - row * plan.chunks;
    // Issue the chunk's loads first: they do not depend on the merge.
    const int64_t first = chunk * plan.chunk_vecs;
    const int64_t nv = plan.len / VEC;
    const int64_t count = nv - first < plan.chunk_vecs ? nv - first : plan.chunk_vecs;
    int64_t ox, oy;
    outerOffsets(plan.outer, row, ox, oy);
    const T *xr = x + ox + first * VEC * plan.sxr;
    T *yr = y + oy + first * VEC * plan.syr;
    P buf[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const int64_t v = threadIdx.x + (int64_t)k * blockDim.x;
        if (v < count) {
            buf[k] = loadPack<T, VEC>(xr, v, plan.sxr, plan.cs);
        }
    }
    // Merge the row's chunk statistics: one chunk per thread, two block reductions.
    __shared__ A red_max[32], red_sum[32];
    const Stats<A> *st = stats + row * plan.chunks;
    A m = 0;
    for (int64_t c = threadIdx.x; c < plan.chunks; c += blockDim.x) {
        m = maxNan(m, st[c].m);
    }
    m = groupReduce(m, (int)blockDim.x, red_max, MaxOp{});
    A s = 0;
    if (m > A(0) && m < A(INFINITY)) {
        withP(plan.p, [&](auto pc) {
            constexpr int kP = decltype(pc)::value;
            for (int64_t c = threadIdx.x; c < plan.chunks; c += blockDim.x) {
                const Stats<A> sc = st[c];
                s += sc.s * powP<kP>(sc.m / m, plan.p); // m may be subnormal: divide
            }
        });
    }
    s = groupReduce(s, (int)blockDim.x, red_sum, SumOp{});
    const Factor<A> f = rowFactor(m, s, plan.p, plan.eps);
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const int64_t v = threadIdx.x + (int64_t)k * blockDim.x;
        if (v < count) {
            P out;
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                out.v[j] = narrow<T>(f.apply(widen(buf[k].v[j])));
            }
            storePack<T, VEC>(yr, v, plan.syr, out, plan.cs);
        }
    }
}

template <class T, int VEC, int ITEMS>
infiniStatus_t launchRowsT(const Plan &plan, const void *x, void *y, cudaStream_t stream) {
    if (plan.batch) {
        rowsKernel<T, VEC, ITEMS, false, true><<<plan.grid_x, plan.threads, 0, stream>>>(plan, (const T *)x, (T *)y,
                                                                                      nullptr);
    } else {
        rowsKernel<T, VEC, ITEMS, false, false><<<plan.grid_x, plan.threads, 0, stream>>>(plan, (const T *)x, (T *)y,
                                                                                       nullptr);
    }
    CUDA_TRY_LAUNCH();
    return INFINI_STATUS_SUCCESS;
}

// 16 bytes per access for the vector plan, one element otherwise.
template <class F>
infiniStatus_t withType(const Plan &plan, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(plan.dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        constexpr int kVec = 16 / sizeof(T);
        if (plan.vec == kVec) {
            return f(T{}, std::integral_constant<int, kVec>{});
        }
        return f(T{}, std::integral_constant<int, 1>{});
    });
}

} // namespace

// Split holds 8 packs per thread (256 threads), Rows at most 4 (1024 threads).
constexpr int kSplitItems = 8;

infiniStatus_t launchRows(const Plan &plan, const void *x, void *y, void *, void *stream) {
    auto s = (cudaStream_t)stream;
    return withType(plan, [&](auto t, auto vec) {
        using T = decltype(t);
        constexpr int V = decltype(vec)::value;
        switch (plan.items) {
        case 1: return launchRowsT<T, V, 1>(plan, x, y, s);
        case 2: return launchRowsT<T, V, 2>(plan, x, y, s);
        case 4: return launchRowsT<T, V, 4>(plan, x, y, s);
        default: return INFINI_STATUS_INTERNAL_ERROR;
        }
    });
}

infiniStatus_t launchSplit(const Plan &plan, const void *x, void *y, void *workspace, void *stream) {
    auto s = (cudaStream_t)stream;
    return withType(plan, [&](auto t, auto vec) {
        using T = decltype(t);
        using A = ComputeType<T>;
        constexpr int V = decltype(vec)::value;
        auto *stats = static_cast<Stats<A> *>(workspace);
        rowsKernel<T, V, kSplitItems, true, true><<<plan.grid_x, plan.threads, 0, s>>>(plan, (const T *)x, (T *)y, stats);
        CUDA_TRY_LAUNCH();
        splitApplyKernel<T, V, kSplitItems><<<plan.grid_x, plan.threads, 0, s>>>(plan, (const T *)x, (T *)y, stats);
        CUDA_TRY_LAUNCH();
        return INFINI_STATUS_SUCCESS;
    });
}

} // namespace infini::lp_norm::nvidia
