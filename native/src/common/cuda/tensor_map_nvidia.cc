// Tensor maps through the driver entry point (tensor_map.h).
#include "tensor_map.h"
#include "driver_function.h"
#include <cudaTypedefs.h>

namespace infini {
namespace {

PFN_cuTensorMapEncodeTiled_v12000 encoder() {
    static const auto fn = driverFunction<PFN_cuTensorMapEncodeTiled_v12000>("cuTensorMapEncodeTiled", 12000);
    return fn;
}

bool dataType(size_t elem_bytes, CUtensorMapDataType *type) {
    switch (elem_bytes) {
    case 1: *type = CU_TENSOR_MAP_DATA_TYPE_UINT8; return true;
    case 2: *type = CU_TENSOR_MAP_DATA_TYPE_UINT16; return true;
    case 4: *type = CU_TENSOR_MAP_DATA_TYPE_UINT32; return true;
    case 8: *type = CU_TENSOR_MAP_DATA_TYPE_INT64; return true;
    default: return false;
    }
}

} // namespace

bool tensorMapsAvailable() { return encoder() != nullptr; }

bool encodeTensorMap2d(CUtensorMap *map, const void *base, size_t elem_bytes, uint64_t inner, uint64_t outer,
                       uint64_t pitch_bytes, uint32_t box_inner, uint32_t box_outer, bool swizzle128) {
    const auto encode = encoder();
    CUtensorMapDataType type;
    if (encode == nullptr || !dataType(elem_bytes, &type)) {
        return false;
    }
    const cuuint64_t dims[2] = {inner, outer}, strides[1] = {pitch_bytes};
    const cuuint32_t box[2] = {box_inner, box_outer}, element_strides[2] = {1, 1};
    return encode(map, type, 2, const_cast<void *>(base), dims, strides, box, element_strides,
                  CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                  CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

} // namespace infini
