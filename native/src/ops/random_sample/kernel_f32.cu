// RandomSample kernel instantiation for F32 logits (one file per dtype so that they build in parallel).
#include "nvidia.cuh"

namespace infini::random_sample::nvidia {
infiniStatus_t launchF32(const LaunchArgs &args, const PreArgs &pre, cudaStream_t stream) {
    return launch<float>(args, pre, stream);
}
} // namespace infini::random_sample::nvidia
