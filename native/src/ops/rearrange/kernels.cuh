#pragma once
// Rearrange device code; included by one .cu per copy-unit size.
#include "nvidia.h"
#include <cstdint>

namespace infini::rearrange::nvidia {

template <size_t N> struct UnitOf;
template <> struct UnitOf<1> { using type = uint8_t; };
template <> struct UnitOf<2> { using type = uint16_t; };
template <> struct UnitOf<4> { using type = uint32_t; };
template <> struct UnitOf<8> { using type = uint2; };
template <> struct UnitOf<16> { using type = uint4; };

// NDIM > 0: that many dims, 32-bit index; NDIM == 0: p.ndim dims, 32-bit;
// NDIM < 0: p.ndim dims, 64-bit, possibly in a device buffer.
template <class U, int NDIM>
__global__ void __launch_bounds__(kGenericBlock) genericKernel(const __grid_constant__ GenericParams p, U *__restrict__ dst,
                                                              const U *__restrict__ src) {
    const uint64_t linear = (uint64_t)blockIdx.x * kGenericBlock + threadIdx.x;
    if (linear >= p.total) {
        return;
    }
    int64_t od = 0, os = 0;
    if constexpr (NDIM > 0) {
        const Dim *dims = p.dims;
        uint32_t i = (uint32_t)linear;
#pragma unroll
        for (int d = NDIM - 1; d > 0; --d) {
            uint32_t q = dims[d].div.div(i);
            uint32_t r = i - q * (uint32_t)dims[d].size;
            od += (int64_t)r * dims[d].dst_stride;
            os += (int64_t)r * dims[d].src_stride;
            i = q;
        }
        od += (int64_t)i * dims[0].dst_stride;
        os += (int64_t)i * dims[0].src_stride;
    } else if constexpr (NDIM == 0) {
        const Dim *dims = p.dims;
        uint32_t i = (uint32_t)linear;
        for (int d = p.ndim - 1; d > 0; --d) {
            uint32_t q = dims[d].div.div(i);
            uint32_t r = i - q * (uint32_t)dims[d].size;
            od += (int64_t)r * dims[d].dst_stride;
            os += (int64_t)r * dims[d].src_stride;
            i = q;
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
    dst[od] = src[os];
}

template <class U>
__global__ void __launch_bounds__(kTile *kTileRows) tileKernel(const __grid_constant__ TileParams p, U *__restrict__ dst,
                                                                const U *__restrict__ src) {
    __shared__ U tile[kTile][kTile + 1]; // [b][a], padded against bank conflicts
    const Dim *outer = p.deep != nullptr ? p.deep : p.outer;
    for (uint64_t block = blockIdx.x; block < p.blocks; block += gridDim.x) {
        uint64_t rest = block;
        const uint64_t tb = rest % p.tiles_b;
        rest /= p.tiles_b;
        const uint64_t ta = rest % p.tiles_a;
        rest /= p.tiles_a;
        int64_t od = 0, os = 0;
        for (int d = p.outer_ndim - 1; d >= 0; --d) {
            uint64_t q = rest / outer[d].size;
            uint64_t r = rest - q * outer[d].size;
            od += (int64_t)r * outer[d].dst_stride;
            os += (int64_t)r * outer[d].src_stride;
            rest = q;
        }
        const uint64_t a0 = ta * kTile, b0 = tb * kTile;
        // Read along a: consecutive threads, consecutive src addresses.
        {
            const uint64_t ia = a0 + threadIdx.x;
            if (ia < p.len_a) {
                const U *s = src + os + (int64_t)ia * p.src_a;
#pragma unroll
                for (int k = 0; k < kTile; k += kTileRows) {
                    const uint64_t ib = b0 + threadIdx.y + k;
                    if (ib < p.len_b) {
                        tile[threadIdx.y + k][threadIdx.x] = s[(int64_t)ib * p.src_b];
                    }
                }
            }
        }
        __syncthreads();
        // Write along b: consecutive threads, consecutive dst addresses.
        {
            const uint64_t ib = b0 + threadIdx.x;
            if (ib < p.len_b) {
                U *d = dst + od + (int64_t)ib * p.dst_b;
#pragma unroll
                for (int k = 0; k < kTile; k += kTileRows) {
                    const uint64_t ia = a0 + threadIdx.y + k;
                    if (ia < p.len_a) {
                        d[(int64_t)ia * p.dst_a] = tile[threadIdx.x][threadIdx.y + k];
                    }
                }
            }
        }
        __syncthreads();
    }
}

template <size_t Unit>
cudaError_t launchGeneric(const GenericParams &p, int ndim_variant, unsigned grid, void *dst, const void *src,
                          cudaStream_t stream) {
    using U = typename UnitOf<Unit>::type;
    auto *d = static_cast<U *>(dst);
    auto *s = static_cast<const U *>(src);
    switch (ndim_variant) {
    case 1: genericKernel<U, 1><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    case 2: genericKernel<U, 2><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    case 3: genericKernel<U, 3><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    case 4: genericKernel<U, 4><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    case 0: genericKernel<U, 0><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    default: genericKernel<U, -1><<<grid, kGenericBlock, 0, stream>>>(p, d, s); break;
    }
    return cudaGetLastError();
}

template <size_t Unit>
cudaError_t launchTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream) {
    using U = typename UnitOf<Unit>::type;
    tileKernel<U><<<grid, dim3(kTile, kTileRows), 0, stream>>>(p, static_cast<U *>(dst), static_cast<const U *>(src));
    return cudaGetLastError();
}

#define INFINI_REARRANGE_INSTANTIATE(N)                                                                        \
    template cudaError_t launchGeneric<N>(const GenericParams &, int, unsigned, void *, const void *, cudaStream_t); \
    template cudaError_t launchTile<N>(const TileParams &, unsigned, void *, const void *, cudaStream_t);

} // namespace infini::rearrange::nvidia
