// RandomSample kernels for BF16 logits (one file per dtype so that they build in parallel).
#include "launch.cuh"

namespace infini::random_sample::nvidia {
Launchers launchersBF16() { return launchersOf<__nv_bfloat16>(); }
} // namespace infini::random_sample::nvidia
