// LPNorm on the CPU for bf16_t (cpu_typed.inc).
#include "cpu_typed.inc"

namespace infini::lp_norm::cpu {
template infiniStatus_t runTyped<bf16_t>(const Info &, bf16_t *, const bf16_t *);
}
