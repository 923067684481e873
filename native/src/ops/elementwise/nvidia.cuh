#pragma once
// The elementwise framework's NVIDIA engine, device side: the kernels of the
// three paths (see nvidia.h) and the launcher. An operator's .cu files
// include this (through operator.h) and instantiate launch<Op, D> for its
// kernel dtypes with INFINI_ELEMENTWISE_NVIDIA_KERNELS.
#include "../../common/cuda/check.cuh"
#include "../../common/cuda/dtype.cuh"
#include "../../common/cuda/pdl.cuh"
#include "nvidia.h"
#include <type_traits>
#include <utility>

namespace infini::elementwise::nvidia {

constexpr int kBlock = 256;
constexpr int kUnroll = 4; // elements in flight per thread on the scalar paths
// The tiled kernel's threads a block for 2-byte elements, 128 or 256 (other types: 256). The tile stays
// kTileElems elements (the plans do not change); at 128 a thread takes 8 of a tile's elements instead of
// 4 and pays the tile's divides and 64-bit bases once for twice as many. Session 45's ncu put the kernel
// bound by its instructions on 16-bit planes ((663,368,31) BF16: issue slots 72% busy). Session 47, call 3
// (tools/verify_s47c.sh, 128 for every type), session 45's 178 tiled cases, eager µs, against the mean of
// two default runs: F16 0.953, BF16 0.990 (over 20 µs 0.964 / 0.956; of 68 16-bit cases over 15 µs, 53
// faster than both default runs and 15 slower: (148,16,58,75) F16 49.5 -> 43.3, (2635,76,65) BF16 67.8 ->
// 61.1, (229,57,44,19) BF16 58.8 -> 62.0), but F32 1.058 and F64 1.297 (fewer resident threads for the
// same bytes in flight), hence 2-byte types only.
#ifndef INFINI_ELEMENTWISE_TILED_THREADS_2B
#define INFINI_ELEMENTWISE_TILED_THREADS_2B 128
#endif
static_assert(INFINI_ELEMENTWISE_TILED_THREADS_2B == 128 || INFINI_ELEMENTWISE_TILED_THREADS_2B == 256,
              "tiled blocks of 128 or 256 threads (every tile shape needs a block at least as long as the "
              "tile along i and along j)");
template <class T>
constexpr int kTiledBlock = sizeof(T) == 2 ? INFINI_ELEMENTWISE_TILED_THREADS_2B : 256;
// When the contiguous path uses programmatic dependent launch (PDL,
// common/cuda/pdl.cuh), so that back-to-back calls overlap one grid's drain
// with the next one's launch: 0 never, 1 eager calls only, 2 in graphs too.
// H100, µs a call, tools/pdlmul_bench.cu (plain -> PDL): eager 4096² F16
// 36.70 -> 34.82, BF16 36.92 -> 34.74, 8192² F32 265.98 -> 263.85; graphs of
// 20 calls 34.84 -> 34.59, 35.16 -> 34.55, 264.14 -> 263.57 (one chunk a
// block, as Rearrange's tiles: the next call's blocks take only the slots our
// last wave frees; notes/mul.md, "Session 16").
#ifndef INFINI_ELEMENTWISE_PDL
#define INFINI_ELEMENTWISE_PDL 2
#endif
constexpr PdlPolicy kContiguousPdl = pdlPolicyOfKnob(INFINI_ELEMENTWISE_PDL);

template <class T, int N>
struct Inputs {
    const T *p[N];
};

// B bytes of T; past 16 bytes still on 16 (loaded as several 16-byte vectors).
template <class T, int B = 16>
struct alignas(B < 16 ? B : 16) Vec {
    T v[B / sizeof(T)];
};

__device__ __forceinline__ uint32_t divmod(const FastDiv &f, uint32_t n, uint32_t &rem) { return f.divmod(n, rem); }

// op on compute values: F16/BF16 widened to float, rounded once back.
template <class Op, class T, size_t... I>
__device__ __forceinline__ T apply(const T (&x)[sizeof...(I)], std::index_sequence<I...>) {
    return narrow<T>(Op{}(widen(x[I])...));
}

// op on each lane of N vectors of B bytes.
template <class Op, class T, int N, int B = 16>
__device__ __forceinline__ Vec<T, B> applyVec(const Vec<T, B> (&x)[N]) {
    Vec<T, B> y;
#pragma unroll
    for (int e = 0; e < (int)(B / sizeof(T)); ++e) {
        T xe[N];
#pragma unroll
        for (int k = 0; k < N; ++k) {
            xe[k] = x[k].v[e];
        }
        y.v[e] = apply<Op>(xe, std::make_index_sequence<N>{});
    }
    return y;
}

// Every operand one run of stride 1. Accesses of V elements (V > 1: 16-byte
// vectors, every base aligned; V == 1: any alignment), U of them per thread:
// each block moves one chunk of B * U accesses, so that the blocks in
// flight work on neighbouring memory; it loops over further chunks only when
// the grid is capped. A thread issues all its loads before it computes.
// Elements after the last whole vector are done by the first threads.
// Measured on an H100 (notes/mul.md): one chunk per block is 5% faster than
// a grid-stride loop over a grid that fills the GPU once (8192² F32), and
// U = 1..8 vectors per thread are within 0.3% of each other, so the vector
// form uses U = 1.
// PDL: launched with it (launchContiguous), the kernel may start while the
// previous one in the stream drains. Nothing global before the wait (that
// kernel may still write our inputs or read our output); the trigger right
// after it lets the next call's grid be launched once all our blocks have
// started. With one chunk per block that is during our last wave, so the
// next grid's waiting blocks only take slots ours have left for good (no
// block of ours is still unscheduled), and the hardware then hands out its
// remaining blocks by free slot, so no SM ends up with an unequal share.
// B: threads a block, kBlock or (vector form, large grids) kWideBlock
// (nvidia.h, contiguousVecBlock).
// -DINFINI_ELEMENTWISE_TRIGGER_AT_EXIT=1: no trigger, the next grid launched
// as our last block exits (a measuring knob, session 23: the odd word tiles
// gained from a later trigger, but Mul 1024x4096 F16 went 9.8 -> 10.2 µs a
// call, notes/rearrange.md).
#ifndef INFINI_ELEMENTWISE_TRIGGER_AT_EXIT
#define INFINI_ELEMENTWISE_TRIGGER_AT_EXIT 0
#endif
template <class Op, class T, int N, int V, int U, int B = kBlock>
__global__ void __launch_bounds__(B) contiguousKernel(T *out, Inputs<T, N> in, uint64_t numel) {
    using A = std::conditional_t<(V > 1), Vec<T>, T>;
    static_assert(V == 1 || V == (int)(16 / sizeof(T)), "scalars or 16-byte vectors");
    pdlWaitPrevious();
    if (!INFINI_ELEMENTWISE_TRIGGER_AT_EXIT) {
        pdlAllowNext();
    }
    const uint64_t nacc = numel / V;
    const uint64_t chunk = (uint64_t)B * U;
    for (uint64_t base = (uint64_t)blockIdx.x * chunk + threadIdx.x; base < nacc;
         base += (uint64_t)gridDim.x * chunk) {
        A x[U][N];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const uint64_t i = base + (uint64_t)u * B;
#pragma unroll
            for (int k = 0; k < N; ++k) {
                if (i < nacc) {
                    x[u][k] = reinterpret_cast<const A *>(in.p[k])[i];
                }
            }
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const uint64_t i = base + (uint64_t)u * B;
            if (i < nacc) {
                A y;
                if constexpr (V > 1) {
                    y = applyVec<Op>(x[u]);
                } else {
                    y = apply<Op>(x[u], std::make_index_sequence<N>{});
                }
                reinterpret_cast<A *>(out)[i] = y;
            }
        }
    }
    if constexpr (V > 1) {
        const uint64_t tail = nacc * V + (uint64_t)blockIdx.x * B + threadIdx.x;
        if (tail < numel) {
            T xe[N];
#pragma unroll
            for (int k = 0; k < N; ++k) {
                xe[k] = in.p[k][tail];
            }
            out[tail] = apply<Op>(xe, std::make_index_sequence<N>{});
        }
    }
}

