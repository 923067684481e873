// Rearrange, CPU backend: parallelFor over the outer dims of the simplified
// layout, memcpy of runs contiguous in both tensors (streamed past the caches
// when large), transposes through registers (cpu_kernels.inc) or cache-blocked
// tiles, an element loop for everything else.
#include "common/cpu/copy.h"
#include "common/cpu/isa.h"
#include "common/cpu/parallel.h"
#include "common/cpu/simd.h"
#include "common/cpu/strided.h"
#include "rearrange.h"
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace infini::rearrange::cpu {

#define INFINI_CPU_KERNELS "ops/rearrange/cpu_kernels.inc"
#include "common/cpu/foreach_isa.h"

namespace {

template <size_t N>
struct Elem {
    unsigned char bytes[N];
};

// Copy one element of N bytes; the fixed-size memcpy compiles to moves.
template <size_t N>
inline void copyElem(unsigned char *d, const unsigned char *s) {
    std::memcpy(d, s, N);
}

enum class Path { Empty, Single, Contiguous, Runs, Tile, SmallTile, Strided };

constexpr size_t kTile = 32;           // tile edge in elements (element by element)
// Tile edge in elements through registers: 64 -> 256 took 2048² F32 from 2.8 to 1.8 ms on one core.
constexpr size_t kVecTile = 256;
// Streamed transposes (large outputs): tiles of kStreamTileA elements of a by
// kStreamTileLines cache lines of b.
constexpr size_t kStreamTileA = 1024;
constexpr size_t kStreamTileLines = 2;
// Transposes stream from this much output (half of a copy's threshold: a
// transpose's reads already miss the caches).
constexpr size_t kStreamTransposeBytes = infini::cpu::kStreamBytes / 2;
// Both transposed dims at least this long. 8 until session 36: shorter ones went to the element loop, a
// cache line a unit on the strided side (seed 41's CPU sweep, 432 Rearrange cases: 26 behind NumPy at
// 8, 10 at 2; (4,109,65,122) order (3,1,2,0) F32 5.95 -> 0.75 ms, NumPy 2.6).
constexpr size_t kMinTileEdge = 2;
constexpr size_t kChunkBytes = 1 << 20; // parallel split of one contiguous run
// Transposes whose whole (a, b) plane is at most this many elements go through SmallTile: the outer dims
// walked as an odometer, a plane copied element by element, not a task (index division, dispatch and the
// register kernel's border recursion) a plane. Session 44, this 2-core host: (58,14,54,3,5) F32 order
// (0,4,2,1,3), 3 x 5 planes, 560 -> 250 µs (NumPy 400).
#ifndef INFINI_REARRANGE_CPU_SMALL_TILE
#define INFINI_REARRANGE_CPU_SMALL_TILE 64
#endif

struct CpuDesc final : Desc {
    Path path = Path::Strided;
    // Tile path: the src-contiguous dim a, the dst-innermost dim b, and the
    // remaining (outer) dims in layout order.
    size_t len_a = 0, len_b = 0;
    ptrdiff_t dst_a = 0, src_a = 0, dst_b = 0, src_b = 0;
    std::vector<size_t> outer_shape;
    std::vector<ptrdiff_t> outer_dst, outer_src;
    // SmallTile: the outer dims, then a, then b (offsets kept from the layout).
    SimpleLayout small;

    CpuDesc(const InfiniopHandle &h, const Info &i) : Desc(h, i) { plan(); }

    void plan() {
        const SimpleLayout &l = info.layout;
        const size_t nd = l.ndim();
        if (l.empty) {
            path = Path::Empty;
            return;
        }
        if (nd == 0) {
            path = Path::Single;
            return;
        }
        const ptrdiff_t inner_dst = l.strides[kDst][nd - 1], inner_src = l.strides[kSrc][nd - 1];
        if (inner_dst == 1 && inner_src == 1) {
            path = nd == 1 ? Path::Contiguous : Path::Runs;
            return;
        }
        // A transpose: some other dim is the contiguous one in src.
        size_t a = nd;
        for (size_t d = 0; d + 1 < nd; ++d) {
            if (std::llabs(l.strides[kSrc][d]) == 1) {
                a = d;
            }
        }
        if (a < nd && std::llabs(inner_src) != 1 && l.shape[a] >= kMinTileEdge && l.shape[nd - 1] >= kMinTileEdge) {
            path = Path::Tile;
            len_a = l.shape[a];
            len_b = l.shape[nd - 1];
            dst_a = l.strides[kDst][a];
            src_a = l.strides[kSrc][a];
            dst_b = inner_dst;
            src_b = inner_src;
            for (size_t d = 0; d + 1 < nd; ++d) {
                if (d != a) {
                    outer_shape.push_back(l.shape[d]);
                    outer_dst.push_back(l.strides[kDst][d]);
                    outer_src.push_back(l.strides[kSrc][d]);
                }
            }
            if (len_a * len_b <= INFINI_REARRANGE_CPU_SMALL_TILE) {
                path = Path::SmallTile;
                small.shape = outer_shape;
                small.shape.insert(small.shape.end(), {len_a, len_b});
                small.strides.resize(2);
                small.strides[kDst] = outer_dst;
                small.strides[kDst].insert(small.strides[kDst].end(), {dst_a, dst_b});
                small.strides[kSrc] = outer_src;
                small.strides[kSrc].insert(small.strides[kSrc].end(), {src_a, src_b});
                small.offset = l.offset;
            }
            return;
        }
        path = Path::Strided;
    }

    template <size_t N>
    infiniStatus_t run(unsigned char *dst, const unsigned char *src) const {
        const SimpleLayout &l = info.layout;
        const size_t nd = l.ndim();
        dst += l.offset[kDst] * (ptrdiff_t)N;
        src += l.offset[kSrc] * (ptrdiff_t)N;
        switch (path) {
        case Path::Empty:
            break;
        case Path::Single:
            copyElem<N>(dst, src);
            break;
        case Path::Contiguous: {
            const size_t bytes = l.shape[0] * N;
            const size_t chunks = (bytes + kChunkBytes - 1) / kChunkBytes;
            const bool stream = bytes >= infini::cpu::kStreamBytes;
            infini::cpu::parallelFor(chunks, kChunkBytes, [&](size_t c) {
                size_t begin = c * kChunkBytes;
                size_t n = begin + kChunkBytes < bytes ? kChunkBytes : bytes - begin;
                if (stream) {
                    infini::cpu::streamCopy(dst + begin, src + begin, n);
                } else {
                    std::memcpy(dst + begin, src + begin, n);
                }
            });
            break;
        }
        case Path::Runs: {
            const size_t bytes = l.shape[nd - 1] * N;
            // forEachOuter adds layout.offset itself: undo ours.
            unsigned char *d0 = dst - l.offset[kDst] * (ptrdiff_t)N;
            const unsigned char *s0 = src - l.offset[kSrc] * (ptrdiff_t)N;
            infini::cpu::forEachOuter<2>(l, 1, l.shape[nd - 1], [&](const ptrdiff_t *off) {
                std::memcpy(d0 + off[kDst] * (ptrdiff_t)N, s0 + off[kSrc] * (ptrdiff_t)N, bytes);
            });
            break;
        }
        case Path::Strided: {
            const size_t len = l.shape[nd - 1];
            const ptrdiff_t sd = l.strides[kDst][nd - 1] * (ptrdiff_t)N, ss = l.strides[kSrc][nd - 1] * (ptrdiff_t)N;
            unsigned char *d0 = dst - l.offset[kDst] * (ptrdiff_t)N;
            const unsigned char *s0 = src - l.offset[kSrc] * (ptrdiff_t)N;
            infini::cpu::forEachOuter<2>(l, 1, len, [&](const ptrdiff_t *off) {
                unsigned char *d = d0 + off[kDst] * (ptrdiff_t)N;
                const unsigned char *s = s0 + off[kSrc] * (ptrdiff_t)N;
                for (size_t i = 0; i < len; ++i, d += sd, s += ss) {
                    copyElem<N>(d, s);
                }
            });
            break;
        }
        case Path::Tile:
            runTile<N>(dst, src);
            break;
        case Path::SmallTile: {
            const ptrdiff_t da = dst_a * (ptrdiff_t)N, sa = src_a * (ptrdiff_t)N;
            const ptrdiff_t db = dst_b * (ptrdiff_t)N, sb = src_b * (ptrdiff_t)N;
            unsigned char *d0 = dst - l.offset[kDst] * (ptrdiff_t)N;
            const unsigned char *s0 = src - l.offset[kSrc] * (ptrdiff_t)N;
            // (dst's rows along b contiguous, the usual case, with the stride known to the compiler:
            // (36,14,45,2,19) F16 order (2,1,4,0,3), 2 x 19 planes, 400 -> 327 µs, NumPy 349; the 3 x 5 F32
            // case 312 -> 250.)
            auto planes = [&](auto unit_db) {
                constexpr bool kUnit = decltype(unit_db)::value;
                infini::cpu::forEachOuter<2>(small, 2, len_a * len_b, [&](const ptrdiff_t *off) {
                    unsigned char *d = d0 + off[kDst] * (ptrdiff_t)N;
                    const unsigned char *s = s0 + off[kSrc] * (ptrdiff_t)N;
                    for (size_t ia = 0; ia < len_a; ++ia, d += da, s += sa) {
                        for (size_t ib = 0; ib < len_b; ++ib) {
                            copyElem<N>(d + (ptrdiff_t)ib * (kUnit ? (ptrdiff_t)N : db), s + (ptrdiff_t)ib * sb);
                        }
                    }
                });
            };
            if (db == (ptrdiff_t)N) {
                planes(std::true_type{});
            } else {
                planes(std::false_type{});
            }
            break;
        }
        }
        return INFINI_STATUS_SUCCESS;
    }

    // Whether every row of dst along a starts at the same offset in a cache
    // line, a multiple of N: then shifting the tiles along b aligns them all.
    template <size_t N>
    bool linesAligned(const unsigned char *dst) const {
        bool ok = ((uintptr_t)dst & 63) % N == 0 && (dst_a * (ptrdiff_t)N) % 64 == 0;
        for (ptrdiff_t s : outer_dst) {
            ok &= (s * (ptrdiff_t)N) % 64 == 0;
        }
        return ok;
    }

    // Cache-blocked transpose: tiles of kTile x kTile over (a, b), one task per
    // (outer index, tile); reads run along a (src-contiguous), writes along b.
    template <size_t N>
    void runTile(unsigned char *dst, const unsigned char *src) const {
        // Through registers when src is contiguous along a and dst along b.
        constexpr bool kRegs = N == 1 || N == 2 || N == 4 || N == 8;
        const bool regs = kRegs && src_a == 1 && dst_b == 1;
        size_t edge_a = regs ? kVecTile : kTile, edge_b = edge_a;
        // Large outputs are written as whole cache lines past the caches: the
        // tiles along b then start on a line of dst (the first one is narrow).
        size_t head = 0;
        const bool stream = regs && info.layout.numel() * N >= kStreamTransposeBytes && linesAligned<N>(dst);
        if (stream) {
            head = ((64 - ((uintptr_t)dst & 63)) & 63) / N;
            // Tall thin tiles: a few whole lines of each dst row (b), long runs
            // of each src row (a), so that the reads are sequential streams.
            edge_a = kStreamTileA;
            edge_b = kStreamTileLines * 64 / N;
        }
        size_t outer = 1;
        for (size_t s : outer_shape) {
            outer *= s;
        }
        const size_t tiles_a = (len_a + edge_a - 1) / edge_a;
        const size_t tiles_b = (head != 0) + (len_b - std::min(head, len_b) + edge_b - 1) / edge_b;
        const size_t tasks = outer * tiles_a * tiles_b;
        const ptrdiff_t da = dst_a * (ptrdiff_t)N, sa = src_a * (ptrdiff_t)N;
        const ptrdiff_t db = dst_b * (ptrdiff_t)N, sb = src_b * (ptrdiff_t)N;
        infini::cpu::parallelFor(tasks, edge_a * edge_b, [&](size_t t) {
            size_t tb = t % tiles_b;
            size_t rest = t / tiles_b;
            size_t ta = rest % tiles_a;
            rest /= tiles_a;
            ptrdiff_t od = 0, os = 0;
            for (size_t d = outer_shape.size(); d-- > 0;) {
                size_t i = rest % outer_shape[d];
                rest /= outer_shape[d];
                od += (ptrdiff_t)i * outer_dst[d];
                os += (ptrdiff_t)i * outer_src[d];
            }
            const size_t a0 = ta * edge_a, b0 = head == 0 ? tb * edge_b : tb == 0 ? 0 : head + (tb - 1) * edge_b;
            const size_t a1 = a0 + edge_a < len_a ? a0 + edge_a : len_a;
            const size_t b_end = head == 0 || tb != 0 ? b0 + edge_b : head;
            const size_t b1 = b_end < len_b ? b_end : len_b;
            unsigned char *d = dst + od * (ptrdiff_t)N;
            const unsigned char *s = src + os * (ptrdiff_t)N;
            if constexpr (kRegs) {
                if (regs) {
                    INFINI_CPU_DISPATCH(transposeBlock<N>(d + (ptrdiff_t)a0 * da + (ptrdiff_t)(b0 * N), da,
                                                          s + (ptrdiff_t)b0 * sb + (ptrdiff_t)(a0 * N), sb, a1 - a0,
                                                          b1 - b0, stream && (tb != 0 || head == 0)));
                    return;
                }
            }
            // Through a small local tile, so that each side is walked row by
            // row: with power-of-two strides the rows of a direct strided
            // walk fall into one cache set and evict each other.
            alignas(64) unsigned char buf[kTile * kTile * N]; // [a][b]
            for (size_t ib = b0; ib < b1; ++ib) {
                const unsigned char *srow = s + (ptrdiff_t)ib * sb;
                for (size_t ia = a0; ia < a1; ++ia) {
                    copyElem<N>(buf + ((ia - a0) * kTile + (ib - b0)) * N, srow + (ptrdiff_t)ia * sa);
                }
            }
            for (size_t ia = a0; ia < a1; ++ia) {
                unsigned char *drow = d + (ptrdiff_t)ia * da;
                const unsigned char *brow = buf + (ia - a0) * kTile * N;
                for (size_t ib = b0; ib < b1; ++ib) {
                    copyElem<N>(drow + (ptrdiff_t)ib * db, brow + (ib - b0) * N);
                }
            }
        });
    }

    infiniStatus_t calculate(void *dst, const void *src, void *) const override {
        auto *d = static_cast<unsigned char *>(dst);
        auto *s = static_cast<const unsigned char *>(src);
        switch (info.elem_size) {
        case 1: return run<1>(d, s);
        case 2: return run<2>(d, s);
        case 4: return run<4>(d, s);
        case 8: return run<8>(d, s);
        case 16: return run<16>(d, s);
        default: return INFINI_STATUS_BAD_TENSOR_DTYPE;
        }
    }
};

} // namespace

infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Desc **desc) {
    *desc = new CpuDesc(handle, info);
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::rearrange::cpu
