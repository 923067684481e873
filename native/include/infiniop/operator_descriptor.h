#ifndef INFINIOP_OPERATOR_DESCRIPTOR_H
#define INFINIOP_OPERATOR_DESCRIPTOR_H

#include "handle.h"
#include "tensor_descriptor.h"

/* The base of every operator descriptor. */
struct InfiniopDescriptor;

__INFINI_C __export infiniStatus_t infiniopGetDescriptorDeviceType(const struct InfiniopDescriptor *desc,
                                                                   infiniDevice_t *device_type);
__INFINI_C __export infiniStatus_t infiniopGetDescriptorDeviceId(const struct InfiniopDescriptor *desc,
                                                                 int *device_id);

#endif /* INFINIOP_OPERATOR_DESCRIPTOR_H */
