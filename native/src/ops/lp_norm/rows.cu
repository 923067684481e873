// LPNorm kernels for a reduced axis that is innermost (or walked with a
// stride). One template, rowsKernel, serves four plans that differ only in
// where a row's factor comes from:
//   Rows:    a group of plan.tpr threads holds a whole row in registers;
//   Cluster: (sm_90) the blocks of a thread-block cluster hold one row's
//            chunks and merge their statistics through distributed shared
//            memory, so each element is read once however long the row;
//   Stats, Apply: the Split plan for long rows elsewhere: per-chunk statistics
//            into the workspace, then a second kernel merges them and scales.
// (On sm_90 the planner tries two_pass.cu's TwoPass plan for long rows first;
// the row statistics both use are in row_stats.cuh.)
// The Rows and Cluster kernels' one-pass sum with a p = 3 case of its own (row_stats.cuh
// plainSumPart's CUBE; the other kernels keep p 3 on powGeneral). H200, session 37 (call 3,
// tools/verify_s37c.sh), eager µs: (2372, 20810) BF16 p 3 314.1 -> 236.2 (PyTorch 273.3).
#ifndef INFINI_LP_NORM_ROWS_CUBE
#define INFINI_LP_NORM_ROWS_CUBE 1
#endif
#include "../../common/cuda/pdl.cuh"
#include "cluster_launch.cuh"
#include "row_stats.cuh"

