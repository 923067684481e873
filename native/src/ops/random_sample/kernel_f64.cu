// RandomSample kernel instantiation for F64 logits (one file per dtype so that they build in parallel).
#include "nvidia.cuh"

namespace infini::random_sample::nvidia {
infiniStatus_t launchF64(const LaunchArgs &args, const PreArgs &pre, cudaStream_t stream) {
    return launch<double>(args, pre, stream);
}
} // namespace infini::random_sample::nvidia
