#pragma once
// Rearrange device code; included by one .cu per copy-unit size.
#include "../../common/cuda/pdl.cuh"
#include "tile_index.cuh"
#include "unit_tile.cuh"
#include <cstdint>

namespace infini::rearrange::nvidia {

// The dst and src offsets (units) of linear index `linear` over p's dims.
// NDIM > 0: that many dims, 32-bit index; NDIM == 0: p.ndim dims, 32-bit;
// NDIM < 0: p.ndim dims, 64-bit, possibly in a device buffer.
template <int NDIM>
__device__ __forceinline__ void genericOffsets(const GenericParams &p, uint64_t linear, int64_t &od, int64_t &os) {
    od = 0;
    os = 0;
    if constexpr (NDIM >= 0) { // 32-bit: multiply-high division; NDIM > 0 unrolls
        const Dim *dims = p.dims;
        const int nd = NDIM > 0 ? NDIM : p.ndim;
        uint32_t i = (uint32_t)linear;
#pragma unroll
        for (int d = (NDIM > 0 ? NDIM : kMaxDims) - 1; d > 0; --d) {
            if (d < nd) {
                uint32_t q = dims[d].div.div(i);
                uint32_t r = i - q * (uint32_t)dims[d].size;
                od += (int64_t)r * dims[d].dst_stride;
                os += (int64_t)r * dims[d].src_stride;
                i = q;
            }
        }
        od += (int64_t)i * dims[0].dst_stride;
        os += (int64_t)i * dims[0].src_stride;
    } else {
        const Dim *dims = p.deep != nullptr ? p.deep : p.dims;
        uint64_t i = linear;
        for (int d = p.ndim - 1; d > 0; --d) {
            uint64_t q = i / dims[d].size;
            uint64_t r = i - q * dims[d].size;
            od += (int64_t)r * dims[d].dst_stride;
            os += (int64_t)r * dims[d].src_stride;
            i = q;
        }
        od += (int64_t)i * dims[0].dst_stride;
        os += (int64_t)i * dims[0].src_stride;
    }
}

// A thread per K units (genericUnitsPerThread), kGenericBlock apart within
// its block's chunk: every load is issued before the first store.
template <class U, int NDIM>
__global__ void __launch_bounds__(kGenericBlock) genericKernel(const __grid_constant__ GenericParams p, U *__restrict__ dst,
                                                              const U *__restrict__ src) {
    constexpr int K = genericUnitsPerThread(sizeof(U));
    const uint64_t first = (uint64_t)blockIdx.x * (kGenericBlock * K) + threadIdx.x;
    int64_t od[K];
    U v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const uint64_t linear = first + (uint64_t)k * kGenericBlock;
        if (linear < p.total) {
            int64_t os;
            genericOffsets<NDIM>(p, linear, od[k], os);
            v[k] = src[os];
        }
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
        if (first + (uint64_t)k * kGenericBlock < p.total) {
            dst[od[k]] = v[k];
        }
    }
}

#if INFINI_REARRANGE_GENERIC_LEAN
// The generic kernel's lean variants (GenericParams::lean): NDIM dims unrolled, 32-bit offsets (the
// planner checked both tensors' reach and the unit count against 31 bits); DST_LINEAR: dst's offset is
// the linear index itself, so only src's is summed and none is held across the loads.
template <class U, int NDIM, bool DST_LINEAR>
__global__ void __launch_bounds__(kGenericBlock) genericLeanKernel(const __grid_constant__ GenericParams p,
                                                                  U *__restrict__ dst, const U *__restrict__ src) {
    constexpr int K = genericUnitsPerThread(sizeof(U));
    const uint32_t total = (uint32_t)p.total;
    const uint32_t first = blockIdx.x * (uint32_t)(kGenericBlock * K) + threadIdx.x;
    int32_t od[DST_LINEAR ? 1 : K];
    U v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const uint32_t linear = first + (uint32_t)(k * kGenericBlock);
        if (linear < total) {
            uint32_t i = linear;
            int32_t d_off = 0, s_off = 0;
#pragma unroll
            for (int d = NDIM - 1; d > 0; --d) {
                const uint32_t q = p.dims[d].div.div(i);
                const uint32_t r = i - q * (uint32_t)p.dims[d].size;
                if constexpr (!DST_LINEAR) {
                    d_off += (int32_t)r * (int32_t)p.dims[d].dst_stride;
                }
                s_off += (int32_t)r * (int32_t)p.dims[d].src_stride;
                i = q;
            }
            if constexpr (!DST_LINEAR) {
                od[k] = d_off + (int32_t)i * (int32_t)p.dims[0].dst_stride;
            }
            v[k] = src[s_off + (int32_t)i * (int32_t)p.dims[0].src_stride];
        }
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const uint32_t linear = first + (uint32_t)(k * kGenericBlock);
        if (linear < total) {
            if constexpr (DST_LINEAR) {
                dst[linear] = v[k];
            } else {
                dst[od[k]] = v[k];
            }
        }
    }
}