namespace infini::lp_norm::nvidia {

namespace {

constexpr bool kRowsCube = INFINI_LP_NORM_ROWS_CUBE != 0;

enum class Mode { Rows, Stats, Apply, Cluster };

// Threads per block and packs per thread of the chunked modes (Rows: from the plan): Split's are
// kSplitThreads and kSplitItems (nvidia_plan.h).
// Cluster: a thread holds 12 packs in registers and 20 in shared memory
// (160 KB a block, one block per SM), so that a cluster of 8 holds a 2 MB row.
constexpr int kClusterThreads = 512, kClusterItems = 12, kClusterShared = 20, kMaxCluster = 16;
constexpr size_t kClusterSmem = (size_t)kClusterThreads * kClusterShared * 16;

constexpr int maxThreads(Mode m) {
    return m == Mode::Rows ? 1024 : m == Mode::Cluster ? kClusterThreads : kSplitThreads;
}
// The Split apply kernel's least blocks an SM (its registers capped to match).
// A measuring knob (session 29): at 3 it took 75 registers, 36% of the warp
// slots active, and ran 16x1M F64 at 2.2 TB/s under ncu where PyTorch's
// division ran at 2.8. At 4 (session 30, H100 graph µs): F64 1x1M 16.36
// against 16.18, 16x64K 16.69 against 16.50, F32 shapes within 0.03: no gain
// (notes/lp_norm.md).
#ifndef INFINI_LP_NORM_SPLIT_APPLY_MIN_BLOCKS
#define INFINI_LP_NORM_SPLIT_APPLY_MIN_BLOCKS 3
#endif
// Split's statistics kernel (session 40). Its ncu (H200) on one ragged row of 9114740 BF16 (p 2): the
// Stats kernel 23.1 µs for 18 MB (87 registers: 2 blocks an SM, 557 blocks in 2.1 waves, 23% of warps
// active) against PyTorch's whole reduction in 13.2 µs; the row 42.8 µs against 35.5 (its Factor 3.8,
// Apply 17.6 against PyTorch's division 20.0). PLAIN 1: each chunk's one-pass sum
// first (one block reduction, no max), its record {t^(1/p), 1} where the sum is usable (math.h's range),
// else the scaled statistics as before (zeros, NaN, inf, extreme values). MIN_BLOCKS: the kernel's least
// blocks an SM (its registers capped to match; 1: uncapped; 3: 80 registers for 16-bit packs, no spill;
// 4 spilled 330 bytes). Session 40, call 3 (tools/verify_s40c.sh), 101 LPNorm cases behind PyTorch in
// sessions 39-40, eager µs: PLAIN alone geomean 0.960 (behind 83 -> 45); with MIN_BLOCKS 3 0.902
// (behind 32), 63 faster by over 3%, none slower by over 1.2%: (5251833,) F16 p 3 43.2 -> 32.5 (PyTorch
// 38.8), (18313949,) F16 73.9 -> 59.3 (67.7), (45206741,) BF16 158.5 -> 128.7 (148.3). Both on by
// default since; PLAIN 0 with MIN_BLOCKS 1: the kernel as before (measuring).
#ifndef INFINI_LP_NORM_SPLIT_STATS_PLAIN
#define INFINI_LP_NORM_SPLIT_STATS_PLAIN 1
#endif
#ifndef INFINI_LP_NORM_SPLIT_STATS_MIN_BLOCKS
#define INFINI_LP_NORM_SPLIT_STATS_MIN_BLOCKS 3
#endif
constexpr int minBlocks(Mode m) {
    return m == Mode::Apply ? INFINI_LP_NORM_SPLIT_APPLY_MIN_BLOCKS
                            : m == Mode::Stats ? INFINI_LP_NORM_SPLIT_STATS_MIN_BLOCKS : 1;
}

// Split: the apply kernel is the stats kernel's programmatic dependent (when
// plan.pdl_ok and plan.pdl allow): its blocks are scheduled once every stats
// block has started, and wait there for the statistics, so its launch is off
// the call's critical path. The stats kernel is launched plainly (it waits
// for the previous kernel as any kernel does). Knob: a PdlPolicy knob (0
// never, 1 eager only, 2 in graphs too). H100, plain -> PDL, graph µs: 2x1M
// BF16 16.8 -> 15.8, 1x16M BF16 63.7 -> 62.9, 2x2M F32 20.4 -> 19.8, 4x1M
// BF16 19.9 -> 20.2; eager (bench timing) 2x1M 28.5 -> 26.6, 1x16M 67.8 ->
// 65.3 (notes/lp_norm.md, "Session 15").
#ifndef INFINI_LP_NORM_SPLIT_PDL
#define INFINI_LP_NORM_SPLIT_PDL 2
#endif

// Split with plan.split_factors: each row's factor, merged once from its chunks' records by
// splitFactorKernel, follows the records in the workspace (a Factor<A> a row, as large as a Stats<A>).
template <class A>
__device__ __forceinline__ Factor<A> *splitFactors(const Plan &plan, Stats<A> *stats) {
    return reinterpret_cast<Factor<A> *>(stats + plan.rows * plan.chunks);
}

// The packs of one thread's slice: pack lane + k * tpr is reg[k] for k < ITEMS,
// then (Cluster) sm[(k - ITEMS) * kClusterThreads] in shared memory, which
// only this thread uses. Zeros past the end.
template <class T, int VEC, int ITEMS, int SHARED>
struct Slice {
    static constexpr int kVec = VEC;
    Pack<T, VEC> reg[ITEMS];
    const Pack<T, VEC> *sm;
    // f(pack, k) for every pack, k as above.
    template <class F>
    __device__ __forceinline__ void forEach(F &&f) const {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            f(reg[k], k);
        }
#pragma unroll 4 // shared memory takes a run-time index: a short loop keeps the kernel small
        for (int k = 0; k < SHARED; ++k) {
            f(sm[k * kClusterThreads], ITEMS + k);
        }
    }
};

// A whole row per group: the one-pass sum first (one reduction); the scaled
// statistics only where it is not usable (zeros, NaN, inf, extreme values).
template <class S, class A>
__device__ __forceinline__ Factor<A> wholeRowFactor(const S &buf, int tpr, const Plan &plan, A *red_t, A *red_m,
                                                    A *red_s) {
    const A t = plainSum<kRowsCube>(buf, tpr, plan.p, red_t);
    const bool plain = plainSumUsable(t);
    Factor<A> f = plainFactor(t, plan.p, plan.eps);
    // The slow path's reductions need the whole warp (or block, uniform there).
    if (tpr > 32 ? !plain : __any_sync(0xffffffffu, !plain)) {
        const Stats<A> st = scaledStats<true>(buf, tpr, plan.p, red_m, red_s);
        if (!plain) {
            f = rowFactor(st.m, st.s, plan.p, plan.eps);
        }
    }
    return f;
}

// One row (Rows) or one chunk of a row per group of tpr threads; thread t of
// the group holds packs t, t + tpr, ... so that the group's loads are contiguous.
// RAGGED (plan.ragged: rows whose length is no multiple of a pack, Rows and
// Split): packs on the 16-byte grid of the row's own address, its first and
// last ones partial (elements outside the row are neither read nor written;
// the zeros in their place count for nothing); y's rows sit on the grid as
// x's do (Calculate checks it). Kernels of their own, as the branches cost
// the F16 Split Apply kernel a spill.
template <class T, int VEC, int ITEMS, Mode MODE, bool RAGGED = false>
__global__ void __launch_bounds__(maxThreads(MODE), RAGGED && MODE == Mode::Apply ? 2 : minBlocks(MODE)) // (ragged Apply: 100 B spilled under the cap of 3)
    rowsKernel(const Plan plan, const T *__restrict__ x, T *y, Stats<ComputeType<T>> *stats) {
    using A = ComputeType<T>;
    using P = Pack<T, VEC>;
    __shared__ A red_t[32], red_m[32], red_s[32];
    if constexpr (MODE == Mode::Stats) {
        pdlAllowNext(); // the apply kernel may be scheduled (it waits for our statistics)
    } else if constexpr (MODE == Mode::Apply) {
        pdlWaitPrevious(); // nothing global before: the stats kernel is still writing `stats`
    }
    // The chunked modes know their block size at compile time: the packs'
    // addresses are then one base plus constant offsets (fewer registers).
    const int tpr = MODE == Mode::Rows ? plan.tpr : maxThreads(MODE);
    const int lane = threadIdx.x & (tpr - 1);
    static_assert(!RAGGED || (VEC > 1 && MODE != Mode::Cluster), "ragged rows: packs, Rows and Split");
    int64_t row, first = 0, count = 0; // packs [first, first + count) of the row
    if constexpr (MODE == Mode::Rows) {
        row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
    } else {
        // Apply runs in the reverse order of Stats: the chunks read last there are still in L2.
        const int64_t b = MODE == Mode::Apply ? (int64_t)gridDim.x - 1 - blockIdx.x : (int64_t)blockIdx.x;
        row = b / plan.chunks;
        first = (b - row * plan.chunks) * plan.chunk_vecs;
    }
    const bool valid = row < plan.rows;
    int64_t ox, oy;
    outerOffsets(plan.outer, valid ? row : 0, ox, oy);
    const RowPacks<T, VEC, RAGGED> rp(x + ox, plan.len);
    count = MODE == Mode::Rows || rp.packs - first < plan.chunk_vecs ? rp.packs - first : plan.chunk_vecs;
    ox -= rp.head;
    oy -= rp.head;
    const T *xr = x + ox + first * VEC * plan.sxr;

    // Every load issued before any math; zeros past the end count for nothing.
    // Cluster: the shared part first (asynchronous copies, VEC > 1 there).
    constexpr int kShared = MODE == Mode::Cluster ? kClusterShared : 0;
    Slice<T, VEC, ITEMS, kShared> buf;
    if constexpr (kShared > 0) {
        extern __shared__ int4 slice_smem[];
        P *sm = reinterpret_cast<P *>(slice_smem) + threadIdx.x;
#pragma unroll
        for (int k = 0; k < kShared; ++k) {
            const int64_t v = lane + (int64_t)(ITEMS + k) * tpr;
            copyAsync16(sm + k * kClusterThreads, v < count ? xr + v * VEC : xr, v < count ? 16 : 0);
        }
        commitAsyncGroup();
        buf.sm = sm;
    }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const int64_t v = lane + (int64_t)k * tpr;
        int lo = 0, hi = VEC;
        if constexpr (RAGGED) {
            rp.span(first + v, lo, hi);
        }
        buf.reg[k] = !(valid && v < count)      ? P{}
                     : !RAGGED || hi - lo == VEC ? loadPack<T, VEC>(xr, v, plan.sxr, plan.cs)
                                                 : partialPack<T, VEC>(xr + v * VEC, lo, hi);
    }
    if constexpr (kShared > 0) {
        waitAsyncGroups(0); // this thread's copies only: no barrier
    }

