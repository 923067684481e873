#pragma once
// Whether a kernel's code, as it runs on the current device, was compiled for
// an architecture: a build without sm_90 code (CUDA_ARCHS=80) runs on an H100
// through the JIT of compute_80 PTX, in which the `__CUDA_ARCH__ >= 900` parts
// (thread-block clusters, distributed shared memory) are compiled out. Plans
// that need them ask here, not only the device's compute capability.
#include <cuda_runtime.h>

namespace infini {

// arch: compute capability x 10 (90 for sm_90).
template <class... Params>
bool kernelCompiledFor(void (*kernel)(Params...), int arch) {
    cudaFuncAttributes attr{};
    if (cudaFuncGetAttributes(&attr, kernel) != cudaSuccess) {
        cudaGetLastError(); // an answer ("no"), not an error to report later
        return false;
    }
    return attr.ptxVersion >= arch && attr.binaryVersion >= arch;
}

} // namespace infini
