// Host emulation of the unit tile kernel (native/src/ops/rearrange/unit_tile.cuh) on the plans that
// rearrange_nvidia.cc's planner makes: random permutations of small tensors (1-, 2-, 4- and 8-byte elements,
// padded strides, pointers shifted by 0-7 elements, 1-132 SMs), and wherever Calculate would launch the unit
// tiles (the 64-unit tiles of layouts without word or skewed forms, and the 32 x 32 or 32 x 64 unit tiles of
// INFINI_REARRANGE_SMALL_TILES), the kernel run block after block on 32 x 8 std::threads, checked bit for
// bit against a plain loop on a poisoned dst buffer wider than the view (an unwritten element or a write
// outside the view fails). Written in session 46 from that session's box emulation (0ee7ff8).
//   g++ -O2 -std=c++20 -pthread -Inative/src -Inative/include -isystem /usr/local/cuda/include \
//       -DINFINI_WITH_NVIDIA [-DINFINI_REARRANGE_SMALL_TILE_B=32] tools/tile_emulate.cc native/src/common/tensor.cc \
//       native/src/common/layout.cc -L/usr/local/cuda/lib64 -lcudart -o /tmp/tile_emulate
//   /tmp/tile_emulate [cases] [seed]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "emu_dialect.h"
#define INFINI_REARRANGE_TRACE
#include "rearr_trace.h"

#include "ops/rearrange/unit_tile.cuh"

#include "../native/src/ops/rearrange/rearrange_nvidia.cc"
#define REARR_STUBS_OWN_LAUNCH_TILE
#include "rearr_launch_stubs.h"
#include "probe_common.h"

namespace infini::rearrange::nvidia {

// The kernel's blocks one after another, each on 32 x 8 threads.
template <size_t Unit>
cudaError_t launchTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t, bool,
                       int small_b) {
    using U = typename UnitOf<Unit>::type;
    std::barrier<> barrier(kTileThreadsX * kTileThreadsY);
    emu_barrier = &barrier;
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < (unsigned)(kTileThreadsX * kTileThreadsY); ++t) {
        threads.emplace_back([&, t] {
            for (unsigned b = 0; b < grid; ++b) {
                emu_block = uint3{b, 0, 0};
                emu_thread = uint3{t % kTileThreadsX, t / kTileThreadsX, 0};
                if (small_b == 64) {
                    if constexpr (Unit <= 2) {
                        tileKernel<U, kSmallTileEdge, 64>(p, static_cast<U *>(dst), static_cast<const U *>(src));
                    }
                } else if (small_b == 32) {
                    if constexpr (Unit <= 2) {
                        tileKernel<U, kSmallTileEdge, 32>(p, static_cast<U *>(dst), static_cast<const U *>(src));
                    }
                } else {
                    tileKernel<U, kTileEdge<Unit>>(p, static_cast<U *>(dst), static_cast<const U *>(src));
                }
                barrier.arrive_and_wait(); // shared memory is reused by the next block
            }
        });
    }
    for (auto &th : threads) {
        th.join();
    }
    return cudaSuccess;
}

} // namespace infini::rearrange::nvidia

