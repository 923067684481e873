// Which copy form moves 4096² F16's bytes (32 MiB read, 32 MiB written) as
// fast as the driver's memcpy? (issue 13; notes/rearrange.md, "Session 13":
// the memcpy node takes 24.1 µs where a 16-byte copy kernel and Rearrange's
// wide word tiles take 24.8, which is 90.0% of the bench's roofline.) If a
// form of our own reaches the memcpy's rate, the transposes can be rebuilt on
// it. Forms, graph µs a launch (median of 5 rounds of 10 replays, buffers
// rotated past L2):
//   memcpy       cudaMemcpyAsync device to device (a graph memcpy node);
//   vec16        one 16-byte load and store a thread, a grid of them (evict-first
//                hints; "plain": without);
//   vec16 x4     four independent 16-byte loads a thread, then four stores;
//   grid-stride  rearr4_bench's copy kernel: 4 or 8 blocks an SM looping, plain accesses;
//   tiles R x W  the transposes' pattern without the transpose (tileCopy);
//   bulk S x KB  one block an SM (or two), thread 0 streams its chunks through
//                a ring of S slots: bulk copies in (cp.async.bulk, mbarrier),
//                bulk copies out (cp.async.bulk ... bulk_group), a slot taken
//                again once its store has read it.
// Every form's output is compared with its input after its run.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -Inative/src tools/copy_probe.cu -o build/copy_probe && build/copy_probe [out.txt]
#include "../native/src/common/cuda/bulk_copy.cuh"

#include <cstdint>
#include <vector>

#include "bench_util.cuh"

namespace copyprobe {

using namespace bench;

// STREAMING: evict-first hints (__ldcs / __stcs), else plain accesses.
template <bool STREAMING>
__global__ void vec16(const uint4 *__restrict__ x, uint4 *__restrict__ y, size_t n) {
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (STREAMING) {
            __stcs(y + i, __ldcs(x + i));
        } else {
            y[i] = x[i];
        }
    }
}

// rearr4_bench's copy kernel (session 12's "copy of the same bytes"): a grid of
// a few blocks an SM striding over the vectors, two a thread in flight, plain accesses.
__global__ void gridStride(const uint4 *__restrict__ x, uint4 *__restrict__ y, size_t n) {
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 2 * stride) {
        const uint4 a = x[i];
        const bool two = i + stride < n;
        uint4 b;
        if (two) {
            b = x[i + stride];
        }
        y[i] = a;
        if (two) {
            y[i + stride] = b;
        }
    }
}

__global__ void vec16x4(const uint4 *__restrict__ x, uint4 *__restrict__ y, size_t n) {
    const size_t base = (size_t)blockIdx.x * blockDim.x * 4 + threadIdx.x;
    uint4 v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const size_t i = base + (size_t)k * blockDim.x;
        v[k] = i < n ? __ldcs(x + i) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const size_t i = base + (size_t)k * blockDim.x;
        if (i < n) {
            __stcs(y + i, v[k]);
        }
    }
}

// The transposes' access pattern without the transpose: block b copies a tile
// of ROWS rows of W bytes of the 8 KB-pitch matrix (4096² F16) to the same
// place in y, 256 threads, all loads before the stores (as the word tiles).
// If this takes what the transpose takes, the pattern costs the time, not the
// shuffle through shared memory.
template <int W, int ROWS>
__global__ void __launch_bounds__(256) tileCopy(const uint4 *__restrict__ x, uint4 *__restrict__ y) {
    constexpr int kPitch = 4096 * 2 / 16, kRowVecs = W / 16, kPer = ROWS * kRowVecs / 256;
    constexpr int kTilesAlong = kPitch / kRowVecs;
    const size_t base = (size_t)(blockIdx.x / kTilesAlong) * ROWS * kPitch + (blockIdx.x % kTilesAlong) * kRowVecs;
    uint4 v[kPer];
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
        const int i = k * 256 + threadIdx.x;
        v[k] = x[base + (size_t)(i / kRowVecs) * kPitch + i % kRowVecs];
    }
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
        const int i = k * 256 + threadIdx.x;
        y[base + (size_t)(i / kRowVecs) * kPitch + i % kRowVecs] = v[k];
    }
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ inline void bulkStore(void *dst_global, const void *src_shared, uint32_t bytes) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst_global),
                 "r"(infini::sharedAddress(src_shared)), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
#endif

// Block b copies chunks b, b + gridDim.x, ... of `chunk` bytes (the last may be short).
__global__ void bulkRing(const unsigned char *x, unsigned char *y, size_t bytes, int slots, int chunk) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(128) unsigned char smem[];
    if (threadIdx.x != 0) {
        return;
    }
    uint64_t *full = reinterpret_cast<uint64_t *>(smem);
    unsigned char *ring = smem + 128;
    const size_t chunks = (bytes + chunk - 1) / chunk;
    const int mine = (int)((chunks - blockIdx.x + gridDim.x - 1) / gridDim.x);
    auto at = [&](int i) { return (size_t)(blockIdx.x + (size_t)i * gridDim.x) * chunk; };
    auto len = [&](int i) { return (uint32_t)min((size_t)chunk, bytes - at(i)); };
    auto load = [&](int i) {
        uint64_t *bar = &full[i % slots];
        infini::bulkExpect(bar, len(i));
        infini::bulkCopy(ring + (size_t)(i % slots) * chunk, x + at(i), len(i), bar);
    };
    for (int i = 0; i < slots; ++i) {
        infini::bulkBarrierInit(&full[i]);
    }
    for (int i = 0; i < slots && i < mine; ++i) {
        load(i);
    }
    for (int i = 0; i < mine; ++i) {
        infini::bulkWait(&full[i % slots], (uint32_t)(i / slots) & 1u);
        bulkStore(y + at(i), ring + (size_t)(i % slots) * chunk, len(i));
        if (i >= 1 && i - 1 + slots < mine) { // chunk i - 1's slot, once its store has read it
            asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
            load(i - 1 + slots);
        }
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
}

} // namespace copyprobe

