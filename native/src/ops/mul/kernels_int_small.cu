// Mul's NVIDIA kernels for U8 U16 (signed integers share the unsigned kernels).
#include "../elementwise/nvidia.cuh"
#include "mul.h"

INFINI_ELEMENTWISE_NVIDIA_INSTANTIATE(infini::MulOp, INFINI_DTYPE_U8);
INFINI_ELEMENTWISE_NVIDIA_INSTANTIATE(infini::MulOp, INFINI_DTYPE_U16);
