#pragma once
// Rearrange, NVIDIA backend: kernel parameters (passed by value) and the
// launchers, one translation unit per copy-unit size.
#include "fast_div.h"
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace infini::rearrange::nvidia {

// Dims a kernel parameter carries by value; deeper layouts keep their dims in
// a device buffer made at Create.
constexpr int kMaxDims = 12;

struct Dim {
    uint64_t size;
    FastDivU32 div; // by size, when size < 2^32
    int64_t dst_stride, src_stride; // in copy units
};

// One thread per copy unit: its linear index is decomposed over the dims
// (outermost first, innermost last); the innermost dim is dst's fastest.
struct GenericParams {
    uint64_t total; // copy units
    int ndim;
    const Dim *deep; // device copy of the dims when ndim > kMaxDims, else null
    Dim dims[kMaxDims];
};

// Transpose through shared memory: a kTile x kTile tile over dims a (src's
// fastest) and b (dst's fastest), one tile per block iteration; the outer dims
// are decomposed from the block index.
constexpr int kTile = 32;
constexpr int kTileRows = 8; // threads per block: kTile x kTileRows

struct TileParams {
    uint64_t len_a, len_b, tiles_a, tiles_b, blocks;
    int64_t dst_a, src_a, dst_b, src_b;
    int outer_ndim;
    const Dim *deep;
    Dim outer[kMaxDims];
};

constexpr int kGenericBlock = 256;

// ndim_variant: 1..4 = specialised for that many dims with 32-bit indices,
// 0 = up to kMaxDims dims with 32-bit indices, -1 = any ndim (deep too) with 64-bit indices.
template <size_t Unit>
cudaError_t launchGeneric(const GenericParams &p, int ndim_variant, unsigned grid, void *dst, const void *src,
                          cudaStream_t stream);
template <size_t Unit>
cudaError_t launchTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream);

} // namespace infini::rearrange::nvidia
