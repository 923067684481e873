// Rearrange kernels for 2-byte copy units, word and skewed tiles included.
#include "kernels.cuh"
#if INFINI_REARRANGE_ODD_WORDS
#include "odd_word_tile.cuh"
#endif
#include "skew_tile.cuh"
#include "skew_word_tile.cuh"
#include "word_tile.cuh"

namespace infini::rearrange::nvidia {
INFINI_REARRANGE_INSTANTIATE(2)

namespace {
using TwoByteTileKernel = void (*)(const TileParams, uint16_t *, const uint16_t *);

// `one` when groups a and b are single dims, else `any`.
cudaError_t launchTwoByteTile(TwoByteTileKernel one, TwoByteTileKernel any, const TileParams &p, unsigned grid,
                              void *dst, const void *src, cudaStream_t stream, bool pdl) {
    const dim3 block(kTileThreadsX, kTileThreadsY);
    return launchKernel(p.a.ndim == 1 && p.b.ndim == 1 ? one : any, dim3(grid), block, 0, stream, pdl, p,
                        static_cast<uint16_t *>(dst), static_cast<const uint16_t *>(src));
}
} // namespace

cudaError_t launchWordTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream, bool pdl) {
    return launchTwoByteTile(wordTileKernel<true>, wordTileKernel<false>, p, grid, dst, src, stream, pdl);
}

cudaError_t launchWideWordTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream, bool pdl) {
    constexpr int kParts = kWideWordParts, kBlocks = kWideWordBlocksPerSm;
    return launchTwoByteTile(wordTileKernel<true, kParts, kParts, kBlocks>, wordTileKernel<false, kParts, kParts, kBlocks>,
                             p, grid, dst, src, stream, pdl);
}

cudaError_t launchSkewTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream, bool pdl) {
    return launchTwoByteTile(skewTileKernel<true>, skewTileKernel<false>, p, grid, dst, src, stream, pdl);
}

cudaError_t launchSkewWordTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream, bool pdl) {
    return launchTwoByteTile(skewWordTileKernel<true>, skewWordTileKernel<false>, p, grid, dst, src, stream, pdl);
}

#if INFINI_REARRANGE_ODD_WORDS
cudaError_t launchOddWordTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream, bool pdl) {
    return launchTwoByteTile(oddWordTileKernel<true>, oddWordTileKernel<false>, p, grid, dst, src, stream, pdl);
}
#endif
} // namespace infini::rearrange::nvidia
