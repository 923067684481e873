#pragma once
// Unit tiles: a TA x TB tile (TA along a, TB along b) of any copy unit through shared memory, read along a
// (src's run), written along b (dst's run), by 32 x 8 threads. Included by kernels.cuh; device code through tile_index.cuh's hooks
// only, so that a host emulation can compile it too (tools/tile_emulate.cc).
#include "tile_index.cuh"

namespace infini::rearrange::nvidia {

// The type that moves N bytes.
template <size_t N> struct UnitOf;
template <> struct UnitOf<1> { using type = uint8_t; };
template <> struct UnitOf<2> { using type = uint16_t; };
template <> struct UnitOf<4> { using type = uint32_t; };
template <> struct UnitOf<8> { using type = uint2; };
template <> struct UnitOf<16> { using type = uint4; };

template <class U, int TA, int TB = TA>
__global__ void __launch_bounds__(kTileThreadsX *kTileThreadsY) tileKernel(const __grid_constant__ TileParams p,
                                                                          U *__restrict__ dst,
                                                                          const U *__restrict__ src) {
    tileKernelEntry(kTileTriggerAtEntry);
    constexpr int kPad = sizeof(U) >= 4 ? 1 : 4 / sizeof(U); // rows start on distinct banks
    constexpr int kA = TA / kTileThreadsX, kB = TB / kTileThreadsY; // per thread: along a, along b
    __shared__ U tile[TB][TA + kPad];                                // [b][a]
    const uint32_t x = threadIdx.x, y = threadIdx.y;
    const TileOrigin o = tileOrigin(p, blockIdx.x);
    const int64_t od = o.od, os = o.os;
    const uint32_t a0 = o.ta * TA, b0 = o.tb * TB;
    // Read along a: consecutive threads, consecutive src addresses. All loads
    // are issued before the first shared-memory store.
    int64_t sa[kA];
    bool va[kA];
#pragma unroll
    for (int i = 0; i < kA; ++i) {
        const uint32_t ia = a0 + x + i * kTileThreadsX;
        va[i] = ia < p.len_a;
        int64_t unused;
        groupOffset(p.a, va[i] ? ia : 0, unused, sa[i]);
    }
    U v[kB][kA] = {};
#pragma unroll
    for (int j = 0; j < kB; ++j) {
        const uint32_t ib = b0 + y + j * kTileThreadsY;
        int64_t unused, sb;
        groupOffset(p.b, ib < p.len_b ? ib : 0, unused, sb);
#pragma unroll
        for (int i = 0; i < kA; ++i) {
            if (va[i] && ib < p.len_b) {
                v[j][i] = loadGlobal(src + os + sb + sa[i], j * kA + i);
            }
        }
    }
#pragma unroll
    for (int j = 0; j < kB; ++j) {
#pragma unroll
        for (int i = 0; i < kA; ++i) {
            tile[y + j * kTileThreadsY][x + i * kTileThreadsX] = v[j][i];
        }
    }
    __syncthreads();
    tileLoaded();
    // Write along b: consecutive threads, consecutive dst addresses.
    int64_t db[TB / kTileThreadsX];
    bool vb[TB / kTileThreadsX];
#pragma unroll
    for (int i = 0; i < TB / kTileThreadsX; ++i) {
        const uint32_t ib = b0 + x + i * kTileThreadsX;
        vb[i] = ib < p.len_b;
        int64_t unused;
        groupOffset(p.b, vb[i] ? ib : 0, db[i], unused);
    }
#pragma unroll
    for (int j = 0; j < TA / kTileThreadsY; ++j) {
        const uint32_t ia = a0 + y + j * kTileThreadsY;
        if (ia < p.len_a) {
            int64_t da, unused;
            groupOffset(p.a, ia, da, unused);
#pragma unroll
            for (int i = 0; i < TB / kTileThreadsX; ++i) {
                if (vb[i]) {
                    storeGlobal(dst + od + da + db[i], tile[x + i * kTileThreadsX][y + j * kTileThreadsY],
                                1000 + j * (TB / kTileThreadsX) + i);
                }
            }
        }
    }
}

} // namespace infini::rearrange::nvidia
