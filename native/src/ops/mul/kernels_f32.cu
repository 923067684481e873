// Mul's NVIDIA kernels for F32 and F64; one file per dtype pair so that they compile in
// parallel (signed integers run the unsigned kernels).
#include "mul.cc"

INFINI_ELEMENTWISE_NVIDIA_KERNELS(infini::MulOp, INFINI_DTYPE_F32, INFINI_DTYPE_F64);