template <class U, bool DST_LINEAR>
void launchGenericLean(const GenericParams &p, int ndim, unsigned grid, U *d, const U *s, cudaStream_t stream) {
    switch (ndim) {
    case 1: genericLeanKernel<U, 1, DST_LINEAR><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    case 2: genericLeanKernel<U, 2, DST_LINEAR><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    case 3: genericLeanKernel<U, 3, DST_LINEAR><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    case 4: genericLeanKernel<U, 4, DST_LINEAR><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
#if INFINI_REARRANGE_GENERIC_UNROLLED_DIMS >= 5
    case 5: genericLeanKernel<U, 5, DST_LINEAR><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
#endif
#if INFINI_REARRANGE_GENERIC_UNROLLED_DIMS >= 6
    default: genericLeanKernel<U, 6, DST_LINEAR><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
#endif
    }
}
#endif

template <size_t Unit>
cudaError_t launchGeneric(const GenericParams &p, int ndim_variant, unsigned grid, void *dst, const void *src,
                          cudaStream_t stream) {
    using U = typename UnitOf<Unit>::type;
    auto *d = static_cast<U *>(dst);
    auto *s = static_cast<const U *>(src);
#if INFINI_REARRANGE_GENERIC_LEAN
    if (p.lean != 0 && ndim_variant >= 1) { // (the planner sets lean only on unrolled forms)
        if (p.lean == 2) {
            launchGenericLean<U, true>(p, ndim_variant, grid, d, s, stream);
        } else {
            launchGenericLean<U, false>(p, ndim_variant, grid, d, s, stream);
        }
        return cudaGetLastError();
    }
#endif
    switch (ndim_variant) {
    case 1: genericKernel<U, 1><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    case 2: genericKernel<U, 2><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    case 3: genericKernel<U, 3><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    case 4: genericKernel<U, 4><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
#if INFINI_REARRANGE_GENERIC_UNROLLED_DIMS >= 5
    case 5: genericKernel<U, 5><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
#endif
#if INFINI_REARRANGE_GENERIC_UNROLLED_DIMS >= 6
    case 6: genericKernel<U, 6><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
#endif
    case 0: genericKernel<U, 0><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    default: genericKernel<U, -1><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    }
    return cudaGetLastError();
}

template <size_t Unit>
cudaError_t launchTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream, bool pdl,
                       int small_b) {
    using U = typename UnitOf<Unit>::type;
    const dim3 block(kTileThreadsX, kTileThreadsY);
#if INFINI_REARRANGE_SMALL_TILES
    if constexpr (Unit == 2) { // (the planner's rule: 2-byte units only)
        if (small_b == kSmallTileEdgeB) {
            return launchKernel(tileKernel<U, kSmallTileEdge, kSmallTileEdgeB>, dim3(grid), block, 0, stream, pdl, p,
                                static_cast<U *>(dst), static_cast<const U *>(src));
        }
        if constexpr (kSmallTileEdgeB != kSmallTileEdge) {
            if (small_b == kSmallTileEdge) { // where 32 x 64 tiles fail the fill gates
                return launchKernel(tileKernel<U, kSmallTileEdge>, dim3(grid), block, 0, stream, pdl, p,
                                    static_cast<U *>(dst), static_cast<const U *>(src));
            }
        }
    }
#endif
    (void)small_b;
    return launchKernel(tileKernel<U, kTileEdge<Unit>>, dim3(grid), block, 0, stream, pdl, p, static_cast<U *>(dst),
                        static_cast<const U *>(src));
}

// Every tile kernel of a unit is compiled in one translation unit, for the
// same architectures: the plain tile kernel answers for all of them.
template <size_t Unit>
bool tileKernelsHonourPdl() {
    return kernelHonoursPdl(tileKernel<typename UnitOf<Unit>::type, kTileEdge<Unit>>);
}

#define INFINI_REARRANGE_INSTANTIATE(N)                                                                        \
    template cudaError_t launchGeneric<N>(const GenericParams &, int, unsigned, void *, const void *, cudaStream_t); \
    template cudaError_t launchTile<N>(const TileParams &, unsigned, void *, const void *, cudaStream_t, bool,     \
                                       int);                                                                   \
    template bool tileKernelsHonourPdl<N>();

} // namespace infini::rearrange::nvidia
