// Mul's NVIDIA kernels for U32 and U64; one file per dtype pair so that they compile in
// parallel (signed integers run the unsigned kernels).
#include "mul.cc"

INFINI_ELEMENTWISE_NVIDIA_KERNELS(infini::MulOp, INFINI_DTYPE_U32, INFINI_DTYPE_U64);
