// RandomSample kernel instantiation for BF16 logits (one file per dtype so that they build in parallel).
#include "nvidia.cuh"

namespace infini::random_sample::nvidia {
infiniStatus_t launchBF16(const LaunchArgs &args, const PreArgs &pre, cudaStream_t stream) {
    return launch<__nv_bfloat16>(args, pre, stream);
}
} // namespace infini::random_sample::nvidia
