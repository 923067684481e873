// Queries common to every operator descriptor.
#include "../common/descriptor.h"

__INFINI_C infiniStatus_t infiniopGetDescriptorDeviceType(const struct InfiniopDescriptor *desc,
                                                          infiniDevice_t *device_type) {
    INFINI_TRY(infini::checkNotNull(desc, device_type));
    *device_type = desc->device_type;
    return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infiniopGetDescriptorDeviceId(const struct InfiniopDescriptor *desc, int *device_id) {
    INFINI_TRY(infini::checkNotNull(desc, device_id));
    *device_id = desc->device_id;
    return INFINI_STATUS_SUCCESS;
}
