// LPNorm for a few long rows (sm_90): every block of a cooperative grid (all
// blocks resident) owns the same slice of every row. A block streams its
// slices row after row into a ring of `depth` shared-memory slots
// (cp.async), publishes each slice's (sum |x|^p, max |x|) to the workspace,
// and kLag rows later reads every block's values of that row, forms the
// row's factor (the same in every block: same values, same order) and scales
// and stores its slice from shared memory. Each element is read once, and
// the loads of the next rows stay in flight while a row is merged and stored:
// unlike a cluster per row, the whole GPU works on every row, without waves.
//
// Workspace: per row and block, two exchange words (sum, max) and one for the
// rare second exchange (the scaled sum, when the one-pass sum is not usable:
// zeros, NaN, inf, extreme values). A word is a non-negative value or NaN
// with its sign bit set as the "written" mark, so one relaxed store publishes
// it (no fence, no counter). Each block zeroes its own words, then one grid
// barrier (while the first rows' loads are in flight) makes them visible.
#include "device.cuh"
#include <algorithm>
#include <cooperative_groups.h>

namespace infini::lp_norm::nvidia {

namespace {

constexpr int kGridThreads = 256;
constexpr int kGridBlocksPerSm = 2;
constexpr int kGridLag = 4;       // a slice's sum is published kGridLag rows before it is stored
constexpr int kGridMaxPerLane = 16; // exchange words a lane of warp 0 holds: at most 512 blocks
constexpr int kGridMaxDepth = 16; // waitAsyncGroups counts up to 15 pending groups
constexpr int kGridMaxRows = 1024; // bounds the workspace (rows x blocks x 3 words)

// An exchange word: the bits of a value >= 0 (or NaN), marked by the sign bit.
template <class A> struct Word;
template <> struct Word<float> {
    using U = unsigned;
    static constexpr U kMark = 0x80000000u;
};
template <> struct Word<double> {
    using U = unsigned long long;
    static constexpr U kMark = 0x8000000000000000ull;
};

template <class A>
__device__ __forceinline__ void publish(A *word, A v) {
    using U = typename Word<A>::U;
    if (v != v) {
        v = A(NAN); // a positive NaN: the sign bit is free for the mark
    }
    U u;
    memcpy(&u, &v, sizeof u);
    *reinterpret_cast<volatile U *>(word) = u | Word<A>::kMark;
}

// Warp 0's copy of one row's words of every block (lane l: blocks l, l + 32,
// ...), loaded ahead of their use so that merging a row rarely waits.
template <class A, int N>
struct RowWords {
    using U = typename Word<A>::U;
    U w[N][kGridMaxPerLane];

    // Word n of each block's `stride` words from `words`.
    __device__ __forceinline__ void load(const A *words, int stride, int blocks) {
#pragma unroll
        for (int i = 0; i < kGridMaxPerLane; ++i) {
            const int b = (int)threadIdx.x + 32 * i;
#pragma unroll
            for (int n = 0; n < N; ++n) {
                w[n][i] = b < blocks ? *reinterpret_cast<const volatile U *>(words + (size_t)b * stride + n)
                                     : Word<A>::kMark; // a written 0
            }
        }
    }

