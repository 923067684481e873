// Rearrange kernels for 2-byte copy units, word tiles included.
#include "word_tile.cuh"

namespace infini::rearrange::nvidia {
INFINI_REARRANGE_INSTANTIATE(2)

cudaError_t launchWordTile(const TileParams &p, bool aligned, unsigned grid, void *dst, const void *src,
                           cudaStream_t stream) {
    return launchWordTileWith<kWordTileWordsA, kWordTileWordsB, kWordTileMinBlocks>(p, aligned, grid, dst, src, stream);
}
} // namespace infini::rearrange::nvidia