// The element offsets of every operand (output first) at linear index n: dims
// decomposed by multiply-high division, innermost first.
template <int N>
__device__ __forceinline__ void stridedOffsets(const StridedArgs &a, uint32_t n, int64_t (&off)[N + 1]) {
#pragma unroll
    for (int k = 0; k <= N; ++k) {
        off[k] = a.offset[k];
    }
#pragma unroll
    for (int d = kMaxDims - 1; d >= 1; --d) {
        if (d < (int)a.ndim) {
            uint32_t r;
            n = divmod(a.size[d], n, r);
#pragma unroll
            for (int k = 0; k <= N; ++k) {
                off[k] += (int64_t)r * a.stride[d][k];
            }
        }
    }
#pragma unroll
    for (int k = 0; k <= N; ++k) {
        off[k] += (int64_t)n * a.stride[0][k];
    }
}

// Any layout: each element's offsets from its linear index, dims decomposed
// by multiply-high division; sizes and strides are kernel parameters.
template <class Op, class T, int N>
__global__ void __launch_bounds__(kBlock) stridedKernel(T *out, Inputs<T, N> in, StridedArgs a) {
    const uint32_t step = gridDim.x * blockDim.x * kUnroll;
    for (uint32_t base = blockIdx.x * blockDim.x * kUnroll + threadIdx.x; base < a.numel; base += step) {
        int64_t off[kUnroll][N + 1];
        T x[kUnroll][N];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            uint32_t n = base + u * blockDim.x;
            const bool ok = n < a.numel;
            stridedOffsets<N>(a, n, off[u]);
#pragma unroll
            for (int k = 0; k < N; ++k) {
                x[u][k] = ok ? in.p[k][off[u][k + 1]] : T{};
            }
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            if (base + u * blockDim.x < a.numel) {
                out[off[u][0]] = apply<Op>(x[u], std::make_index_sequence<N>{});
            }
        }
    }
}

