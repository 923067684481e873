// RandomSample: the C ABI entry points (single and batch forms).
#include "info.h"
#include "infiniop/ops/random_sample.h"

using infini::random_sample::Desc;
using infini::random_sample::Info;
using infini::random_sample::ParamArrays;

namespace {

infiniStatus_t createDesc(infiniopHandle_t handle, infiniopRandomSampleDescriptor_t *desc_ptr,
                          infiniopTensorDescriptor_t result, infiniopTensorDescriptor_t probs, bool batched) {
    INFINI_TRY(infini::checkNotNull(handle, desc_ptr, result, probs));
    Info info;
    INFINI_TRY(infini::random_sample::makeInfo(*result, *probs, batched, &info));
    return infini::createOnDevice<Desc, Info>(*handle, info, (Desc **)desc_ptr, infini::random_sample::cpu::create,
                                              INFINI_NVIDIA_FACTORY(infini::random_sample::nvidia::create));
}

infiniStatus_t calculate(infiniopRandomSampleDescriptor_t desc, void *workspace, size_t workspace_size,
                         void *result, const void *probs, const ParamArrays &params, size_t batch, bool batched,
                         void *stream) {
    Desc *op = nullptr;
    INFINI_TRY(infini::beginCalculate(desc, infini::OpKind::RandomSample, workspace, workspace_size, &op));
    INFINI_REQUIRE(op->info.batched == batched, INFINI_STATUS_BAD_PARAM);
    INFINI_REQUIRE(batch == op->info.batch, INFINI_STATUS_BAD_PARAM);
    if (batch == 0) {
        return INFINI_STATUS_SUCCESS;
    }
    INFINI_TRY(infini::checkNotNull(result, probs));
    INFINI_TRY(infini::checkElementAligned(*op, infini::dtypeSize(op->info.result_dtype), {result}));
    INFINI_TRY(infini::checkElementAligned(*op, infini::dtypeSize(op->info.probs_dtype), {probs}));
    INFINI_TRY(infini::checkNotNull(params.random_val, params.topp, params.topk, params.temperature));
    for (size_t b = 0; b < batch; ++b) {
        INFINI_TRY(infini::random_sample::checkParams(params.at(b)));
    }
    return infini::guard([&] { return op->calculate(workspace, result, probs, params, stream); });
}

} // namespace

__INFINI_C infiniStatus_t infiniopCreateRandomSampleDescriptor(infiniopHandle_t handle,
                                                               infiniopRandomSampleDescriptor_t *desc_ptr,
                                                               infiniopTensorDescriptor_t result,
                                                               infiniopTensorDescriptor_t probs) {
    return createDesc(handle, desc_ptr, result, probs, false);
}

__INFINI_C infiniStatus_t infiniopCreateRandomSampleBatchDescriptor(infiniopHandle_t handle,
                                                                    infiniopRandomSampleDescriptor_t *desc_ptr,
                                                                    infiniopTensorDescriptor_t result,
                                                                    infiniopTensorDescriptor_t probs) {
    return createDesc(handle, desc_ptr, result, probs, true);
}

__INFINI_C infiniStatus_t infiniopGetRandomSampleWorkspaceSize(infiniopRandomSampleDescriptor_t desc, size_t *size) {
    INFINI_TRY(infini::checkNotNull(desc, size));
    INFINI_REQUIRE(infini::asOp<Desc>(desc, infini::OpKind::RandomSample) != nullptr, INFINI_STATUS_BAD_PARAM);
    *size = desc->workspace_size;
    return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infiniopRandomSample(infiniopRandomSampleDescriptor_t desc, void *workspace,
                                               size_t workspace_size, void *result, const void *probs,
                                               float random_val, float topp, int topk, float temperature,
                                               void *stream) {
    const ParamArrays params{&random_val, &topp, &topk, &temperature};
    return calculate(desc, workspace, workspace_size, result, probs, params, 1, false, stream);
}

__INFINI_C infiniStatus_t infiniopRandomSampleBatch(infiniopRandomSampleDescriptor_t desc, void *workspace,
                                                    size_t workspace_size, void *result, const void *probs,
                                                    const float *random_val, const float *topp, const int *topk,
                                                    const float *temperature, int batch_size, void *stream) {
    INFINI_REQUIRE(batch_size >= 0, INFINI_STATUS_BAD_PARAM);
    const ParamArrays params{random_val, topp, topk, temperature};
    return calculate(desc, workspace, workspace_size, result, probs, params, (size_t)batch_size, true, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyRandomSampleDescriptor(infiniopRandomSampleDescriptor_t desc) {
    return infini::destroyOp(desc, infini::OpKind::RandomSample);
}
