// Streams' SM counts through the driver's entry points (stream_sms.h).
#include "stream_sms.h"
#include "driver_function.h"
#include <algorithm>
#include <cuda.h>
#include <cudaTypedefs.h>

namespace infini {
namespace {

struct Queries {
    // (CUDA 12.5) a stream's context and, for a green context's stream, the green context
    PFN_cuStreamGetCtx_v12050 stream_contexts = driverFunction<PFN_cuStreamGetCtx_v12050>("cuStreamGetCtx", 12050);
    PFN_cuStreamGetCtx_v9020 stream_context = driverFunction<PFN_cuStreamGetCtx_v9020>("cuStreamGetCtx", 9020);
    PFN_cuGreenCtxGetDevResource_v12040 green_resource =
        driverFunction<PFN_cuGreenCtxGetDevResource_v12040>("cuGreenCtxGetDevResource", 12040);
    PFN_cuCtxGetDevResource_v12040 context_resource =
        driverFunction<PFN_cuCtxGetDevResource_v12040>("cuCtxGetDevResource", 12040);
    PFN_cuCtxGetExecAffinity_v11040 affinity = driverFunction<PFN_cuCtxGetExecAffinity_v11040>("cuCtxGetExecAffinity", 11040);
};

const Queries &queries() {
    static const Queries q;
    return q;
}

} // namespace

int streamSmCount(cudaStream_t stream, int device_sms) {
    const Queries &q = queries();
    const CUstream s = reinterpret_cast<CUstream>(stream);
    // The stream's contexts: since CUDA 12.5 a green context's stream names the
    // green context beside its primary one (the green one has the SMs); before,
    // its context is the green one itself.
    CUcontext context = nullptr;
    CUgreenCtx green = nullptr;
    if (!(q.stream_contexts != nullptr && q.stream_contexts(s, &context, &green) == CUDA_SUCCESS) &&
        !(q.stream_context != nullptr && q.stream_context(s, &context) == CUDA_SUCCESS)) {
        context = nullptr;
    }
    CUdevResource sms{};
    CUresult found = CUDA_ERROR_NOT_SUPPORTED;
    if (green != nullptr && q.green_resource != nullptr) {
        found = q.green_resource(green, &sms, CU_DEV_RESOURCE_TYPE_SM);
    } else if (green == nullptr && context != nullptr && q.context_resource != nullptr) {
        found = q.context_resource(context, &sms, CU_DEV_RESOURCE_TYPE_SM);
    }
    if (found != CUDA_SUCCESS || sms.sm.smCount == 0) {
        return device_sms; // no such query (no green contexts), or a stream the launch will report
    }
    return std::min(device_sms, (int)sms.sm.smCount);
}

int contextSmLimit(int device_sms) {
    const Queries &q = queries();
    CUexecAffinityParam limit{};
    if (q.affinity == nullptr || q.affinity(&limit, CU_EXEC_AFFINITY_TYPE_SM_COUNT) != CUDA_SUCCESS ||
        limit.param.smCount.val == 0) {
        return device_sms;
    }
    return std::min(device_sms, (int)limit.param.smCount.val);
}

} // namespace infini