// The vector form of the strided path: an index per 16-byte vector of the
// innermost dim (its strides are already scaled by the vector width); inputs
// constant along that dim (a.splat) load one element and repeat it.
template <class Op, class T, int N>
__global__ void __launch_bounds__(kBlock) stridedVecKernel(T *out, Inputs<T, N> in, StridedArgs a) {
    constexpr int V = 16 / sizeof(T);
    constexpr int U = kUnroll / 2; // vectors per thread and round
    const uint32_t step = gridDim.x * blockDim.x * U;
    for (uint32_t base = blockIdx.x * blockDim.x * U + threadIdx.x; base < a.numel; base += step) {
        int64_t off[U][N + 1];
        Vec<T> x[U][N];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            uint32_t n = base + u * blockDim.x;
            const bool ok = n < a.numel;
            stridedOffsets<N>(a, n, off[u]);
            if (ok) {
#pragma unroll
                for (int k = 0; k < N; ++k) {
                    if (a.splat & (1u << k)) {
                        const T e = in.p[k][off[u][k + 1]];
#pragma unroll
                        for (int j = 0; j < V; ++j) {
                            x[u][k].v[j] = e;
                        }
                    } else {
                        x[u][k] = *reinterpret_cast<const Vec<T> *>(in.p[k] + off[u][k + 1]);
                    }
                }
            }
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
            if (base + u * blockDim.x < a.numel) {
                *reinterpret_cast<Vec<T> *>(out + off[u][0]) = applyVec<Op>(x[u]);
            }
        }
    }
}

// Linear index n decomposed over a's dims (innermost first; Args: GatherArgs
// or LaneGatherArgs): coordinate r of dim d to coord(d, r), and r times each
// gathered input's stride there added to off (in Off: 64 or 32 bits); D: the
// dims the code is unrolled for (a.ndim <= D).
template <int N, int D = kMaxDims, class Args, class Off, class Coord>
__device__ __forceinline__ void addGatherOffsets(const Args &a, uint32_t n, Off (&off)[N], Coord &&coord) {
#pragma unroll
    for (int d = 0; d < D; ++d) {
        if (d < (int)a.ndim) {
            uint32_t r = n;
            if (d + 1 < (int)a.ndim) {
                n = divmod(a.size[d], n, r);
            }
            coord(d, r);
#pragma unroll
            for (int k = 0; k < N; ++k) {
                off[k] += (Off)r * (Off)a.stride[d][k];
            }
        }
    }
}

// The gather form's coordinates (innermost first) of linear index n, and the
// gathered inputs' element offsets there.
// 64-bit offsets start at the inputs' own offsets; 32-bit ones (Plan::gather_off32) at 0, relative to bases
// that have those folded in (gatherKernel's `base`).
template <int N, class Off, int D>
__device__ __forceinline__ void gatherOffsets(const GatherArgs &a, uint32_t n, uint32_t (&c)[D], Off (&off)[N]) {
#pragma unroll
    for (int k = 0; k < N; ++k) {
        off[k] = sizeof(Off) < 8 ? 0 : a.offset[k + 1];
    }
#pragma unroll
    for (int d = 0; d < D; ++d) {
        c[d] = 0;
    }
    addGatherOffsets<N, D>(a, n, off, [&](int d, uint32_t r) { c[d] = r; });
}

// The gather form's lane mapping (LaneGatherArgs): consecutive threads take
// consecutive output elements, kLaneElems a thread a block apart (all loads
// first, then the stores), each element's coordinates decomposed and its
// gathered offsets summed in 32 bits; flat inputs load at the output's index.
template <class Op, class T, int N>
__global__ void __launch_bounds__(kBlock) laneGatherKernel(T *out, Inputs<T, N> in, LaneGatherArgs a) {
    const T *p[N];
#pragma unroll
    for (int k = 0; k < N; ++k) {
        p[k] = in.p[k] + a.offset[k + 1];
    }
    T *o = out + a.offset[0];
    const uint32_t step = gridDim.x * kBlock * kLaneElems;
    for (uint32_t base = blockIdx.x * kBlock * kLaneElems + threadIdx.x; base < a.numel; base += step) {
        T x[kLaneElems][N];
#pragma unroll
        for (int e = 0; e < kLaneElems; ++e) {
            const uint32_t n = base + e * kBlock;
            if (n < a.numel) {
                int32_t off[N] = {};
                addGatherOffsets(a, n, off, [](int, uint32_t) {});
#pragma unroll
                for (int k = 0; k < N; ++k) {
                    x[e][k] = (a.flat >> k) & 1u ? p[k][n] : p[k][off[k]];
                }
            }
        }
#pragma unroll
        for (int e = 0; e < kLaneElems; ++e) {
            const uint32_t n = base + e * kBlock;
            if (n < a.numel) {
                o[n] = apply<Op>(x[e], std::make_index_sequence<N>{});
            }
        }
    }
}

