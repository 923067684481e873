// Rearrange kernels for 2-byte copy units, word tiles included.
#include "word_tile.cuh"

namespace infini::rearrange::nvidia {
INFINI_REARRANGE_INSTANTIATE(2)

cudaError_t launchWordTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream) {
    const dim3 block(kTileThreadsX, kTileThreadsY);
    auto *d = static_cast<uint16_t *>(dst);
    auto *s = static_cast<const uint16_t *>(src);
    if (p.a.ndim == 1 && p.b.ndim == 1) {
        wordTileKernel<true><<<grid, block, 0, stream>>>(p, d, s);
    } else {
        wordTileKernel<false><<<grid, block, 0, stream>>>(p, d, s);
    }
    return cudaGetLastError();
}
} // namespace infini::rearrange::nvidia
