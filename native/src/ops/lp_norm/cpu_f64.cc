// LPNorm on the CPU for double (cpu_typed.inc).
#include "cpu_typed.inc"

namespace infini::lp_norm::cpu {
template infiniStatus_t runTyped<double>(const Info &, double *, const double *);
}
