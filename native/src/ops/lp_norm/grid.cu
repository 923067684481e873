// LPNorm, long rows on sm_90: the Grid plan (issue 13; notes/lp_norm.md,
// "Session 10: the Grid plan"). Off in the library (INFINI_LP_NORM_GRID in
// nvidia.cc): on the H100 it ran 32x1M BF16 at 88-106 µs against Pipe's 63,
// bound by the records' round trip under a saturated memory system;
// tools/lpn7_bench.cu (LPN7_ONLY=grid, gridtrace) measures it from any build.
//
// One block an SM, all resident at once (a cooperative launch), and every
// block owns chunk b of every row: the whole GPU reads each row, so no row
// waits for a cluster to be free (the Pipe plan runs 7 clusters of 16 on the
// H100, 112 SMs, in rounds of rows). Each element is read from DRAM once:
// chunk b of row r is bulk-copied (cp.async.bulk) into slot r % N of the
// block's ring, N rows ahead. Per row r, in two steps `lag` rows apart:
//   publish:  the chunk's (max |x|, sum (|x| / max)^p), written to the
//             workspace as one flagged record (below);
//   finish:   once the block's merger warp has read every block's record of
//             the row and merged them in block order (the same bits in every
//             block), the chunk is scaled and stored, and its slot takes row
//             r + N (the roles are described above gridKernel).
// Records carry no separate counter: each 8 bytes of a record are 4 bytes of
// statistics and the flag r + 1 (a 16-byte store, whose 8-byte halves land
// whole), so a reader sees a record complete when every flag matches, with
// no fence on either side. The workspace holds anything when a call starts,
// so a memset clears the records first: a call is two operations on the
// stream, both graph-capturable.
#include "../../common/cuda/bulk_copy.cuh"
#include "cluster_launch.cuh"
#include "device.cuh"
#include <algorithm>

