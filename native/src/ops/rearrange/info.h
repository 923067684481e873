#pragma once
// Rearrange: backend-independent validation and the simplified layout.
//
// dst = src for two layouts of one shape and dtype (copied by element size).
// src may broadcast (zero strides) and run backwards (negative strides); dst
// must not reach one address from two indices.
#include "common/dtype.h"
#include "common/layout.h"
#include "common/status.h"
#include "common/tensor.h"
#include <cstddef>

namespace infini::rearrange {

// Operand order in the simplified layout.
constexpr size_t kDst = 0;
constexpr size_t kSrc = 1;

struct Info {
    infiniDtype_t dtype;
    size_t elem_size; // bytes, 1..16
    // Dims ordered by dst stride (outermost first), size-1 dims dropped, dst's
    // negative strides flipped, neighbours contiguous in both merged. Strides
    // and offsets in elements; ndim 0 means a single element.
    SimpleLayout layout;

    static infiniStatus_t create(const InfiniopTensorDescriptor *dst, const InfiniopTensorDescriptor *src,
                                 Info *info) {
        INFINI_REQUIRE(dst->dtype == src->dtype, INFINI_STATUS_BAD_TENSOR_DTYPE);
        INFINI_REQUIRE(dtypeValid(dst->dtype), INFINI_STATUS_BAD_TENSOR_DTYPE);
        INFINI_REQUIRE(dst->ndim() == src->ndim() && dst->shape == src->shape, INFINI_STATUS_BAD_TENSOR_SHAPE);
        INFINI_REQUIRE(!dst->hasSelfOverlap(), INFINI_STATUS_BAD_TENSOR_STRIDES);
        info->dtype = dst->dtype;
        info->elem_size = dtypeSize(dst->dtype);
        info->layout = simplifyLayout(dst->ndim(), dst->shape.data(), {dst->strides.data(), src->strides.data()}, kDst);
        return INFINI_STATUS_SUCCESS;
    }
};

} // namespace infini::rearrange
