// A/B benchmark of the 2-byte transpose kernels (issue 13): session 10's odd
// word tiles (odd_word_tile.cuh: 63-unit tiles along a, every src load an aligned
// word, spans of 1, 2 and 3 tiles along b) and session 7's skewed word tiles
// (skew_word_tile.cuh) against session 5's skewed tiles (skew_tile.cuh), the
// unit tile kernel and word tiles (4096^2), and the library call (the kernel
// the library build's plan picks: INFINI_REARRANGE_ODD_WORDS, _SKEW_WORDS).
//
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -DINFINI_WITH_NVIDIA -Inative/src -Inative/include
//        tools/rearr4_bench.cu -Lbuild/lib -linfiniop -linfinirt -o build/rearr4_bench
//   LD_LIBRARY_PATH=build/lib build/rearr4_bench [--ncu | --library | --shapes | --pdl | --skew | --tma | --oddtma]
//
// (no rpath: LD_LIBRARY_PATH picks the library build; the report names the
// file it loaded). --library: only the library call of each case (for a second
// library build); --shapes: the word tile's shapes (word_tile.cuh: SA x SB
// 64-unit parts a block, blocks an SM) on the aligned cases, and the same bytes
// copied (a 16-byte copy kernel, a memcpy node: the floor of a transpose of that
// size); --tma: session 20's tensor-copy tiles (tma_tile.cuh) in the library's
// shape and at two blocks an SM beside the wide word tiles, on every aligned case
// (5120² and 6144² included); --pdl, --skew and --ncu: see main.
//
// Every variant is first checked bit for bit against a host transpose on a
// dst poisoned beyond the view (0xFFFF, which the random src never holds).
// Timing: 16 launches captured in one CUDA graph, rotating over buffer sets
// (one pass touches more than L2), 5 warm-up replays, then the median of 40
// replays timed with CUDA events, per launch. The copy roofline is measured in
// the same run (512 MiB D2D cudaMemcpyAsync, read + write bytes).
#include <infiniop.h>
#include <infinirt.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

// -DREARR_HINTS=1 (loads), 2 (stores), 3 (both): the tile kernels' global
// accesses with the evict-first hint (__ldcs / __stcs) instead of plain ones,
// through the hooks of tile_index.cuh (the emulator's trace hooks). Session 11
// (H100): no gain anywhere, loads +0.5 µs on 4096², +4 on 4097² and 4098².
// 4 / 8: loads with an L2 prefetch size of 256 / 128 bytes (ld_prefetch.cuh); 16: the same
// through the read-only path (.nc).
#include "common/cuda/ld_prefetch.cuh"
#if defined(REARR_HINTS) && REARR_HINTS
#define INFINI_REARRANGE_TRACE
#include "ops/rearrange/nvidia.h"
namespace infini::rearrange::nvidia {
// 16: through the read-only path too (ld.global.nc.L2::256B).
template <class T>
__device__ __forceinline__ T ldNcPrefetch(const T *p) {
    if constexpr (sizeof(T) == 4) {
        uint32_t v;
        asm volatile("ld.global.nc.L2::256B.u32 %0, [%1];" : "=r"(v) : "l"(p));
        return v;
    } else {
        static_assert(sizeof(T) == 2, "the tile kernels' loads");
        unsigned short v;
        asm volatile("ld.global.nc.L2::256B.u16 %0, [%1];" : "=h"(v) : "l"(p));
        return v;
    }
}
template <class T>
__device__ __forceinline__ T loadGlobal(const T *p, int) {
    if constexpr ((REARR_HINTS & 16) != 0) {
        return ldNcPrefetch(p);
    } else if constexpr ((REARR_HINTS & 4) != 0) {
        return infini::ldPrefetch<256>(p);
    } else if constexpr ((REARR_HINTS & 8) != 0) {
        return infini::ldPrefetch<128>(p);
    }
    return (REARR_HINTS & 1) ? __ldcs(p) : *p;
}
template <class T>
__device__ __forceinline__ void storeGlobal(T *p, T v, int) {
    if (REARR_HINTS & 2) {
        __stcs(p, v);
    } else {
        *p = v;
    }
}
} // namespace infini::rearrange::nvidia
#endif
#include "ops/rearrange/kernels.cuh"
#include "ops/rearrange/odd_word_tile.cuh"
#include "ops/rearrange/skew_word_tile.cuh"
#include "ops/rearrange/tma_tile.cuh"
#include "ops/rearrange/odd_tma_tile.cuh"
#include "ops/rearrange/word_tile.cuh"
// The library's map encoder, compiled in (its symbols are hidden in the library).
#include "common/cuda/tensor_map_nvidia.cc"

#include "check.h"

using namespace infini::rearrange::nvidia;