// The strided path's gather form (GatherArgs): a thread per vector of B bytes
// of the contiguous output (16; 32 for 8-byte types where Plan::gather_vec_bytes
// says so). Flat inputs load the vector at the output's index.
// The gathered ones decompose the vector's first element once. With innermost
// rows of V elements or more a vector spans at most two rows: elements up to
// the row's end at the inner stride from there, the rest from the next row's
// start (a second decomposition, only where the row ends inside the vector);
// inside one row, stride 0 loads one element and stride 1 a vector where its
// address is on 16 bytes. Shorter rows and the last, partial vector step the
// coordinates element by element with a carry.
template <class Op, class T, int N, int B, class Off = int64_t, int D = kMaxDims>
__global__ void __launch_bounds__(kBlock, gatherMinBlocks<T>()) gatherKernel(T *out, Inputs<T, N> in, GatherArgs a) {
    constexpr int V = B / sizeof(T);
    const T *base[N]; // the gathered inputs' bases (their offsets in them for 32-bit offsets)
#pragma unroll
    for (int k = 0; k < N; ++k) {
        base[k] = in.p[k] + (sizeof(Off) < 8 ? a.offset[k + 1] : 0);
    }
    const uint32_t nvec = (a.numel + V - 1) / V;
    const uint32_t size0 = a.size[0].divisor;
    // Rows shorter than a vector whose every vector spans two of them (INFINI_ELEMENTWISE_GATHER_SHORT_RUNS):
    // a vector's first element sits at a multiple of g = gcd(V, size0) in its row, at most size0 - g, and
    // the rest fits in the next row where V - (size0 - (size0 - g)) <= size0.
    const uint32_t g = min((uint32_t)V, size0 & (0u - size0));
    const bool two_runs = size0 >= V || (kGatherShortRuns && size0 + g >= V);
    for (uint32_t v = blockIdx.x * kBlock + threadIdx.x; v < nvec; v += gridDim.x * kBlock) {
        const uint32_t n0 = v * V;
        uint32_t c[D];
        Off off[N];
        gatherOffsets<N>(a, n0, c, off);
        const bool whole = n0 + V <= a.numel;
        const bool runs = whole && two_runs; // one or two runs of the innermost dim
        uint32_t first_run = V;                // elements in the first run
        Off next[N];                           // the second run's offsets
#pragma unroll
        for (int k = 0; k < N; ++k) {
            next[k] = off[k];
        }
        if (runs && c[0] + V > size0) {
            first_run = size0 - c[0];
            uint32_t c2[D];
            gatherOffsets<N>(a, n0 + first_run, c2, next);
        }
        Vec<T, B> x[N];
#pragma unroll
        for (int k = 0; k < N; ++k) {
            const bool flat = (a.flat >> k) & 1u;
            if (flat && whole) {
                x[k] = *reinterpret_cast<const Vec<T, B> *>(in.p[k] + a.offset[k + 1] + n0);
            } else if (!flat && runs) {
                const T *p = base[k] + off[k];
                const Off s = (Off)a.stride[0][k];
                if (first_run < V) {
                    const T *q = base[k] + next[k];
#pragma unroll
                    for (int j = 0; j < V; ++j) {
                        x[k].v[j] = j < (int)first_run ? p[(Off)j * s] : q[(Off)(j - (int)first_run) * s];
                    }
                } else if (s == 0) {
                    const T e = *p;
#pragma unroll
                    for (int j = 0; j < V; ++j) {
                        x[k].v[j] = e;
                    }
                } else if (s == 1 && reinterpret_cast<uintptr_t>(p) % alignof(Vec<T, B>) == 0) {
                    x[k] = *reinterpret_cast<const Vec<T, B> *>(p);
                } else {
#pragma unroll
                    for (int j = 0; j < V; ++j) {
                        x[k].v[j] = p[(Off)j * s];
                    }
                }
            }
        }
        if (!runs) { // element by element: rows shorter than a vector, or the tensor's end
#pragma unroll
            for (int j = 0; j < V; ++j) {
                if (n0 + j < a.numel) {
#pragma unroll
                    for (int k = 0; k < N; ++k) {
                        if (!((a.flat >> k) & 1u)) {
                            x[k].v[j] = base[k][off[k]];
                        } else if (!whole) {
                            x[k].v[j] = in.p[k][a.offset[k + 1] + n0 + j];
                        }
                    }
                } else {
#pragma unroll
                    for (int k = 0; k < N; ++k) {
                        x[k].v[j] = T{};
                    }
                }
                // the next element's coordinates: the innermost dim steps, a carry outwards
#pragma unroll
                for (int d = 0; d < D; ++d) {
                    if (d < (int)a.ndim) {
#pragma unroll
                        for (int k = 0; k < N; ++k) {
                            off[k] += (Off)a.stride[d][k];
                        }
                        if (++c[d] < a.size[d].divisor) {
                            break;
                        }
                        c[d] = 0;
#pragma unroll
                        for (int k = 0; k < N; ++k) {
                            off[k] -= (Off)a.size[d].divisor * (Off)a.stride[d][k];
                        }
                    }
                }
            }
        }
        const Vec<T, B> y = applyVec<Op>(x);
        T *o = out + a.offset[0] + n0;
        if (whole) {
            *reinterpret_cast<Vec<T, B> *>(o) = y;
        } else {
#pragma unroll
            for (int j = 0; j < V; ++j) {
                if (n0 + j < a.numel) {
                    o[j] = y.v[j];
                }
            }
        }
    }
}

