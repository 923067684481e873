// Mul's C ABI: the elementwise framework with MulOp.
#include "infiniop/ops/mul.h"
#include "mul.h"

#ifdef INFINI_WITH_NVIDIA
namespace infini::mul_nvidia {
infiniStatus_t create(const InfiniopHandle &, const elementwise::Info &, elementwise::Descriptor **);
}
#endif
namespace infini::mul_cpu {
infiniStatus_t create(const InfiniopHandle &, const elementwise::Info &, elementwise::Descriptor **);
}

__INFINI_C infiniStatus_t infiniopCreateMulDescriptor(infiniopHandle_t handle, infiniopMulDescriptor_t *desc_ptr,
                                                      infiniopTensorDescriptor_t c, infiniopTensorDescriptor_t a,
                                                      infiniopTensorDescriptor_t b) {
    return infini::elementwise::create<infini::MulOp>(handle, desc_ptr, c, {a, b}, infini::mul_cpu::create,
                                                      INFINI_NVIDIA_FACTORY(infini::mul_nvidia::create));
}

__INFINI_C infiniStatus_t infiniopGetMulWorkspaceSize(infiniopMulDescriptor_t desc, size_t *size) {
    return infini::elementwise::workspaceSize(desc, infini::OpKind::Mul, size);
}

__INFINI_C infiniStatus_t infiniopMul(infiniopMulDescriptor_t desc, void *workspace, size_t workspace_size, void *c,
                                      const void *a, const void *b, void *stream) {
    return infini::elementwise::calculate<infini::MulOp>(desc, workspace, workspace_size, c, {a, b}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyMulDescriptor(infiniopMulDescriptor_t desc) {
    return infini::destroyOp(desc, infini::OpKind::Mul);
}
