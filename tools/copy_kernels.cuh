#pragma once
// Copy kernels the copy probes share (copy_probe.cu, move_probe.cu): one
// 16-byte vector a thread, and one thread an SM streaming chunks through a
// ring of shared-memory slots with bulk copies in and out.
#include "../native/src/common/cuda/bulk_copy.cuh"

#include <cstdint>

namespace copyprobe {

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

// The order of a block's chunks: kRows, block b's chunk i is b + i * gridDim.x
// (the whole grid on consecutive chunks at each step, as LPNorm's Grid plan
// moves a row); kOwn, block b moves the chunks [b C / G, (b + 1) C / G) in
// turn (its own contiguous piece, as the Hold plan).
enum ChunkMap { kRows = 0, kOwn = 1 };

// Block b's chunks: offset in bytes of its chunk i, and their number. kRows
// allows a short last chunk (len); kOwn takes bytes / chunk whole chunks.
struct Chunks {
    size_t first, step, mine, bytes, chunk;
    __device__ Chunks(int map, size_t bytes_, size_t chunk_) : bytes(bytes_), chunk(chunk_) {
        const size_t b = blockIdx.x, g = gridDim.x;
        if (map == kRows) {
            const size_t chunks = (bytes + chunk - 1) / chunk;
            first = b * chunk;
            step = g * chunk;
            mine = (chunks - b + g - 1) / g;
        } else {
            const size_t chunks = bytes / chunk, lo = b * chunks / g, hi = (b + 1) * chunks / g;
            first = lo * chunk;
            step = chunk;
            mine = hi - lo;
        }
    }
    __device__ size_t at(size_t i) const { return first + i * step; }
    __device__ uint32_t len(size_t i) const { return (uint32_t)min(chunk, bytes - at(i)); }
};

// Shared memory before a ring's slots: its barriers (up to 32 slots, two kinds).
constexpr size_t kRingHeader = 512;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ inline void bulkStore(void *dst_global, const void *src_shared, uint32_t bytes) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst_global),
                 "r"(infini::sharedAddress(src_shared)), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
#endif

// Thread 0 of each block: chunks in order `map` through `slots` slots of
// `chunk` bytes, bulk copies in (mbarrier) and out (bulk groups), a slot taken
// again once its store has read it. Dynamic shared memory: kRingHeader +
// slots * chunk.
__global__ void bulkRing(const unsigned char *x, unsigned char *y, size_t bytes, int slots, int chunk, int map) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(128) unsigned char smem[];
    if (threadIdx.x != 0) {
        return;
    }
    uint64_t *full = reinterpret_cast<uint64_t *>(smem);
    unsigned char *ring = smem + kRingHeader;
    const Chunks c(map, bytes, chunk);
    const int mine = (int)c.mine;
    auto load = [&](int i) {
        uint64_t *bar = &full[i % slots];
        infini::bulkExpect(bar, c.len(i));
        infini::bulkCopy(ring + (size_t)(i % slots) * chunk, x + c.at(i), c.len(i), bar);
    };
    for (int i = 0; i < slots; ++i) {
        infini::bulkBarrierInit(&full[i]);
    }
    for (int i = 0; i < slots && i < mine; ++i) {
        load(i);
    }
    for (int i = 0; i < mine; ++i) {
        infini::bulkWait(&full[i % slots], (uint32_t)(i / slots) & 1u);
        bulkStore(y + c.at(i), ring + (size_t)(i % slots) * chunk, c.len(i));
        if (i >= 1 && i - 1 + slots < mine) { // chunk i - 1's slot, once its store has read it
            asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
            load(i - 1 + slots);
        }
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
}

} // namespace copyprobe
