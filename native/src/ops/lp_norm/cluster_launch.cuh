#pragma once
// Occupancy of LPNorm's cluster and persistent kernels (two_pass.cu, pipe.cu,
// grid.cu, stream.cu): how many clusters, or blocks an SM, the device runs at
// once (launch configurations: common/cuda/launch_config.cuh).
#include "../../common/cuda/kernel_arch.cuh"
#include "../../common/cuda/launch_config.cuh"
#include "infinicore.h"
#include <cuda_runtime.h>

namespace infini::lp_norm::nvidia {

// Clusters of `size` blocks (`threads`, `smem` bytes) of `kernel` that the
// device runs at once; 0 when it cannot, or the kernel has no sm_90 code.
// Sets the kernel's attributes first: clusters beyond the portable 8, and
// `smem_limit` bytes of dynamic shared memory when not 0.
template <class... Params>
int activeClustersOf(void (*kernel)(Params...), unsigned threads, int size, size_t smem, size_t smem_limit) {
    int active = 0;
    if (!kernelCompiledFor(kernel, 90)) { // a build without sm_90 code: the kernel traps
        return 0;
    }
    LaunchConfig config(dim3((unsigned)size), dim3(threads), smem, nullptr);
    config.cluster((unsigned)size);
    const bool ok =
        (smem_limit == 0 ||
         cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_limit) == cudaSuccess) &&
        (size <= 8 || cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) == cudaSuccess) &&
        cudaOccupancyMaxActiveClusters(&active, kernel, config.get()) == cudaSuccess;
    cudaGetLastError(); // a refusal is an answer, not an error to report later
    return ok ? active : 0;
}

// Blocks of `kernel` (`threads`, `smem` bytes of dynamic shared memory) an SM
// runs at once; 0 when it cannot. Sets the kernel's dynamic shared-memory
// limit to `smem_limit` first (the same value for every plan of a kernel: a
// smaller one set by a later plan would break the launches of earlier ones).
template <class... Params>
int blocksPerSmOf(void (*kernel)(Params...), unsigned threads, size_t smem, size_t smem_limit) {
    int per_sm = 0;
    const bool ok =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_limit) == cudaSuccess &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)threads, smem) == cudaSuccess;
    cudaGetLastError(); // a refusal is an answer, not an error to report later
    return ok ? per_sm : 0;
}

} // namespace infini::lp_norm::nvidia