// The gather kernel for a plan's vector bytes, offsets of type Off and D dims.
template <class Op, class T, int N, class Off, int D = kMaxDims>
auto gatherKernelFor(const Plan &plan) {
    if constexpr (sizeof(T) == 8) {
        if (plan.gather_vec_bytes == kGatherWideVecBytes) {
            return gatherKernel<Op, T, N, kGatherWideVecBytes, Off, D>;
        }
    }
    return gatherKernel<Op, T, N, kGatherVecBytes, Off, D>;
}

// The gather kernel for a plan (gatherKernelFor) at its offsets' width.
template <class Op, class T, int N, int D>
auto gatherKernelAt(const Plan &plan) {
    if constexpr (gatherOff32(sizeof(T))) { // (the 32-bit form compiled only where it can be planned)
        if (plan.gather_off32) {
            return gatherKernelFor<Op, T, N, int32_t, D>(plan);
        }
    }
    return gatherKernelFor<Op, T, N, int64_t, D>(plan);
}

// A transposed input: tiles of kTileElems elements over (j, i), i the output's
// innermost dim and j the dim along which the staged inputs have stride 1;
// 2^JL (8, 16 or 32: a.tile_j_log; 64 or 128 for 1- and 2-byte elements under
// INFINI_ELEMENTWISE_WIDE_TILES_2B) along j, the rest along i, so that a short
// j (a few rows of a transposed plane) still fills its tiles. Staged inputs
// are read along j into shared memory, everything else along i, so every
// global access is coalesced.
template <class Op, class T, int N, int JL>
__global__ void __launch_bounds__(kTiledBlock<T>) tiledKernel(T *out, Inputs<T, N> in, TiledArgs a) {
    // A pitch of 2^JL + kPad elements puts the column reads (consecutive i)
    // of the narrow tiles on distinct banks (kPad * sizeof(T): one word).
    // 32-wide tiles keep the pitch they were measured with (33: two-way
    // conflicts on those reads for 1- and 2-byte types); the wide ones (64,
    // 128) pad a word too.
    constexpr uint32_t kPad = JL != 5 && sizeof(T) < 4 ? 4 / sizeof(T) : 1;
    constexpr uint32_t jl = JL, il = kTileElemsLog - JL, pitch = (1u << jl) + kPad;
    __shared__ T tile[N][(1u << il) * pitch];
    // This thread's place in a tile: staged loads walk j across consecutive
    // threads (load_j, then rows load_i), everything else walks i (along_i,
    // then rows along_j).
    const uint32_t load_j = threadIdx.x & ((1u << jl) - 1), load_i = threadIdx.x >> jl;
    const uint32_t along_i = threadIdx.x & ((1u << il) - 1), along_j = threadIdx.x >> il;
    constexpr uint32_t step_i = kTiledBlock<T> >> jl, step_j = kTiledBlock<T> >> il;
    constexpr int R = kTileElems / kTiledBlock<T>;
    // A thread's elements of a tile lie a fixed step apart in each operand
    // (operand 0 the output): one 64-bit add an element, not a multiply
    // (INFINI_ELEMENTWISE_TILED_HOIST; not 4-byte types).
    constexpr bool kHoist = INFINI_ELEMENTWISE_TILED_HOIST && sizeof(T) != 4;
    int64_t first[N + 1], step[N + 1];
    if constexpr (kHoist) {
#pragma unroll
        for (int k = 0; k <= N; ++k) {
            const bool staged = k > 0 && (a.staged & (1u << (k - 1)));
            first[k] = staged ? (int64_t)load_j * a.sj[k] + (int64_t)load_i * a.si[k]
                              : (int64_t)along_i * a.si[k] + (int64_t)along_j * a.sj[k];
            step[k] = staged ? (int64_t)step_i * a.si[k] : (int64_t)step_j * a.sj[k];
        }
    }
    for (uint32_t t = blockIdx.x; t < a.ntiles; t += gridDim.x) {
        uint32_t ti, tj;
        uint32_t q = divmod(a.div_tiles_i, t, ti);
        uint32_t b = divmod(a.div_tiles_j, q, tj);
        int64_t base[N + 1];
        const uint32_t i0 = ti << il, j0 = tj << jl;
#pragma unroll
        for (int k = 0; k <= N; ++k) {
            base[k] = a.offset[k] + (int64_t)i0 * a.si[k] + (int64_t)j0 * a.sj[k];
        }
#pragma unroll
        for (int d = kMaxDims - 1; d >= 0; --d) {
            if (d < (int)a.nbatch) {
                uint32_t r;
                if (d > 0) {
                    b = divmod(a.batch_size[d], b, r);
                } else {
                    r = b;
                }
#pragma unroll
                for (int k = 0; k <= N; ++k) {
                    base[k] += (int64_t)r * a.batch_stride[d][k];
                }
            }
        }
        // All global loads of the tile first: the staged inputs along j
        // into shared memory, the others along i into registers; then one
        // barrier, then compute and store along i.
        T x[R][N];
        if constexpr (kHoist) {
            const uint32_t ni_left = a.ni - i0, nj_left = a.nj - j0;
#pragma unroll
            for (int k = 0; k < N; ++k) {
                const T *p = in.p[k] + base[k + 1] + first[k + 1];
                if (a.staged & (1u << k)) {
                    const bool jok = load_j < nj_left;
#pragma unroll
                    for (int r = 0; r < R; ++r) {
                        const uint32_t ii = load_i + r * step_i;
                        if (jok && ii < ni_left) {
                            tile[k][ii * pitch + load_j] = p[r * step[k + 1]];
                        }
                    }
                } else {
                    const bool iok = along_i < ni_left;
#pragma unroll
                    for (int r = 0; r < R; ++r) {
                        if (iok && along_j + r * step_j < nj_left) {
                            x[r][k] = p[r * step[k + 1]];
                        }
                    }
                }
            }
            __syncthreads();
            T *o = out + base[0] + first[0];
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const uint32_t jj = along_j + r * step_j;
                if (jj < nj_left && along_i < ni_left) {
#pragma unroll
                    for (int k = 0; k < N; ++k) {
                        if (a.staged & (1u << k)) {
                            x[r][k] = tile[k][along_i * pitch + jj];
                        }
                    }
                    o[r * step[0]] = apply<Op>(x[r], std::make_index_sequence<N>{});
                }
            }
        } else {
#pragma unroll
            for (int k = 0; k < N; ++k) {
                if (a.staged & (1u << k)) {
                    const T *p = in.p[k] + base[k + 1] + (int64_t)load_j * a.sj[k + 1];
                    const bool jok = j0 + load_j < a.nj;
#pragma unroll
                    for (int r = 0; r < R; ++r) {
                        const uint32_t ii = load_i + r * step_i;
                        if (jok && i0 + ii < a.ni) {
                            tile[k][ii * pitch + load_j] = p[(int64_t)ii * a.si[k + 1]];
                        }
                    }
                } else {
                    const T *p = in.p[k] + base[k + 1] + (int64_t)along_i * a.si[k + 1];
                    const bool iok = i0 + along_i < a.ni;
#pragma unroll
                    for (int r = 0; r < R; ++r) {
                        const uint32_t jj = along_j + r * step_j;
                        if (iok && j0 + jj < a.nj) {
                            x[r][k] = p[(int64_t)jj * a.sj[k + 1]];
                        }
                    }
                }
            }
            __syncthreads();
            T *o = out + base[0] + (int64_t)along_i * a.si[0];
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const uint32_t jj = along_j + r * step_j;
                if (j0 + jj < a.nj && i0 + along_i < a.ni) {
#pragma unroll
                    for (int k = 0; k < N; ++k) {
                        if (a.staged & (1u << k)) {
                            x[r][k] = tile[k][along_i * pitch + jj];
                        }
                    }
                    o[(int64_t)jj * a.sj[0]] = apply<Op>(x[r], std::make_index_sequence<N>{});
                }
            }
        }
        __syncthreads();
    }
}