namespace {

constexpr int kSets = 3, kLaunches = 16, kWarm = 5, kReps = 40;
constexpr uint16_t kPoison = 0xFFFF;

Dim dim(uint64_t size, int64_t ds, int64_t ss) {
    Dim d{};
    d.size = size;
    d.div = infini::FastDivU32((uint32_t)size);
    d.dst_stride = ds;
    d.src_stride = ss;
    return d;
}

// dst rows x cols contiguous (pitch cols), src its transpose (pitch rows):
// a = dst's row index (src's fastest), b = dst's column.
TileParams params2d(uint32_t rows, uint32_t cols, uint64_t tiles_b, uint64_t tiles_a = 0) {
    TileParams p{};
    p.len_a = rows;
    p.len_b = cols;
    p.tiles_a = tiles_a != 0 ? (uint32_t)tiles_a : (rows + 63) / 64;
    p.tiles_b = (uint32_t)tiles_b;
    p.div_tiles_a = infini::FastDivU32(p.tiles_a);
    p.div_tiles_b = infini::FastDivU32(p.tiles_b);
    p.a.ndim = p.b.ndim = 1;
    p.a.dims[0] = dim(rows, cols, 1);
    p.b.dims[0] = dim(cols, 1, rows);
    p.outer_ndim = 0;
    return p;
}

struct Buffers {
    uint16_t *dst, *src; // with the case's shifts applied
};

struct Case {
    std::string name;
    uint32_t rows, cols;
    int dst_shift, src_shift;
    std::vector<uint16_t *> dst_base, src_base;
    size_t dst_n, src_n; // allocated units
    std::vector<uint16_t> src_host, want;

    Buffers set(int i) const { return {dst_base[i] + dst_shift, src_base[i] + src_shift}; }
};

Case makeCase(const char *name, uint32_t rows, uint32_t cols, int dst_shift, int src_shift) {
    Case c{name, rows, cols, dst_shift, src_shift, {}, {}, 0, 0, {}, {}};
    const size_t n = (size_t)rows * cols;
    c.dst_n = n + 64;
    c.src_n = n + 64;
    c.src_host.resize(c.src_n);
    unsigned s = 12345 + rows + cols + dst_shift * 7 + src_shift * 3;
    for (auto &v : c.src_host) {
        s = s * 1664525u + 1013904223u;
        v = (uint16_t)((s >> 9) % 65535); // never kPoison
    }
    c.want.assign(c.dst_n, kPoison);
    for (size_t a = 0; a < rows; ++a) {
        for (size_t b = 0; b < cols; ++b) {
            c.want[dst_shift + a * cols + b] = c.src_host[src_shift + b * rows + a];
        }
    }
    for (int i = 0; i < kSets; ++i) {
        uint16_t *d, *sp;
        CHECK_CUDA(cudaMalloc(&d, c.dst_n * 2));
        CHECK_CUDA(cudaMalloc(&sp, c.src_n * 2));
        CHECK_CUDA(cudaMemcpy(sp, c.src_host.data(), c.src_n * 2, cudaMemcpyHostToDevice));
        c.dst_base.push_back(d);
        c.src_base.push_back(sp);
    }
    return c;
}

void freeCase(Case &c) {
    for (int i = 0; i < kSets; ++i) {
        CHECK_CUDA(cudaFree(c.dst_base[i]));
        CHECK_CUDA(cudaFree(c.src_base[i]));
    }
}

using Launch = std::function<void(const Buffers &, cudaStream_t)>;

// Bit-exact check on every set, then the graph timing (µs per launch).
bool exact(const Case &c, const Launch &run, cudaStream_t stream) {
    std::vector<uint16_t> got(c.dst_n);
    for (int i = 0; i < kSets; ++i) {
        CHECK_CUDA(cudaMemsetAsync(c.dst_base[i], 0xFF, c.dst_n * 2, stream));
        run(c.set(i), stream);
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaStreamSynchronize(stream));
        CHECK_CUDA(cudaMemcpy(got.data(), c.dst_base[i], c.dst_n * 2, cudaMemcpyDeviceToHost));
        if (std::memcmp(got.data(), c.want.data(), c.dst_n * 2) != 0) {
            return false;
        }
    }
    return true;
}

// Eager: kLaunches launches queued back to back between two events, median of
// kReps, per launch (host launch cost hidden while the GPU is behind).
double eagerUs(const Case &c, const Launch &run, cudaStream_t stream) {
    cudaEvent_t e0, e1;
    CHECK_CUDA(cudaEventCreate(&e0));
    CHECK_CUDA(cudaEventCreate(&e1));
    std::vector<float> ms;
    for (int r = 0; r < kWarm + kReps; ++r) {
        CHECK_CUDA(cudaEventRecord(e0, stream));
        for (int k = 0; k < kLaunches; ++k) {
            run(c.set(k % kSets), stream);
        }
        CHECK_CUDA(cudaEventRecord(e1, stream));
        CHECK_CUDA(cudaEventSynchronize(e1));
        float t;
        CHECK_CUDA(cudaEventElapsedTime(&t, e0, e1));
        if (r >= kWarm) {
            ms.push_back(t);
        }
    }
    CHECK_CUDA(cudaEventDestroy(e0));
    CHECK_CUDA(cudaEventDestroy(e1));
    std::nth_element(ms.begin(), ms.begin() + kReps / 2, ms.end());
    return ms[kReps / 2] * 1000.0 / kLaunches;
}

