// Mul on NVIDIA GPUs: the framework's NVIDIA engine with MulOp (kernels in
// kernels_*.cu, one file per dtype group so that they compile in parallel).
#include "../elementwise/nvidia.h"
#include "mul.h"

namespace infini::mul_nvidia {
infiniStatus_t create(const InfiniopHandle &h, const elementwise::Info &info, elementwise::Descriptor **out) {
    return elementwise::nvidia::create<MulOp>(h, info, out);
}
} // namespace infini::mul_nvidia
