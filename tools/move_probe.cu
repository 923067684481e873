// Why does the Grid plan's data movement alone take 61 µs on 32x1M BF16, where
// a copy of the same bytes takes 45 (notes/lp_norm.md, "Session 24")? Grid's
// probe (scale by 1, no exchange) differs from a copy in three ways at once:
//   the pattern: at step i every block moves chunk b of row i, so the whole GPU
//                works on one 2 MiB row at a time (Hold: each block streams its
//                own contiguous piece);
//   the stores:  the compute warps store the chunk from shared memory with
//                st.global.cs (the bulk copy probes store with the copy engine);
//   the lag:     a chunk is stored `lag` steps after it landed.
// This probe moves 64 MiB (32 rows of 2 MiB) one block an SM through a ring of
// S slots of 16 KB, bulk copies in, and varies one of the three at a time:
//   bulk  map L:  one thread: bulk copy in, bulk copy out (copy_kernels.cuh's bulkRing);
//   warps map L:  the copy engine brings chunks in (warp 15), 15 warps store
//                 each chunk `lag` steps after it landed, 16 bytes a thread.
// map rows: block b's chunk i is b + i * G (G = 128: chunk b of row i, Grid's
// order; G = 132: the same without row alignment); map own: block b moves the
// chunks [b C / G, (b + 1) C / G) in order (Hold's order). Graph µs a launch
// (median of 5 rounds of 10 replays, 3 buffer sets rotated past L2), every
// output compared with its input after its run.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -Inative/src -Itools tools/move_probe.cu -o build/move_probe && build/move_probe [out.txt]
#include <cstdint>
#include <vector>

#include "bench_util.cuh"
#include "copy_kernels.cuh"

namespace copyprobe {

using namespace bench;

constexpr int kThreads = 512, kMovers = 480; // warp 15 brings the chunks in

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ void arrive(uint64_t *bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(infini::sharedAddress(bar)) : "memory");
}
#endif

// Warp 15 brings chunk i into slot i % slots once the chunk stored there
// before has been read; the 15 other warps, at step i, wait for chunk i to
// land and store chunk i - lag (16 bytes a thread, streaming or plain stores).
template <bool STREAMING>
__global__ void __launch_bounds__(kThreads, 1)
    warpsMove(const unsigned char *x, unsigned char *y, size_t bytes, int slots, int chunk, int map, int lag) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(128) unsigned char smem[];
    uint64_t *full = reinterpret_cast<uint64_t *>(smem), *empty = full + 32;
    unsigned char *ring = smem + kRingHeader;
    const Chunks c(map, bytes, chunk);
    const int mine = (int)c.mine, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < slots; ++s) {
            infini::bulkBarrierInit(&full[s]);
            infini::barrierInit(&empty[s], kMovers / 32);
        }
    }
    __syncthreads();
    if (warp == kMovers / 32) {
        if (lane == 0) {
            for (int i = 0; i < mine; ++i) {
                const int s = i % slots;
                if (i >= slots) {
                    infini::bulkWait(&empty[s], (uint32_t)(i / slots - 1) & 1u);
                }
                infini::bulkExpect(&full[s], chunk);
                infini::bulkCopy(ring + (size_t)s * chunk, x + c.at(i), chunk, &full[s]);
            }
        }
        return;
    }
    const int vecs = chunk / 16;
    for (int i = 0; i < mine + lag; ++i) {
        if (i < mine) {
            infini::bulkWait(&full[i % slots], (uint32_t)(i / slots) & 1u);
        }
        const int j = i - lag;
        if (j < 0) {
            continue;
        }
        const int s = j % slots;
        const uint4 *src = reinterpret_cast<const uint4 *>(ring + (size_t)s * chunk);
        uint4 *dst = reinterpret_cast<uint4 *>(y + c.at(j));
        for (int p = threadIdx.x; p < vecs; p += kMovers) {
            const uint4 v = src[p];
            if (STREAMING) {
                __stcs(dst + p, v);
            } else {
                dst[p] = v;
            }
        }
        infini::asyncProxyFence(); // these reads before the copy engine's refill of the slot
        __syncwarp();
        if (lane == 0) {
            arrive(&empty[s]);
        }
    }
#endif
}

} // namespace copyprobe

int main(int argc, char **argv) {
    using namespace copyprobe;
    const cudaDeviceProp prop = openReport(argc, argv);
    const int sms = prop.multiProcessorCount;
    const size_t bytes = (size_t)32 << 21, n = bytes / 16; // 32 rows of 2 MiB (32x1M BF16)
    const int sets = 3;
    CopyBench cb(bytes, sets, 38);
    cudaStream_t st = cb.stream();
    const int kMaxSmem = 227 << 10;
    CHECK_CUDA(cudaFuncSetAttribute(bulkRing, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxSmem));
    CHECK_CUDA(cudaFuncSetAttribute(warpsMove<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxSmem));
    CHECK_CUDA(cudaFuncSetAttribute(warpsMove<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxSmem));
    const int chunk = 16 << 10, slots = 13;
    const size_t smem = kRingHeader + (size_t)slots * chunk;
    cb.form("memcpy", [&](unsigned char *x, unsigned char *y) {
        CHECK_CUDA(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, st));
    });
    cb.form("vec16 (512, streaming)", [&](unsigned char *x, unsigned char *y) {
        vec16<true><<<(unsigned)((n + 511) / 512), 512, 0, st>>>((const uint4 *)x, (uint4 *)y, n);
    });
    struct Form {
        bool bulk;
        int grid, map, lag;
        bool streaming;
    };
    const Form forms[] = {
        {true, 132, kRows, 0, true},  {true, 128, kRows, 0, true},  {true, 128, kOwn, 0, true},
        {false, 132, kRows, 0, true}, {false, 128, kRows, 0, true}, {false, 128, kOwn, 0, true},
        {false, 128, kRows, 10, true}, {false, 128, kOwn, 10, true}, {false, 128, kRows, 0, false},
        {false, 128, kOwn, 0, false}, {false, 132, kOwn, 0, true},
    };
    for (const Form f : forms) {
        char name[96];
        std::snprintf(name, sizeof name, "%s map %s G %d%s%s", f.bulk ? "bulk " : "warps", f.map == kRows ? "rows" : "own ",
                      f.grid, f.bulk ? "" : (f.lag ? " lag 10" : " lag 0"),
                      f.bulk || f.streaming ? "" : " plain");
        const int grid = f.grid > sms ? sms : f.grid;
        cb.form(name, [&](unsigned char *x, unsigned char *y) {
            if (f.bulk) {
                bulkRing<<<grid, 32, smem, st>>>(x, y, bytes, slots, chunk, f.map);
            } else if (f.streaming) {
                warpsMove<true><<<grid, kThreads, smem, st>>>(x, y, bytes, slots, chunk, f.map, f.lag);
            } else {
                warpsMove<false><<<grid, kThreads, smem, st>>>(x, y, bytes, slots, chunk, f.map, f.lag);
            }
        });
    }
    say("%s: %d failure(s)\n", g_failures ? "FAILED" : "all checks passed", g_failures);
    if (g_out != nullptr) {
        std::fclose(g_out);
    }
    return g_failures ? 1 : 0;
}
