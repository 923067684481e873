// LPNorm for many rows of a few KB (sm_90): a persistent grid in which each
// group of threads (a warp; or, for rows of 8-56 KB that a warp's ring cannot
// take, where blockStreamPays, the whole block) streams its rows (g, g + G,
// ... for G groups) through a private ring of `depth` row slots in shared memory
// (cp.async). While the group reduces, scales and stores one row, the next
// depth - 1 are in flight, so the memory system never waits for blocks to
// start or for a block's loads to drain. A thread reads only the packs it
// copied, so the data needs no barrier; a block group's sums do.
// Eager calls are launched with programmatic dependent launch
// (common/cuda/pdl.cuh): the next call's grid is launched while this one
// drains, and its blocks wait for ours to complete (kStreamPdl below).
#include "../../common/cuda/pdl.cuh"
#include "cluster_launch.cuh"
#include "device.cuh"
#include <algorithm>

namespace infini::lp_norm::nvidia {

namespace {

// Accumulators of a lane's one-pass sum: element e of a pack goes to
// acc[e % N] (a fixed order, bitwise repeatable). One accumulator is a
// dependent chain of 128 FMAs a row for 8 KB rows, run once more after the
// last bytes arrive; 4 shorten it. H100, 4096² F16, bench graph row:
// 27.2 -> 26.7 µs (notes/lp_norm.md, "Session 11").
#ifndef INFINI_LP_NORM_STREAM_ACC
#define INFINI_LP_NORM_STREAM_ACC 4
#endif
constexpr int kStreamAcc = INFINI_LP_NORM_STREAM_ACC;
static_assert(kStreamAcc >= 1, "at least one accumulator");
// The one-pass sum's p = 3 case of its own (powP<3>: v * (v * v), as rows.cu and cols.cu have), where p
// 3 called powGeneral for every element. Session 41: block groups without it lost 1.2-2.7x on p 3 alone
// (call 2: (1123, 7736) BF16 19.5 -> 53.3 µs); with it (call 3) warp groups ran (3642, 6128) BF16 p 3
// 106.9 -> 30.8 µs (PyTorch 145.3) and (2526, 5744) 75.1 -> 22.1 (118.7). 0: powGeneral.
#ifndef INFINI_LP_NORM_STREAM_CUBE
#define INFINI_LP_NORM_STREAM_CUBE 1
#endif
constexpr bool kStreamCube = INFINI_LP_NORM_STREAM_CUBE != 0;
// (INFINI_LP_NORM_STREAM_ASYNC_TAIL, sessions 41-45: a ragged row's partial last pack by cp.async instead
// of element loads ran 16-bit rows on block groups 1.4-2.4x slower, F32 / F64 level; removed in session 45
// with ncu's stall reasons recorded in notes/lp_norm.md, code in bb22326.)

// Block groups (session 41): rows that a warp's ring cannot take (too long for two slots a warp, or too
// few for two rows a warp) stream through a block's ring where blockStreamPays, instead of Rows (a block a
// row, holding it in registers: session 41's ncu found those blocks waiting in turn for their loads, their
// reduction and their stores, one or two an SM: (1191, 14704) BF16 at 2.1 TB/s, the ragged (2828, 8858)
// BF16 at 0.95). Calls 2-3 (tools/verify_s41b.sh, s41c.sh), 100 random row cases and session 40's LPNorm
// cases behind PyTorch, every row case that could take block groups, eager µs against Rows (geomean):
// aligned rows of over 1024 packs 0.725 (20 cases, worst 0.84; (1217, 23040) F16 60.1 -> 35.6); ragged
// rows of 512+ packs but 4-byte ones 0.580 (21 cases, behind PyTorch 10 -> 0; (1463, 20326) BF16 150.7 ->
// 52.8, PyTorch 112.6; (2828, 8858) BF16 111.2 -> 56.2, 103.8). Left on Rows: aligned rows of 512-1024
// packs 1.068 (small tensors: (658, 6552) F16 12.1 -> 16.8) and ragged F32 rows 1.234 ((3354, 3639) 31.3
// -> 59.0: Rows' 256-thread blocks, four an SM, already overlap there). 0: Rows, as before; 2 (measuring):
// block groups for every row of 512+ packs that a warp's ring cannot take.
#ifndef INFINI_LP_NORM_BLOCK_STREAM
#define INFINI_LP_NORM_BLOCK_STREAM 1
#endif

constexpr int kStreamWarps = 4; // per block
constexpr int kStreamThreads = kStreamWarps * 32;
constexpr int kStreamBlocksPerSm = 2;
constexpr int kStreamMaxDepth = 4;
// The library's PDL policy (notes/lp_norm.md, "PDL, second attempt"; tools/pdl6_bench.cu
// measures the alternatives on one build). H100: eager calls 1.3-1.9 µs faster with the
// trigger at entry and at most 2 blocks an SM; captured calls take the plain launch
// (PDL cost 0.4-0.8 µs a call in graphs).
constexpr StreamPdl kStreamPdl{PdlPolicy::NotCapturing, PdlTrigger::Entry, true};

// RAGGED (plan.ragged, INFINI_LP_NORM_RAGGED_STREAM): rows whose length is no
// multiple of a pack, each copied in packs on the 16-byte grid of its own
// address. The first pack is copied whole from the grid (the bytes before the
// row lie in the tensor's allocation, and are zeroed in the slot before use);
// a partial last pack is loaded element by element and stored into its slot
// (a cp.async of fewer bytes reads only those, but compute-sanitizer's memcheck
// counts all 16 against an allocation that ends inside the pack: session 41).
// Stores write only the row's elements.
// GROUP (plan.tpr): the threads of a row, 32 (a warp) or kStreamThreads (the block).
template <class T, bool RAGGED = false, int GROUP = 32>
__global__ void __launch_bounds__(kStreamThreads, kStreamBlocksPerSm)
    streamKernel(const Plan plan, const T *__restrict__ x, T *y, PdlTrigger trigger) {
    using A = ComputeType<T>;
    constexpr int VEC = 16 / sizeof(T);
    constexpr int kGroups = kStreamThreads / GROUP; // a block's
    static_assert(GROUP == 32 || GROUP == kStreamThreads, "a warp or the block");
    using P = Pack<T, VEC>;
    extern __shared__ int4 stream_smem[];
    // A block group's partial sums, by the parity of the row (its next row's
    // may then be written before every warp has read these) and by reduction.
    __shared__ A red[GROUP > 32 ? 2 : 1][2][kStreamWarps];
    const int lane = threadIdx.x & (GROUP - 1), depth = plan.items;
    // Slot packs: a row's (the most a ragged row spans).
    const int64_t nv = RAGGED ? rowPacks(plan) : plan.len / VEC, groups = (int64_t)gridDim.x * kGroups;
    const int64_t g = (int64_t)blockIdx.x * kGroups + threadIdx.x / GROUP;
    P *ring = reinterpret_cast<P *>(stream_smem) + (threadIdx.x / GROUP) * depth * nv;
    // Over the group (every thread of it calls it): kind 0 sums, 1 maxima, of the group's i-th row.
    auto reduce = [&](A v, auto op, int kind, int64_t i) {
        if constexpr (GROUP == 32) {
            return warpReduce(v, op);
        } else {
            return groupReduce(v, GROUP, red[i & 1][kind], op);
        }
    };
    // Nothing global before the wait: the previous kernel may still write x
    // or read y. The trigger is a hint (the next call's wait still waits for
    // our completion), so any place is correct; placed late, the next grid's
    // blocks wait on SMs for a shorter time.
    pdlWaitPrevious();
    if (trigger == PdlTrigger::Entry) {
        pdlAllowNext();
    }

    // The i-th row of this group into slot i % depth (one commit group either way).
    auto issue = [&](int64_t i) {
        const int64_t r = g + i * groups;
        if (r < plan.rows) {
            int64_t ox, oy;
            outerOffsets(plan.outer, r, ox, oy);
            if constexpr (RAGGED) {
                const RowPacks<T, VEC, true> row(x + ox, plan.len);
                const T *xr = x + ox - row.head;
                P *slot = ring + (i % depth) * nv;
                for (int64_t v = lane; v < row.packs; v += GROUP) {
                    if (v < row.packs - 1 || row.last == VEC) {
                        copyAsync16(slot + v, xr + v * VEC, 16);
                    } else { // this thread reads it back after its wait, as the copies
                        slot[v] = partialPack<T, VEC>(xr + v * VEC, 0, row.last);
                    }
                }
            } else {
                const T *xr = x + ox;
                P *slot = ring + (i % depth) * nv;
                for (int64_t v = lane; v < nv; v += GROUP) {
                    copyAsync16(slot + v, xr + v * VEC, 16);
                }
            }
            if (trigger == PdlTrigger::LastLoad && r + groups >= plan.rows) {
                pdlAllowNext(); // this group's last loads are issued
            }
        }
        commitAsyncGroup();
    };
    for (int i = 0; i < depth; ++i) {
        issue(i);
    }
    for (int64_t i = 0; g + i * groups < plan.rows; ++i) {
        if (trigger == PdlTrigger::LastRow && g + (i + 1) * groups >= plan.rows) {
            pdlAllowNext(); // only this row's reduction and stores are left
        }
        waitAsyncGroups(depth - 1); // groups committed: depth + i; row i's is group i
        P *slot = ring + (i % depth) * nv;
        // A ragged row's offsets and packs, once for its sums and its stores;
        // an aligned row's offsets only for its stores (fewer live registers).
        int64_t ox = 0, oy = 0;
        if constexpr (RAGGED) {
            outerOffsets(plan.outer, g + i * groups, ox, oy);
        }
        const RowPacks<T, VEC, RAGGED> row(x + ox, plan.len);
        const int64_t rp = RAGGED ? row.packs : nv; // the row's packs
        if constexpr (RAGGED) {
            if (lane == 0) { // pack 0 is lane 0's: the elements before the row count for nothing
#pragma unroll
                for (int j = 0; j < VEC; ++j) {
                    if (j < row.head) {
                        slot[0].v[j] = T{};
                    }
                }
            }
        }
        A acc[kStreamAcc] = {};
        withP<kStreamCube>(plan.p, [&](auto pc) {
            constexpr int kP = decltype(pc)::value;
            for (int64_t v = lane; v < rp; v += GROUP) {
                const P pk = slot[v];
#pragma unroll
                for (int e = 0; e < VEC; ++e) {
                    acc[e % kStreamAcc] += powP<kP>(absA<A>(widen(pk.v[e])), plan.p);
                }
            }
        });
        A t = acc[0];
#pragma unroll
        for (int k = 1; k < kStreamAcc; ++k) {
            t += acc[k];
        }
        t = reduce(t, SumOp{}, 0, i);
        Factor<A> f;
        if (plainSumUsable(t)) {
            f = plainFactor(t, plan.p, plan.eps);
        } else { // group-uniform: zeros, NaN, inf or extreme values take the two steps
            A m = 0;
            for (int64_t v = lane; v < rp; v += GROUP) {
                const P pk = slot[v];
#pragma unroll
                for (int e = 0; e < VEC; ++e) {
                    m = absMax(m, widen(pk.v[e]));
                }
            }
            m = reduce(m, MaxNanOp{}, 1, i);
            A s = 0;
            if (scaledSumNeeded(m)) {
                const Factor<A> sc = sumScale(m);
                for (int64_t v = lane; v < rp; v += GROUP) {
                    addScaledPack<0>(s, slot[v], sc, plan.p);
                }
            }
            // Kind 0 again: every thread read t's partials before the maxima's barrier.
            f = rowFactor(m, reduce(s, SumOp{}, 0, i), plan.p, plan.eps);
        }
        if constexpr (!RAGGED) {
            outerOffsets(plan.outer, g + i * groups, ox, oy);
        }
        if constexpr (RAGGED) {
            T *yr = y + oy - row.head;
            for (int64_t v = lane; v < rp; v += GROUP) {
                int lo, hi;
                row.span(v, lo, hi);
                storeSpanPack<T, VEC>(yr + v * VEC, scalePack(slot[v], f), lo, hi, plan.cs);
            }
        } else {
            T *yr = y + oy;
            for (int64_t v = lane; v < nv; v += GROUP) {
                stPack<T, VEC>(yr + v * VEC, scalePack(slot[v], f), plan.cs);
            }
        }
        issue(i + depth); // the slot is free: each lane rewrites only what it has just stored
    }
}

// f(kernel, T{}) for plan's kernel (plan.tpr: the group).
template <class F>
infiniStatus_t withStreamKernel(const Plan &plan, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(plan.dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        if (plan.tpr == kStreamThreads) {
            return plan.ragged ? f(streamKernel<T, true, kStreamThreads>, T{})
                               : f(streamKernel<T, false, kStreamThreads>, T{});
        }
        return plan.ragged ? f(streamKernel<T, true>, T{}) : f(streamKernel<T>, T{});
    });
}

size_t streamSmem(const Plan &plan) {
    return (size_t)(plan.threads / plan.tpr) * plan.items * rowPacks(plan) * 16;
}

// The kernel's shared-memory limit: the same value for every plan (a smaller
// one set by a later plan would break the plans made before it), and with
// the 1 KB each block reserves, too much for a third block on an SM.
size_t streamSmemBudget(const InfiniopHandle &h) {
    return (size_t)h.max_shared_memory_per_block_optin / kStreamBlocksPerSm - 2048;
}

// planStream for groups of `group` threads (32 or kStreamThreads).
bool planStreamGroups(const InfiniopHandle &h, Plan &plan, int group) {
    const int64_t nv = rowPacks(plan), per_block = kStreamThreads / group;
    const int64_t groups = (int64_t)h.sm_count * kStreamBlocksPerSm * per_block;
    const size_t budget = streamSmemBudget(h);
    const int64_t depth = std::min<int64_t>(kStreamMaxDepth, (int64_t)(budget / ((size_t)per_block * nv * 16)));
    // Whole 16-byte packs; rows a block per row would take (> 4 KB), enough
    // of them for two per group (so that the last rows do not leave SMs idle).
    if (h.cc_major < 9 || plan.vec * (int64_t)dtypeSize(plan.dtype) != 16 || nv <= 128 || depth < 2 ||
        plan.rows < 2 * groups) {
        return false;
    }
    Plan s = plan;
    s.kind = Kind::Stream;
    s.threads = kStreamThreads;
    s.tpr = group;
    s.items = (int)depth;
    s.smem_max = budget;
    // As many rows for every group (4096 rows: 1024 warps of 4, not 1056 warps
    // of which 128 idle in the last round).
    const int64_t rounds = (plan.rows + groups - 1) / groups;
    const int64_t used = (plan.rows + rounds - 1) / rounds;
    s.grid_x = (unsigned)((used + per_block - 1) / per_block);
    int per_sm = 0;
    withStreamKernel(s, [&](auto kernel, auto) {
        per_sm = blocksPerSmOf(kernel, (unsigned)s.threads, streamSmem(s), budget);
        s.pdl_ok = kernelHonoursPdl(kernel); // false for a build without sm_90 code (JIT of compute_80)
        return INFINI_STATUS_SUCCESS;
    });
    if (per_sm < 1) {
        return false;
    }
    plan = s;
    return true;
}

// Ragged F64 rows of at most this many packs stay on Rows (ROWS_ITEMS6's 6-pack threads where they fit).
// The seed-44 sweep's (9675, 1191) F64 (596 packs) ran on block groups at 117 µs (PyTorch 88.6; ncu: 262
// blocks of 128, 12% of warp slots active) where the aligned (9675, 1190) ran at 54.7. Session 45, call 3
// (tools/verify_s45c.sh), 40 random ragged F64 row cases (notes/sweeps/session45_f64ragged_cases.txt),
// eager µs, block groups -> Rows (PyTorch): up to 1024 packs faster wherever over 20 µs, (3015, 1027) p 1
// 38.8 -> 21.0 (31.2), (6541, 1249) p 1 79.7 -> 47.7 (63.1), (5236, 1215) p 3 70.6 -> 41.3 (116.1); three
// of ~15 µs 1.1-1.2x; over 1024 packs slower, 1.06-1.60 ((981, 6619) 35.5 -> 56.9). 0: block groups
// from 512 packs.
#ifndef INFINI_LP_NORM_RAGGED_F64_ROWS_MAX
#define INFINI_LP_NORM_RAGGED_F64_ROWS_MAX 1024
#endif

// Where block groups beat Rows (INFINI_LP_NORM_BLOCK_STREAM: measured there).
bool blockStreamPays(const Plan &plan) {
    const int64_t nv = rowPacks(plan);
    if (INFINI_LP_NORM_BLOCK_STREAM == 2) {
        return nv >= 512;
    }
    const size_t es = dtypeSize(plan.dtype);
    return plan.ragged ? es != 4 && nv >= 512 && !(es == 8 && nv <= INFINI_LP_NORM_RAGGED_F64_ROWS_MAX) : nv > 1024;
}

} // namespace

