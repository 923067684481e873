// LPNorm for many rows of 2-16 KB on sm_90: the Ring plan (issue 13, 4096²
// F16 toward 85% of the copy roofline; notes/lp_norm.md, "Session 10: the
// Ring plan"). Built behind -DINFINI_LP_NORM_RING=1 in nvidia.cc (default 0:
// the Stream plan, stream.cu); tools/pdl6_bench.cu (PDL6_ONLY=ring) times it
// against Stream and a copy from any build.
//
// What differs from Stream, which gives each warp its own rows:
//  - a whole block (128 threads, 4 packs a thread for 8 KB rows) works on one
//    row at a time, so the chain from a row's arrival to its last store is ~4x
//    shorter (the drain at the end of the grid is one such chain);
//  - rows arrive by one bulk copy each (cp.async.bulk, common/cuda/bulk_copy.cuh)
//    into a ring of plan.items row slots a block, one mbarrier a slot, issued
//    by thread 0 (Stream: 16 cp.async a lane a row);
//  - a thread reads its packs from shared memory once, into registers; the
//    sum uses one accumulator per element of a pack (VEC chains of 4, not one
//    of 32 FMAs) and the scale works from the registers;
//  - the slot is refilled (row i + slots) right after the block's partial-sum
//    barrier, i.e. before this row's factor and stores;
//  - the grid is SMs x blocks_per_sm blocks, block b taking rows b, b + G, ...
//
// The factor is the same in every thread of the block (the warps' partials are
// folded in warp order by every thread), so the scaled fallback (NaN, inf,
// zeros, sums out of range: math.h) is a block-uniform branch with its own two
// barriers. Eager calls use PDL as Stream's do (kStreamPdl's policy, trigger at
// entry).
#include "../../common/cuda/bulk_copy.cuh"
#include "../../common/cuda/pdl.cuh"
#include "device.cuh"
#include <algorithm>

namespace infini::lp_norm::nvidia {

namespace {

constexpr int kRingMaxThreads = 256, kRingMaxWarps = kRingMaxThreads / 32;
constexpr int kRingItems = 4; // packs a thread holds: rows of at most 4 x threads packs
constexpr int kRingMaxSlots = 32;
constexpr size_t kRingBarrierBytes = 8 * kRingMaxSlots; // the slots' barriers, before the ring

size_t ringSmem(const Plan &plan) { return kRingBarrierBytes + (size_t)plan.items * (size_t)(plan.len / plan.vec) * 16; }

template <class T>
__global__ void __launch_bounds__(kRingMaxThreads, 2) ringKernel(const Plan plan, const T *__restrict__ x, T *y) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using A = ComputeType<T>;
    constexpr int VEC = 16 / sizeof(T);
    using P = Pack<T, VEC>;
    extern __shared__ __align__(128) unsigned char ring_smem[];
    // Per row, alternating (a thread writes row i + 2's partials only after
    // row i + 1's barrier, which every reader of row i's has passed).
    __shared__ A part_t[2][kRingMaxWarps], part_m[2][kRingMaxWarps], part_s[2][kRingMaxWarps];
    uint64_t *full = reinterpret_cast<uint64_t *>(ring_smem);
    uint4 *ring = reinterpret_cast<uint4 *>(ring_smem + kRingBarrierBytes);
    const int slots = plan.items, nv = (int)(plan.len / VEC);
    const int tid = (int)threadIdx.x, nthreads = (int)blockDim.x, lane = tid & 31, warp = tid >> 5;
    const int nwarps = nthreads >> 5;
    const int64_t grid = gridDim.x, b = blockIdx.x;
    const int rows = b < plan.rows ? (int)((plan.rows - b + grid - 1) / grid) : 0;
    const uint32_t row_bytes = (uint32_t)nv * 16u;
    // Nothing global before the wait (a PDL launch: the previous kernel may
    // still write x or read y); the trigger at entry as Stream's default.
    pdlWaitPrevious();
    pdlAllowNext();

