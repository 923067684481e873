// Mul's NVIDIA kernels for U32 U64 (signed integers share the unsigned kernels).
#include "../elementwise/nvidia.cuh"
#include "mul.h"

INFINI_ELEMENTWISE_NVIDIA_INSTANTIATE(infini::MulOp, INFINI_DTYPE_U32);
INFINI_ELEMENTWISE_NVIDIA_INSTANTIATE(infini::MulOp, INFINI_DTYPE_U64);
