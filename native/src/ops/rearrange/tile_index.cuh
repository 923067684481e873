#pragma once
// Index helpers of the tile kernels (tileKernel, word and skewed tiles):
// offsets of an index of a dim group and the tile of a block. Device code
// only, so that a host emulation can compile it too.
#include "../../common/cuda/pdl_device.cuh"
#include "nvidia.h"
#include <cstdint>
#ifndef INFINI_REARRANGE_TRACE // the host emulation brings its own loads
#include "../../common/cuda/ld_prefetch.cuh"
#endif

namespace infini::rearrange::nvidia {

// Global loads and stores of the tile kernels. `slot` names the static
// instruction (distinct per unrolled access of a kernel) so that a host
// emulation that defines INFINI_REARRANGE_TRACE can count the sectors of each
// warp instruction (tools/rearr7_sectors.cc); on the device they are plain
// accesses. loadRun: the loads of the transposes whose src rows straddle
// sectors (odd word, skewed word and skewed tiles: a warp reads a run of 64 or
// more units of a src row that does not start on a sector); they ask L2 for
// the whole aligned INFINI_REARRANGE_L2_PREFETCH bytes around each access
// (ld_prefetch.cuh), so that the partial sectors at a run's ends, which the
// next tile along a reads too, come from DRAM with the run. H100, library
// calls in graphs (notes/rearrange.md, "Session 13"): 4097² F16 27.3 -> 26.9
// µs, 4098² 27.0 -> 26.3, 4096² dst + 1 26.6 -> 26.3. The aligned word tiles
// gain nothing from it (4096²: 24.8 either way; 2048², L2-resident: 6.9 -> 7.1)
// and the unit tiles (any layout, gathers too) load plainly.
#ifndef INFINI_REARRANGE_L2_PREFETCH
#define INFINI_REARRANGE_L2_PREFETCH 256
#endif
#ifndef INFINI_REARRANGE_TRACE
template <class T>
__device__ __forceinline__ T loadGlobal(const T *p, int /*slot*/) {
    return *p;
}
template <class T>
__device__ __forceinline__ T loadRun(const T *p, int /*slot*/) {
    return ldPrefetch<INFINI_REARRANGE_L2_PREFETCH>(p);
}
template <class T>
__device__ __forceinline__ void storeGlobal(T *p, T v, int /*slot*/) {
    *p = v;
}
#else
template <class T>
__device__ __forceinline__ T loadRun(const T *p, int slot) { // the tracing hook's load, as any other
    return loadGlobal(p, slot);
}
#endif

// Every tile kernel's first statement: launched with PDL (sm_90), it waits
// for the previous kernel in the stream before any global access, and with
// `trigger` lets the next one place its blocks (they wait here in turn);
// without, the next grid is launched as this one's last block exits (still
// ahead of the completion that a launch without PDL waits for). Otherwise
// nothing. -DINFINI_REARRANGE_TRIGGER_AT_EXIT=1: every tile kernel without
// (a measuring knob, session 23: mixed for the other tile kernels, e.g.
// 1024² F16 graphs 2.32 -> 2.15 µs but NCHW->NHWC 8x64x56x56 F32 6.5 -> 6.8;
// notes/rearrange.md).
#ifndef INFINI_REARRANGE_TRIGGER_AT_EXIT
#define INFINI_REARRANGE_TRIGGER_AT_EXIT 0
#endif
// Where the other tile kernels (tileKernel, word, skewed and skewed word
// tiles) let the next launch place its blocks: INFINI_REARRANGE_TILE_TRIGGER 0
// at entry (tileKernelEntry), 1 once the block's tile is in shared memory
// (tileLoaded), as the odd word tiles do (odd_word_tile.cuh). A measuring
// knob, session 24 (notes/rearrange.md).
#ifndef INFINI_REARRANGE_TILE_TRIGGER
#define INFINI_REARRANGE_TILE_TRIGGER 0
#endif
constexpr bool kTileTriggerAtEntry = INFINI_REARRANGE_TILE_TRIGGER == 0;
// After the barrier that follows a tile kernel's shared-memory fill: with
// `trigger`, lets the next launch place its blocks (the kernels whose
// tileKernelEntry did not; the odd word tiles pass their own knob).
__device__ __forceinline__ void tileLoaded(bool trigger = !kTileTriggerAtEntry) {
    if (trigger && !INFINI_REARRANGE_TRIGGER_AT_EXIT) {
        pdlAllowNext();
    }
}
__device__ __forceinline__ void tileKernelEntry(bool trigger = true) {
    pdlWaitPrevious();
    if (trigger && !INFINI_REARRANGE_TRIGGER_AT_EXIT) {
        pdlAllowNext();
    }
}

// The element offsets in dst and src of index i of a group. ONE: the group
// is known to be a single dim (one multiply each, no division loop).
template <bool ONE = false>
__device__ __forceinline__ void groupOffset(const Group &g, uint32_t i, int64_t &od, int64_t &os) {
    od = 0;
    os = 0;
    for (int d = ONE ? 0 : g.ndim - 1; d > 0; --d) {
        uint32_t q = g.dims[d].div.div(i);
        uint32_t r = i - q * (uint32_t)g.dims[d].size;
        od += (int64_t)r * g.dims[d].dst_stride;
        os += (int64_t)r * g.dims[d].src_stride;
        i = q;
    }
    od += (int64_t)i * g.dims[0].dst_stride;
    os += (int64_t)i * g.dims[0].src_stride;
}

// Adds to od and os the offsets in dst and src of index i over dims[0, n)
// (outermost first): the tile kernels' outer dims.
__device__ __forceinline__ void addDimsOffset(const Dim *dims, int n, uint32_t i, int64_t &od, int64_t &os) {
    for (int d = n - 1; d >= 0; --d) {
        uint32_t q = dims[d].div.div(i);
        uint32_t r = i - q * (uint32_t)dims[d].size;
        od += (int64_t)r * dims[d].dst_stride;
        os += (int64_t)r * dims[d].src_stride;
        i = q;
    }
}

// The tile of a block: its indices along a and b (tb varies fastest) and the
// offsets in dst and src of its outer dims.
struct TileOrigin {
    uint32_t ta, tb;
    int64_t od, os;
};

__device__ __forceinline__ TileOrigin tileOrigin(const TileParams &p, uint32_t block) {
    TileOrigin o;
    const uint32_t rest = p.div_tiles_b.div(block);
    o.tb = block - rest * p.tiles_b;
    uint32_t batch = p.div_tiles_a.div(rest);
    o.ta = rest - batch * p.tiles_a;
    o.od = 0;
    o.os = 0;
    addDimsOffset(p.deep != nullptr ? p.deep : p.outer, p.outer_ndim, batch, o.od, o.os);
    return o;
}

} // namespace infini::rearrange::nvidia
