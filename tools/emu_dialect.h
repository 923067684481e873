#pragma once
// The CUDA device dialect for host emulations of kernels (tools/rearr4_emulate.cc, tools/box_emulate.cc):
// device qualifiers dropped, __shared__ one static array, threadIdx / blockIdx thread-local, and
// __syncthreads a std::barrier over the emulated block's threads. Include after <cuda_runtime.h>.
#include <barrier>
#include <cuda_runtime.h>

#undef __global__
#undef __device__
#undef __shared__
#undef __forceinline__
#undef __launch_bounds__
#undef __grid_constant__
#undef __restrict__
#define __global__
#define __device__
#define __shared__ static
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __grid_constant__
#define __restrict__
static thread_local uint3 emu_thread, emu_block;
#define threadIdx emu_thread
#define blockIdx emu_block
static std::barrier<> *emu_barrier;
static void __syncthreads() { emu_barrier->arrive_and_wait(); }