    Factor<A> f;
    if constexpr (MODE == Mode::Rows) {
        f = wholeRowFactor(buf, tpr, plan, red_t, red_m, red_s);
    } else if constexpr (MODE == Mode::Apply) {
        f = plan.split_factors ? splitFactors(plan, stats)[row]
                               : mergedFactor(stats + row * plan.chunks, plan.chunks, plan.p, plan.eps, red_m, red_s);
    } else if constexpr (MODE == Mode::Cluster) {
        f = clusterFactor<kRowsCube>(buf, kClusterThreads, plan, red_t, red_m, red_s);
    } else {
        Stats<A> st;
        if constexpr (INFINI_LP_NORM_SPLIT_STATS_PLAIN != 0) {
            const A t = plainSum(buf, tpr, plan.p, red_t); // the whole block's: the branch is uniform
            st = plainSumUsable(t) ? Stats<A>{rootInt(t, plan.p), A(1)} : scaledStats(buf, tpr, plan.p, red_m, red_s);
        } else {
            st = scaledStats(buf, tpr, plan.p, red_m, red_s);
        }
        if (threadIdx.x == 0) {
            stats[blockIdx.x] = st;
        }
        return;
    }

    T *yr = y + oy + first * VEC * plan.syr;
    buf.forEach([&](const P &pk, int k) {
        const int64_t v = lane + (int64_t)k * tpr;
        if (valid && v < count) {
            const P out = scalePack(pk, f);
            int lo = 0, hi = VEC;
            if constexpr (RAGGED) {
                rp.span(first + v, lo, hi);
            }
            if (!RAGGED || hi - lo == VEC) {
                storePack<T, VEC>(yr, v, plan.syr, out, plan.cs);
            } else {
                storePartialPack(yr + v * VEC, out, lo, hi);
            }
        }
    });
}

