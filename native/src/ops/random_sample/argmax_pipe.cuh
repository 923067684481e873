#pragma once
// Pipelined argmax kernels (issue 12, session 5; measured by
// tools/argmax_sweep.cu). Both are the sweep's only: the library's argmax is
// argmaxLeanKernel (argmax_lean.cuh), which reads as argmaxPipeKernel does
// and shares its tile helpers (tileMax, loadTile) from here.
// The chunk read of argmaxKernel with
//  - the next tile's U loads issued before the current tile is compared
//    (argmaxKernel waits for its U loads, compares, then loads again: with
//    every warp of an SM in step, no load is in flight while they compare, and
//    the DRAM round trip is paid once per tile; notes/argmax.md, session 5);
//  - every tile full and unchecked (the last one moved back to end at the
//    chunk's last vector), so the whole chunk streams through the pipeline;
//  - one packed max per tile (U * V elements) against a per-thread threshold,
//    the exact per-vector search (vecBest) only when the tile may beat it.
// argmaxPipeKernel: teams are clusters, as argmaxKernel (argmaxFinish).
// argmaxGridKernel: teams are plain blocks (no co-scheduling); they merge
// through a per-row 64-bit atomicMax slot and a ticket, the last block of a
// row writes its index and clears both (so the workspace must start zeroed,
// once). 32-bit keys only (F16, BF16, F32).
#include "argmax.cuh"