    // Over the block, the same value in every thread: the warps' values in
    // `buf` (one barrier), folded in warp order.
    auto blockReduce = [&](A v, A *buf, auto op) {
        v = warpReduce(v, op);
        if (lane == 0) {
            buf[warp] = v;
        }
        __syncthreads();
        A r = buf[0];
        for (int w = 1; w < nwarps; ++w) {
            r = op(r, buf[w]);
        }
        return r;
    };
    // Thread 0: this block's i-th row into slot i % slots (nothing past its rows).
    auto issue = [&](int i) {
        if (i < rows) {
            int64_t ox, oy;
            outerOffsets(plan.outer, b + (int64_t)i * grid, ox, oy);
            const int slot = i % slots;
            bulkExpect(&full[slot], row_bytes);
            bulkCopy(ring + (size_t)slot * nv, x + ox, row_bytes, &full[slot]);
        }
    };
    if (tid == 0) {
        for (int s = 0; s < slots; ++s) {
            bulkBarrierInit(&full[s]);
        }
        for (int i = 0; i < slots; ++i) {
            issue(i);
        }
    }
    __syncthreads();

    for (int i = 0; i < rows; ++i) {
        const int slot = i % slots, par = i & 1;
        bulkWait(&full[slot], (uint32_t)(i / slots) & 1u);
        const uint4 *src = ring + (size_t)slot * nv;
        P pk[kRingItems];
#pragma unroll
        for (int k = 0; k < kRingItems; ++k) {
            const int v = k * nthreads + tid;
            const uint4 w = v < nv ? src[v] : make_uint4(0, 0, 0, 0); // zeros count for nothing
            memcpy(&pk[k], &w, 16);
        }
        // The one-pass sum, one accumulator per element position of a pack.
        A t = 0;
        withP(plan.p, [&](auto pc) {
            constexpr int kP = decltype(pc)::value;
            A acc[VEC];
#pragma unroll
            for (int e = 0; e < VEC; ++e) {
                acc[e] = 0;
            }
#pragma unroll
            for (int k = 0; k < kRingItems; ++k) {
#pragma unroll
                for (int e = 0; e < VEC; ++e) {
                    acc[e] += powP<kP>(absA<A>(wideAt(pk[k], e)), plan.p);
                }
            }
#pragma unroll
            for (int e = 0; e < VEC; ++e) {
                t += acc[e];
            }
        });
        const A total = blockReduce(t, part_t[par], SumOp{}); // past its barrier every thread holds its packs
        if (tid == 0) { // so the slot is free
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); // the block's reads before the copy's writes
            issue(i + slots);
        }
        Factor<A> f;
        if (plainSumUsable(total)) {
            f = plainFactor(total, plan.p, plan.eps);
        } else { // block-uniform (every thread folded the same partials): zeros, NaN, inf, extremes
            A m = 0;
#pragma unroll
            for (int k = 0; k < kRingItems; ++k) {
#pragma unroll
                for (int e = 0; e < VEC; ++e) {
                    m = absMax(m, wideAt(pk[k], e));
                }
            }
            const A mm = blockReduce(m, part_m[par], MaxNanOp{});
            A s = 0;
            if (scaledSumNeeded(mm)) {
                const Factor<A> sc = sumScale(mm);
#pragma unroll
                for (int k = 0; k < kRingItems; ++k) {
#pragma unroll
                    for (int e = 0; e < VEC; ++e) {
                        s += powP<0>(sc.apply(absA<A>(wideAt(pk[k], e))), plan.p);
                    }
                }
            }
            f = rowFactor(mm, blockReduce(s, part_s[par], SumOp{}), plan.p, plan.eps);
        }
        int64_t ox, oy;
        outerOffsets(plan.outer, b + (int64_t)i * grid, ox, oy);
        T *yr = y + oy;
#pragma unroll
        for (int k = 0; k < kRingItems; ++k) {
            const int v = k * nthreads + tid;
            if (v < nv) {
                stPack<T, VEC>(yr + (int64_t)v * VEC, scalePack(pk[k], f), plan.cs);
            }
        }
    }
#else
    __trap(); // planned only where kernelCompiledFor(..., 90)
#endif
}

template <class F>
infiniStatus_t withRingKernel(infiniDtype_t dtype, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        return f(ringKernel<T>, T{});
    });
}

} // namespace

