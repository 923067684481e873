#pragma once
// The lean argmax kernel (issue 12, session am10; notes/argmax.md, last
// section): argmaxPipeKernel's read (two register stages, every tile full,
// the last one moved back) with a hot loop that keeps no index at all.
// Per tile and thread: U 16-byte loads, the tile's packed max (NaN ignored),
// one compare against the thread's running max; where the tile beats it, the
// max, the tile's offset and (Keep) its U raw vectors are kept in registers.
// The index is found once, after the stream: the first element of the kept
// tile equal to the thread's max (Keep: from registers; else the tile is
// loaded again, an L1/L2 hit). argmaxPipeKernel instead runs vecBest (an
// order key per element) on every tile that may beat its threshold: about
// half of a thread's ~5 tiles at 64 rows, and its SASS is 160 KB (pipe256x8,
// F16) of which each SM runs ~80 KB about once per launch; this one is a few
// KB. The library's argmax kernel (launch.cuh has its shapes).
//
// Exact rule (lowest index among equal maxima, -0 == +0, NaN below -inf and
// winning only in an all-NaN row): a thread's tiles before the last come in
// increasing index order, and a tile is kept only when its max is strictly
// above the running one (or the running one is NaN and the tile's is not,
// or it is the first tile), so the kept tile holds the thread's first
// element equal to its max, unless that element lies only in the moved-back
// last tile's overlap with the one before (then the thread gives a higher
// index); the lowest index of the block's max is still given by the thread
// that owns it in the earlier tile, whose first tile reaching that max is
// the one holding it, and the block's reduction keeps the lowest index among
// equal keys. The head, tail and short chunks take vecBest as before.
#include "argmax_pipe.cuh"

