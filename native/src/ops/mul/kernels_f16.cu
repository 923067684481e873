// Mul's NVIDIA kernels for F16 and BF16; one file per dtype pair so that they compile in
// parallel (signed integers run the unsigned kernels).
#include "mul.cc"

INFINI_ELEMENTWISE_NVIDIA_KERNELS(infini::MulOp, INFINI_DTYPE_F16, INFINI_DTYPE_BF16);