double graphUs(const Case &c, const Launch &run, cudaStream_t stream) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    for (int k = 0; k < kLaunches; ++k) {
        run(c.set(k % kSets), stream);
    }
    CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    cudaEvent_t e0, e1;
    CHECK_CUDA(cudaEventCreate(&e0));
    CHECK_CUDA(cudaEventCreate(&e1));
    for (int r = 0; r < kWarm; ++r) {
        CHECK_CUDA(cudaGraphLaunch(exec, stream));
    }
    std::vector<float> ms;
    for (int r = 0; r < kReps; ++r) {
        CHECK_CUDA(cudaEventRecord(e0, stream));
        CHECK_CUDA(cudaGraphLaunch(exec, stream));
        CHECK_CUDA(cudaEventRecord(e1, stream));
        CHECK_CUDA(cudaEventSynchronize(e1));
        float t;
        CHECK_CUDA(cudaEventElapsedTime(&t, e0, e1));
        ms.push_back(t);
    }
    CHECK_CUDA(cudaEventDestroy(e0));
    CHECK_CUDA(cudaEventDestroy(e1));
    CHECK_CUDA(cudaGraphExecDestroy(exec));
    CHECK_CUDA(cudaGraphDestroy(graph));
    std::nth_element(ms.begin(), ms.begin() + kReps / 2, ms.end());
    return ms[kReps / 2] * 1000.0 / kLaunches;
}

// Read + write bytes per second of a 512 MiB device-to-device copy.
double copyRooflineGBs(cudaStream_t stream) {
    const size_t bytes = size_t(512) << 20;
    void *a, *b;
    CHECK_CUDA(cudaMalloc(&a, bytes));
    CHECK_CUDA(cudaMalloc(&b, bytes));
    CHECK_CUDA(cudaMemsetAsync(a, 1, bytes, stream));
    cudaEvent_t e0, e1;
    CHECK_CUDA(cudaEventCreate(&e0));
    CHECK_CUDA(cudaEventCreate(&e1));
    std::vector<float> ms;
    for (int r = 0; r < 12; ++r) {
        CHECK_CUDA(cudaEventRecord(e0, stream));
        CHECK_CUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream));
        CHECK_CUDA(cudaEventRecord(e1, stream));
        CHECK_CUDA(cudaEventSynchronize(e1));
        float t;
        CHECK_CUDA(cudaEventElapsedTime(&t, e0, e1));
        if (r >= 2) ms.push_back(t);
    }
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    CHECK_CUDA(cudaEventDestroy(e0));
    CHECK_CUDA(cudaEventDestroy(e1));
    CHECK_CUDA(cudaFree(a));
    CHECK_CUDA(cudaFree(b));
    return 2.0 * bytes / (ms[ms.size() / 2] * 1e-3) / 1e9;
}

const dim3 kBlock(kTileThreadsX, kTileThreadsY);

Launch unitTile(const Case &c) {
    const TileParams p = params2d(c.rows, c.cols, (c.cols + 63) / 64);
    const unsigned grid = p.tiles_a * p.tiles_b;
    return [p, grid](const Buffers &b, cudaStream_t s) { tileKernel<uint16_t, 64><<<grid, kBlock, 0, s>>>(p, b.dst, b.src); };
}

Launch wordTile(const Case &c) {
    const TileParams p = params2d(c.rows, c.cols, (c.cols + 63) / 64);
    const unsigned grid = p.tiles_a * p.tiles_b;
    return [p, grid](const Buffers &b, cudaStream_t s) { wordTileKernel<true><<<grid, kBlock, 0, s>>>(p, b.dst, b.src); };
}

// Word tiles of SA x SB parts (word_tile.cuh), MIN_BLOCKS resident an SM.
// pdl: launched with programmatic dependent launch (a programmatic edge in the graphs).
template <int SA, int SB, int MIN_BLOCKS>
Launch wordTileShape(const Case &c, bool pdl = false) {
    using W = WordTileOf<SA, SB>;
    const TileParams p = params2d(c.rows, c.cols, (c.cols + W::kB - 1) / W::kB, (c.rows + W::kA - 1) / W::kA);
    const unsigned grid = p.tiles_a * p.tiles_b;
    return [p, grid, pdl](const Buffers &b, cudaStream_t s) {
        CHECK_CUDA(infini::launchKernel(wordTileKernel<true, SA, SB, MIN_BLOCKS>, dim3(grid), kBlock, 0, s, pdl, p,
                                        b.dst, (const uint16_t *)b.src));
    };
}

// Tensor-copy tiles (tma_tile.cuh) in other shapes than the library's: the
// maps are encoded at every launch, as the library call does (they hold the
// pointers). Aligned cases only: both pitches (rows, cols units) multiples of 8
// and both pointers on 16 bytes.
CUtensorMap encodeMap(const uint16_t *base, uint64_t inner, uint64_t outer, uint64_t pitch_units, uint32_t box0,
                      uint32_t box1) {
    CUtensorMap map;
    if (!infini::encodeTensorMap2d(&map, base, 2, inner, outer, pitch_units * 2, box0, box1)) {
        std::fprintf(stderr, "cuTensorMapEncodeTiled refused the map (or is missing)\n");
        std::exit(2);
    }
    return map;
}

