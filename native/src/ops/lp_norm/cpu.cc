// LPNorm on the CPU: the descriptor; each element type's work is in its own file (cpu_typed.inc
// through cpu_f16.cc, cpu_bf16.cc, cpu_f32.cc, cpu_f64.cc).
#include "../../common/dtype.h"
#include "cpu_typed.h"
#include "lp_norm.h"

namespace infini::lp_norm::cpu {

namespace {

struct CpuDescriptor final : Descriptor {
    using Descriptor::Descriptor;

    infiniStatus_t calculate(void *, size_t, void *y, const void *x, void *) const override {
        return dispatchDtype<INFINI_FLOAT_DTYPES>(info.dtype, [&](auto tag) {
            using T = HostType<decltype(tag)>;
            return runTyped<T>(info, static_cast<T *>(y), static_cast<const T *>(x));
        });
    }
};

} // namespace

infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Descriptor **out) {
    *out = new CpuDescriptor(handle, info);
    (*out)->workspace_size = 0;
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::lp_norm::cpu
