// LPNorm on the CPU for fp16_t (cpu_typed.inc).
#include "cpu_typed.inc"

namespace infini::lp_norm::cpu {
template infiniStatus_t runTyped<fp16_t>(const Info &, fp16_t *, const fp16_t *);
}