template <int NS, int NO, int MIN_BLOCKS>
Launch tmaTile(const Case &c, bool pdl = false) {
    if (c.rows % 8 != 0 || c.cols % 8 != 0 || c.dst_shift % 8 != 0 || c.src_shift % 8 != 0) {
        return {};
    }
    int sms = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t smem = tmaTileSmem(NS, NO);
    CHECK_CUDA(cudaFuncSetAttribute(tmaTileKernel<NS, NO, MIN_BLOCKS>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)smem));
    const uint32_t tiles_a = (c.rows + kTmaA - 1) / kTmaA, tiles = tiles_a * ((c.cols + kTmaB - 1) / kTmaB);
    const unsigned grid = std::min<unsigned>(tiles, (unsigned)(sms * MIN_BLOCKS));
    const uint32_t rows = c.rows, cols = c.cols;
    return [=](const Buffers &b, cudaStream_t s) {
        const CUtensorMap src_map = encodeMap(b.src, rows, cols, rows, kTmaA, kTmaB);
        const CUtensorMap dst_map = encodeMap(b.dst, cols, rows, cols, kTmaB / 2, kTmaA);
        CHECK_CUDA(infini::launchKernel(tmaTileKernel<NS, NO, MIN_BLOCKS>, dim3(grid), dim3(kTmaThreads), smem, s, pdl,
                                        src_map, dst_map, tiles_a, tiles));
    };
}

// The same bytes as a plain copy (dst's first rows*cols units from src's), as a
// kernel of 16-byte vectors and as a memcpy node: the floor a transpose of this
// size can reach. Not checked as a transpose (exact() is skipped for them).
// PF: the loads' L2 prefetch size (0: plain loads).
template <int PF>
__global__ void copyKernel(uint4 *__restrict__ dst, const uint4 *__restrict__ src, size_t n) {
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 2 * stride) {
        const uint4 a = infini::ldPrefetch<PF>(src + i);
        const bool two = i + stride < n;
        uint4 b;
        if (two) {
            b = infini::ldPrefetch<PF>(src + i + stride);
        }
        dst[i] = a;
        if (two) {
            dst[i + stride] = b;
        }
    }
}

template <int PF = 0>
Launch copySameBytes(const Case &c, int blocks_per_sm) {
    int sms = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t n = (size_t)c.rows * c.cols * 2 / 16;
    const unsigned grid = (unsigned)(sms * blocks_per_sm);
    return [n, grid](const Buffers &b, cudaStream_t s) {
        copyKernel<PF>
            <<<grid, 256, 0, s>>>(reinterpret_cast<uint4 *>(b.dst), reinterpret_cast<const uint4 *>(b.src), n);
    };
}

Launch memcpySameBytes(const Case &c) {
    const size_t bytes = (size_t)c.rows * c.cols * 2;
    return [bytes](const Buffers &b, cudaStream_t s) {
        CHECK_CUDA(cudaMemcpyAsync(b.dst, b.src, bytes, cudaMemcpyDeviceToDevice, s));
    };
}

template <int MIN_BLOCKS>
Launch skewTile(const Case &c) {
    const TileParams p = params2d(c.rows, c.cols, skewTilesB(c.cols, 64));
    const unsigned grid = p.tiles_a * p.tiles_b;
    return [p, grid](const Buffers &b, cudaStream_t s) {
        skewTileKernel<true, MIN_BLOCKS><<<grid, kBlock, 0, s>>>(p, b.dst, b.src);
    };
}

template <int SPAN, int MIN_BLOCKS>
Launch skewWordTile(const Case &c, bool pdl = false) {
    const TileParams p = params2d(c.rows, c.cols, skewTilesB(c.cols, SPAN * 64));
    const unsigned grid = p.tiles_a * p.tiles_b;
    return [p, grid, pdl](const Buffers &b, cudaStream_t s) {
        CHECK_CUDA(infini::launchKernel(skewWordTileKernel<true, SPAN, MIN_BLOCKS>, dim3(grid), kBlock, 0, s, pdl, p,
                                        b.dst, (const uint16_t *)b.src));
    };
}

template <int SPAN, int MIN_BLOCKS>
Launch oddWordTile(const Case &c, bool pdl = false) {
    const TileParams p = params2d(c.rows, c.cols, skewTilesB(c.cols, SPAN * 64), oddWordTilesA(c.rows));
    const unsigned grid = p.tiles_a * p.tiles_b;
    return [p, grid, pdl](const Buffers &b, cudaStream_t s) {
        CHECK_CUDA(infini::launchKernel(oddWordTileKernel<true, SPAN, MIN_BLOCKS>, dim3(grid), kBlock, 0, s, pdl, p,
                                        b.dst, (const uint16_t *)b.src));
    };
}

// The maps and parameters of a case's transpose (src pitch rows, dst pitch cols), or the run ends.
void oddTmaPrepareOrExit(OddTmaMaps *maps, OddTmaParams *p, const Buffers &b, uint32_t rows, uint32_t cols) {
    if (!oddTmaPrepare(maps, p, b.src, rows, cols, rows, cols)) {
        std::fprintf(stderr, "odd tensor-copy tiles: a map was refused\n");
        std::exit(2);
    }
}

