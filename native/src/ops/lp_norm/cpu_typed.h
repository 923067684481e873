#pragma once
// LPNorm on the CPU, one element type: y = x / max(||x||_p, eps) along info's axis (cpu_typed.inc),
// instantiated for F16, BF16, F32 and F64 in files of their own.
#include "../../common/dtype.h"
#include "lp_norm.h"

namespace infini::lp_norm::cpu {

template <class T>
infiniStatus_t runTyped(const Info &info, T *y, const T *x);

extern template infiniStatus_t runTyped<fp16_t>(const Info &, fp16_t *, const fp16_t *);
extern template infiniStatus_t runTyped<bf16_t>(const Info &, bf16_t *, const bf16_t *);
extern template infiniStatus_t runTyped<float>(const Info &, float *, const float *);
extern template infiniStatus_t runTyped<double>(const Info &, double *, const double *);

} // namespace infini::lp_norm::cpu