namespace infini::random_sample::nvidia {

// The largest of U full vectors (NaN ignored unless all are NaN), widened.
template <class T, int U, int V>
__device__ inline ComputeType<T> tileMax(const T (&v)[U][V]) {
    if constexpr (sizeof(T) == 2) {
        using T2 = std::conditional_t<std::is_same_v<T, __half>, __half2, __nv_bfloat162>;
        T2 m{v[0][0], v[0][1]};
#pragma unroll
        for (int u = 0; u < U; ++u) {
#pragma unroll
            for (int k = u == 0 ? 1 : 0; k < V / 2; ++k) m = __hmax2(m, T2{v[u][2 * k], v[u][2 * k + 1]});
        }
        return widen(__hmax(m.x, m.y));
    } else {
        T m = v[0][0];
#pragma unroll
        for (int u = 0; u < U; ++u) {
#pragma unroll
            for (int k = u == 0 ? 1 : 0; k < V; ++k) m = fmax(m, v[u][k]);
        }
        return m;
    }
}

// One thread's exact best so far and the threshold of its fast test: a tile
// whose max (NaN ignored) is below thr holds nothing that beats best. thr is
// best's value, -inf while best is NaN (key 0) or empty. Tiles come in
// increasing index order, so ties keep the earlier (lower) index.
template <class T>
struct RunningBest {
    using K = KeyType<T>;
    Entry<K> best = noEntry<K>();
    ComputeType<T> thr = -(ComputeType<T>)INFINITY;
    __device__ void retune() { thr = best.key == 0 ? -(ComputeType<T>)INFINITY : valueOfKey<T>(best.key); }
    // v[u][0..V) = row[i0 + u * stride ..], every vector full.
    template <int U, int V>
    __device__ void tile(const T (&v)[U][V], uint32_t i0, uint32_t stride) {
        // All-NaN tiles are skipped (their max is NaN): seeding an empty best
        // with key 0 at the tile's first index keeps the rule for NaN-only
        // threads (the lowest NaN index), and every later real element beats it.
        if (best.idx == 0xffffffffu) best = Entry<K>{0, i0};
        if (!(tileMax(v) >= thr)) return;
#pragma unroll
        for (int u = 0; u < U; ++u) vecBest(v[u], i0 + u * stride, (uint32_t)V, best);
        retune();
    }
};

// The U vectors of a full tile for this thread: p[u * NT].
template <class T, int NT, int U>
__device__ inline void loadTile(uint4 (&raw)[U], const uint4 *p) {
#pragma unroll
    for (int u = 0; u < U; ++u) raw[u] = __ldg(p + u * NT);
}
template <class T, int NT, int U>
__device__ inline void foldTile(RunningBest<T> &rb, const uint4 (&raw)[U], uint32_t i0) {
    constexpr int V = 16 / sizeof(T);
    T v[U][V];
#pragma unroll
    for (int u = 0; u < U; ++u) memcpy(&v[u][0], &raw[u], sizeof(uint4));
    rb.template tile<U, V>(v, i0, (uint32_t)(NT * V));
}

// This thread's exact best of row[begin, end) (the block's threads together
// cover it; reduce over the block after). The whole vectors after the
// unaligned head go in tiles of NT * U; the last tile is moved back to end at
// the last vector, so every tile is full and in the pipeline (its overlap
// with the one before is read twice, each element with its own index: the
// owner of an element still meets it in increasing index order, so the
// lowest index among equal maxima still wins). Chunks of less than a tile
// take the checked loop; the last < V elements (an unaligned end) are
// loaded first and compared last.
template <class T, int NT, int U>
__device__ inline Entry<KeyType<T>> pipeChunkBest(const T *row, uint32_t begin, uint32_t end) {
    constexpr uint32_t V = 16 / sizeof(T), TileVecs = (uint32_t)NT * U;
    RunningBest<T> rb;
    const uint32_t mis = (uint32_t)(((uintptr_t)(row + begin) & 15u) / sizeof(T));
    const uint32_t head = mis == 0 ? 0u : V - mis;
    const uint32_t h = begin + (head < end - begin ? head : end - begin);
    const uint32_t nvec = (end - h) / V, tb = h + nvec * V; // whole vectors, then the tail elements
    const bool has_tail = threadIdx.x < end - tb;
    T tail_v = T();
    if (has_tail) tail_v = row[tb + threadIdx.x];
    if (h > begin && threadIdx.x < h - begin) { // the unaligned head: one element a thread
        T v[V];
#pragma unroll
        for (uint32_t s = 0; s < V; ++s) v[s] = T();
        v[0] = row[begin + threadIdx.x];
        vecBest(v, begin + threadIdx.x, 1u, rb.best);
        rb.retune();
    }
    if (nvec >= TileVecs) { // two register stages: tile t + 1 is in flight while tile t is compared
        const uint32_t ntiles = (nvec + TileVecs - 1) / TileVecs, olast = nvec - TileVecs;
        const uint4 *base = reinterpret_cast<const uint4 *>(row + h) + threadIdx.x;
        const uint32_t i0 = h + threadIdx.x * V;
        auto off = [&](uint32_t t) { return t * TileVecs < olast ? t * TileVecs : olast; }; // in vectors
        uint4 a[U], b[U];
        loadTile<T, NT, U>(a, base);
        // Pointers kept ahead so no address arithmetic sits right before a
        // load: ptxas would fill its latency with the next fold's first max,
        // whose wait for data would then hold the loads back.
        const uint4 *pb = base + off(1), *pa = base + off(2);
        uint32_t t = 0;
        for (; t + 2 < ntiles; t += 2) { // unconditional loads
            loadTile<T, NT, U>(b, pb);
            foldTile<T, NT, U>(rb, a, i0 + off(t) * V);
            loadTile<T, NT, U>(a, pa);
            foldTile<T, NT, U>(rb, b, i0 + off(t + 1) * V);
            pb = base + off(t + 3);
            pa = base + off(t + 4);
        }
        if (t + 1 < ntiles) {
            loadTile<T, NT, U>(b, pb);
            foldTile<T, NT, U>(rb, a, i0 + off(t) * V);
            foldTile<T, NT, U>(rb, b, i0 + off(t + 1) * V);
        } else {
            foldTile<T, NT, U>(rb, a, i0 + off(t) * V);
        }
    } else if (nvec > 0) { // less than a tile: the checked loop (aligned: no head)
        forVectors<NT, U>(row, h, tb, [&](const T (&v)[V], uint32_t j0, uint32_t cnt) {
            vecBest(v, j0, cnt, rb.best);
        });
    }
    if (has_tail) {
        T v[V];
#pragma unroll
        for (uint32_t s = 0; s < V; ++s) v[s] = T();
        v[0] = tail_v;
        vecBest(v, tb + threadIdx.x, 1u, rb.best);
    }
    return rb.best;
}

// Teams are clusters (as argmaxKernel). MinB: blocks per SM the registers allow.
template <class T, int NT, int U, int MinB, bool Wide = false>
__global__ void __launch_bounds__(NT, MinB) argmaxPipeKernel(const __grid_constant__ ArgmaxArgs a) {
    argmaxTeamRow<T, NT>(a, [](const T *row, uint32_t begin, uint32_t end) {
        return pipeChunkBest<T, NT, U>(row, begin, end);
    });
}

// Per row: the packed best of the blocks so far and how many have arrived.
struct ArgmaxSlots {
    unsigned long long *packed; // (key << 32) | ~idx: the largest is the best
    uint32_t *tickets;
};

// Teams are plain blocks (grid x); 32-bit keys. The workspace is zero before
// the first launch and after each.
template <class T, int NT, int U, int MinB>
__global__ void __launch_bounds__(NT, MinB) argmaxGridKernel(const __grid_constant__ ArgmaxArgs a,
                                                             const __grid_constant__ ArgmaxSlots slots) {
    using K = KeyType<T>;
    static_assert(sizeof(K) == 4, "the packed slot holds a 32-bit key and a 32-bit index");
    __shared__ typename cub::BlockReduce<Entry<K>, NT>::TempStorage reduce;
    const uint32_t r = blockIdx.y + blockIdx.z * gridDim.y;
    if (r >= a.count) return;
    const T *row = static_cast<const T *>(a.rows.probs) + (ptrdiff_t)r * a.rows.row_stride;
    uint32_t begin, end;
    chunkOf<T>(a.rows.n, (int)gridDim.x, blockIdx.x, &begin, &end);
    const Entry<K> best =
        cub::BlockReduce<Entry<K>, NT>(reduce).Reduce(pipeChunkBest<T, NT, U>(row, begin, end), EntryMax<K>());
    if (threadIdx.x != 0) return;
    const ptrdiff_t at = (ptrdiff_t)r * a.rows.result_stride;
    if (gridDim.x == 1) {
        storeIndex(a.rows.result, at, a.rows.result_size, best.idx);
        return;
    }
    // An empty chunk packs to 0 (noEntry), which changes nothing.
    atomicMax(&slots.packed[r], ((unsigned long long)best.key << 32) | (uint32_t)~best.idx);
    __threadfence(); // this block's max is visible before its ticket
    if (atomicAdd(&slots.tickets[r], 1u) != gridDim.x - 1) return;
    __threadfence();
    const unsigned long long all = atomicExch(&slots.packed[r], 0ull); // the last block: read and clear
    slots.tickets[r] = 0;
    storeIndex(a.rows.result, at, a.rows.result_size, ~(uint32_t)all);
}

template <class T, int NT, int U, int MinB>
infiniStatus_t launchArgmaxPipe(const RowsArgs &rows, uint32_t count, int team, LaunchStream stream) {
    LaunchConfig config = argmaxConfig(count, team, NT, 0, stream);
    if (team > kPortableTeam) {
        CUDA_TRY(cudaLaunchKernelEx(config.get(), argmaxPipeKernel<T, NT, U, MinB, true>, ArgmaxArgs{rows, count, 0}));
    } else {
        CUDA_TRY(cudaLaunchKernelEx(config.get(), argmaxPipeKernel<T, NT, U, MinB, false>, ArgmaxArgs{rows, count, 0}));
    }
    return INFINI_STATUS_SUCCESS;
}
template <class T, int NT, int U, int MinB>
infiniStatus_t argmaxPipeTeams(int team, int *teams) {
    const void *kernel = team > kPortableTeam ? (const void *)argmaxPipeKernel<T, NT, U, MinB, true>
                                              : (const void *)argmaxPipeKernel<T, NT, U, MinB, false>;
    return argmaxTeamsFit(kernel, NT, 0, team, teams);
}
template <class T, int NT, int U, int MinB>
infiniStatus_t prepareArgmaxPipe() {
    CUDA_TRY(cudaFuncSetAttribute(argmaxPipeKernel<T, NT, U, MinB, true>,
                                  cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    return INFINI_STATUS_SUCCESS;
}

// `team` plain blocks a row; slots: count rows of zeroed workspace.
template <class T, int NT, int U, int MinB>
infiniStatus_t launchArgmaxGrid(const RowsArgs &rows, uint32_t count, int team, const ArgmaxSlots &slots,
                                cudaStream_t stream) {
    const uint32_t y = count < kArgmaxGridY ? count : kArgmaxGridY;
    argmaxGridKernel<T, NT, U, MinB><<<dim3((unsigned)team, y, (count + y - 1) / y), NT, 0, stream>>>(
        ArgmaxArgs{rows, count, 0}, slots);
    CUDA_TRY(cudaGetLastError());
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::random_sample::nvidia
