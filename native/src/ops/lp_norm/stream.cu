// LPNorm for many rows of a few KB (sm_90): a persistent grid in which each
// warp streams its rows (g, g + W, ... for W warps) through a private ring of
// `depth` row slots in shared memory (cp.async). While the warp reduces,
// scales and stores one row, the next depth - 1 are in flight, so the memory
// system never waits for blocks to start or for a block's loads to drain,
// and no block barrier is needed (a lane reads only the packs it copied).
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

constexpr int kStreamWarps = 4; // per block
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
// the last copies only the row's bytes (cp.async fills the rest with zeros).
// Stores write only the row's elements.
template <class T, bool RAGGED = false>
__global__ void __launch_bounds__(kStreamWarps * 32, kStreamBlocksPerSm)
    streamKernel(const Plan plan, const T *__restrict__ x, T *y, PdlTrigger trigger) {
    using A = ComputeType<T>;
    constexpr int VEC = 16 / sizeof(T);
    using P = Pack<T, VEC>;
    extern __shared__ int4 stream_smem[];
    const int lane = threadIdx.x & 31, depth = plan.items;
    // Slot packs: a row's (the most a ragged row spans).
    const int64_t nv = RAGGED ? rowPacks(plan) : plan.len / VEC, warps = (int64_t)gridDim.x * kStreamWarps;
    const int64_t g = (int64_t)blockIdx.x * kStreamWarps + (threadIdx.x >> 5);
    P *ring = reinterpret_cast<P *>(stream_smem) + (threadIdx.x >> 5) * depth * nv;
    // Nothing global before the wait: the previous kernel may still write x
    // or read y. The trigger is a hint (the next call's wait still waits for
    // our completion), so any place is correct; placed late, the next grid's
    // blocks wait on SMs for a shorter time.
    pdlWaitPrevious();
    if (trigger == PdlTrigger::Entry) {
        pdlAllowNext();
    }

    // The i-th row of this warp into slot i % depth (one group either way).
    auto issue = [&](int64_t i) {
        const int64_t r = g + i * warps;
        if (r < plan.rows) {
            int64_t ox, oy;
            outerOffsets(plan.outer, r, ox, oy);
            if constexpr (RAGGED) {
                const RowPacks<T, VEC, true> row(x + ox, plan.len);
                const T *xr = x + ox - row.head;
                P *slot = ring + (i % depth) * nv;
                for (int64_t v = lane; v < row.packs; v += 32) {
                    copyAsync16(slot + v, xr + v * VEC, v < row.packs - 1 ? 16 : row.last * (int)sizeof(T));
                }
            } else {
                const T *xr = x + ox;
                P *slot = ring + (i % depth) * nv;
                for (int64_t v = lane; v < nv; v += 32) {
                    copyAsync16(slot + v, xr + v * VEC, 16);
                }
            }
            if (trigger == PdlTrigger::LastLoad && r + warps >= plan.rows) {
                pdlAllowNext(); // this warp's last loads are issued
            }
        }
        commitAsyncGroup();
    };
    for (int i = 0; i < depth; ++i) {
        issue(i);
    }
    for (int64_t i = 0; g + i * warps < plan.rows; ++i) {
        if (trigger == PdlTrigger::LastRow && g + (i + 1) * warps >= plan.rows) {
            pdlAllowNext(); // only this row's reduction and stores are left
        }
        waitAsyncGroups(depth - 1); // groups committed: depth + i; row i's is group i
        P *slot = ring + (i % depth) * nv;
        int64_t rp = nv; // the row's packs
        if constexpr (RAGGED) {
            int64_t ox, oy;
            outerOffsets(plan.outer, g + i * warps, ox, oy);
            const RowPacks<T, VEC, RAGGED> row(x + ox, plan.len);
            rp = row.packs;
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
        withP(plan.p, [&](auto pc) {
            constexpr int kP = decltype(pc)::value;
            for (int64_t v = lane; v < rp; v += 32) {
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
        t = warpReduce(t, SumOp{});
        Factor<A> f;
        if (plainSumUsable(t)) {
            f = plainFactor(t, plan.p, plan.eps);
        } else { // warp-uniform: zeros, NaN, inf or extreme values take the two steps
            A m = 0;
            for (int64_t v = lane; v < rp; v += 32) {
                const P pk = slot[v];
#pragma unroll
                for (int e = 0; e < VEC; ++e) {
                    m = absMax(m, widen(pk.v[e]));
                }
            }
            m = warpReduce(m, MaxNanOp{});
            A s = 0;
            if (scaledSumNeeded(m)) {
                const Factor<A> sc = sumScale(m);
                for (int64_t v = lane; v < rp; v += 32) {
                    addScaledPack<0>(s, slot[v], sc, plan.p);
                }
            }
            f = rowFactor(m, warpReduce(s, SumOp{}), plan.p, plan.eps);
        }
        int64_t ox, oy;
        outerOffsets(plan.outer, g + i * warps, ox, oy);
        if constexpr (RAGGED) {
            const RowPacks<T, VEC, true> row(x + ox, plan.len); // as above
            T *yr = y + oy - row.head;
            for (int64_t v = lane; v < rp; v += 32) {
                const P out = scalePack(slot[v], f);
                int lo, hi;
                row.span(v, lo, hi);
                if (hi - lo == VEC) {
                    stPack<T, VEC>(yr + v * VEC, out, plan.cs);
                } else {
                    storePartialPack(yr + v * VEC, out, lo, hi);
                }
            }
        } else {
            T *yr = y + oy;
            for (int64_t v = lane; v < nv; v += 32) {
                stPack<T, VEC>(yr + v * VEC, scalePack(slot[v], f), plan.cs);
            }
        }
        issue(i + depth); // the slot is free: each lane rewrites only what it has just stored
    }
}

template <class F>
infiniStatus_t withStreamKernel(infiniDtype_t dtype, bool ragged, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        return ragged ? f(streamKernel<T, true>, T{}) : f(streamKernel<T>, T{});
    });
}

size_t streamSmem(const Plan &plan) { return (size_t)kStreamWarps * plan.items * rowPacks(plan) * 16; }

// The kernel's shared-memory limit: the same value for every plan (a smaller
// one set by a later plan would break the plans made before it), and with
// the 1 KB each block reserves, too much for a third block on an SM.
size_t streamSmemBudget(const InfiniopHandle &h) {
    return (size_t)h.max_shared_memory_per_block_optin / kStreamBlocksPerSm - 2048;
}

} // namespace

bool planStream(const InfiniopHandle &h, Plan &plan) {
    const int64_t nv = rowPacks(plan);
    const int64_t warps = (int64_t)h.sm_count * kStreamBlocksPerSm * kStreamWarps;
    const size_t budget = streamSmemBudget(h);
    const int64_t depth = std::min<int64_t>(kStreamMaxDepth, (int64_t)(budget / ((size_t)kStreamWarps * nv * 16)));
    // Whole 16-byte packs; rows a block per row would take (> 4 KB), enough
    // of them for two per warp (so that the last rows do not leave SMs idle).
    if (h.cc_major < 9 || plan.vec * (int64_t)dtypeSize(plan.dtype) != 16 || nv <= 128 || depth < 2 ||
        plan.rows < 2 * warps) {
        return false;
    }
    Plan s = plan;
    s.kind = Kind::Stream;
    s.threads = kStreamWarps * 32;
    s.tpr = 32;
    s.items = (int)depth;
    s.smem_max = budget;
    // As many rows for every warp (4096 rows: 1024 warps of 4, not 1056 warps
    // of which 128 idle in the last round).
    const int64_t rounds = (plan.rows + warps - 1) / warps;
    const int64_t used = (plan.rows + rounds - 1) / rounds;
    s.grid_x = (unsigned)((used + kStreamWarps - 1) / kStreamWarps);
    int per_sm = 0;
    withStreamKernel(plan.dtype, plan.ragged, [&](auto kernel, auto) {
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

infiniStatus_t launchStreamKernel(const Plan &plan, const void *x, void *y, void *stream, const StreamPdl &pdl) {
    const cudaStream_t st = (cudaStream_t)stream;
    const bool on = plan.pdl_ok && pdlWanted(pdl.use, st);
    const size_t smem = on && pdl.two_per_sm ? plan.smem_max : streamSmem(plan);
    return withStreamKernel(plan.dtype, plan.ragged, [&](auto kernel, auto t) {
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