namespace infini::random_sample::nvidia {

// This thread's exact best of row[begin, end) (see pipeChunkBest for the
// head, tail and tile layout, which are the same).
template <class T, int NT, int U, bool Keep>
__device__ inline Entry<KeyType<T>> leanChunkBest(const T *row, uint32_t begin, uint32_t end) {
    using K = KeyType<T>;
    using C = ComputeType<T>;
    constexpr uint32_t V = 16 / sizeof(T), TileVecs = (uint32_t)NT * U;
    Entry<K> best = noEntry<K>();
    const uint32_t mis = (uint32_t)(((uintptr_t)(row + begin) & 15u) / sizeof(T));
    const uint32_t head = mis == 0 ? 0u : V - mis;
    const uint32_t h = begin + (head < end - begin ? head : end - begin);
    const uint32_t nvec = (end - h) / V, tb = h + nvec * V;
    const bool has_tail = threadIdx.x < end - tb;
    T tail_v = T();
    if (has_tail) tail_v = row[tb + threadIdx.x];
    if (h > begin && threadIdx.x < h - begin) {
        T v[V];
#pragma unroll
        for (uint32_t s = 0; s < V; ++s) v[s] = T();
        v[0] = row[begin + threadIdx.x];
        vecBest<true>(v, begin + threadIdx.x, 1u, best);
    }
    if (nvec >= TileVecs) {
        const uint32_t ntiles = (nvec + TileVecs - 1) / TileVecs, olast = nvec - TileVecs;
        const uint4 *base = reinterpret_cast<const uint4 *>(row + h) + threadIdx.x;
        auto off = [&](uint32_t t) { return t * TileVecs < olast ? t * TileVecs : olast; };
        C m = (C)NAN;      // the running max (NaN: none yet, or every tile so far all NaN)
        uint32_t moff = 0; // the offset (vectors) of the first tile that reached m
        uint4 keep[U];     // that tile (Keep)
        auto fold = [&](const uint4(&raw)[U], uint32_t o) {
            T v[U][V];
#pragma unroll
            for (int u = 0; u < U; ++u) memcpy(&v[u][0], &raw[u], sizeof(uint4));
            const C tm = tileMax<T, U, V>(v);
            if (tm > m || (m != m && (tm == tm || o == 0))) {
                m = tm;
                moff = o;
                if constexpr (Keep) {
#pragma unroll
                    for (int u = 0; u < U; ++u) keep[u] = raw[u];
                }
            }
        };
        uint4 a[U], b[U];
        loadTile<T, NT, U>(a, base);
        const uint4 *pb = base + off(1), *pa = base + off(2);
        uint32_t t = 0;
        for (; t + 2 < ntiles; t += 2) {
            loadTile<T, NT, U>(b, pb);
            fold(a, off(t));
            loadTile<T, NT, U>(a, pa);
            fold(b, off(t + 1));
            pb = base + off(t + 3);
            pa = base + off(t + 4);
        }
        if (t + 1 < ntiles) {
            loadTile<T, NT, U>(b, pb);
            fold(a, off(t));
            fold(b, off(t + 1));
        } else {
            fold(a, off(t));
        }
        if constexpr (!Keep) loadTile<T, NT, U>(keep, base + moff);
        T v[U][V];
#pragma unroll
        for (int u = 0; u < U; ++u) memcpy(&v[u][0], &keep[u], sizeof(uint4));
        // The first element equal to m (m NaN: the whole tile is NaN, element 0).
        uint32_t first = 0;
#pragma unroll
        for (int k = U * (int)V - 1; k >= 0; --k) {
            if (widen(v[k / V][k % V]) == m) first = (uint32_t)k;
        }
        T x = v[0][0];
#pragma unroll
        for (int k = 1; k < U * (int)V; ++k) {
            if (first == (uint32_t)k) x = v[k / V][k % V];
        }
        const Entry<K> e{keyOf(x), h + (moff + first / V * NT + threadIdx.x) * V + first % V};
        if (before(e, best)) best = e;
    } else if (nvec > 0) { // less than a tile: the checked loop
        forVectors<NT, U>(row, h, tb, [&](const T (&v)[V], uint32_t j0, uint32_t cnt) {
            vecBest<true>(v, j0, cnt, best);
        });
    }
    if (has_tail) {
        T v[V];
#pragma unroll
        for (uint32_t s = 0; s < V; ++s) v[s] = T();
        v[0] = tail_v;
        vecBest<true>(v, tb + threadIdx.x, 1u, best);
    }
    return best;
}

// Teams are clusters, as argmaxPipeKernel (argmaxFinish).
template <class T, int NT, int U, int MinB, bool Keep, bool Wide = false>
__global__ void __launch_bounds__(NT, MinB) argmaxLeanKernel(const __grid_constant__ ArgmaxArgs a) {
    argmaxTeamRow<T, NT>(a, [](const T *row, uint32_t begin, uint32_t end) {
        return leanChunkBest<T, NT, U, Keep>(row, begin, end);
    });
}

template <class T, int NT, int U, int MinB, bool Keep>
infiniStatus_t launchArgmaxLean(const RowsArgs &rows, uint32_t count, int team, LaunchStream stream) {
    LaunchConfig config = argmaxConfig(count, team, NT, 0, stream);
    if (team > kPortableTeam) {
        CUDA_TRY(cudaLaunchKernelEx(config.get(), argmaxLeanKernel<T, NT, U, MinB, Keep, true>, ArgmaxArgs{rows, count, 0}));
    } else {
        CUDA_TRY(cudaLaunchKernelEx(config.get(), argmaxLeanKernel<T, NT, U, MinB, Keep, false>, ArgmaxArgs{rows, count, 0}));
    }
    return INFINI_STATUS_SUCCESS;
}
template <class T, int NT, int U, int MinB, bool Keep>
infiniStatus_t argmaxLeanTeams(int team, int *teams) {
    const void *kernel = team > kPortableTeam ? (const void *)argmaxLeanKernel<T, NT, U, MinB, Keep, true>
                                              : (const void *)argmaxLeanKernel<T, NT, U, MinB, Keep, false>;
    return argmaxTeamsFit(kernel, NT, 0, team, teams);
}
template <class T, int NT, int U, int MinB, bool Keep>
infiniStatus_t prepareArgmaxLean() {
    CUDA_TRY(cudaFuncSetAttribute(argmaxLeanKernel<T, NT, U, MinB, Keep, true>,
                                  cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::random_sample::nvidia
