// Rearrange kernels for 4-byte copy units.
#include "kernels.cuh"

namespace infini::rearrange::nvidia {
INFINI_REARRANGE_INSTANTIATE(4)
}