bool planRing(const InfiniopHandle &h, Plan &plan, const RingTuning &tune) {
    const int64_t es = (int64_t)dtypeSize(plan.dtype);
    const int64_t nv = plan.len / std::max(plan.vec, 1);
    const int bps = std::clamp(tune.blocks_per_sm, 1, 2);
    const int threads = tune.threads > 0 ? tune.threads : nv <= 128 * kRingItems ? 128 : 256;
    const int64_t blocks_max = (int64_t)h.sm_count * bps;
    // 16-byte packs, rows a block per row would take (> 2 KB; the same lower
    // bound as Stream), held by the block (<= kRingItems packs a thread), at
    // least two rows a block.
    if (h.cc_major < 9 || plan.vec * es != 16 || nv <= 128 || threads % 32 != 0 || threads > kRingMaxThreads ||
        nv > (int64_t)threads * kRingItems || plan.rows < 2 * blocks_max) {
        return false;
    }
    int static_smem = 0;
    const infiniStatus_t st = withRingKernel(plan.dtype, [&](auto kernel, auto) {
        if (!kernelCompiledFor(kernel, 90)) { // a build without sm_90 code: the kernel traps
            return INFINI_STATUS_NOT_IMPLEMENTED;
        }
        cudaFuncAttributes attr{};
        if (cudaFuncGetAttributes(&attr, kernel) != cudaSuccess) {
            return INFINI_STATUS_INTERNAL_ERROR;
        }
        static_smem = (int)attr.sharedSizeBytes;
        // The same limit for every plan (a smaller one set by a later plan would
        // break the plans made before it): all a block may take.
        return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)h.max_shared_memory_per_block_optin - static_smem) == cudaSuccess
                   ? INFINI_STATUS_SUCCESS
                   : INFINI_STATUS_INTERNAL_ERROR;
    });
    cudaGetLastError(); // a refusal above is an answer, not an error to report later
    if (st != INFINI_STATUS_SUCCESS) {
        return false;
    }
    // A block's share of the SM (1 KB of each block's shared memory is the
    // system's, as in streamSmemBudget), less its static arrays and barriers.
    const int64_t budget = (int64_t)h.max_shared_memory_per_block_optin / bps - 2048;
    const int64_t room = (budget - static_smem - (int64_t)kRingBarrierBytes) / (nv * 16);
    const int64_t slots = std::min<int64_t>({tune.slots > 0 ? tune.slots : kRingMaxSlots, room, kRingMaxSlots});
    if (slots < 2) {
        return false;
    }
    Plan r = plan;
    r.kind = Kind::Ring;
    r.threads = threads;
    r.tpr = threads;
    r.items = (int)slots;
    r.smem_max = (size_t)(budget - static_smem);
    int64_t blocks = blocks_max;
    if (tune.balanced) { // as many rows in every block (4096 rows: 256 blocks of 16, not 264 of 15-16)
        const int64_t rounds = (plan.rows + blocks_max - 1) / blocks_max;
        blocks = (plan.rows + rounds - 1) / rounds;
    }
    r.grid_x = (unsigned)blocks;
    int per_sm = 0;
    const infiniStatus_t occ = withRingKernel(plan.dtype, [&](auto kernel, auto) {
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, r.threads, ringSmem(r)) != cudaSuccess) {
            return INFINI_STATUS_INTERNAL_ERROR;
        }
        r.pdl_ok = kernelHonoursPdl(kernel);
        return INFINI_STATUS_SUCCESS;
    });
    cudaGetLastError();
    if (occ != INFINI_STATUS_SUCCESS || per_sm < bps) {
        return false;
    }
    plan = r;
    return true;
}

infiniStatus_t launchRingKernel(const Plan &plan, const void *x, void *y, void *stream, PdlPolicy use) {
    const cudaStream_t st = (cudaStream_t)stream;
    const bool on = plan.pdl_ok && pdlWanted(use, st);
    // With PDL, the block's whole share: the next call's waiting blocks take
    // only room that ours have left (Stream's two_per_sm).
    const size_t smem = on ? plan.smem_max : ringSmem(plan);
    return withRingKernel(plan.dtype, [&](auto kernel, auto t) {
        using T = decltype(t);
        const cudaError_t launched =
            launchKernel(kernel, plan.grid_x, plan.threads, smem, st, on, plan, (const T *)x, (T *)y);
        const cudaError_t last = cudaGetLastError();
        CUDA_TRY(launched != cudaSuccess ? launched : last);
        return INFINI_STATUS_SUCCESS;
    });
}

// Eager calls with PDL, captured ones plain, as the Stream plan (kStreamPdl).
infiniStatus_t launchRing(const Plan &plan, const void *x, void *y, void *, void *stream) {
    return launchRingKernel(plan, x, y, stream, PdlPolicy::NotCapturing);
}

} // namespace infini::lp_norm::nvidia