namespace infini::lp_norm::nvidia {

#ifdef INFINI_LP_NORM_GRID_TRACE
// tools/lpn7_bench.cu (LPN7_ONLY=gridtrace): %globaltimer per block and row at
// four points: the chunk landed, the record stored, every record seen, the
// chunk stored.
constexpr int kGridTraceBlocks = 256, kGridTraceRows = 64;
__device__ unsigned long long g_grid_trace[kGridTraceBlocks][kGridTraceRows][4];
__device__ __forceinline__ void gridTrace(int64_t b, int64_t r, int point) {
    if (threadIdx.x == 0 && b < kGridTraceBlocks && r < kGridTraceRows) {
        unsigned long long t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        g_grid_trace[b][r][point] = t;
    }
}
#else
__device__ __forceinline__ void gridTrace(int64_t, int64_t, int) {}
#endif

namespace {

constexpr int kGridThreads = 512, kGridWarps = kGridThreads / 32;
constexpr int kGridComputeWarps = kGridWarps - 2, kGridComputeThreads = kGridComputeWarps * 32; // + merger, producer
constexpr int kGridMaxPacks = 5; // packs a compute thread takes of a chunk
constexpr int64_t kGridMaxChunk = (int64_t)kGridComputeThreads * kGridMaxPacks; // packs a block owns of a row (35 KB)
constexpr int64_t kGridMinChunk = 128;                                   // 2 KB: shorter, the exchange dominates
constexpr int kGridMaxSlots = 16;
constexpr int kGridMaxPerLane = 5; // records a lane of the merger reads: grids of up to 160 blocks
constexpr size_t kGridBarrierBytes = 8 * kGridMaxSlots; // the slots' barriers, before the ring

// Dynamic shared memory a block may take: the device's opt-in limit less
// 3 KB for the kernel's static arrays (1.8-2.3 KB on sm_90).
int gridSmemLimit(const InfiniopHandle &h) { return h.max_shared_memory_per_block_optin - 3072; }
size_t gridSmem(const Plan &plan) { return kGridBarrierBytes + (size_t)plan.items * (size_t)plan.chunk_vecs * 16; }

// A block's record of one row: (m, s) in 16-byte words, each holding two
// 4-byte pieces of them beside two copies of the flag (1 word for F32 stats, 2 for F64).
template <class A>
constexpr int kRecordWords = (int)(2 * sizeof(A) / 8);
size_t recordBytes(infiniDtype_t dtype) { return dtype == INFINI_DTYPE_F64 ? 32 : 16; }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Records move at GPU scope: relaxed, no ordering needed beyond each 8-byte
// half landing whole (volatile, i.e. system scope, took ~3 µs a round trip
// on the H100 under load: notes/lp_norm.md, session 10).
__device__ __forceinline__ uint4 loadRecordWord(const uint4 *p) {
    uint4 v;
    asm volatile("ld.relaxed.gpu.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p)
                 : "memory");
    return v;
}
__device__ __forceinline__ void storeRecordWord(uint4 *p, uint4 v) {
    asm volatile("st.relaxed.gpu.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
}

// (m, s) <-> a record's words.
template <class A>
__device__ __forceinline__ void encodeRecord(Stats<A> st, uint32_t flag, uint4 (&w)[kRecordWords<A>]) {
    uint32_t piece[2 * kRecordWords<A>];
    memcpy(&piece[0], &st.m, sizeof(A));
    memcpy(&piece[kRecordWords<A>], &st.s, sizeof(A));
#pragma unroll
    for (int i = 0; i < kRecordWords<A>; ++i) {
        w[i] = make_uint4(piece[2 * i], flag, piece[2 * i + 1], flag);
    }
}
template <class A>
__device__ __forceinline__ Stats<A> decodeRecord(const uint4 (&w)[kRecordWords<A>]) {
    uint32_t piece[2 * kRecordWords<A>];
#pragma unroll
    for (int i = 0; i < kRecordWords<A>; ++i) {
        piece[2 * i] = w[i].x;
        piece[2 * i + 1] = w[i].z;
    }
    Stats<A> st;
    memcpy(&st.m, &piece[0], sizeof(A));
    memcpy(&st.s, &piece[kRecordWords<A>], sizeof(A));
    return st;
}
template <class A>
__device__ __forceinline__ bool recordHas(const uint4 (&w)[kRecordWords<A>], uint32_t flag) {
    bool ok = true;
#pragma unroll
    for (int i = 0; i < kRecordWords<A>; ++i) {
        ok &= w[i].y == flag && w[i].w == flag;
    }
    return ok;
}
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Shared-memory barriers between the block's roles (below): arrival counts 1
// (the copies' bytes; the merger's factor) and kGridComputeWarps (a slot read).
__device__ __forceinline__ void barrierInit(uint64_t *bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sharedAddress(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void barrierArrive(uint64_t *bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sharedAddress(bar)) : "memory");
}
// The compute warps' own barrier (named barrier 1; the producer and merger never wait on it).
__device__ __forceinline__ void computeSync() { asm volatile("bar.sync 1, %0;" ::"r"(kGridComputeThreads) : "memory"); }
#endif

// The block's roles, each its own pipeline so that no global-memory round
// trip sits on another's path (one loop doing all of them ran at ~4 µs a
// row, three serial ~1.3 µs waits under load: notes/lp_norm.md, session 10):
//   compute warps (0 .. kGridComputeWarps - 1): publish row k's record, then
//     scale and store row k - lag once its factor is in shared memory, and
//     free its slot;
//   merger (warp kGridComputeWarps): polls the records of rows j .. j + 3
//     (F64: j, j + 1; one round trip for them), merges each in block order,
//     posts factors;
//   producer (lane 0 of the last warp): refills each freed slot, N rows
//     ahead, with at most `depth` rows in flight.
template <class T, int VEC>
__global__ void __launch_bounds__(kGridThreads, 1) gridKernel(const Plan plan, const T *x, T *y, uint4 *records) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using A = ComputeType<T>;
    using P = Pack<T, VEC>;
    constexpr int W = kRecordWords<A>;
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ A red[2][2][kGridComputeWarps]; // [row parity][max, sum][warp]
    __shared__ A red_s[32];                    // the scaled fallback's sum
    __shared__ Factor<A> factors[kGridMaxSlots];
    __shared__ uint64_t posted[kGridMaxSlots], freed[kGridMaxSlots];
    uint64_t *full = reinterpret_cast<uint64_t *>(smem);
    uint4 *ring = reinterpret_cast<uint4 *>(smem + kGridBarrierBytes);
    const int slots = plan.items, lag = plan.tpr, pieces = plan.bx;
    const int lane = (int)threadIdx.x & 31, warp = (int)threadIdx.x >> 5;
    const int64_t blocks = gridDim.x, b = blockIdx.x, rows = plan.rows;
    const int64_t first = b * plan.chunk_vecs; // the chunk's first pack in a row
    const int count = (int)std::max<int64_t>(0, std::min<int64_t>(plan.chunk_vecs, plan.len / VEC - first));
    auto slotOf = [&](int64_t r) { return ring + (size_t)(r % slots) * (size_t)plan.chunk_vecs; };
    auto recordOf = [&](int64_t r, int64_t q) { return records + (r * blocks + q) * W; };
    auto issue = [&](int64_t r) { // the producer: chunk b of row r into its slot
        if (r >= rows || count == 0) {
            return;
        }
        int64_t ox, oy;
        outerOffsets(plan.outer, r, ox, oy);
        uint64_t *bar = &full[r % slots];
        bulkExpect(bar, (uint32_t)count * 16u);
        const int step = (count + pieces - 1) / pieces;
        for (int c = 0; c < count; c += step) {
            bulkCopy(slotOf(r) + c, x + ox + (first + c) * VEC, (uint32_t)min(step, count - c) * 16u, bar);
        }
    };
    if (threadIdx.x == 0) {
        for (int i = 0; i < slots; ++i) {
            bulkBarrierInit(&full[i]);
            barrierInit(&posted[i], 1);
            barrierInit(&freed[i], kGridComputeWarps);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads(); // the last block-wide barrier: the roles part here

    if (warp == kGridWarps - 1) { // the producer
        // At most `depth` rows in flight: more only lengthen every load's
        // queue (the records' polls included), not the bandwidth.
        const int64_t depth = plan.by;
        if (lane == 0) {
            for (int64_t r = 0; r < rows; ++r) {
                if (r >= slots) {
                    bulkWait(&freed[(r - slots) % slots], (uint32_t)(((r - slots) / slots) & 1)); // its slot read
                    asyncProxyFence(); // those reads before the copy's writes
                }
                if (r >= depth && count > 0) { // row r - depth landed (its slot is not reissued before r)
                    bulkWait(&full[(r - depth) % slots], (uint32_t)(((r - depth) / slots) & 1));
                }
                issue(r);
            }
        }
        return;
    }
    if (warp == kGridComputeWarps) { // the merger: kAhead rows a round trip
        constexpr int kAhead = W == 1 ? 4 : 2;
        uint4 held[kAhead][kGridMaxPerLane][W];
        auto fetch = [&](int h, int64_t j) {
#pragma unroll
            for (int i = 0; i < kGridMaxPerLane; ++i) {
                const int64_t q = lane + 32 * i;
                if (q < blocks) {
#pragma unroll
                    for (int w = 0; w < W; ++w) {
                        held[h][i][w] = loadRecordWord(recordOf(j, q) + w);
                    }
                }
            }
        };
        auto merge = [&](int h, int64_t j) {
            const uint32_t flag = (uint32_t)(j + 1);
            A ml = 0;
#pragma unroll
            for (int i = 0; i < kGridMaxPerLane; ++i) {
                const int64_t q = lane + 32 * i;
                if (q < blocks) {
                    while (!recordHas<A>(held[h][i], flag)) { // not yet published: ask again
                        __nanosleep(64);
#pragma unroll
                        for (int w = 0; w < W; ++w) {
                            held[h][i][w] = loadRecordWord(recordOf(j, q) + w);
                        }
                    }
                    ml = MaxNanOp{}(ml, decodeRecord<A>(held[h][i]).m);
                }
            }
            const A mx = warpReduce(ml, MaxNanOp{});
            A tl = 0;
            if (scaledSumNeeded(mx)) {
#pragma unroll
                for (int i = 0; i < kGridMaxPerLane; ++i) {
                    const Stats<A> st = decodeRecord<A>(held[h][i]);
                    if (lane + 32 * i < blocks && st.m > A(0)) {
                        tl += st.s * powInt(st.m / mx, plan.p);
                    }
                }
            }
            const A total = warpReduce(tl, SumOp{});
            if (lane == 0) {
                factors[j % slots] = rowFactor(mx, total, plan.p, plan.eps);
                barrierArrive(&posted[j % slots]); // release: the factor before the arrival
            }
        };
        for (int64_t j = 0; j < rows; j += kAhead) {
#pragma unroll
            for (int h = 0; h < kAhead; ++h) {
                if (j + h < rows) {
                    fetch(h, j + h);
                }
            }
#pragma unroll
            for (int h = 0; h < kAhead; ++h) {
                if (j + h < rows) {
                    merge(h, j + h);
                }
            }
        }
        return;
    }

    // The compute warps.
    auto forPacks = [&](int64_t r, auto &&f) { // f(pack, v) for each of this thread's packs of row r's slot
        const uint4 *slot = slotOf(r);
#pragma unroll
        for (int i = 0; i < kGridMaxPacks; ++i) {
            const int v = i * kGridComputeThreads + (int)threadIdx.x;
            if (v < count) {
                P pk;
                memcpy(&pk, &slot[v], 16);
                f(pk, v);
            }
        }
    };
    for (int64_t k = 0; k < rows + lag; ++k) {
        if (k < rows) { // publish row k's statistics of this chunk
            if (count > 0) {
                bulkWait(&full[k % slots], (uint32_t)((k / slots) & 1));
            }
            gridTrace(b, k, 0);
            A m = 0, t = 0; // max |x| and the unscaled sum in one pass
            withP(plan.p, [&](auto pc) {
                constexpr int kP = decltype(pc)::value;
                forPacks(k, [&](const P &pk, int) {
#pragma unroll
                    for (int e = 0; e < VEC; ++e) {
                        const A a = absA<A>(widen(pk.v[e]));
                        m = MaxNanOp{}(m, a);
                        t += powP<kP>(a, plan.p);
                    }
                });
            });
            m = warpReduce(m, MaxNanOp{});
            t = warpReduce(t, SumOp{});
            const int par = (int)(k & 1); // the other row's pair is read by no one now
            if (lane == 0) {
                red[par][0][warp] = m;
                red[par][1][warp] = t;
            }
            computeSync();
            m = red[par][0][0];
            t = red[par][1][0];
#pragma unroll
            for (int i = 1; i < kGridComputeWarps; ++i) {
                m = MaxNanOp{}(m, red[par][0][i]);
                t += red[par][1][i];
            }
            // m and t are uniform over the compute warps; the fallback reads the packs once more.
            const A s = scaledSumFrom(m, t, plan.p, [&](const Factor<A> &sc) {
                A part = 0;
                forPacks(k, [&](const P &pk, int) { addScaledPack<0>(part, pk, sc, plan.p); });
                part = warpReduce(part, SumOp{});
                if (lane == 0) {
                    red_s[warp] = part;
                }
                computeSync();
                part = red_s[0];
                for (int i = 1; i < kGridComputeWarps; ++i) {
                    part += red_s[i];
                }
                computeSync(); // red_s is read before a later row rewrites it
                return part;
            });
            if (threadIdx.x == 0) {
                uint4 w[W];
                encodeRecord(Stats<A>{m, s}, (uint32_t)(k + 1), w);
#pragma unroll
                for (int i = 0; i < W; ++i) {
                    storeRecordWord(recordOf(k, b) + i, w[i]);
                }
            }
            gridTrace(b, k, 1);
        }
        const int64_t j = k - lag;
        if (j < 0) {
            continue;
        }
        // Finish row j once the merger has posted its factor.
        bulkWait(&posted[j % slots], (uint32_t)((j / slots) & 1));
        gridTrace(b, j, 2);
        const Factor<A> f = factors[j % slots];
        int64_t ox, oy;
        outerOffsets(plan.outer, j, ox, oy);
        T *yr = y + oy + first * VEC;
        forPacks(j, [&](const P &pk, int v) { stPack<T, VEC>(yr + (int64_t)v * VEC, scalePack(pk, f), plan.cs); });
        __syncwarp();
        if (lane == 0) {
            barrierArrive(&freed[j % slots]); // this warp's reads of the slot are done
        }
        gridTrace(b, j, 3);
    }
#else
    __trap(); // planned only where kernelCompiledFor(..., 90)
#endif
}

template <class F>
infiniStatus_t withGridKernel(infiniDtype_t dtype, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        return f(gridKernel<T, 16 / sizeof(T)>, T{});
    });
}

} // namespace

bool planGrid(const InfiniopHandle &h, Plan &plan, const GridTuning &tune) {
    const int64_t es = (int64_t)dtypeSize(plan.dtype);
    const int64_t nv = plan.len / plan.vec; // packs a row
    if (h.cc_major < 9 || plan.vec * es != 16 || plan.rows < 1 || h.sm_count < 1) {
        return false;
    }
    int coop = 0;
    if (cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, h.device_id) != cudaSuccess || coop == 0) {
        cudaGetLastError();
        return false;
    }
    const int64_t blocks = h.sm_count;
    // Chunks start on 128-byte boundaries (whole L2 lines for the bulk copies) unless tuned otherwise.
    const int64_t align = std::max(1, tune.align_packs);
    const int64_t chunk = ceilDiv(ceilDiv(nv, blocks), align) * align;
    if (blocks > 32 * kGridMaxPerLane || chunk < kGridMinChunk || chunk > kGridMaxChunk) {
        return false; // more records than the merger holds, or chunks too short or too long
    }
    // The ring: as many rows' chunks as the block's shared memory takes (at
    // most kGridMaxSlots, no more than the rows), and the lag inside it with
    // at least one row of reads ahead of the one being summed.
    const int64_t room = ((int64_t)gridSmemLimit(h) - (int64_t)kGridBarrierBytes) / (chunk * 16);
    int64_t slots = std::min<int64_t>({room, (int64_t)kGridMaxSlots, plan.rows});
    if (tune.slots > 0) {
        slots = std::min<int64_t>(slots, tune.slots);
    }
    const int64_t lag = std::max<int64_t>(0, std::min<int64_t>(tune.lag, slots - 2));
    if (slots < 1 || (plan.rows > slots && slots < 3)) {
        return false;
    }
    Plan g = plan;
    g.kind = Kind::Grid;
    g.threads = kGridThreads;
    g.tpr = (int)lag;
    g.bx = std::max(1, tune.pieces);
    g.by = (int)std::clamp<int64_t>(tune.depth, 1, slots); // deeper, its wait would name a reused slot's old phase
    g.items = (int)slots;
    g.chunks = blocks;
    g.chunk_vecs = chunk;
    g.grid_x = (unsigned)blocks;
    g.smem_max = gridSmem(g);
    g.cs = true; // y is written once and not read again by this call
    g.workspace = (size_t)plan.rows * (size_t)blocks * recordBytes(plan.dtype);
    int per_sm = 0;
    withGridKernel(plan.dtype, [&](auto kernel, auto) {
        per_sm = kernelCompiledFor(kernel, 90) ? blocksPerSmOf(kernel, kGridThreads, g.smem_max, gridSmemLimit(h)) : 0;
        return INFINI_STATUS_SUCCESS;
    });
    if (per_sm < 1) {
        return false;
    }
    plan = g;
    return true;
}

infiniStatus_t launchGrid(const Plan &plan, const void *x, void *y, void *workspace, void *stream) {
    const cudaStream_t st = (cudaStream_t)stream;
    CUDA_TRY(cudaMemsetAsync(workspace, 0, plan.workspace, st)); // no record of this call yet
    return withGridKernel(plan.dtype, [&](auto kernel, auto t) {
        using T = decltype(t);
        LaunchConfig config(dim3(plan.grid_x), dim3(kGridThreads), plan.smem_max, st);
        config.cooperative(); // every block resident: the blocks wait for each other
        CUDA_TRY(cudaLaunchKernelEx(config.get(), kernel, plan, (const T *)x, (T *)y, static_cast<uint4 *>(workspace)));
        return INFINI_STATUS_SUCCESS;
    });
}

} // namespace infini::lp_norm::nvidia
