// RandomSample kernels for F32 logits (one file per dtype so that they build in parallel).
#include "launch.cuh"

namespace infini::random_sample::nvidia {
Launchers launchersF32() { return launchersOf<float>(); }
} // namespace infini::random_sample::nvidia
