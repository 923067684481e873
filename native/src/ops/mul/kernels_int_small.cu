// Mul's NVIDIA kernels for U8 and U16; one file per dtype pair so that they compile in
// parallel (signed integers run the unsigned kernels).
#include "mul.cc"

INFINI_ELEMENTWISE_NVIDIA_KERNELS(infini::MulOp, INFINI_DTYPE_U8, INFINI_DTYPE_U16);
