// LPNorm ABI entry points: y = x / max(||x||_p, eps) along one axis.
#include "infiniop/ops/lp_norm.h"
#include "lp_norm.h"

using infini::OpKind;
using infini::lp_norm::Descriptor;
using infini::lp_norm::Info;

__INFINI_C infiniStatus_t infiniopCreateLPNormDescriptor(infiniopHandle_t handle, infiniopLPNormDescriptor_t *desc_ptr,
                                                         infiniopTensorDescriptor_t y, infiniopTensorDescriptor_t x,
                                                         int axis, int p, float eps) {
    INFINI_TRY(infini::checkNotNull(handle, desc_ptr, y, x));
    return infini::guard([&] {
        Info info;
        INFINI_TRY(Info::make(y, x, axis, p, eps, &info));
        return infini::createOnDevice<Descriptor, Info>(*handle, info, (Descriptor **)desc_ptr,
                                                        infini::lp_norm::cpu::create,
                                                        INFINI_NVIDIA_FACTORY(infini::lp_norm::nvidia::create));
    });
}

__INFINI_C infiniStatus_t infiniopGetLPNormWorkspaceSize(infiniopLPNormDescriptor_t desc, size_t *size) {
    INFINI_TRY(infini::checkNotNull(desc, size));
    INFINI_REQUIRE(infini::asOp<Descriptor>(desc, OpKind::LPNorm) != nullptr, INFINI_STATUS_BAD_PARAM);
    *size = desc->workspace_size;
    return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infiniopLPNorm(infiniopLPNormDescriptor_t desc, void *workspace, size_t workspace_size,
                                         void *y, const void *x, void *stream) {
    Descriptor *op;
    INFINI_TRY(infini::beginCalculate(desc, OpKind::LPNorm, workspace, workspace_size, &op));
    if (op->info.empty) {
        return INFINI_STATUS_SUCCESS;
    }
    INFINI_TRY(infini::checkNotNull(y, x));
    INFINI_TRY(infini::checkElementAligned(*op, infini::dtypeSize(op->info.dtype), {y, x}));
    // In place only with y's layout equal to x's: otherwise a row could be
    // overwritten before another row has read it.
    INFINI_REQUIRE(y != x || op->info.same_layout, INFINI_STATUS_BAD_TENSOR_STRIDES);
    return infini::guard([&] { return op->calculate(workspace, workspace_size, y, x, stream); });
}

__INFINI_C infiniStatus_t infiniopDestroyLPNormDescriptor(infiniopLPNormDescriptor_t desc) {
    return infini::destroyOp(desc, OpKind::LPNorm);
}
