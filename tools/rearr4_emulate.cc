// Host emulation of the skewed-tile transpose kernels (skew_tile.cuh, session
// 5's, skew_word_tile.cuh, session 7's, and odd_word_tile.cuh, session 10's): the
// device code compiled with g++, 256 threads per block as std::threads
// (__syncthreads = a std::barrier, __shfl_down_sync = one per warp around a
// slot per thread, __shared__ = one static array), blocks one after another. Every case is
// checked bit for bit against a plain loop over the same layout, on a poisoned
// dst buffer larger than the view (unwritten elements and writes outside the
// view both fail). Every global access goes through the kernels' loadGlobal /
// storeGlobal hooks, recorded per warp instruction (rearr_trace.h).
//
//   g++ -O2 -std=c++20 -pthread -Inative/src -Inative/include -isystem /usr/local/cuda/include
//       tools/rearr4_emulate.cc -o build/rearr4_emulate && build/rearr4_emulate [--small]
// Views may have negative strides (the fixed cases include rows running backwards).
// --small leaves out 4097 x 4097; --fuzz N: N random 2-D, batched and grouped
// layouts with pointer shifts of 0..17 units; --kernel old|span1|span2|span3|odd1|odd2|odd3
// (default: old, span1, span2, odd2; odd N: the odd word tiles of span N) picks the kernel;
// --sectors: the sector counts of the big transposes (rearr_trace.h says what is counted).
#include <cuda_runtime.h>

#include <algorithm>
#include <barrier>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <random>
#include <thread>
#include <vector>

#include "emu_dialect.h"
// Warp shuffles: every lane of the warp calls (the kernels call them warp-uniformly).
static std::barrier<> *emu_warp_barrier[8];
static uint32_t emu_shfl_slot[256];
static uint32_t __shfl_down_sync(unsigned /*mask*/, uint32_t v, unsigned delta) {
    const unsigned t = emu_thread.x + 32 * emu_thread.y, lane = emu_thread.x;
    emu_shfl_slot[t] = v;
    emu_warp_barrier[emu_thread.y]->arrive_and_wait();
    const uint32_t r = lane + delta < 32 ? emu_shfl_slot[t + delta] : v;
    emu_warp_barrier[emu_thread.y]->arrive_and_wait();
    return r;
}
static uint32_t __funnelshift_r(uint32_t lo, uint32_t hi, unsigned shift) {
    return (uint32_t)((((uint64_t)hi << 32) | lo) >> (shift & 31));
}
using std::min;

#define INFINI_REARRANGE_TRACE
#include "rearr_trace.h"

#include "ops/rearrange/odd_word_tile.cuh"
#include "ops/rearrange/skew_word_tile.cuh"
#include "ops/rearrange/word_tile.cuh"

using namespace infini::rearrange::nvidia;

