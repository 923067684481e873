// LPNorm on the CPU for float (cpu_typed.inc).
#include "cpu_typed.inc"

namespace infini::lp_norm::cpu {
template infiniStatus_t runTyped<float>(const Info &, float *, const float *);
}
