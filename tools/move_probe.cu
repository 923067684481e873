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
//   bulk  map L:  one thread: bulk copy in, bulk copy out (copy_probe's bulkRing);
//   warps map L:  the copy engine brings chunks in (warp 15), 15 warps store
//                 each chunk `lag` steps after it landed, 16 bytes a thread.
// map rows: block b's chunk i is b + i * G (G = 128: chunk b of row i, Grid's
// order; G = 132: the same without row alignment); map own: block b moves the
// chunks [b C / G, (b + 1) C / G) in order (Hold's order). Graph µs a launch
// (median of 5 rounds of 10 replays, 3 buffer sets rotated past L2), every
// output compared with its input after its run.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -Inative/src -Itools tools/move_probe.cu -o build/move_probe && build/move_probe [out.txt]
#include "../native/src/common/cuda/bulk_copy.cuh"

#include <cstdint>
#include <vector>

#include "bench_util.cuh"

namespace moveprobe {

using namespace bench;

constexpr int kThreads = 512, kMovers = 480; // warp 15 brings the chunks in

enum Map { kRows = 0, kOwn = 1 };

// Block b's chunk i: its offset in bytes; `mine` its number of chunks.
struct Chunks {
    size_t first, step, mine;
    __device__ Chunks(int map, size_t chunks, size_t chunk) {
        const size_t b = blockIdx.x, g = gridDim.x;
        if (map == kRows) {
            first = b * chunk;
            step = g * chunk;
            mine = (chunks - b + g - 1) / g;
        } else {
            const size_t lo = b * chunks / g, hi = (b + 1) * chunks / g;
            first = lo * chunk;
            step = chunk;
            mine = hi - lo;
        }
    }
    __device__ size_t at(size_t i) const { return first + i * step; }
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ void bulkStore(void *dst_global, const void *src_shared, uint32_t bytes) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst_global),
                 "r"(infini::sharedAddress(src_shared)), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
__device__ __forceinline__ void arrive(uint64_t *bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(infini::sharedAddress(bar)) : "memory");
}
#endif

// One thread: bulk copies in and out through `slots` slots.
__global__ void bulkMove(const unsigned char *x, unsigned char *y, size_t bytes, int slots, int chunk, int map) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(128) unsigned char smem[];
    if (threadIdx.x != 0) {
        return;
    }
    uint64_t *full = reinterpret_cast<uint64_t *>(smem);
    unsigned char *ring = smem + 512;
    const Chunks c(map, bytes / chunk, chunk);
    const int mine = (int)c.mine;
    auto load = [&](int i) {
        uint64_t *bar = &full[i % slots];
        infini::bulkExpect(bar, chunk);
        infini::bulkCopy(ring + (size_t)(i % slots) * chunk, x + c.at(i), chunk, bar);
    };
    for (int i = 0; i < slots; ++i) {
        infini::bulkBarrierInit(&full[i]);
    }
    for (int i = 0; i < slots && i < mine; ++i) {
        load(i);
    }
    for (int i = 0; i < mine; ++i) {
        infini::bulkWait(&full[i % slots], (uint32_t)(i / slots) & 1u);
        bulkStore(y + c.at(i), ring + (size_t)(i % slots) * chunk, chunk);
        if (i >= 1 && i - 1 + slots < mine) { // chunk i - 1's slot, once its store has read it
            asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
            load(i - 1 + slots);
        }
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
}

// Warp 15 brings chunk i into slot i % slots once the chunk stored there
// before has been read; the 15 other warps, at step i, wait for chunk i to
// land and store chunk i - lag (16 bytes a thread, streaming or plain stores).
template <bool STREAMING>
__global__ void __launch_bounds__(kThreads, 1)
    warpsMove(const unsigned char *x, unsigned char *y, size_t bytes, int slots, int chunk, int map, int lag) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(128) unsigned char smem[];
    uint64_t *full = reinterpret_cast<uint64_t *>(smem), *empty = full + 32;
    unsigned char *ring = smem + 512;
    const Chunks c(map, bytes / chunk, chunk);
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

__global__ void vec16(const uint4 *__restrict__ x, uint4 *__restrict__ y, size_t n) {
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __stcs(y + i, __ldcs(x + i));
    }
}

} // namespace moveprobe