namespace {

struct D {
    uint64_t size;
    int64_t ds, ss; // units
};

// A transpose: outer dims, group a (src-contiguous, innermost last), group b
// (dst-contiguous, innermost last). Shifts move both views by units.
struct Case {
    const char *name;
    std::vector<D> outer, a, b;
    int dst_shift = 0, src_shift = 0;
};

Dim dim(const D &d) {
    Dim r{};
    r.size = d.size;
    r.div = infini::FastDivU32((uint32_t)d.size);
    r.dst_stride = d.ds;
    r.src_stride = d.ss;
    return r;
}

uint64_t prod(const std::vector<D> &v) {
    uint64_t n = 1;
    for (const D &d : v) n *= d.size;
    return n;
}

// The smallest offset of a side (<= 0: strides may be negative) and the
// number of elements from it to the largest offset.
int64_t firstOffset(const Case &c, bool dst) {
    int64_t f = 0;
    for (auto *v : {&c.outer, &c.a, &c.b})
        for (const D &d : *v) f += std::min<int64_t>(0, (int64_t)(d.size - 1) * (dst ? d.ds : d.ss));
    return f;
}
uint64_t extent(const Case &c, bool dst) {
    int64_t e = 1;
    for (auto *v : {&c.outer, &c.a, &c.b})
        for (const D &d : *v) e += std::abs((int64_t)(d.size - 1) * (dst ? d.ds : d.ss));
    return (uint64_t)e;
}

void forEach(const std::vector<D> &dims, const std::function<void(int64_t, int64_t)> &f) {
    std::vector<uint64_t> i(dims.size(), 0);
    const uint64_t n = prod(dims);
    for (uint64_t k = 0; k < n; ++k) {
        int64_t od = 0, os = 0;
        for (size_t d = 0; d < dims.size(); ++d) {
            od += (int64_t)i[d] * dims[d].ds;
            os += (int64_t)i[d] * dims[d].ss;
        }
        f(od, os);
        for (size_t d = dims.size(); d-- > 0;) {
            if (++i[d] < dims[d].size) break;
            i[d] = 0;
        }
    }
}

// Runs the kernel over blocks [begin, grid) with 256 host threads; with
// `sectors`, every block's accesses are counted there.
template <class K>
void launch(unsigned grid, K kernel, unsigned begin = 0, emu::SectorCounts *sectors = nullptr) {
    const int n = kTileThreadsX * kTileThreadsY;
    std::barrier<> bar(n);
    emu_barrier = &bar;
    std::vector<std::unique_ptr<std::barrier<>>> warps;
    for (int w = 0; w < kTileThreadsY; ++w) {
        warps.push_back(std::make_unique<std::barrier<>>(kTileThreadsX));
        emu_warp_barrier[w] = warps.back().get();
    }
    emu::tracing = sectors != nullptr;
    std::vector<std::thread> threads;
    for (int t = 0; t < n; ++t) {
        threads.emplace_back([&, t] {
            emu_thread = {(unsigned)(t % kTileThreadsX), (unsigned)(t / kTileThreadsX), 0};
            emu::trace_tid = t;
            for (unsigned blk = begin; blk < grid; ++blk) {
                emu_block = {blk, 0, 0};
                kernel();
                bar.arrive_and_wait(); // the next block reuses the shared tile
                if (sectors != nullptr) {
                    if (t == 0) sectors->addBlock();
                    bar.arrive_and_wait();
                }
            }
        });
    }
    for (auto &t : threads) t.join();
    emu::tracing = false;
}

// The kernels: session 5's skewed tile, skewed word tiles of 1, 2 and 3 tiles
// along b, odd word tiles of 1, 2 and 3 tiles along b (63-unit tiles along a),
// and (aligned layouts only) the word tile.
enum class Kernel { Old, Span1, Span2, Span3, Odd1, Odd2, Odd3, Word };
const char *kernelName(Kernel k) {
    switch (k) {
    case Kernel::Old: return "skewed (session 5)";
    case Kernel::Span1: return "skewed words, span 1";
    case Kernel::Span2: return "skewed words, span 2";
    case Kernel::Span3: return "skewed words, span 3";
    case Kernel::Odd1: return "odd words, span 1";
    case Kernel::Odd2: return "odd words, span 2";
    case Kernel::Odd3: return "odd words, span 3";
    default: return "word tile";
    }
}
int spanOf(Kernel k) {
    return k == Kernel::Span2 || k == Kernel::Odd2 ? 2 : k == Kernel::Span3 || k == Kernel::Odd3 ? 3 : 1;
}
bool isOdd(Kernel k) { return k == Kernel::Odd1 || k == Kernel::Odd2 || k == Kernel::Odd3; }
uint64_t tilesA(Kernel k, uint64_t len_a) { return isOdd(k) ? oddWordTilesA(len_a) : (len_a + 63) / 64; }
uint64_t tilesB(Kernel k, uint64_t len_b, bool broken) {
    if (broken || k == Kernel::Word) return (len_b + 63) / 64;
    return skewTilesB(len_b, 64 * spanOf(k));
}
template <bool ONE>
void runKernel(Kernel k, const TileParams &p, uint16_t *dst, const uint16_t *src) {
    switch (k) {
    case Kernel::Old: skewTileKernel<ONE>(p, dst, src); break;
    case Kernel::Span1: skewWordTileKernel<ONE, 1>(p, dst, src); break;
    case Kernel::Span2: skewWordTileKernel<ONE, 2>(p, dst, src); break;
    case Kernel::Span3: skewWordTileKernel<ONE, 3>(p, dst, src); break;
    case Kernel::Odd1: oddWordTileKernel<ONE, 1>(p, dst, src); break;
    case Kernel::Odd2: oddWordTileKernel<ONE, 2>(p, dst, src); break;
    case Kernel::Odd3: oddWordTileKernel<ONE, 3>(p, dst, src); break;
    case Kernel::Word: wordTileKernel<ONE>(p, dst, src); break;
    }
}

// `broken`: tiles along b as the unit kernel has them (too few when a
// segment moves back past the end): shows that the check can fail.
bool run(Kernel kernel, const Case &c, std::mt19937 &rng, bool broken = false, bool audit = false,
         emu::SectorCounts *sectors = nullptr) {
    const uint16_t poison = 0xFBFF;
    const uint64_t dst_n = extent(c, true) + c.dst_shift + 40, src_n = extent(c, false) + c.src_shift + 40;
    // 64-byte aligned storage: the pointer's sector offsets are the GPU's.
    std::vector<uint16_t> dst_store(dst_n + 32, poison), want_store(dst_n + 32, poison), src_store(src_n + 32);
    auto align = [](uint16_t *p) { return (uint16_t *)(((uintptr_t)p + 63) & ~(uintptr_t)63); };
    // Element 0 of each view, past the room its negative strides reach back into.
    const int64_t dst_at = c.dst_shift - firstOffset(c, true), src_at = c.src_shift - firstOffset(c, false);
    uint16_t *dst = align(dst_store.data()) + dst_at, *want = align(want_store.data()) + dst_at;
    uint16_t *src = align(src_store.data()) + src_at;
    for (uint64_t i = 0; i < src_n; ++i) align(src_store.data())[i] = (uint16_t)(rng() % 60000 + 1); // never the poison
    std::vector<D> all(c.outer);
    all.insert(all.end(), c.a.begin(), c.a.end());
    all.insert(all.end(), c.b.begin(), c.b.end());
    forEach(all, [&](int64_t od, int64_t os) { want[od] = src[os]; });

    TileParams p{};
    p.len_a = (uint32_t)prod(c.a);
    p.len_b = (uint32_t)prod(c.b);
    p.tiles_a = (uint32_t)tilesA(kernel, p.len_a);
    p.tiles_b = (uint32_t)tilesB(kernel, p.len_b, broken);
    p.div_tiles_a = infini::FastDivU32(p.tiles_a);
    p.div_tiles_b = infini::FastDivU32(p.tiles_b);
    auto group = [](Group &g, const std::vector<D> &v) { // both outermost first
        g.ndim = (int)v.size();
        for (size_t k = 0; k < v.size(); ++k) g.dims[k] = dim(v[k]);
    };
    group(p.a, c.a);
    group(p.b, c.b);
    p.outer_ndim = (int)c.outer.size();
    for (size_t k = 0; k < c.outer.size(); ++k) p.outer[k] = dim(c.outer[k]);
    const unsigned grid = (unsigned)(p.tiles_a * p.tiles_b * prod(c.outer));
    const bool one = c.a.size() == 1 && c.b.size() == 1;
    auto body = [&](uint16_t *d) { one ? runKernel<true>(kernel, p, d, src) : runKernel<false>(kernel, p, d, src); };
    emu::load_lo = (uintptr_t)(src + firstOffset(c, false)); // every load inside the src view's extent
    emu::load_hi = (uintptr_t)(src + firstOffset(c, false) + extent(c, false));
    emu::loads_outside = 0;
    launch(grid, [&] { body(dst); }, 0, sectors);
    const uint64_t outside = emu::loads_outside;
    emu::load_lo = 0;
    emu::load_hi = UINTPTR_MAX;
    const uint16_t *d0 = align(dst_store.data()), *w0 = align(want_store.data());
    if (audit) { // each block alone on a poisoned copy: which 32-byte sectors it writes, whole or not
        std::vector<uint16_t> alone(dst_n + 32);
        uint16_t *a0 = align(alone.data());
        std::vector<int> writers((dst_n + 15) / 16, 0);
        uint64_t partial = 0, sectors = 0;
        for (unsigned blk = 0; blk < grid; ++blk) {
            std::fill(alone.begin(), alone.end(), poison);
            launch(blk + 1, [&] { body(a0 + dst_at); }, blk);
            for (uint64_t s = 0; s < (dst_n + 15) / 16; ++s) {
                int n = 0;
                for (int k = 0; k < 16 && 16 * s + k < dst_n; ++k) n += a0[16 * s + k] != poison;
                if (n) {
                    ++writers[s];
                    ++sectors;
                    partial += n < 16;
                }
            }
        }
        uint64_t shared = 0;
        for (int w : writers) shared += w > 1;
        std::printf("  sectors written %llu, of them partially %llu; sectors written by 2+ blocks %llu\n",
                    (unsigned long long)sectors, (unsigned long long)partial, (unsigned long long)shared);
    }
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < dst_n; ++i) {
        if (d0[i] != w0[i] && bad++ == 0) first = i;
    }
    std::printf("%-22s %-40s len_a %5u len_b %5u blocks %6u: %s", kernelName(kernel), c.name, p.len_a, p.len_b, grid, bad ? "MISMATCH" : "exact");
    if (bad) std::printf(" (%llu elements, first at %llu)", (unsigned long long)bad, (unsigned long long)first);
    if (outside) std::printf(", %llu LOADS OUTSIDE the src view", (unsigned long long)outside);
    std::printf("\n");
    return bad == 0 && outside == 0;
}