    // Merged in a fixed order (then a butterfly), so that every block gets the
    // same result; false (in every lane) while a word is not yet written.
    template <class Op0, class Op1>
    __device__ __forceinline__ bool merge(Op0 op0, Op1 op1, A &r0, A &r1) const {
        bool ok = true;
        A acc[N];
#pragma unroll
        for (int n = 0; n < N; ++n) {
            acc[n] = 0;
        }
#pragma unroll
        for (int i = 0; i < kGridMaxPerLane; ++i) {
#pragma unroll
            for (int n = 0; n < N; ++n) {
                ok &= (w[n][i] & Word<A>::kMark) != 0;
                const U u = w[n][i] & ~Word<A>::kMark;
                A v;
                memcpy(&v, &u, sizeof v);
                acc[n] = n == 0 ? op0(acc[n], v) : op1(acc[n], v);
            }
        }
        if (!__all_sync(0xffffffffu, ok)) {
            return false;
        }
        r0 = warpReduce(acc[0], op0);
        if constexpr (N > 1) {
            r1 = warpReduce(acc[N - 1], op1);
        }
        return true;
    }
};

template <class T>
__global__ void __launch_bounds__(kGridThreads, kGridBlocksPerSm)
    gridKernel(const Plan plan, const T *__restrict__ x, T *y, ComputeType<T> *ws) {
    using A = ComputeType<T>;
    constexpr int VEC = 16 / sizeof(T);
    using P = Pack<T, VEC>;
    extern __shared__ int4 ring_smem[];
    __shared__ A red_t[2][kGridThreads / 32], red_m[2][kGridThreads / 32], red_s[kGridThreads / 32];
    // Written by warp 0 before a barrier and read after it; alternate by row
    // (in the last rows no other barrier separates one row's reads from the next row's write).
    __shared__ Factor<A> factor[2];
    __shared__ A row_max[2];
    __shared__ int rare[2];

    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int blocks = (int)gridDim.x, b = (int)blockIdx.x, depth = plan.items;
    const int64_t rows = plan.rows, nv = plan.len / VEC;
    const int64_t first = nv * b / blocks, count = nv * (b + 1) / blocks - first; // this block's packs of a row
    A *sums = ws;                                    // [row][block][2]: sum |x|^p, max |x|
    A *scaled = ws + (size_t)2 * rows * blocks;      // [row][block]: scaled sum (rare)
    P *ring = reinterpret_cast<P *>(ring_smem);      // depth slots of plan.chunk_vecs packs

    auto rowPtr = [&](int64_t r, int64_t &ox, int64_t &oy) { outerOffsets(plan.outer, r, ox, oy); };
    auto issue = [&](int64_t r) { // this thread's copies of row r into its slot; one group either way
        if (r < rows) {
            int64_t ox, oy;
            rowPtr(r, ox, oy);
            const T *xr = x + ox + first * VEC;
            P *slot = ring + (r % depth) * plan.chunk_vecs;
            for (int64_t v = tid; v < count; v += kGridThreads) {
                copyAsync16(slot + v, xr + v * VEC, 16);
            }
        }
        commitAsyncGroup();
    };
    // Over this thread's packs of a slot (the packs it copied itself: no barrier needed).
    auto forSlot = [&](int64_t r, auto &&f) {
        const P *slot = ring + (r % depth) * plan.chunk_vecs;
        for (int64_t v = tid; v < count; v += kGridThreads) {
            f(slot[v], v);
        }
    };

    for (int64_t r = tid; r < rows; r += kGridThreads) {
        const size_t w = (size_t)r * blocks + b;
        sums[2 * w] = A(0);
        sums[2 * w + 1] = A(0);
        scaled[w] = A(0);
    }
    for (int r = 0; r < depth; ++r) {
        issue(r);
    }
    cooperative_groups::this_grid().sync(); // the zeroed words, everywhere
    RowWords<A, 2> next; // warp 0: the words of the row merged next

    for (int64_t j = 0; j < rows + kGridLag; ++j) {
        if (j < rows) { // this block's slice of row j: (sum |x|^p, max |x|) published
            // Groups committed so far: depth + max(0, j - lag); row j's is group j.
            waitAsyncGroups(j >= kGridLag ? depth - kGridLag - 1 : depth - (int)j - 1);
            A t = 0, m = 0;
            withP(plan.p, [&](auto pc) {
                constexpr int kP = decltype(pc)::value;
                forSlot(j, [&](const P &pk, int64_t) {
#pragma unroll
                    for (int e = 0; e < VEC; ++e) {
                        const A a = widen(pk.v[e]);
                        t += powP<kP>(absA(a), plan.p);
                        m = absMax(m, a);
                    }
                });
            });
            t = warpReduce(t, SumOp{});
            m = warpReduce(m, MaxNanOp{});
            const int par = (int)(j & 1); // alternate buffers: no second barrier needed
            if (lane == 0) {
                red_t[par][warp] = t;
                red_m[par][warp] = m;
            }
            __syncthreads();
            if (tid == 0) {
                for (int w = 1; w < kGridThreads / 32; ++w) {
                    t += red_t[par][w];
                    m = maxNan(m, red_m[par][w]);
                }
                const size_t w = (size_t)j * blocks + b;
                publish(sums + 2 * w, t);
                publish(sums + 2 * w + 1, m);
            }
        }
        const int64_t k = j - kGridLag;
        if (k >= 0) { // row k: merge every block's values, then scale and store this slice
            const int kp = (int)(k & 1);
            if (warp == 0) {
                A t, m;
                while (!next.merge(SumOp{}, MaxNanOp{}, t, m)) { // usually there already
                    next.load(sums + (size_t)2 * k * blocks, 2, blocks);
                }
                if (lane == 0) {
                    rare[kp] = 0;
                    if (plainSumUsable(t)) {
                        factor[kp] = plainFactor(t, plan.p, plan.eps);
                    } else if (!scaledSumNeeded(m)) { // NaN, inf or all zero: m decides
                        factor[kp] = rowFactor(m, A(0), plan.p, plan.eps);
                    } else {
                        rare[kp] = 1;
                        row_max[kp] = m;
                    }
                }
            }
            __syncthreads();
            if (rare[kp]) { // block-uniform: a second exchange of sums scaled by the row's max
                const A m = row_max[kp];
                const Factor<A> sc = sumScale(m);
                A s = 0;
                forSlot(k, [&](const P &pk, int64_t) {
#pragma unroll
                    for (int e = 0; e < VEC; ++e) {
                        s += powP<0>(sc.apply(absA(widen(pk.v[e]))), plan.p);
                    }
                });
                s = warpReduce(s, SumOp{});
                if (lane == 0) {
                    red_s[warp] = s;
                }
                __syncthreads();
                if (warp == 0) {
                    if (lane == 0) {
                        for (int w = 1; w < kGridThreads / 32; ++w) {
                            s += red_s[w];
                        }
                        publish(scaled + (size_t)k * blocks + b, s);
                    }
                    __syncwarp();
                    RowWords<A, 1> words;
                    A total, unused;
                    do {
                        words.load(scaled + (size_t)k * blocks, 1, blocks);
                    } while (!words.merge(SumOp{}, SumOp{}, total, unused));
                    if (lane == 0) {
                        factor[kp] = rowFactor(m, total, plan.p, plan.eps);
                    }
                }
                __syncthreads();
            }
            const Factor<A> f = factor[kp];
            int64_t ox, oy;
            rowPtr(k, ox, oy);
            T *yr = y + oy + first * VEC;
            forSlot(k, [&](const P &pk, int64_t v) { stPack<T, VEC>(yr + v * VEC, scalePack(pk, f), plan.cs); });
            // The slot is free (each thread rewrites only what it has just read and stored).
            issue(k + depth);
        }
        if (warp == 0 && k + 1 >= 0 && k + 1 < rows) { // loaded now, merged in the next step
            next.load(sums + (size_t)2 * (k + 1) * blocks, 2, blocks);
        }
    }
}

template <class F>
infiniStatus_t withGridKernel(infiniDtype_t dtype, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        return f(gridKernel<T>, T{});
    });
}

