// How fast can an SM read from DRAM when nothing is written beside it? (issue
// 13; notes/lp_norm.md, "Session 17": Hold's traces read 13-16 GB/s an SM
// whatever the total, which would cap any read-only phase on 132 SMs near
// 2.1 TB/s.) One block an SM (the shared memory forces it) streams its own
// contiguous range through a ring of 16 KB bulk copies (the way Pipe, Sweep
// and Hold read) and sums one word a pack so that the data is used; a
// second form reads with the threads' own 16-byte loads, 8 in flight each.
// For 8, 16, 33, 66 and 132 blocks, and per-block sizes of 254 KB and 508 KB
// (Hold's pieces at 16 and 32 x 1M BF16): graph µs a launch (median of 5
// rounds, the buffers together past L2), total GB/s and GB/s a block; then the
// same with 132 blocks of which half also write as much as they read (a copy),
// to see whether writing beside the reads moves the read rate. With a second
// argument --async (session 19): 132 blocks only, bulk, the threads' loads and
// per-thread async copies (cp.async) through rings of 4, 8 and 13 tiles.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include -Inative/src \
//        -DINFINI_WITH_NVIDIA tools/readrate_probe.cu -o build/readrate_probe && build/readrate_probe [out.txt [--async]]
#include "../native/src/common/cuda/bulk_copy.cuh"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_util.cuh"

namespace readrate {

using namespace bench;

constexpr int kThreads = 512, kTileBytes = 16 << 10, kTilePacks = kTileBytes / 16, kSlots = 13;
constexpr size_t kSmem = 8 * 16 + (size_t)kSlots * kTileBytes; // the barriers, then the ring

__device__ unsigned g_sink; // keeps the sums alive

// Bulk copies: block b reads packs [b * per, (b + 1) * per) of x; with `write`,
// blocks of odd index also store each tile to y at the same place.
__global__ void __launch_bounds__(kThreads, 1) bulkRead(const uint4 *x, uint4 *y, int per, bool write) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(128) unsigned char smem[];
    uint64_t *full = reinterpret_cast<uint64_t *>(smem);
    uint4 *ring = reinterpret_cast<uint4 *>(smem + 8 * 16);
    const uint4 *src = x + (size_t)blockIdx.x * per;
    const int tiles = (per + kTilePacks - 1) / kTilePacks;
    auto issue = [&](int s) {
        if (s < tiles) {
            const int packs = min(kTilePacks, per - s * kTilePacks);
            infini::bulkExpect(&full[s % kSlots], (uint32_t)packs * 16u);
            infini::bulkCopy(ring + (size_t)(s % kSlots) * kTilePacks, src + (size_t)s * kTilePacks,
                             (uint32_t)packs * 16u, &full[s % kSlots]);
        }
    };
    if (threadIdx.x == 0) {
        for (int i = 0; i < kSlots; ++i) {
            infini::bulkBarrierInit(&full[i]);
        }
        for (int s = 0; s < kSlots; ++s) {
            issue(s);
        }
    }
    __syncthreads();
    const bool writer = write && (blockIdx.x & 1);
    unsigned acc = 0;
    for (int s = 0; s < tiles; ++s) {
        infini::bulkWait(&full[s % kSlots], (uint32_t)(s / kSlots) & 1u);
        const uint4 *tile = ring + (size_t)(s % kSlots) * kTilePacks;
        const int packs = min(kTilePacks, per - s * kTilePacks);
        for (int i = threadIdx.x; i < packs; i += kThreads) {
            const uint4 w = tile[i];
            acc ^= w.x;
            if (writer) {
                __stcs(y + (size_t)blockIdx.x * per + (size_t)s * kTilePacks + i, w);
            }
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            issue(s + kSlots);
        }
    }
    if (acc == 0x9e3779b9u) {
        g_sink = acc;
    }
#endif
}

// The threads' own loads, 8 packs in flight each (the shared memory only keeps one block an SM).
__global__ void __launch_bounds__(kThreads, 1) threadRead(const uint4 *x, int per) {
    const uint4 *src = x + (size_t)blockIdx.x * per;
    unsigned acc = 0;
    for (int base = 0; base < per; base += 8 * kThreads) {
        uint4 w[8];
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            const int i = base + k * kThreads + threadIdx.x;
            w[k] = i < per ? __ldcs(src + i) : make_uint4(0, 0, 0, 0);
        }
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            acc ^= w[k].x;
        }
    }
    if (acc == 0x9e3779b9u) {
        g_sink = acc;
    }
}

