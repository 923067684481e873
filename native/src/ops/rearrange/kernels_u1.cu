// Rearrange kernels for 1-byte copy units.
#include "kernels.cuh"

namespace infini::rearrange::nvidia {
INFINI_REARRANGE_INSTANTIATE(1)
}
