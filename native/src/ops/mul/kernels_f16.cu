// Mul's NVIDIA kernels for F16 BF16 (signed integers share the unsigned kernels).
#include "../elementwise/nvidia.cuh"
#include "mul.h"

INFINI_ELEMENTWISE_NVIDIA_INSTANTIATE(infini::MulOp, INFINI_DTYPE_F16);
INFINI_ELEMENTWISE_NVIDIA_INSTANTIATE(infini::MulOp, INFINI_DTYPE_BF16);