size_t ringBytes(const Plan &plan) { return (size_t)plan.items * plan.chunk_vecs * 16; }

// The ring's limit: two blocks per SM, with room for the static arrays. Every
// plan sets the kernel's attribute to this same value (a smaller one would
// break the plans made before it).
size_t ringBudget(const InfiniopHandle &h) {
    return (size_t)h.max_shared_memory_per_block_optin / kGridBlocksPerSm - 2048;
}

} // namespace

bool planGrid(const InfiniopHandle &h, Plan &plan) {
    const int64_t nv = plan.len / plan.vec;
    const int blocks = h.sm_count * kGridBlocksPerSm;
    const int64_t slot = (nv + blocks - 1) / blocks; // packs per block and row
    int supported = 0;
    cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, h.device_id);
    cudaGetLastError();
    // Whole 16-byte packs, a few long rows (at least a pack per thread and block).
    if (h.cc_major < 9 || !supported || plan.vec * (int64_t)dtypeSize(plan.dtype) != 16 || plan.rows > kGridMaxRows ||
        slot < kGridThreads || blocks > 32 * kGridMaxPerLane) {
        return false;
    }
    const size_t budget = ringBudget(h);
    const int64_t depth = std::min<int64_t>(kGridMaxDepth, (int64_t)(budget / ((size_t)slot * 16)));
    if (depth < kGridLag + 2) {
        return false;
    }
    Plan g = plan;
    g.kind = Kind::Grid;
    g.threads = kGridThreads;
    g.tpr = kGridThreads;
    g.items = (int)depth;
    g.chunks = blocks;
    g.chunk_vecs = slot;
    g.grid_x = (unsigned)blocks;
    const size_t word = dtypeSize(plan.dtype) == 8 ? 8 : 4;
    g.workspace = (size_t)3 * plan.rows * blocks * word;
    // Every block must be resident at once (a cooperative launch refuses otherwise).
    int per_sm = 0;
    const infiniStatus_t st = withGridKernel(plan.dtype, [&](auto kernel, auto) {
        if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)budget) !=
                cudaSuccess ||
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kGridThreads, ringBytes(g)) != cudaSuccess) {
            return INFINI_STATUS_INTERNAL_ERROR;
        }
        return INFINI_STATUS_SUCCESS;
    });
    cudaGetLastError(); // a refusal above is an answer, not an error to report later
    if (st != INFINI_STATUS_SUCCESS || per_sm < kGridBlocksPerSm) {
        return false;
    }
    plan = g;
    return true;
}

infiniStatus_t launchGrid(const Plan &plan, const void *x, void *y, void *workspace, void *stream) {
    return withGridKernel(plan.dtype, [&](auto kernel, auto t) {
        using T = decltype(t);
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(plan.grid_x);
        cfg.blockDim = dim3(plan.threads);
        cfg.dynamicSmemBytes = ringBytes(plan);
        cfg.stream = (cudaStream_t)stream;
        cudaLaunchAttribute attr;
        attr.id = cudaLaunchAttributeCooperative;
        attr.val.cooperative = 1;
        cfg.attrs = &attr;
        cfg.numAttrs = 1;
        CUDA_TRY(cudaLaunchKernelEx(&cfg, kernel, plan, (const T *)x, (T *)y, (ComputeType<T> *)workspace));
        return INFINI_STATUS_SUCCESS;
    });
}

} // namespace infini::lp_norm::nvidia
