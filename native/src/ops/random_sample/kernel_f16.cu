// RandomSample kernels for F16 logits (one file per dtype so that they build in parallel).
#include "launch.cuh"

namespace infini::random_sample::nvidia {
Launchers launchersF16() { return launchersOf<__half>(); }
} // namespace infini::random_sample::nvidia
