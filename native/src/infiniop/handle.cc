// Handles: bind the calling thread's current device and record what kernels need.
#include "../common/handle.h"
#include "../common/status.h"
#include "infinirt.h"
#include <new>

__INFINI_C infiniStatus_t infiniopCreateHandle(infiniopHandle_t *handle_ptr) {
    INFINI_REQUIRE(handle_ptr != nullptr, INFINI_STATUS_NULL_POINTER);
    infiniDevice_t device;
    int device_id;
    INFINI_TRY(infinirtGetDevice(&device, &device_id));

    auto *handle = new (std::nothrow) InfiniopHandle{};
    INFINI_REQUIRE(handle != nullptr, INFINI_STATUS_INTERNAL_ERROR);
    handle->device = device;
    handle->device_id = device_id;
    infiniStatus_t status = INFINI_STATUS_SUCCESS;
    switch (device) {
    case INFINI_DEVICE_CPU:
        break;
    case INFINI_DEVICE_NVIDIA:
#ifdef INFINI_WITH_NVIDIA
        status = infini::nvidiaFillHandle(handle);
#else
        status = INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
#endif
        break;
    default:
        status = INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
        break;
    }
    if (status != INFINI_STATUS_SUCCESS) {
        delete handle;
        return status;
    }
    *handle_ptr = handle;
    return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infiniopDestroyHandle(infiniopHandle_t handle) {
    INFINI_REQUIRE(handle != nullptr, INFINI_STATUS_NULL_POINTER);
    delete handle;
    return INFINI_STATUS_SUCCESS;
}