// Split with many chunks a row (plan.split_factors): a block a row merges the row's chunk records once,
// in chunk order, into its factor. Without it every Apply block of a row merges all of them: quadratic in
// the chunks (one row of 47.5M F16 elements in scalar chunks: 23185 chunks, 1176 µs against PyTorch's
// 154; session 35's sweep), as cols.cu's Factor kernel found for a cut axis.
template <class A>
__global__ void __launch_bounds__(kSplitThreads) splitFactorKernel(const Plan plan, Stats<A> *stats) {
    __shared__ A red_m[32], red_s[32];
    pdlWaitPrevious(); // nothing global before: the Stats kernel is still writing the records
    pdlAllowNext();    // the Apply kernel waits for our factors (and so for the records' kernel too)
    const int64_t row = blockIdx.x;
    const Factor<A> f = mergedFactor(stats + row * plan.chunks, plan.chunks, plan.p, plan.eps, red_m, red_s);
    if (threadIdx.x == 0) {
        splitFactors(plan, stats)[row] = f;
    }
}

template <class T, int VEC, int ITEMS, Mode MODE, bool RAGGED = false>
infiniStatus_t launch(const Plan &plan, const void *x, void *y, void *workspace, cudaStream_t stream, bool pdl = false) {
    auto *stats = static_cast<Stats<ComputeType<T>> *>(workspace);
    if (pdl) {
        CUDA_TRY(launchKernel(rowsKernel<T, VEC, ITEMS, MODE, RAGGED>, dim3(plan.grid_x), dim3(plan.threads), 0, stream,
                              true, plan, (const T *)x, (T *)y, stats));
        return INFINI_STATUS_SUCCESS;
    }
    rowsKernel<T, VEC, ITEMS, MODE, RAGGED><<<plan.grid_x, plan.threads, 0, stream>>>(plan, (const T *)x, (T *)y, stats);
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

// The cluster kernel of a dtype (vector plans only), and its launch configuration.
template <class F>
infiniStatus_t withClusterKernel(infiniDtype_t dtype, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        return f(rowsKernel<T, 16 / sizeof(T), kClusterItems, Mode::Cluster>, T{});
    });
}

LaunchConfig clusterConfig(const Plan &plan, cudaStream_t stream) {
    LaunchConfig config(dim3(plan.grid_x), dim3(plan.threads), kClusterSmem, stream);
    config.cluster((unsigned)plan.chunks);
    return config;
}

} // namespace

bool planCluster(const InfiniopHandle &h, Plan &plan) {
    const int64_t per_block = (int64_t)kClusterThreads * (kClusterItems + kClusterShared); // packs
    const int64_t chunks = (plan.len / plan.vec + per_block - 1) / per_block;
    if (h.cc_major < 9 || plan.vec * (int64_t)dtypeSize(plan.dtype) != 16 || chunks < 2 || chunks > kMaxCluster ||
        (size_t)h.max_shared_memory_per_block_optin < kClusterSmem + 1024 ||
        plan.rows * chunks < h.sm_count || plan.rows * chunks >= INT32_MAX) {
        return false;
    }
    Plan c = plan;
    c.kind = Kind::Cluster;
    c.threads = kClusterThreads;
    c.tpr = kClusterThreads;
    c.items = kClusterItems;
    c.chunks = chunks;
    c.chunk_vecs = per_block;
    c.grid_x = (unsigned)(plan.rows * chunks);
    c.workspace = 0;
    // The device must be able to run such clusters (a cluster of 16 is beyond the portable 8).
    int active = 0;
    withClusterKernel(plan.dtype, [&](auto kernel, auto) {
        active = activeClustersOf(kernel, kClusterThreads, (int)chunks, kClusterSmem, kClusterSmem);
        return INFINI_STATUS_SUCCESS;
    });
    if (active < 1) {
        return false;
    }
    plan = c;
    return true;
}

