// Rearrange kernels for 16-byte copy units.
#include "kernels.cuh"

namespace infini::rearrange::nvidia {
INFINI_REARRANGE_INSTANTIATE(16)
}
