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
#include <cstdint>
#include <vector>

#include "bench_util.cuh"
#include "copy_kernels.cuh"

namespace copyprobe {

using namespace bench;

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

} // namespace copyprobe

int main(int argc, char **argv) {
    using namespace copyprobe;
    const cudaDeviceProp prop = openReport(argc, argv);
    const int sms = prop.multiProcessorCount;
    const size_t bytes = (size_t)4096 * 4096 * 2, n = bytes / 16;
    const int sets = (int)(3 * (size_t)prop.l2CacheSize / bytes + 2);
    CopyBench cb(bytes, sets, 22);
    cudaStream_t st = cb.stream();
    const size_t kMaxSmem = 227 << 10;
    CHECK_CUDA(cudaFuncSetAttribute(bulkRing, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kMaxSmem));
    cb.form("memcpy", [&](unsigned char *x, unsigned char *y) {
        CHECK_CUDA(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, st));
    });
    for (int per_sm : {4, 8}) {
        char name[64];
        std::snprintf(name, sizeof name, "grid-stride (%d/SM)", per_sm);
        cb.form(name, [&](unsigned char *x, unsigned char *y) {
            gridStride<<<sms * per_sm, 256, 0, st>>>((const uint4 *)x, (uint4 *)y, n);
        });
    }
    for (int threads : {256, 512}) {
        char name[64];
        std::snprintf(name, sizeof name, "vec16 (%d)", threads);
        cb.form(name, [&](unsigned char *x, unsigned char *y) {
            vec16<true><<<(unsigned)((n + threads - 1) / threads), threads, 0, st>>>((const uint4 *)x, (uint4 *)y, n);
        });
        std::snprintf(name, sizeof name, "vec16 plain (%d)", threads);
        cb.form(name, [&](unsigned char *x, unsigned char *y) {
            vec16<false><<<(unsigned)((n + threads - 1) / threads), threads, 0, st>>>((const uint4 *)x, (uint4 *)y, n);
        });
        std::snprintf(name, sizeof name, "vec16 x4 (%d)", threads);
        cb.form(name, [&](unsigned char *x, unsigned char *y) {
            vec16x4<<<(unsigned)((n + 4 * threads - 1) / (4 * threads)), threads, 0, st>>>((const uint4 *)x,
                                                                                            (uint4 *)y, n);
        });
    }
    // Tiles of the transposes' shapes (grid: 4096² F16's bytes over the tile's).
    cb.form("tiles 128 x 256 B", [&](unsigned char *x, unsigned char *y) {
        tileCopy<256, 128><<<(unsigned)(bytes / (256 * 128)), 256, 0, st>>>((const uint4 *)x, (uint4 *)y);
    });
    cb.form("tiles 64 x 128 B", [&](unsigned char *x, unsigned char *y) {
        tileCopy<128, 64><<<(unsigned)(bytes / (128 * 64)), 256, 0, st>>>((const uint4 *)x, (uint4 *)y);
    });
    cb.form("tiles 32 x 1024 B", [&](unsigned char *x, unsigned char *y) {
        tileCopy<1024, 32><<<(unsigned)(bytes / (1024 * 32)), 256, 0, st>>>((const uint4 *)x, (uint4 *)y);
    });
    struct Ring {
        int per_sm, slots, kb;
    };
    for (const Ring r : {Ring{1, 12, 16}, Ring{1, 6, 32}, Ring{1, 13, 16}, Ring{2, 6, 16}, Ring{2, 3, 32},
                         Ring{1, 24, 8}, Ring{4, 3, 16}}) {
        char name[64];
        std::snprintf(name, sizeof name, "bulk %dx%d KB, %d/SM", r.slots, r.kb, r.per_sm);
        const size_t smem = kRingHeader + (size_t)r.slots * (r.kb << 10);
        cb.form(name, [&](unsigned char *x, unsigned char *y) {
            bulkRing<<<sms * r.per_sm, 32, smem, st>>>(x, y, bytes, r.slots, r.kb << 10, kRows);
        });
    }
    say("%s: %d failure(s)\n", g_failures ? "FAILED" : "all checks passed", g_failures);
    if (g_out != nullptr) {
        std::fclose(g_out);
    }
    return g_failures ? 1 : 0;
}