bool planStream(const InfiniopHandle &h, Plan &plan, bool warp_groups) {
    if (warp_groups && planStreamGroups(h, plan, 32)) {
        return true;
    }
    return INFINI_LP_NORM_BLOCK_STREAM && blockStreamPays(plan) && planStreamGroups(h, plan, kStreamThreads);
}

infiniStatus_t launchStreamKernel(const Plan &plan, const void *x, void *y, void *stream, const StreamPdl &pdl) {
    const cudaStream_t st = (cudaStream_t)stream;
    const bool on = plan.pdl_ok && pdlWanted(pdl.use, st);
    const size_t smem = on && pdl.two_per_sm ? plan.smem_max : streamSmem(plan);
    return withStreamKernel(plan, [&](auto kernel, auto t) {
        using T = decltype(t);
        const cudaError_t launched = launchKernel(kernel, plan.grid_x, plan.threads, smem, st, on, plan,
                                                  (const T *)x, (T *)y, pdl.trigger);
        const cudaError_t last = cudaGetLastError(); // cleared, as CUDA_TRY_LAUNCH does after <<<>>>
        CUDA_TRY(launched != cudaSuccess ? launched : last);
        return INFINI_STATUS_SUCCESS;
    });
}

// Stream plans exist only on sm_90 (planStream), where PDL is available; it is
// used only where the kernel's code really waits (plan.pdl_ok).
infiniStatus_t launchStream(const Plan &plan, const void *x, void *y, void *, void *stream) {
    return launchStreamKernel(plan, x, y, stream, kStreamPdl);
}

} // namespace infini::lp_norm::nvidia
