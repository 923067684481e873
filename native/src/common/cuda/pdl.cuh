#pragma once
// Programmatic dependent launch (PDL, sm_90 and later): a kernel launched with
// `pdl` may be scheduled while the previous kernel in its stream is still
// draining, once every block of that kernel has called pdlAllowNext() (or has
// exited). Under stream capture the launch becomes a programmatic edge of the
// graph. Correctness rests on pdlWaitPrevious(): it returns only when the
// previous grid has fully completed and its memory is visible, whether that
// grid called pdlAllowNext() or not (a kernel that knows nothing of PDL
// triggers at its exit), and at once when there is no programmatic dependency
// (a launch without `pdl`, a preceding copy or event, sm_80). So a kernel
// launched with `pdl` must call pdlWaitPrevious() before its first global
// access that a previous kernel may order with: reads of its inputs (written
// before) and writes of its outputs (read before).
#include "kernel_arch.cuh"
#include "pdl_device.cuh"
#include "launch_config.cuh"
#include "pdl_policy.h"
#include <cuda_runtime.h>
#include <utility>

namespace infini {

// Whether `kernel`, as it will run on the current device, calls
// pdlWaitPrevious() for real: its code must come from sm_90+ PTX. A build
// without sm_90 that runs on an H100 through the JIT of compute_80 PTX has
// the wait compiled away, and a PDL launch of it would race.
template <class... Params>
bool kernelHonoursPdl(void (*kernel)(Params...)) {
    return kernelCompiledFor(kernel, 90);
}

// kernel<<<grid, block, smem, stream>>>(args...), with the programmatic
// stream serialization attribute when `pdl` (only for devices of compute
// capability 9.0 or later, and kernels that call pdlWaitPrevious() first).
template <class... Params, class... Args>
cudaError_t launchKernel(void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream,
                         bool pdl, Args &&...args) {
    LaunchConfig config(grid, block, smem, stream);
    return cudaLaunchKernelEx(config.pdl(pdl).get(), kernel, std::forward<Args>(args)...);
}

} // namespace infini