// The contiguous path's launch, PDL as `policy` says where the plan allows it
// (plan.pdl: the kernels' code on this device has the wait). launch() passes
// kContiguousPdl; tools/pdlmul_bench.cu the others.
template <class Op, infiniDtype_t D>
infiniStatus_t launchContiguous(const Plan &plan, void *out_ptr, const void *const *inputs, cudaStream_t s,
                                PdlPolicy policy) {
    using T = typename DeviceTypeOf<D>::type;
    constexpr int N = (int)Op::kInputs;
    T *out = static_cast<T *>(out_ptr) + plan.offset[0];
    Inputs<T, N> in;
    bool aligned = reinterpret_cast<uintptr_t>(out) % 16 == 0;
    for (int k = 0; k < N; ++k) {
        in.p[k] = static_cast<const T *>(inputs[k]) + plan.offset[k + 1];
        aligned = aligned && reinterpret_cast<uintptr_t>(in.p[k]) % 16 == 0;
    }
    const bool pdl = plan.pdl && pdlWanted(policy, s);
    constexpr int V = 16 / sizeof(T);
    const cudaError_t launched =
        !aligned ? launchKernel(contiguousKernel<Op, T, N, 1, kUnroll>, plan.grid_scalar, kBlock, 0, s, pdl, out, in,
                                plan.numel)
        : plan.block_vec == kWideBlock
            ? launchKernel(contiguousKernel<Op, T, N, V, 1, kWideBlock>, plan.grid_vec, kWideBlock, 0, s, pdl, out,
                           in, plan.numel)
            : launchKernel(contiguousKernel<Op, T, N, V, 1>, plan.grid_vec, kBlock, 0, s, pdl, out, in, plan.numel);
    const cudaError_t last = cudaGetLastError(); // cleared, as CUDA_TRY_LAUNCH does after <<<>>>
    CUDA_TRY(launched != cudaSuccess ? launched : last);
    return INFINI_STATUS_SUCCESS;
}

