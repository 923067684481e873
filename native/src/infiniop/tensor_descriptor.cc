// Tensor descriptors: validated once here so that operators can trust them.
#include "../common/dtype.h"
#include "../common/status.h"
#include "../common/tensor.h"
#include <new>

namespace {

// a * b into *out, false on 64-bit overflow.
bool mulOverflows(size_t a, size_t b, size_t *out) { return __builtin_mul_overflow(a, b, out); }

infiniStatus_t validate(size_t ndim, const size_t *shape, const ptrdiff_t *strides, int dtype_value) {
    INFINI_REQUIRE(dtype_value > INFINI_DTYPE_INVALID && dtype_value <= INFINI_DTYPE_BF16,
                   INFINI_STATUS_BAD_TENSOR_DTYPE);
    const auto dtype = static_cast<infiniDtype_t>(dtype_value);
    INFINI_REQUIRE(ndim == 0 || shape != nullptr, INFINI_STATUS_NULL_POINTER);
    // The byte extent of the elements must fit in 64 bits (and in ptrdiff_t,
    // since offsets are signed). Empty dims count as 1 here, as in NumPy's
    // strides: an empty tensor's other dims must still describe a valid
    // layout, so that no later stride arithmetic can overflow.
    size_t bytes = infini::dtypeSize(dtype);
    for (size_t i = 0; i < ndim; ++i) {
        INFINI_REQUIRE(!mulOverflows(bytes, shape[i] ? shape[i] : 1, &bytes), INFINI_STATUS_BAD_TENSOR_SHAPE);
    }
    INFINI_REQUIRE(bytes <= (size_t)PTRDIFF_MAX, INFINI_STATUS_BAD_TENSOR_SHAPE);
    if (strides != nullptr) {
        // So must the span that the strides reach.
        size_t span = 0;
        for (size_t i = 0; i < ndim; ++i) {
            INFINI_REQUIRE(strides[i] != PTRDIFF_MIN, INFINI_STATUS_BAD_TENSOR_STRIDES);
            size_t step = strides[i] < 0 ? (size_t)0 - (size_t)strides[i] : (size_t)strides[i];
            size_t reach;
            INFINI_REQUIRE(!mulOverflows(step, shape[i] ? shape[i] - 1 : 0, &reach), INFINI_STATUS_BAD_TENSOR_STRIDES);
            INFINI_REQUIRE(!__builtin_add_overflow(span, reach, &span), INFINI_STATUS_BAD_TENSOR_STRIDES);
        }
        size_t span_bytes;
        INFINI_REQUIRE(!mulOverflows(span + 1, infini::dtypeSize(dtype), &span_bytes) &&
                           span_bytes <= (size_t)PTRDIFF_MAX,
                       INFINI_STATUS_BAD_TENSOR_STRIDES);
    }
    return INFINI_STATUS_SUCCESS;
}

} // namespace

__INFINI_C infiniStatus_t infiniopCreateTensorDescriptor(infiniopTensorDescriptor_t *desc_ptr, size_t ndim,
                                                         const size_t *shape, const ptrdiff_t *strides,
                                                         infiniDtype_t dtype) {
    INFINI_REQUIRE(desc_ptr != nullptr, INFINI_STATUS_NULL_POINTER);
    INFINI_TRY(validate(ndim, shape, strides, infini::enumValue(dtype)));
    return infini::guard([&] {
        auto *desc = new InfiniopTensorDescriptor{dtype, std::vector<size_t>(shape, shape + ndim), {}};
        desc->strides.resize(ndim);
        if (strides != nullptr) {
            desc->strides.assign(strides, strides + ndim);
        } else {
            ptrdiff_t s = 1;
            for (size_t i = ndim; i-- > 0;) {
                desc->strides[i] = s;
                s *= (ptrdiff_t)(shape[i] ? shape[i] : 1); // cannot overflow: validated above
            }
        }
        *desc_ptr = desc;
        return INFINI_STATUS_SUCCESS;
    });
}

__INFINI_C infiniStatus_t infiniopDestroyTensorDescriptor(infiniopTensorDescriptor_t desc) {
    INFINI_REQUIRE(desc != nullptr, INFINI_STATUS_NULL_POINTER);
    delete desc;
    return INFINI_STATUS_SUCCESS;
}
