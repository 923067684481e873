#ifndef INFINIOP_OPS_MUL_H
#define INFINIOP_OPS_MUL_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopMulDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateMulDescriptor(infiniopHandle_t handle, infiniopMulDescriptor_t *desc_ptr,
                                                               infiniopTensorDescriptor_t c,
                                                               infiniopTensorDescriptor_t a,
                                                               infiniopTensorDescriptor_t b);
__INFINI_C __export infiniStatus_t infiniopGetMulWorkspaceSize(infiniopMulDescriptor_t desc, size_t *size);
__INFINI_C __export infiniStatus_t infiniopMul(infiniopMulDescriptor_t desc, void *workspace, size_t workspace_size,
                                               void *c, const void *a, const void *b, void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyMulDescriptor(infiniopMulDescriptor_t desc);

#endif /* INFINIOP_OPS_MUL_H */
