#pragma once
// CUDA error checking that turns failures into statuses.
#include "../status.h"
#include <cuda_runtime.h>

namespace infini {

inline infiniStatus_t cudaStatus(cudaError_t err) {
    switch (err) {
    case cudaSuccess:
        return INFINI_STATUS_SUCCESS;
    case cudaErrorInvalidDevice:
    case cudaErrorNoDevice:
        return INFINI_STATUS_DEVICE_NOT_FOUND;
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
        return INFINI_STATUS_DEVICE_NOT_INITIALIZED;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
        return INFINI_STATUS_DEVICE_ARCHITECTURE_NOT_SUPPORTED;
    case cudaErrorInvalidValue:
    case cudaErrorInvalidResourceHandle:
        return INFINI_STATUS_BAD_PARAM;
    default:
        return INFINI_STATUS_INTERNAL_ERROR;
    }
}

// Makes `device` current for the scope and restores the previous one after,
// so that work lands on the descriptor's device whatever the caller set.
class ScopedCudaDevice {
public:
    explicit ScopedCudaDevice(int device) {
        if (cudaGetDevice(&previous_) != cudaSuccess) {
            previous_ = -1;
        }
        if (previous_ != device) {
            status_ = cudaSetDevice(device);
            switched_ = status_ == cudaSuccess && previous_ >= 0;
        }
    }
    ~ScopedCudaDevice() {
        if (switched_) { // only a real switch is undone: the common case costs one cudaGetDevice
            cudaSetDevice(previous_);
        }
    }
    infiniStatus_t status() const { return cudaStatus(status_); }
    ScopedCudaDevice(const ScopedCudaDevice &) = delete;
    ScopedCudaDevice &operator=(const ScopedCudaDevice &) = delete;

private:
    int previous_ = -1;
    cudaError_t status_ = cudaSuccess;
    bool switched_ = false;
};

} // namespace infini

// Return the status of a failed CUDA call from the enclosing function.
#define CUDA_TRY(call) INFINI_TRY(::infini::cudaStatus(call))

// After a kernel launch: return the launch error, if any.
#define CUDA_TRY_LAUNCH() INFINI_TRY(::infini::cudaStatus(cudaGetLastError()))