// f(T, V, RAGGED) for plan's kernels: RAGGED where plan.ragged (packs only).
template <class F>
infiniStatus_t withRowKernels(const Plan &plan, F &&f) {
    return withType(plan, [&](auto t, auto vec) {
        if constexpr (decltype(vec)::value > 1) {
            if (plan.ragged) {
                return f(t, vec, std::true_type{});
            }
        }
        return f(t, vec, std::false_type{});
    });
}

infiniStatus_t launchRows(const Plan &plan, const void *x, void *y, void *workspace, void *stream) {
    auto s = (cudaStream_t)stream;
    return withRowKernels(plan, [&](auto t, auto vec, auto ragged) {
        using T = decltype(t);
        constexpr int V = decltype(vec)::value;
        constexpr bool R = decltype(ragged)::value;
        switch (plan.items) {
        case 1: return launch<T, V, 1, Mode::Rows, R>(plan, x, y, workspace, s);
        case 2: return launch<T, V, 2, Mode::Rows, R>(plan, x, y, workspace, s);
        case 4: return launch<T, V, 4, Mode::Rows, R>(plan, x, y, workspace, s);
        case 6: // (nvidia_plan.h's rowsItems6: the planner gives 6 packs only there)
            if constexpr (rowsItems6(V, R, sizeof(T))) {
                return launch<T, V, 6, Mode::Rows, R>(plan, x, y, workspace, s);
            }
            return INFINI_STATUS_INTERNAL_ERROR;
        default: return INFINI_STATUS_INTERNAL_ERROR;
        }
    });
}

infiniStatus_t launchSplit(const Plan &plan, const void *x, void *y, void *workspace, void *stream) {
    auto s = (cudaStream_t)stream;
    return withRowKernels(plan, [&](auto t, auto vec, auto ragged) {
        using T = decltype(t);
        constexpr int V = decltype(vec)::value;
        constexpr bool R = decltype(ragged)::value;
        const bool pdl = plan.pdl_ok && pdlWanted(plan.pdl, s);
        INFINI_TRY((launch<T, V, kSplitItems, Mode::Stats, R>(plan, x, y, workspace, s)));
        if (plan.split_factors) {
            using A = ComputeType<T>;
            CUDA_TRY(launchKernel(splitFactorKernel<A>, dim3((unsigned)plan.rows), dim3(kSplitThreads), 0, s, pdl, plan,
                                  static_cast<Stats<A> *>(workspace)));
        }
        return launch<T, V, kSplitItems, Mode::Apply, R>(plan, x, y, workspace, s, pdl);
    });
}

void planSplitPdl(Plan &plan) {
    withRowKernels(plan, [&](auto t, auto vec, auto ragged) {
        using T = decltype(t);
        constexpr int V = decltype(vec)::value;
        plan.pdl_ok = kernelHonoursPdl(rowsKernel<T, V, kSplitItems, Mode::Apply, decltype(ragged)::value>) &&
                      (!plan.split_factors || kernelHonoursPdl(splitFactorKernel<ComputeType<T>>));
        return INFINI_STATUS_SUCCESS;
    });
    plan.pdl = pdlPolicyOfKnob(INFINI_LP_NORM_SPLIT_PDL);
}

infiniStatus_t launchCluster(const Plan &plan, const void *x, void *y, void *, void *stream) {
    return withClusterKernel(plan.dtype, [&](auto kernel, auto t) {
        using T = decltype(t);
        LaunchConfig config = clusterConfig(plan, (cudaStream_t)stream);
        CUDA_TRY(cudaLaunchKernelEx(config.get(), kernel, plan, (const T *)x, (T *)y, (Stats<ComputeType<T>> *)nullptr));
        return INFINI_STATUS_SUCCESS;
    });
}

} // namespace infini::lp_norm::nvidia