// The tiled kernel of plan's tile shape (2^tile_j_log along j).
template <class Op, class T, int N>
infiniStatus_t launchTiled(const Plan &plan, T *out, const Inputs<T, N> &in, cudaStream_t s) {
    auto kernel = tiledKernel<Op, T, N, 5>;
#if INFINI_ELEMENTWISE_NARROW_TILES
    if (plan.tiled.tile_j_log == 4) {
        kernel = tiledKernel<Op, T, N, 4>;
    } else if (plan.tiled.tile_j_log == 3) {
        kernel = tiledKernel<Op, T, N, 3>;
    }
#endif
#if INFINI_ELEMENTWISE_WIDE_TILES_2B > 5
    if constexpr (sizeof(T) <= 2) {
        if (plan.tiled.tile_j_log == 6) {
            kernel = tiledKernel<Op, T, N, 6>;
        }
#if INFINI_ELEMENTWISE_WIDE_TILES_2B > 6
        if (plan.tiled.tile_j_log == 7) {
            kernel = tiledKernel<Op, T, N, 7>;
        }
#endif
    }
#endif
    kernel<<<plan.grid_tiled, kTiledBlock<T>, 0, s>>>(out, in, plan.tiled);
    CUDA_TRY_LAUNCH();
    return INFINI_STATUS_SUCCESS;
}

template <class Op, infiniDtype_t D>
infiniStatus_t launch(const Plan &plan, void *out_ptr, const void *const *inputs, void *stream) {
    using T = typename DeviceTypeOf<D>::type;
    constexpr int N = (int)Op::kInputs;
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    T *out = static_cast<T *>(out_ptr);
    Inputs<T, N> in;
    for (int k = 0; k < N; ++k) {
        in.p[k] = static_cast<const T *>(inputs[k]);
    }
    switch (plan.path) {
    case Path::Contiguous:
        return launchContiguous<Op, D>(plan, out_ptr, inputs, s, kContiguousPdl);
    case Path::Strided:
        if (plan.has_vec) {
            bool aligned = reinterpret_cast<uintptr_t>(out) % 16 == 0;
            for (int k = 0; k < N; ++k) {
                aligned = aligned && ((plan.vec.splat >> k) & 1u || reinterpret_cast<uintptr_t>(in.p[k]) % 16 == 0);
            }
            if (aligned) {
                stridedVecKernel<Op, T, N><<<plan.grid_vec_strided, kBlock, 0, s>>>(out, in, plan.vec);
                CUDA_TRY_LAUNCH();
                return INFINI_STATUS_SUCCESS;
            }
        }
        if (plan.has_lane) {
            laneGatherKernel<Op, T, N><<<plan.grid_lane, kBlock, 0, s>>>(out, in, plan.lane);
            CUDA_TRY_LAUNCH();
            return INFINI_STATUS_SUCCESS;
        }
        if (plan.has_gather) {
            constexpr uintptr_t gb = alignof(Vec<T, kGatherVecBytes>); // (wide vectors too: on 16 bytes)
            bool aligned = reinterpret_cast<uintptr_t>(out + plan.gather.offset[0]) % gb == 0;
            for (int k = 0; k < N; ++k) {
                aligned = aligned && (!((plan.gather.flat >> k) & 1u) ||
                                      reinterpret_cast<uintptr_t>(in.p[k] + plan.gather.offset[k + 1]) % gb == 0);
            }
            if (aligned) {
                auto kernel = gatherKernelAt<Op, T, N, kMaxDims>(plan);
                if constexpr (kGatherDims4) { // (compiled only where the knob is on)
                    if (plan.gather.ndim <= 4) {
                        kernel = gatherKernelAt<Op, T, N, 4>(plan);
                    }
                }
                kernel<<<plan.grid_gather, kBlock, 0, s>>>(out, in, plan.gather);
                CUDA_TRY_LAUNCH();
                return INFINI_STATUS_SUCCESS;
            }
        }
        for (size_t i = 0; i < plan.launches.size(); ++i) {
            stridedKernel<Op, T, N><<<plan.grids[i], kBlock, 0, s>>>(out, in, plan.launches[i]);
            CUDA_TRY_LAUNCH();
        }
        return INFINI_STATUS_SUCCESS;
    case Path::Tiled:
        return launchTiled<Op, T, N>(plan, out, in, s);
    }
    return INFINI_STATUS_INTERNAL_ERROR;
}

