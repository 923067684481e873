#pragma once
// Tensor maps (CUtensorMap) of 2-D matrices for the copy engine's tensor
// copies (sm_90, `cp.async.bulk.tensor`). They are encoded on the host by the
// driver's cuTensorMapEncodeTiled, found at run time through the runtime's
// driver entry points (the library links no libcuda). A map holds the
// matrix's address, so it is encoded for every call's pointers.
#include <cuda.h>
#include <cstddef>
#include <cstdint>

namespace infini {

// Whether this driver offers cuTensorMapEncodeTiled.
bool tensorMapsAvailable();

// The map of a matrix of `outer` rows of `inner` elements of `elem_bytes`
// bytes (1, 2, 4 or 8) at `base`, rows `pitch_bytes` apart, moved in boxes
// of box_outer rows x box_inner elements, with the 128-byte swizzle (so
// box_inner x elem_bytes <= 128) or, with swizzle128 false, none (boxes land
// as dense rows). False when the driver refuses the layout (base off 16
// bytes, a pitch not a multiple of 16, ...) or lacks the function.
bool encodeTensorMap2d(CUtensorMap *map, const void *base, size_t elem_bytes, uint64_t inner, uint64_t outer,
                       uint64_t pitch_bytes, uint32_t box_inner, uint32_t box_outer, bool swizzle128 = true);

} // namespace infini