// Per-thread async copies (cp.async, 16 bytes each): every thread streams its
// own packs (two a tile, as Hold's workers take theirs) into its own places of
// a ring of S tiles, S - 1 tiles in flight, and reads them back when its copy
// group completes. No barrier: a thread reuses only the places it has read.
// (Would Hold's read phase reach the threads' load rate this way?)
template <int S>
__global__ void __launch_bounds__(kThreads, 1) asyncRead(const uint4 *x, int per) {
    extern __shared__ __align__(128) unsigned char smem[];
    uint4 *ring = reinterpret_cast<uint4 *>(smem);
    const uint4 *src = x + (size_t)blockIdx.x * per;
    constexpr int kTile = 2 * kThreads; // packs a tile
    const int tiles = (per + kTile - 1) / kTile;
    auto issue = [&](int s) {
        if (s < tiles) {
#pragma unroll
            for (int k = 0; k < 2; ++k) {
                const int i = s * kTile + k * kThreads + (int)threadIdx.x;
                if (i < per) {
                    const unsigned dst = (unsigned)__cvta_generic_to_shared(ring + (size_t)(s % S) * kTile + k * kThreads +
                                                                            threadIdx.x);
                    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src + i) : "memory");
                }
            }
        }
        asm volatile("cp.async.commit_group;" ::: "memory");
    };
    for (int s = 0; s < S - 1; ++s) {
        issue(s);
    }
    unsigned acc = 0;
    for (int s = 0; s < tiles; ++s) {
        issue(s + S - 1);
        asm volatile("cp.async.wait_group %0;" ::"n"(S - 1) : "memory");
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const int i = s * kTile + k * kThreads + (int)threadIdx.x;
            if (i < per) {
                acc ^= ring[(size_t)(s % S) * kTile + k * kThreads + threadIdx.x].x;
            }
        }
    }
    if (acc == 0x9e3779b9u) {
        g_sink = acc;
    }
}

} // namespace readrate

int main(int argc, char **argv) {
    using namespace readrate;
    const cudaDeviceProp prop = openReport(argc, argv);
    CHECK_CUDA(cudaFuncSetAttribute(bulkRead, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kSmem));
    CHECK_CUDA(cudaFuncSetAttribute(threadRead, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kSmem));
    const int sms = prop.multiProcessorCount;
    const size_t most = (size_t)sms * (508 << 10);
    // Buffer sets rotated so that together they are past L2 three times.
    const int sets = (int)std::max<size_t>(2, (3 * (size_t)prop.l2CacheSize) / most + 1);
    std::vector<uint4 *> xs(sets), ys(sets);
    for (int s = 0; s < sets; ++s) {
        CHECK_CUDA(cudaMalloc(&xs[s], most));
        CHECK_CUDA(cudaMalloc(&ys[s], most));
        CHECK_CUDA(cudaMemset(xs[s], 0x3c, most));
    }
    cudaStream_t st;
    CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    StreamTimer timer(st);
    say("form     blocks  KB a block   µs a launch   total GB/s   GB/s a block\n");
    // (threads: 0 bulk, 1 the threads' loads, 4 / 8 / 13: per-thread async copies with that many tiles)
    const size_t async_smem[] = {4, 8, 13};
    for (const size_t a : async_smem) {
        auto k = a == 4 ? asyncRead<4> : a == 8 ? asyncRead<8> : asyncRead<13>;
        CHECK_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(a * 2 * kThreads * 16)));
    }
    auto run = [&](const char *form, int blocks, int kb, bool write, int threads) {
        const int per = (kb << 10) / 16;
        const int calls = 2 * sets;
        cudaGraphExec_t ge = timer.capture(calls, [&](int i) {
            if (threads == 1) {
                threadRead<<<blocks, kThreads, kSmem, st>>>(xs[i % sets], per);
            } else if (threads > 1) {
                auto k = threads == 4 ? asyncRead<4> : threads == 8 ? asyncRead<8> : asyncRead<13>;
                k<<<blocks, kThreads, (size_t)threads * 2 * kThreads * 16, st>>>(xs[i % sets], per);
            } else {
                bulkRead<<<blocks, kThreads, kSmem, st>>>(xs[i % sets], ys[i % sets], per, write);
            }
            CHECK_CUDA(cudaGetLastError());
        });
        std::vector<double> us;
        for (int r = 0; r < 5; ++r) {
            us.push_back(timer.graphUs(ge, 10, calls));
        }
        CHECK_CUDA(cudaGraphExecDestroy(ge));
        const double t = median(us), read = (double)blocks * per * 16;
        const double moved = read * (write ? 1.5 : 1.0); // half the blocks write what they read
        say("%-8s %6d %11d %13.2f %12.0f %14.1f\n", form, blocks, kb, t, moved / 1e3 / t, read / blocks / 1e3 / t);
    };
    if (argc > 2 && std::string(argv[2]) == "--async") { // session 19: the full grid only
        for (int kb : {254, 508}) {
            run("bulk", sms, kb, false, 0);
            run("threads", sms, kb, false, 1);
            run("async 4", sms, kb, false, 4);
            run("async 8", sms, kb, false, 8);
            run("async 13", sms, kb, false, 13);
        }
    } else {
        for (int kb : {254, 508}) {
            for (int blocks : {8, 16, 33, 66, sms}) {
                run("bulk", blocks, kb, false, 0);
            }
            for (int blocks : {33, 66, sms}) {
                run("threads", blocks, kb, false, 1);
            }
            run("bulk+copy", sms, kb, true, 0);
        }
    }
    CHECK_CUDA(cudaStreamDestroy(st));
    for (int s = 0; s < sets; ++s) {
        CHECK_CUDA(cudaFree(xs[s]));
        CHECK_CUDA(cudaFree(ys[s]));
    }
    if (g_out != nullptr) {
        std::fclose(g_out);
    }
    return 0;
}