int main(int argc, char **argv) {
    using namespace moveprobe;
    if (argc > 1) {
        g_out = std::fopen(argv[1], "w");
    }
    cudaDeviceProp prop{};
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    say("device: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
    const int sms = prop.multiProcessorCount;
    const size_t bytes = (size_t)32 << 21, n = bytes / 16; // 32 rows of 2 MiB (32x1M BF16)
    const int sets = 3;
    std::vector<unsigned char *> xs(sets), ys(sets);
    std::vector<unsigned> host(bytes / 4);
    Rng rng{11};
    for (auto &w : host) {
        w = (unsigned)(rng.uniform() * 4294967296.0);
    }
    for (int s = 0; s < sets; ++s) {
        CHECK_CUDA(cudaMalloc(&xs[s], bytes));
        CHECK_CUDA(cudaMalloc(&ys[s], bytes));
        CHECK_CUDA(cudaMemcpy(xs[s], host.data(), bytes, cudaMemcpyHostToDevice));
    }
    const int kMaxSmem = 227 << 10;
    CHECK_CUDA(cudaFuncSetAttribute(bulkMove, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxSmem));
    CHECK_CUDA(cudaFuncSetAttribute(warpsMove<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxSmem));
    CHECK_CUDA(cudaFuncSetAttribute(warpsMove<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxSmem));
    cudaStream_t st;
    CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    StreamTimer timer(st);
    const double copy_gb = 2.0 * bytes / 1e3;
    say("form                                   µs a launch   GB/s (read + written)   check\n");
    auto run = [&](const char *form, auto &&launch) {
        const int calls = 2 * sets;
        for (int s = 0; s < sets; ++s) {
            CHECK_CUDA(cudaMemsetAsync(ys[s], 0xa5, bytes, st)); // poison
        }
        cudaGraphExec_t ge = timer.capture(calls, [&](int i) {
            launch(xs[i % sets], ys[i % sets]);
            CHECK_CUDA(cudaGetLastError());
        });
        std::vector<double> us;
        for (int r = 0; r < 5; ++r) {
            us.push_back(timer.graphUs(ge, 10, calls));
        }
        CHECK_CUDA(cudaStreamSynchronize(st));
        CHECK_CUDA(cudaGraphExecDestroy(ge));
        bool ok = true;
        std::vector<unsigned> back(bytes / 4);
        for (int s = 0; s < sets && ok; ++s) {
            CHECK_CUDA(cudaMemcpy(back.data(), ys[s], bytes, cudaMemcpyDeviceToHost));
            ok = back == host;
        }
        g_failures += !ok;
        const double t = median(us);
        say("%-38s %12.2f %14.0f %20s\n", form, t, copy_gb / t, ok ? "ok" : "FAILED");
    };
    const int chunk = 16 << 10, slots = 13;
    const size_t smem = 512 + (size_t)slots * chunk;
    run("memcpy", [&](unsigned char *x, unsigned char *y) {
        CHECK_CUDA(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, st));
    });
    run("vec16 (512, streaming)", [&](unsigned char *x, unsigned char *y) {
        vec16<<<(unsigned)((n + 511) / 512), 512, 0, st>>>((const uint4 *)x, (uint4 *)y, n);
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
        run(name, [&](unsigned char *x, unsigned char *y) {
            if (f.bulk) {
                bulkMove<<<grid, 32, smem, st>>>(x, y, bytes, slots, chunk, f.map);
            } else if (f.streaming) {
                warpsMove<true><<<grid, kThreads, smem, st>>>(x, y, bytes, slots, chunk, f.map, f.lag);
            } else {
                warpsMove<false><<<grid, kThreads, smem, st>>>(x, y, bytes, slots, chunk, f.map, f.lag);
            }
        });
    }
    CHECK_CUDA(cudaStreamDestroy(st));
    for (int s = 0; s < sets; ++s) {
        CHECK_CUDA(cudaFree(xs[s]));
        CHECK_CUDA(cudaFree(ys[s]));
    }
    say("%s: %d failure(s)\n", g_failures ? "FAILED" : "all checks passed", g_failures);
    if (g_out != nullptr) {
        std::fclose(g_out);
    }
    return g_failures ? 1 : 0;
}
