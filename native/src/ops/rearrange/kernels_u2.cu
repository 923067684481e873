// Rearrange kernels for 2-byte copy units, word and skewed tiles included.
#include "kernels.cuh"
#include "odd_tma_tile.cuh"
#if INFINI_REARRANGE_ODD_WORDS
#include "odd_word_tile.cuh"
#endif
#include "skew_tile.cuh"
#include "skew_word_tile.cuh"
#include "tma_tile.cuh"
#include "word_tile.cuh"
#include "../../common/cuda/tensor_map.h"

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

namespace {
constexpr auto kTmaTileKernel = tmaTileKernel<kTmaSrcStages, kTmaDstStages, kTmaBlocksPerSm>;
constexpr size_t kTmaTileSmem = tmaTileSmem(kTmaSrcStages, kTmaDstStages);
} // namespace

bool prepareTmaTiles() {
    if (!kernelCompiledFor(kTmaTileKernel, 90) || !tensorMapsAvailable()) {
        return false;
    }
    if (cudaFuncSetAttribute(kTmaTileKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kTmaTileSmem) !=
        cudaSuccess) {
        cudaGetLastError(); // a device with less shared memory: an answer, not an error to report later
        return false;
    }
    return true;
}

bool encodeTmaMaps(const TmaTiling &t, void *dst, const void *src, CUtensorMap *dst_map, CUtensorMap *src_map) {
    return encodeTensorMap2d(src_map, src, 2, t.len_a, t.len_b, t.src_pitch * 2, kTmaA, kTmaB) &&
           encodeTensorMap2d(dst_map, dst, 2, t.len_b, t.len_a, t.dst_pitch * 2, kTmaB / 2, kTmaA);
}

cudaError_t launchTmaTile(const TmaTiling &t, const CUtensorMap &dst_map, const CUtensorMap &src_map,
                          cudaStream_t stream, bool pdl) {
    return launchKernel(kTmaTileKernel, dim3(t.grid), dim3(kTmaThreads), kTmaTileSmem, stream, pdl, src_map, dst_map,
                        t.tiles_a, t.tiles_a * t.tiles_b);
}

namespace {
constexpr auto kOddTmaTileKernel = oddTmaTileKernel<kOtMinBlocks>;
} // namespace

bool prepareOddTmaTiles() { return kernelCompiledFor(kOddTmaTileKernel, 90) && tensorMapsAvailable(); }

bool launchOddTmaTile(const OddTmaTiling &t, void *dst, const void *src, cudaStream_t stream, bool pdl,
                      cudaError_t *err) {
    OddTmaMaps maps;
    OddTmaParams p;
    if (!oddTmaPrepare(&maps, &p, static_cast<const uint16_t *>(src), t.len_a, t.len_b, t.src_pitch, t.dst_pitch)) {
        return false;
    }
    *err = launchKernel(kOddTmaTileKernel, dim3(t.tiles), dim3(kOtThreads), 0, stream, pdl, maps, p,
                        static_cast<uint16_t *>(dst));
    return true;
}

#if INFINI_REARRANGE_ODD_WORDS
cudaError_t launchOddWordTile(const TileParams &p, unsigned grid, void *dst, const void *src, cudaStream_t stream, bool pdl) {
    return launchTwoByteTile(oddWordTileKernel<true>, oddWordTileKernel<false>, p, grid, dst, src, stream, pdl);
}
#endif
} // namespace infini::rearrange::nvidia