template <class Op, infiniDtype_t D>
infiniStatus_t occupancy(Occupancy *occ) {
    using T = typename DeviceTypeOf<D>::type;
    constexpr int N = (int)Op::kInputs;
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ->strided, stridedKernel<Op, T, N>, kBlock, 0));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ->strided_vec, stridedVecKernel<Op, T, N>, kBlock, 0));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ->tiled, tiledKernel<Op, T, N, 5>, kTiledBlock<T>, 0));
#if INFINI_ELEMENTWISE_NARROW_TILES
    // One grid size for every tile shape: the fewest resident blocks of the three.
    for (auto kernel : {tiledKernel<Op, T, N, 4>, tiledKernel<Op, T, N, 3>}) {
        int blocks = 0;
        CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kTiledBlock<T>, 0));
        occ->tiled = std::min(occ->tiled, blocks);
    }
#endif
#if INFINI_ELEMENTWISE_WIDE_TILES_2B > 5
    if constexpr (sizeof(T) <= 2) {
        for (auto kernel : {tiledKernel<Op, T, N, 6>, tiledKernel<Op, T, N, (INFINI_ELEMENTWISE_WIDE_TILES_2B > 6 ? 7 : 6)>}) {
            int blocks = 0;
            CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kTiledBlock<T>, 0));
            occ->tiled = std::min(occ->tiled, blocks);
        }
    }
#endif
    occ->pdl = kernelHonoursPdl(contiguousKernel<Op, T, N, 16 / sizeof(T), 1>) &&
               kernelHonoursPdl(contiguousKernel<Op, T, N, 16 / sizeof(T), 1, kWideBlock>) &&
               kernelHonoursPdl(contiguousKernel<Op, T, N, 1, kUnroll>);
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::elementwise::nvidia

// Explicit instantiation of the launcher (and its occupancy query) of `Op`
// for kernel dtype `D`.
#define INFINI_ELEMENTWISE_NVIDIA_INSTANTIATE(Op, D)                                                          \
    template infiniStatus_t infini::elementwise::nvidia::launch<Op, D>(const infini::elementwise::nvidia::Plan &, \
                                                                       void *, const void *const *, void *);     \
    template infiniStatus_t infini::elementwise::nvidia::occupancy<Op, D>(infini::elementwise::nvidia::Occupancy *)

// The same for each of 1 to 8 kernel dtypes (a dtype list macro such as
// INFINI_FLOAT_DTYPES counts as its elements): an operator's .cu file is
//   #include "add.cc"
//   INFINI_ELEMENTWISE_NVIDIA_KERNELS(infini::AddOp, INFINI_FLOAT_DTYPES);
#define INFINI_ELEMENTWISE_NVIDIA_KERNELS(Op, ...) \
    INFINI_EW_CAT(INFINI_EW_KERNELS_, INFINI_EW_COUNT(__VA_ARGS__))(Op, __VA_ARGS__)
#define INFINI_EW_CAT(a, b) INFINI_EW_CAT_(a, b)
#define INFINI_EW_CAT_(a, b) a##b
#define INFINI_EW_COUNT(...) INFINI_EW_COUNT_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, )
#define INFINI_EW_COUNT_(a1, a2, a3, a4, a5, a6, a7, a8, n, ...) n
#define INFINI_EW_KERNELS_1(Op, D) INFINI_ELEMENTWISE_NVIDIA_INSTANTIATE(Op, D)
#define INFINI_EW_KERNELS_2(Op, D, ...) INFINI_EW_KERNELS_1(Op, D); INFINI_EW_KERNELS_1(Op, __VA_ARGS__)
#define INFINI_EW_KERNELS_3(Op, D, ...) INFINI_EW_KERNELS_1(Op, D); INFINI_EW_KERNELS_2(Op, __VA_ARGS__)
#define INFINI_EW_KERNELS_4(Op, D, ...) INFINI_EW_KERNELS_1(Op, D); INFINI_EW_KERNELS_3(Op, __VA_ARGS__)
#define INFINI_EW_KERNELS_5(Op, D, ...) INFINI_EW_KERNELS_1(Op, D); INFINI_EW_KERNELS_4(Op, __VA_ARGS__)
#define INFINI_EW_KERNELS_6(Op, D, ...) INFINI_EW_KERNELS_1(Op, D); INFINI_EW_KERNELS_5(Op, __VA_ARGS__)
#define INFINI_EW_KERNELS_7(Op, D, ...) INFINI_EW_KERNELS_1(Op, D); INFINI_EW_KERNELS_6(Op, __VA_ARGS__)
#define INFINI_EW_KERNELS_8(Op, D, ...) INFINI_EW_KERNELS_1(Op, D); INFINI_EW_KERNELS_7(Op, __VA_ARGS__)
