#pragma once
// The device side of programmatic dependent launch (pdl.cuh has the launch
// and its contract): no includes, so that host emulations of kernels
// (tools/rearr4_emulate.cc) compile it to nothing.

namespace infini {

__device__ __forceinline__ void pdlWaitPrevious() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory"); // no memory access is moved above it
#endif
}

// Lets the next PDL launch in the stream start its blocks; a hint only (its
// wait still waits for this grid to complete), so any place is correct.
__device__ __forceinline__ void pdlAllowNext() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

} // namespace infini
