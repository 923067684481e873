// RandomSample kernels for F64 logits (one file per dtype so that they build in parallel).
#include "launch.cuh"

namespace infini::random_sample::nvidia {
Launchers launchersF64() { return launchersOf<double>(); }
} // namespace infini::random_sample::nvidia
