// Mul's NVIDIA kernels for F32 F64 (signed integers share the unsigned kernels).
#include "../elementwise/nvidia.cuh"
#include "mul.h"

INFINI_ELEMENTWISE_NVIDIA_INSTANTIATE(infini::MulOp, INFINI_DTYPE_F32);
INFINI_ELEMENTWISE_NVIDIA_INSTANTIATE(infini::MulOp, INFINI_DTYPE_F64);