// Session 32's draft: odd word tiles with the copy engine's src side (odd_tma_tile.cuh), odd src
// pitches only; the 8 maps encoded at every launch, as a library call would.
template <int MIN_BLOCKS>
Launch oddTmaTile(const Case &c, bool pdl = true) {
    if (c.rows % 2 == 0) {
        return {};
    }
    const uint32_t rows = c.rows, cols = c.cols;
    const unsigned grid = (unsigned)((rows + kOtEdge - 1) / kOtEdge * skewTilesB(cols, kOtEdge));
    return [=](const Buffers &b, cudaStream_t s) {
        OddTmaMaps maps;
        OddTmaParams p;
        oddTmaPrepareOrExit(&maps, &p, b, rows, cols);
        CHECK_CUDA(infini::launchKernel(oddTmaTileKernel<MIN_BLOCKS>, dim3(grid), dim3(kOtThreads), 0, s, pdl, maps, p,
                                        b.dst));
    };
}

// The library's Rearrange on the same views (the planner picks the kernel).
struct Library {
    infiniopRearrangeDescriptor_t desc;
    Launch launch() const {
        auto d = desc;
        return [d](const Buffers &b, cudaStream_t s) { CHECK_OK(infiniopRearrange(d, b.dst, b.src, s)); };
    }
};

Library library(infiniopHandle_t handle, const Case &c) {
    infiniopTensorDescriptor_t td, ts;
    size_t shape[2] = {c.rows, c.cols};
    ptrdiff_t dst_strides[2] = {(ptrdiff_t)c.cols, 1}, src_strides[2] = {1, (ptrdiff_t)c.rows};
    CHECK_OK(infiniopCreateTensorDescriptor(&td, 2, shape, dst_strides, INFINI_DTYPE_F16));
    CHECK_OK(infiniopCreateTensorDescriptor(&ts, 2, shape, src_strides, INFINI_DTYPE_F16));
    Library l;
    CHECK_OK(infiniopCreateRearrangeDescriptor(handle, &l.desc, td, ts));
    CHECK_OK(infiniopDestroyTensorDescriptor(td));
    CHECK_OK(infiniopDestroyTensorDescriptor(ts));
    return l;
}

} // namespace

