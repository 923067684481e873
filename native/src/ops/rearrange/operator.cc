// Rearrange: the C ABI entry points.
#include "infiniop/ops/rearrange.h"
#include "rearrange.h"

using namespace infini;
using infini::rearrange::Desc;
using infini::rearrange::Info;

__INFINI_C infiniStatus_t infiniopCreateRearrangeDescriptor(infiniopHandle_t handle,
                                                            infiniopRearrangeDescriptor_t *desc_ptr,
                                                            infiniopTensorDescriptor_t dst,
                                                            infiniopTensorDescriptor_t src) {
    INFINI_TRY(checkNotNull(handle, desc_ptr, dst, src));
    Info info;
    INFINI_TRY(guard([&] { return Info::create(dst, src, &info); }));
    return createOnDevice<Desc, Info>(*handle, info, (Desc **)desc_ptr, rearrange::cpu::create,
                                      INFINI_NVIDIA_FACTORY(rearrange::nvidia::create));
}

__INFINI_C infiniStatus_t infiniopRearrange(infiniopRearrangeDescriptor_t desc, void *dst, const void *src,
                                            void *stream) {
    Desc *op = nullptr;
    INFINI_TRY(beginCalculate(desc, OpKind::Rearrange, nullptr, 0, &op));
    const SimpleLayout &l = op->info.layout;
    // Nothing is touched for an empty tensor, so null pointers are fine there.
    INFINI_REQUIRE(l.empty || (dst != nullptr && src != nullptr), INFINI_STATUS_NULL_POINTER);
    return guard([&] { return op->calculate(dst, src, stream); });
}

__INFINI_C infiniStatus_t infiniopDestroyRearrangeDescriptor(infiniopRearrangeDescriptor_t desc) {
    return destroyOp(desc, OpKind::Rearrange);
}
