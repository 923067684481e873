#ifndef INFINIOP_OPS_LP_NORM_H
#define INFINIOP_OPS_LP_NORM_H

#include "../operator_descriptor.h"

typedef struct InfiniopDescriptor *infiniopLPNormDescriptor_t;

__INFINI_C __export infiniStatus_t infiniopCreateLPNormDescriptor(infiniopHandle_t handle,
                                                                  infiniopLPNormDescriptor_t *desc_ptr,
                                                                  infiniopTensorDescriptor_t y,
                                                                  infiniopTensorDescriptor_t x,
                                                                  int axis, int p, float eps);
__INFINI_C __export infiniStatus_t infiniopGetLPNormWorkspaceSize(infiniopLPNormDescriptor_t desc, size_t *size);
__INFINI_C __export infiniStatus_t infiniopLPNorm(infiniopLPNormDescriptor_t desc, void *workspace,
                                                  size_t workspace_size, void *y, const void *x, void *stream);
__INFINI_C __export infiniStatus_t infiniopDestroyLPNormDescriptor(infiniopLPNormDescriptor_t desc);

#endif /* INFINIOP_OPS_LP_NORM_H */
