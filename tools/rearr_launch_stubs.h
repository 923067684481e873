#pragma once
// The Rearrange NVIDIA kernel launchers as stubs that launch nothing, for host tools that compile
// rearrange_nvidia.cc in (tools/rearr_plan_probe.cc, tools/tile_emulate.cc). A tool that emulates the
// unit tiles defines REARR_STUBS_OWN_LAUNCH_TILE and its own launchTile. Include after rearrange_nvidia.cc.

namespace infini::rearrange::nvidia {

template <size_t Unit>
cudaError_t launchGeneric(const GenericParams &, int, unsigned, void *, const void *, cudaStream_t) {
    return cudaErrorNotSupported;
}
#ifndef REARR_STUBS_OWN_LAUNCH_TILE
template <size_t Unit>
cudaError_t launchTile(const TileParams &, unsigned, void *, const void *, cudaStream_t, bool, int) {
    return cudaErrorNotSupported;
}
#endif
template <size_t Unit>
bool tileKernelsHonourPdl() {
    return false;
}
cudaError_t launchWordTile(const TileParams &, unsigned, void *, const void *, cudaStream_t, bool) {
    return cudaErrorNotSupported;
}
cudaError_t launchWideWordTile(const TileParams &, unsigned, void *, const void *, cudaStream_t, bool) {
    return cudaErrorNotSupported;
}
cudaError_t launchSkewTile(const TileParams &, unsigned, void *, const void *, cudaStream_t, bool) {
    return cudaErrorNotSupported;
}
cudaError_t launchSkewWordTile(const TileParams &, unsigned, void *, const void *, cudaStream_t, bool) {
    return cudaErrorNotSupported;
}
cudaError_t launchOddWordTile(const TileParams &, unsigned, void *, const void *, cudaStream_t, bool) {
    return cudaErrorNotSupported;
}
bool prepareOddTmaTiles() { return false; }
bool launchOddTmaTile(const OddTmaTiling &, void *, const void *, cudaStream_t, bool, cudaError_t *) { return false; }
bool prepareTmaTiles() { return false; }
bool encodeTmaMaps(const TmaTiling &, void *, const void *, CUtensorMap *, CUtensorMap *) { return false; }
cudaError_t launchTmaTile(const TmaTiling &, const CUtensorMap &, const CUtensorMap &, cudaStream_t, bool) {
    return cudaErrorNotSupported;
}

} // namespace infini::rearrange::nvidia