namespace {

using namespace infini::rearrange;
using namespace infini::rearrange::nvidia;

struct View {
    std::vector<size_t> shape;
    std::vector<ptrdiff_t> strides; // elements
    size_t reach = 0;               // elements from the base to one past the last
};

// Strides of `shape` laid out in `order` (outermost first), each dim padded by up to `pad` elements.
View layOut(const std::vector<size_t> &shape, const std::vector<int> &order, int pad, std::mt19937 &rng) {
    View v{shape, std::vector<ptrdiff_t>(shape.size()), 0};
    ptrdiff_t stride = 1;
    for (int k = (int)order.size() - 1; k >= 0; --k) {
        const int d = order[k];
        v.strides[d] = stride;
        stride *= (ptrdiff_t)shape[d] + (k > 0 && pad > 0 ? (ptrdiff_t)(rng() % (pad + 1)) : 0);
    }
    v.reach = (size_t)stride;
    return v;
}

// Runs one case; 1: the unit tiles ran and matched (2: the 32-unit ones), 0: another plan, -1: a mismatch.
int runCase(const std::vector<size_t> &shape, const std::vector<int> &dst_order, const std::vector<int> &src_order,
            size_t es, int pad, int sms, std::mt19937 &rng, bool verbose) {
    const View dv = layOut(shape, dst_order, pad, rng), sv = layOut(shape, src_order, pad, rng);
    InfiniopTensorDescriptor dt{}, st{};
    dt.dtype = st.dtype = es == 1   ? INFINI_DTYPE_I8
                          : es == 2 ? INFINI_DTYPE_F16
                          : es == 4 ? INFINI_DTYPE_F32
                                    : INFINI_DTYPE_F64;
    dt.shape = st.shape = shape;
    dt.strides = dv.strides;
    st.strides = sv.strides;
    Info info;
    if (Info::create(&dt, &st, &info) != INFINI_STATUS_SUCCESS) {
        return 0;
    }
    InfiniopHandle h = probe::h200Handle();
    h.sm_count = h.sm_limit = sms;
    NvidiaDesc desc(h, info);
    if (desc.plan() != INFINI_STATUS_SUCCESS) {
        std::printf("plan failed\n");
        return -1;
    }
    const size_t shift_d = rng() % 8, shift_s = rng() % 8, margin = 64;
    std::vector<uint8_t> src((sv.reach + shift_s + margin) * es), dst((dv.reach + shift_d + 2 * margin) * es, 0xA5),
        want(dst);
    for (auto &b : src) {
        b = (uint8_t)rng();
    }
    uint8_t *d = dst.data() + (margin + shift_d) * es;
    const uint8_t *s = src.data() + shift_s * es;
    // The plan Calculate would take (rearrange_nvidia.cc calculate): the widest unit the pointers allow.
    const Plan *chosen = nullptr;
    for (const Plan &p : desc.plans) {
        if (p.kind != Kind::None && ((uintptr_t)(d + p.dst_offset) | (uintptr_t)(s + p.src_offset)) % p.unit == 0) {
            chosen = &p;
            break;
        }
    }
    // Calculate's plain unit-tile branch: a tile plan without word or skewed forms (tensor-copy tiles need
    // a GPU: their maps are not encoded here).
    if (chosen == nullptr || chosen->kind != Kind::Tile || chosen->words || chosen->skew) {
        return 0;
    }
    const Plan &p = *chosen;
    launchUnit(p.unit, [&](auto u) {
        return launchTile<decltype(u)::value>(p.tile, p.grid, d + p.dst_offset, s + p.src_offset, nullptr, false,
                                              p.small_tile_b);
    });
    // The reference: every element through the strides.
    std::vector<size_t> idx(shape.size(), 0);
    size_t numel = 1;
    for (size_t n : shape) {
        numel *= n;
    }
    uint8_t *w = want.data() + (margin + shift_d) * es;
    for (size_t e = 0; e < numel; ++e) {
        ptrdiff_t od = 0, os = 0;
        for (size_t k = 0; k < shape.size(); ++k) {
            od += (ptrdiff_t)idx[k] * dv.strides[k];
            os += (ptrdiff_t)idx[k] * sv.strides[k];
        }
        std::memcpy(w + od * es, s + os * es, es);
        for (int k = (int)shape.size() - 1; k >= 0 && ++idx[k] == shape[k]; --k) {
            idx[k] = 0;
        }
    }
    if (dst != want) {
        size_t first = 0;
        while (dst[first] == want[first]) {
            ++first;
        }
        std::printf("MISMATCH: unit %zu a %u b %u small %d grid %u; first byte %zd\n", p.unit, p.tile.len_a,
                    p.tile.len_b, p.small_tile_b, p.grid, (ptrdiff_t)first - (ptrdiff_t)((margin + shift_d) * es));
        return -1;
    }
    if (verbose) {
        std::printf("ok: unit %zu a %u b %u small %d grid %u\n", p.unit, p.tile.len_a, p.tile.len_b,
                    p.small_tile_b, p.grid);
    }
    return p.small_tile_b == 64 ? 3 : p.small_tile_b ? 2 : 1;
}

void describe(const std::vector<size_t> &shape, const std::vector<int> &dst_order, const std::vector<int> &src_order,
              size_t es, int pad, int sms) {
    std::printf("  shape (");
    for (size_t n : shape) {
        std::printf("%zu,", n);
    }
    std::printf(") dst order (");
    for (int o : dst_order) {
        std::printf("%d,", o);
    }
    std::printf(") src order (");
    for (int o : src_order) {
        std::printf("%d,", o);
    }
    std::printf(") elem %zu pad %d sms %d\n", es, pad, sms);
}

} // namespace

int main(int argc, char **argv) {
    const int cases = argc > 1 ? std::atoi(argv[1]) : 300;
    std::mt19937 rng(argc > 2 ? std::atoi(argv[2]) : 1);
    int ran = 0, small = 0, small64 = 0, failed = 0, skipped = 0;
    for (int c = 0; c < cases; ++c) {
        // Half the cases: a src-contiguous dim of 33-128 units against a dst run, the shape the 32-unit
        // tiles are for; the rest: any small permutation.
        const int nd = 2 + (int)(rng() % 4);
        std::vector<size_t> shape(nd);
        for (auto &n : shape) {
            n = 1 + rng() % (rng() % 3 == 0 ? 40 : 9);
        }
        std::vector<int> dst_order(nd), src_order(nd);
        for (int k = 0; k < nd; ++k) {
            dst_order[k] = src_order[k] = k;
        }
        std::shuffle(src_order.begin(), src_order.end(), rng);
        if (c % 2 == 0) {
            shape[src_order[nd - 1]] = 33 + rng() % 96;
            shape[nd - 1] = shape[src_order[nd - 1]] == shape[nd - 1] ? shape[nd - 1] : 8 + rng() % 200;
        }
        if (rng() % 3 == 0) {
            std::shuffle(dst_order.begin(), dst_order.end(), rng);
        }
        const size_t es = (size_t[]){1, 2, 4, 8, 1, 2, 2}[rng() % 7];
        const int pad = rng() % 3 == 0 ? (int)(rng() % 5) : 0;
        const int sms = (int[]){1, 2, 8, 132}[rng() % 4];
        size_t numel = 1;
        for (size_t n : shape) {
            numel *= n;
        }
        if (numel > (1u << 21)) {
            continue;
        }
        const int r = runCase(shape, dst_order, src_order, es, pad, sms, rng, false);
        if (r < 0) {
            describe(shape, dst_order, src_order, es, pad, sms);
            ++failed;
        } else if (r == 0) {
            ++skipped;
        } else {
            ++ran;
            small += r >= 2;
            small64 += r == 3;
        }
    }
    std::printf("unit-tile cases %d (small tiles %d, of them 32 x 64 %d), failed %d, other plans %d\n", ran, small,
                small64, failed, skipped);
    return failed == 0 && ran > 0 ? 0 : 1;
}