// --ncu: one checked launch each (for `ncu -c 6 --metrics ...`), no timing: the
// odd word tiles of span 1 (6 blocks/SM) on 4097², 4098² and 4098² src + 1 (every
// src row on an odd unit); the skewed word tiles of span 1 on 4098²; the wide word
// tile on 4096² (the aligned reference); a copy kernel of 4097²'s bytes (not
// checked: its dst is no transpose).
int main(int argc, char **argv) {
    const bool ncu = argc > 1 && std::strcmp(argv[1], "--ncu") == 0;
    const bool library_only = argc > 1 && std::strcmp(argv[1], "--library") == 0;
    // --shapes: the word tile's shapes (SA x SB parts, blocks an SM) on the
    // aligned cases, against the same bytes copied.
    const bool shapes = argc > 1 && std::strcmp(argv[1], "--shapes") == 0;
    // --pdl: the library's kernels for 4096², 4097² and 8192² launched plainly and with
    // programmatic dependent launch, graphs and eager, and the library call (its policy).
    const bool pdl_mode = argc > 1 && std::strcmp(argv[1], "--pdl") == 0;
    // --skew: the misaligned cases' kernels with PDL at their spans and blocks an SM (odd word tiles
    // on odd src rows, skewed word tiles on even pitches off sectors), and the library call.
    const bool skew_mode = argc > 1 && std::strcmp(argv[1], "--skew") == 0;
    // --tma: the tensor-copy tiles (tma_tile.cuh) against the wide word tiles on every aligned case.
    const bool tma_mode = argc > 1 && std::strcmp(argv[1], "--tma") == 0;
    // --oddtma: session 32's odd tensor-copy tiles (odd_tma_tile.cuh) against the odd word tiles on the
    // odd-pitch cases.
    const bool oddtma_mode = argc > 1 && std::strcmp(argv[1], "--oddtma") == 0;
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    CHECK_CUDA(cudaSetDevice(0));
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    CHECK_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, 0));
    infiniopHandle_t handle;
    CHECK_OK(infiniopCreateHandle(&handle));
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    if (ncu) {
        Case c = makeCase("transpose 4097² F16", 4097, 4097, 0, 0);
        Case w = makeCase("transpose 4096² F16", 4096, 4096, 0, 0);
        Case e = makeCase("transpose 4098² F16", 4098, 4098, 0, 0);
        bool ok = true;
        // Session 14: the kernels the library runs on each case, one launch each (ncu flushes the
        // caches before every launch), and the same bytes copied.
        struct NcuRun {
            const Case *cs;
            Launch run;
            bool transpose; // checked against the host transpose
        };
        Case o = makeCase("transpose 4098² F16, src +1 unit", 4098, 4098, 0, 1);
        const NcuRun runs[] = {{&c, oddWordTile<1, 6>(c), true},      {&e, oddWordTile<1, 6>(e), true},
                               {&o, oddWordTile<1, 6>(o), true},      {&e, skewWordTile<1, 6>(e), true},
                               {&w, wordTileShape<2, 2, 5>(w), true}, {&c, copySameBytes(c, 4), false}};
        for (const auto &[cs, run, transpose] : runs) {
            CHECK_CUDA(cudaMemsetAsync(cs->dst_base[0], 0xFF, cs->dst_n * 2, stream));
            run(cs->set(0), stream);
            CHECK_CUDA(cudaGetLastError());
            CHECK_CUDA(cudaStreamSynchronize(stream));
            std::vector<uint16_t> got(cs->dst_n);
            CHECK_CUDA(cudaMemcpy(got.data(), cs->dst_base[0], cs->dst_n * 2, cudaMemcpyDeviceToHost));
            ok = ok && (!transpose || std::memcmp(got.data(), cs->want.data(), cs->dst_n * 2) == 0);
        }
        freeCase(c);
        freeCase(w);
        freeCase(e);
        freeCase(o);
        std::printf("ncu mode: odd words span 1 (6/SM) on 4097², 4098² and 4098² src + 1; skewed words span 1 "
                    "(6/SM) on 4098²; 4096² wide word tile 2x2 (5/SM); a copy kernel of 4097²'s bytes: %s\n",
                    ok ? "all exact" : "NOT EXACT");
        return ok ? 0 : 1;
    }
    Dl_info lib_info{};
    dladdr(reinterpret_cast<void *>(&infiniopRearrange), &lib_info);
    std::printf("library: %s\n", lib_info.dli_fname != nullptr ? lib_info.dli_fname : "?");
    const double roof = copyRooflineGBs(stream);
    std::printf("device: %s; copy roofline %.0f GB/s (512 MiB D2D, read + write)\n", prop.name, roof);
    std::printf("graph of %d launches over %d buffer sets, median of %d replays, per launch\n\n", kLaunches, kSets,
                kReps);
    std::printf("| case | kernel | exact | graph µs | GB/s | %% of roofline | eager µs |\n"
                "|---|---|---|---:|---:|---:|---:|\n");
    struct Spec {
        const char *name;
        uint32_t rows, cols;
        int dst_shift, src_shift;
        bool words; // word tiles apply (main's kernel for the case)
        bool shapes_only = false; // only in --shapes (the wide word tiles' size rule)
    };
    const Spec specs[] = {
        {"transpose 4097² F16", 4097, 4097, 0, 0, false},
        {"transpose 4096² F16", 4096, 4096, 0, 0, true},
        {"transpose 4096² F16, dst +1 unit", 4096, 4096, 1, 0, false},
        {"transpose 4097² F16, dst +1 unit", 4097, 4097, 1, 0, false},
        {"transpose 4098² F16 (even pitch off sectors)", 4098, 4098, 0, 0, true},
        {"transpose 4098² F16, src +1 unit (every row odd)", 4098, 4098, 0, 1, false},
        {"transpose 2048² F16 (below the wide tiles' rule)", 2048, 2048, 0, 0, true, true},
        {"transpose 3072² F16", 3072, 3072, 0, 0, true, true},
        {"transpose 8192² F16", 8192, 8192, 0, 0, true, true},
        {"transpose 5120² F16 (50 MB a side)", 5120, 5120, 0, 0, true, true},
        {"transpose 6144² F16 (72 MB a side)", 6144, 6144, 0, 0, true, true},
        {"transpose 8192x2048 F16", 8192, 2048, 0, 0, true, true},
        {"transpose 3000x3008 F16 (partial tiles)", 3000, 3008, 0, 0, true, true},
        {"transpose 3001x1999 F16 (odd, partial tiles)", 3001, 1999, 0, 0, false, true},
        {"transpose 1025x4097 F16 (odd)", 1025, 4097, 3, 0, false, true},
        {"transpose 769² F16 (odd, 1.2 MB a side)", 769, 769, 0, 0, false, true},
        {"transpose 1025² F16 (odd, 2.1 MB a side)", 1025, 1025, 0, 0, false, true},
        {"transpose 1537² F16 (odd, 4.7 MB a side)", 1537, 1537, 0, 0, false, true},
        {"transpose 2049² F16 (odd)", 2049, 2049, 0, 0, false, true},
        {"transpose 4097x2049 F16 (odd, 16.8 MB a side)", 4097, 2049, 0, 0, false, true},
        {"transpose 4097x2561 F16 (odd, 21 MB a side)", 4097, 2561, 0, 0, false, true},
        {"transpose 4097x3073 F16 (odd, 25.2 MB a side)", 4097, 3073, 0, 0, false, true},
        {"transpose 6145x4097 F16 (odd, 50 MB a side)", 6145, 4097, 0, 0, false, true},
    };
    bool all_exact = true;
    for (const Spec &s : specs) {
        if (oddtma_mode) {
            if (s.rows % 2 == 0) {
                continue;
            }
        } else if (skew_mode) {
            if (s.shapes_only || (s.rows == 4096 && s.dst_shift == 0)) {
                continue;
            }
        } else if (tma_mode) {
            if (!s.words) {
                continue;
            }
        } else if (pdl_mode ? !(s.rows == s.cols && s.dst_shift == 0 && s.src_shift == 0 && s.rows != 4098 &&
                         s.rows != 2048 && s.rows != 3072)
                     : shapes ? !s.words : s.shapes_only) {
            continue;
        }
        Case c = makeCase(s.name, s.rows, s.cols, s.dst_shift, s.src_shift);
        Library lib = library(handle, c);
        std::vector<std::pair<const char *, Launch>> variants;
        std::vector<std::pair<const char *, Launch>> copies;
        if (oddtma_mode) {
            variants.push_back({"odd words span 1, 6/SM, PDL", oddWordTile<1, 6>(c, true)});
            variants.push_back({"odd tensor-copy tiles, 6/SM, PDL", oddTmaTile<6>(c)});
            variants.push_back({"odd tensor-copy tiles, 8/SM, PDL", oddTmaTile<8>(c)});
            variants.push_back({"odd tensor-copy tiles, 4/SM, PDL", oddTmaTile<4>(c)});
            copies.push_back({"memcpy node, same bytes", memcpySameBytes(c)});
        } else if (skew_mode) {
            if (s.rows % 2 != 0 || s.src_shift % 2 != 0) { // odd src rows
                variants.push_back({"odd words span 1, 5/SM, PDL", oddWordTile<1, 5>(c, true)});
                variants.push_back({"odd words span 1, 6/SM, PDL (library)", oddWordTile<1, 6>(c, true)});
                variants.push_back({"odd words span 1, 7/SM, PDL", oddWordTile<1, 7>(c, true)});
                variants.push_back({"odd words span 1, 8/SM, PDL", oddWordTile<1, 8>(c, true)});
                variants.push_back({"odd words span 2, 4/SM, PDL", oddWordTile<2, 4>(c, true)});
                variants.push_back({"odd words span 2, 5/SM, PDL", oddWordTile<2, 5>(c, true)});
                variants.push_back({"odd words span 2, 6/SM, PDL", oddWordTile<2, 6>(c, true)});
                variants.push_back({"skewed words span 1, 6/SM, PDL (odd rows: a gathered 64th unit)",
                                    skewWordTile<1, 6>(c, true)});
                variants.push_back({"skewed words span 2, 5/SM, PDL (odd rows: a gathered 64th unit)",
                                    skewWordTile<2, 5>(c, true)});
            } else {
                variants.push_back({"odd words span 1, 6/SM, PDL (63-unit tiles, no odd rows)", oddWordTile<1, 6>(c, true)});
                variants.push_back({"skewed words span 1, 6/SM, PDL (library)", skewWordTile<1, 6>(c, true)});
                variants.push_back({"skewed words span 1, 8/SM, PDL", skewWordTile<1, 8>(c, true)});
                variants.push_back({"skewed words span 2, 4/SM, PDL", skewWordTile<2, 4>(c, true)});
                variants.push_back({"skewed words span 2, 5/SM, PDL (session 13's library)", skewWordTile<2, 5>(c, true)});
                variants.push_back({"skewed words span 2, 6/SM, PDL", skewWordTile<2, 6>(c, true)});
            }
        } else if (pdl_mode) {
            if (s.words) {
                variants.push_back({"word tile 2x2, 4/SM", wordTileShape<2, 2, 4>(c)});
                variants.push_back({"word tile 2x2, 4/SM, PDL", wordTileShape<2, 2, 4>(c, true)});
                variants.push_back({"wide word tile 2x2, 5/SM", wordTileShape<2, 2, 5>(c)});
                variants.push_back({"wide word tile 2x2, 5/SM (48 registers), PDL", wordTileShape<2, 2, 5>(c, true)});
                variants.push_back({"wide word tile 2x2, 6/SM (40 registers, 28 B spilled), PDL",
                                    wordTileShape<2, 2, 6>(c, true)});
                variants.push_back({"word tile 2x1, 5/SM, PDL", wordTileShape<2, 1, 5>(c, true)});
                variants.push_back({"word tile 2x1, 6/SM (40 registers), PDL", wordTileShape<2, 1, 6>(c, true)});
                variants.push_back({"word tile 2x1, 8/SM (32 registers), PDL", wordTileShape<2, 1, 8>(c, true)});
                variants.push_back({"word tile 1x1, 6/SM", wordTileShape<1, 1, 6>(c)});
                variants.push_back({"word tile 1x1, 6/SM, PDL", wordTileShape<1, 1, 6>(c, true)});
            } else {
                variants.push_back({"odd words span 1, 6 blocks/SM", oddWordTile<1, 6>(c)});
                variants.push_back({"odd words span 1, 6 blocks/SM, PDL", oddWordTile<1, 6>(c, true)});
                variants.push_back({"odd words span 1, 5 blocks/SM, PDL", oddWordTile<1, 5>(c, true)});
                variants.push_back({"odd words span 1, 7 blocks/SM, PDL", oddWordTile<1, 7>(c, true)});
            }
            copies.push_back({"copy kernel, same bytes, 4 blocks/SM", copySameBytes(c, 4)});
            copies.push_back({"copy kernel, same bytes, 4 blocks/SM, L2::128B", copySameBytes<128>(c, 4)});
            copies.push_back({"copy kernel, same bytes, 4 blocks/SM, L2::256B", copySameBytes<256>(c, 4)});
            copies.push_back({"memcpy node, same bytes", memcpySameBytes(c)});
        } else if (tma_mode) {
            variants.push_back({"wide word tile 2x2, 5/SM, PDL", wordTileShape<2, 2, 5>(c, true)});
            variants.push_back({"tensor-copy tiles, 10 + 3 stages, 1/SM, PDL (the library's)", tmaTile<10, 3, 1>(c, true)});
            variants.push_back({"tensor-copy tiles, 4 + 2 stages, 2/SM, PDL", tmaTile<4, 2, 2>(c, true)});
            copies.push_back({"memcpy node, same bytes", memcpySameBytes(c)});
        } else if (shapes) {
            variants.push_back({"word tile 1x1, 6/SM", wordTileShape<1, 1, 6>(c)});
            variants.push_back({"word tile 1x1, 8/SM", wordTileShape<1, 1, 8>(c)});
            variants.push_back({"word tile 2x1 (256 B src rows), 4/SM", wordTileShape<2, 1, 4>(c)});
            variants.push_back({"word tile 2x1, 5/SM", wordTileShape<2, 1, 5>(c)});
            variants.push_back({"word tile 1x2 (256 B dst rows), 4/SM", wordTileShape<1, 2, 4>(c)});
            variants.push_back({"word tile 1x2, 5/SM", wordTileShape<1, 2, 5>(c)});
            variants.push_back({"word tile 2x2, 3/SM", wordTileShape<2, 2, 3>(c)});
            variants.push_back({"word tile 2x2, 4/SM", wordTileShape<2, 2, 4>(c)});
            variants.push_back({"word tile 2x2, 5/SM (the library's wide word tiles)", wordTileShape<2, 2, 5>(c)});
            variants.push_back({"word tile 2x2, 4/SM, PDL", wordTileShape<2, 2, 4>(c, true)});
            variants.push_back({"word tile 1x1, 6/SM, PDL", wordTileShape<1, 1, 6>(c, true)});
            variants.push_back({"word tile 4x1, 3/SM", wordTileShape<4, 1, 3>(c)});
            variants.push_back({"word tile 1x4, 3/SM", wordTileShape<1, 4, 3>(c)});
            copies.push_back({"copy kernel, same bytes, 4 blocks/SM", copySameBytes(c, 4)});
            copies.push_back({"copy kernel, same bytes, 8 blocks/SM", copySameBytes(c, 8)});
            copies.push_back({"memcpy node, same bytes", memcpySameBytes(c)});
        } else if (!library_only) {
            if (s.words) {
                variants.push_back({"word tile", wordTile(c)});
            }
            variants.push_back({"unit tile", unitTile(c)});
            variants.push_back({"skewed, 6 blocks/SM (session 5)", skewTile<6>(c)});
            variants.push_back({"skewed words span 2, 5 blocks/SM", skewWordTile<2, 5>(c)});
            variants.push_back({"skewed words span 1, 8 blocks/SM", skewWordTile<1, 8>(c)});
            variants.push_back({"odd words span 2, 6 blocks/SM (new default)", oddWordTile<2, 6>(c)});
            variants.push_back({"odd words span 2, 5 blocks/SM", oddWordTile<2, 5>(c)});
            variants.push_back({"odd words span 2, 4 blocks/SM", oddWordTile<2, 4>(c)});
            variants.push_back({"odd words span 3, 4 blocks/SM", oddWordTile<3, 4>(c)});
            variants.push_back({"odd words span 1, 6 blocks/SM", oddWordTile<1, 6>(c)});
            variants.push_back({"odd words span 1, 6 blocks/SM, PDL", oddWordTile<1, 6>(c, true)});
            variants.push_back({"odd words span 1, 8 blocks/SM", oddWordTile<1, 8>(c)});
        }
        variants.push_back({"library call (this build)", lib.launch()});
        const double bytes = 2.0 * 2.0 * s.rows * s.cols;
        for (auto &[name, run] : variants) {
            if (!run) { // not applicable to this case
                continue;
            }
            const bool ok = exact(c, run, stream);
            all_exact = all_exact && ok;
            const double us = graphUs(c, run, stream);
            const double gbs = bytes / (us * 1e-6) / 1e9;
            std::printf("| %s | %s | %s | %.2f | %.0f | %.1f%% | %.2f |\n", s.name, name, ok ? "yes" : "NO", us, gbs,
                        100.0 * gbs / roof, eagerUs(c, run, stream));
        }
        for (auto &[name, run] : copies) {
            const double us = graphUs(c, run, stream);
            const double gbs = bytes / (us * 1e-6) / 1e9;
            std::printf("| %s | %s | (copy) | %.2f | %.0f | %.1f%% | %.2f |\n", s.name, name, us, gbs, 100.0 * gbs / roof,
                        eagerUs(c, run, stream));
        }
        CHECK_OK(infiniopDestroyRearrangeDescriptor(lib.desc));
        freeCase(c);
    }
    CHECK_CUDA(cudaStreamDestroy(stream));
    CHECK_OK(infiniopDestroyHandle(handle));
    std::printf("\n%s\n", all_exact ? "all variants bit-exact" : "SOME VARIANT NOT EXACT");
    return all_exact ? 0 : 1;
}
