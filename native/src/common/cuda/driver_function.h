#pragma once
// Driver API functions found at run time through the runtime's entry points
// (the library links no libcuda): tensor_map_nvidia.cc, stream_sms_nvidia.cc.
#include <cuda_runtime.h>

namespace infini {

// `name` at the given ABI version (a PFN_..._vNNNNN type from cudaTypedefs.h),
// or null where this driver lacks it.
template <class F>
F driverFunction(const char *name, int version) {
    void *p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion(name, &p, version, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
        cudaGetLastError(); // an answer ("none"), not an error for a later call to report
        p = nullptr;
    }
    return reinterpret_cast<F>(p);
}

} // namespace infini