int main(int argc, char **argv) {
    using namespace copyprobe;
    if (argc > 1) {
        g_out = std::fopen(argv[1], "w");
    }
    cudaDeviceProp prop{};
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    say("device: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
    const int sms = prop.multiProcessorCount;
    const size_t bytes = (size_t)4096 * 4096 * 2, n = bytes / 16;
    const int sets = (int)(3 * (size_t)prop.l2CacheSize / bytes + 2);
    std::vector<unsigned char *> xs(sets), ys(sets);
    std::vector<unsigned> host(bytes / 4);
    Rng rng{7};
    for (auto &w : host) {
        w = (unsigned)(rng.uniform() * 4294967296.0);
    }
    for (int s = 0; s < sets; ++s) {
        CHECK_CUDA(cudaMalloc(&xs[s], bytes));
        CHECK_CUDA(cudaMalloc(&ys[s], bytes));
        CHECK_CUDA(cudaMemcpy(xs[s], host.data(), bytes, cudaMemcpyHostToDevice));
    }
    const size_t kMaxSmem = 227 << 10;
    CHECK_CUDA(cudaFuncSetAttribute(bulkRing, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kMaxSmem));
    cudaStream_t st;
    CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    StreamTimer timer(st);
    const double copy_gb = 2.0 * bytes / 1e3;
    say("form                    µs a launch   GB/s (read + written)   check\n");
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
        say("%-22s %12.2f %14.0f %20s\n", form, t, copy_gb / t, ok ? "ok" : "FAILED");
    };
    run("memcpy", [&](unsigned char *x, unsigned char *y) {
        CHECK_CUDA(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, st));
    });
    for (int per_sm : {4, 8}) {
        char name[64];
        std::snprintf(name, sizeof name, "grid-stride (%d/SM)", per_sm);
        run(name, [&](unsigned char *x, unsigned char *y) {
            gridStride<<<sms * per_sm, 256, 0, st>>>((const uint4 *)x, (uint4 *)y, n);
        });
    }
    for (int threads : {256, 512}) {
        char name[64];
        std::snprintf(name, sizeof name, "vec16 (%d)", threads);
        run(name, [&](unsigned char *x, unsigned char *y) {
            vec16<true><<<(unsigned)((n + threads - 1) / threads), threads, 0, st>>>((const uint4 *)x, (uint4 *)y, n);
        });
        std::snprintf(name, sizeof name, "vec16 plain (%d)", threads);
        run(name, [&](unsigned char *x, unsigned char *y) {
            vec16<false><<<(unsigned)((n + threads - 1) / threads), threads, 0, st>>>((const uint4 *)x, (uint4 *)y, n);
        });
        std::snprintf(name, sizeof name, "vec16 x4 (%d)", threads);
        run(name, [&](unsigned char *x, unsigned char *y) {
            vec16x4<<<(unsigned)((n + 4 * threads - 1) / (4 * threads)), threads, 0, st>>>((const uint4 *)x,
                                                                                            (uint4 *)y, n);
        });
    }
    // Tiles of the transposes' shapes (grid: 4096² F16's bytes over the tile's).
    run("tiles 128 x 256 B", [&](unsigned char *x, unsigned char *y) {
        tileCopy<256, 128><<<(unsigned)(bytes / (256 * 128)), 256, 0, st>>>((const uint4 *)x, (uint4 *)y);
    });
    run("tiles 64 x 128 B", [&](unsigned char *x, unsigned char *y) {
        tileCopy<128, 64><<<(unsigned)(bytes / (128 * 64)), 256, 0, st>>>((const uint4 *)x, (uint4 *)y);
    });
    run("tiles 32 x 1024 B", [&](unsigned char *x, unsigned char *y) {
        tileCopy<1024, 32><<<(unsigned)(bytes / (1024 * 32)), 256, 0, st>>>((const uint4 *)x, (uint4 *)y);
    });
    struct Ring {
        int per_sm, slots, kb;
    };
    for (const Ring r : {Ring{1, 12, 16}, Ring{1, 6, 32}, Ring{1, 13, 16}, Ring{2, 6, 16}, Ring{2, 3, 32},
                         Ring{1, 24, 8}, Ring{4, 3, 16}}) {
        char name[64];
        std::snprintf(name, sizeof name, "bulk %dx%d KB, %d/SM", r.slots, r.kb, r.per_sm);
        const size_t smem = 128 + (size_t)r.slots * (r.kb << 10);
        run(name, [&](unsigned char *x, unsigned char *y) {
            bulkRing<<<sms * r.per_sm, 32, smem, st>>>(x, y, bytes, r.slots, r.kb << 10);
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
