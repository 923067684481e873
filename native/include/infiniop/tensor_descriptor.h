#ifndef INFINIOP_TENSOR_DESCRIPTOR_H
#define INFINIOP_TENSOR_DESCRIPTOR_H

#include "../infinicore.h"

struct InfiniopTensorDescriptor;
typedef struct InfiniopTensorDescriptor *infiniopTensorDescriptor_t;

/* Strides are in elements and may be negative or zero; strides == NULL means
 * row-major contiguous; ndim == 0 is a scalar. */
__INFINI_C __export infiniStatus_t infiniopCreateTensorDescriptor(infiniopTensorDescriptor_t *desc_ptr, size_t ndim,
                                                                  const size_t *shape, const ptrdiff_t *strides,
                                                                  infiniDtype_t dtype);
__INFINI_C __export infiniStatus_t infiniopDestroyTensorDescriptor(infiniopTensorDescriptor_t desc);

#endif /* INFINIOP_TENSOR_DESCRIPTOR_H */