// dst (rows x cols) contiguous with pitch cols, src its transpose (pitch rows).
Case transpose2d(const char *name, uint64_t rows, uint64_t cols, int dst_shift = 0, int src_shift = 0) {
    return Case{name, {}, {{rows, (int64_t)cols, 1}}, {{cols, 1, (int64_t)rows}}, dst_shift, src_shift};
}

} // namespace

int main(int argc, char **argv) {
    bool big = true, sectors = false;
    int fuzz = 0;
    std::vector<Kernel> kernels = {Kernel::Old, Kernel::Span1, Kernel::Span2, Kernel::Odd2};
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--small") == 0) big = false;
        if (std::strcmp(argv[i], "--sectors") == 0) sectors = true;
        if (std::strcmp(argv[i], "--fuzz") == 0 && i + 1 < argc) fuzz = std::atoi(argv[++i]);
        if (std::strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) {
            const std::string k = argv[++i];
            kernels = {k == "old"     ? Kernel::Old
                       : k == "span1" ? Kernel::Span1
                       : k == "span3" ? Kernel::Span3
                       : k == "odd1"  ? Kernel::Odd1
                       : k == "odd2"  ? Kernel::Odd2
                       : k == "odd3"  ? Kernel::Odd3
                                      : Kernel::Span2};
        }
    }
    std::mt19937 rng(12345);
    if (sectors) { // the five cases of tools/rearr4_bench.cu, each kernel
        struct Big {
            const char *name;
            uint64_t n;
            int dst_shift;
        };
        const Big cases[] = {{"4097^2", 4097, 0}, {"4096^2", 4096, 0}, {"4096^2 dst+1", 4096, 1},
                             {"4097^2 dst+1", 4097, 1}, {"4098^2", 4098, 0}};
        bool ok = true;
        for (const Big &b : cases) {
            std::vector<Kernel> ks = kernels;
            if (b.n == 4096 && b.dst_shift == 0) ks.insert(ks.begin(), Kernel::Word);
            for (Kernel k : ks) {
                emu::SectorCounts counts;
                ok = run(k, transpose2d(b.name, b.n, b.n, b.dst_shift, 0), rng, false, false, &counts) && ok;
                counts.print("");
                std::printf("  ideal: %.3fM sectors each side\n", b.n * b.n * 2 / 32.0 / 1e6);
            }
        }
        return ok ? 0 : 1;
    }
    bool ok = true;
    for (Kernel kernel : kernels) {
        if (fuzz > 0) { // random 2-D, batched and grouped layouts and shifts
            for (int k = 0; k < fuzz; ++k) {
                auto len = [&] { return (uint64_t)(8 + rng() % 200); };
                const int ds = rng() % 18, ss = rng() % 18;
                const uint64_t r = len(), c = len();
                Case cs = transpose2d("fuzz 2-D", r, c, ds, ss);
                if (k % 3 == 1) { // an outer dim with gaps on both sides
                    cs.name = "fuzz batched";
                    cs.outer = {{2 + rng() % 3, (int64_t)(r * c + rng() % 7), (int64_t)(r * c + rng() % 7)}};
                } else if (k % 3 == 2) { // groups of two dims each, src b and dst a with gaps
                    cs.name = "fuzz grouped";
                    const uint64_t a1 = 2 + rng() % 4, a0 = 4 + rng() % 40, b1 = 2 + rng() % 4, b0 = 4 + rng() % 40;
                    const int64_t gap_d = rng() % 5, gap_s = 1 + rng() % 5;
                    const int64_t db = (int64_t)(b1 * b0) + gap_d, sb = (int64_t)(a1 * a0) + gap_s;
                    cs.a = {{a1, db, (int64_t)a0}, {a0, db * (int64_t)a1, 1}};
                    cs.b = {{b1, (int64_t)b0, sb * (int64_t)b0 + gap_s}, {b0, 1, sb}};
                }
                ok = run(kernel, cs, rng) && ok;
            }
            continue;
        }
        std::vector<Case> cases = {
            transpose2d("130x67", 130, 67),
            transpose2d("67x130", 67, 130),
            transpose2d("65x65", 65, 65),
            transpose2d("33x97", 33, 97),
            transpose2d("8x4097", 8, 4097),
            transpose2d("4097x8", 4097, 8),
            transpose2d("130x67 dst+1", 130, 67, 1, 0),
            transpose2d("130x67 src+1", 130, 67, 0, 1),
            transpose2d("67x130 dst+1 src+1", 67, 130, 1, 1),
            transpose2d("128x128 dst+1 (uniform offset)", 128, 128, 1, 0),
            transpose2d("128x128 dst+8 (uniform offset)", 128, 128, 8, 0),
            transpose2d("128x128 (e = 0 everywhere)", 128, 128),
            transpose2d("200x302 dst+3", 200, 302, 3, 0),
            transpose2d("300x301 src+1", 300, 301, 0, 1),
            transpose2d("301x300 src+3 dst+5", 301, 300, 5, 3),
            // batched 3x67x130: dst (3, 67, 130) contiguous, src (3, 130, 67) per batch, plus a gap
            Case{"batched 3x67x130", {{3, 67 * 130, 67 * 130 + 5}}, {{67, 130, 1}}, {{130, 1, 67}}},
            Case{"batched 3x67x130 dst+1", {{3, 67 * 130, 67 * 130 + 5}}, {{67, 130, 1}}, {{130, 1, 67}}, 1, 0},
            // grouped forms: group a of 2 dims (3 x 22, src-contiguous), group b of 2 dims (5 x 14, dst-contiguous)
            Case{"grouped a 3x22, b 5x14", {}, {{3, 70, 22}, {22, 70 * 3, 1}}, {{5, 14, 66 * 14}, {14, 1, 66}}},
            Case{"grouped + outer 2, dst+1", {{2, 3 * 22 * 70 + 1, 4623}}, {{3, 70, 22}, {22, 70 * 3, 1}},
                 {{5, 14, 66 * 14}, {14, 1, 66}}, 1, 0},
            Case{"grouped a 3x22, b 5x30 (whole)", {}, {{3, 150, 22}, {22, 450, 1}}, {{5, 30, 66 * 30}, {30, 1, 66}}},
            Case{"grouped a 3x22, b 5x30, src+1", {}, {{3, 150, 22}, {22, 450, 1}}, {{5, 30, 66 * 30}, {30, 1, 66}}, 0, 1},
            Case{"grouped a 3x22 b 5x30, odd src pitch", {}, {{3, 150, 22}, {22, 450, 1}}, {{5, 30, 67 * 30}, {30, 1, 67}}, 1, 1},
            Case{"3x65x97 odd pitches", {{3, 6305, 6306}}, {{65, 97, 1}}, {{97, 1, 65}}},
            // whole odd word tiles (a0 > 0, a0 + 64 <= len_a) on odd pitches and grouped odd src strides
            transpose2d("190x300", 190, 300),
            transpose2d("191x515 src+1", 191, 515, 0, 1),
            transpose2d("253x257 dst+1", 253, 257, 1, 0),
            Case{"grouped a 3x64 b 5x60, odd src strides", {}, {{3, 300, 64}, {64, 900, 1}}, {{5, 60, 193 * 60}, {60, 1, 193}}},
            Case{"grouped a 3x64 b 5x60, odd, dst+1 src+1", {}, {{3, 300, 64}, {64, 900, 1}}, {{5, 60, 193 * 60 + 1}, {60, 1, 193}}, 1, 1},
            Case{"batched 2x200x301 odd outer", {{2, 60200, 60201}}, {{200, 301, 1}}, {{301, 1, 200}}},
            // rows running backwards (negative strides through the single-dim paths)
            Case{"300x301 dst rows reversed", {}, {{300, -301, 1}}, {{301, 1, 300}}},
            Case{"257x516 dst rows reversed", {}, {{257, -516, 1}}, {{516, 1, 257}}},
            Case{"300x302 src rows reversed", {}, {{300, 302, 1}}, {{302, 1, -300}}},
            Case{"301x300 both reversed, dst+1", {}, {{301, -300, 1}}, {{300, 1, -301}}, 1, 0},
        };
        if (big) cases.push_back(transpose2d("4097x4097", 4097, 4097));
        for (const Case &c : cases) ok = run(kernel, c, rng) && ok;
        std::printf("sector audit (each block run alone; within rows no sector may have 2 writers):\n");
        ok = run(kernel, transpose2d("301x300 dst+1", 301, 300, 1, 0), rng, false, true) && ok;
        ok = run(kernel, transpose2d("300x301", 300, 301), rng, false, true) && ok;
    }
    if (fuzz > 0) {
        std::printf("%s\n", ok ? "FUZZ ALL EXACT" : "FUZZ FAILED");
        return ok ? 0 : 1;
    }
    std::printf("negative control (unit-kernel tile count, must mismatch):\n");
    const bool control = run(Kernel::Old, transpose2d("67x64 dst+3 broken", 67, 64, 3, 0), rng, true);
    std::printf("%s\n", ok && !control ? "ALL EXACT (control failed as it must)" : "FAILED");
    return ok && !control ? 0 : 1;
}
