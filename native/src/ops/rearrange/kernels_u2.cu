// Rearrange kernels for 2-byte copy units.
#include "kernels.cuh"

namespace infini::rearrange::nvidia {
INFINI_REARRANGE_INSTANTIATE(2)
}
