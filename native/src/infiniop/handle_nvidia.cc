// What an NVIDIA handle records about its device (NVIDIA builds only).
#include "../common/cuda/check.cuh"
#include "../common/cuda/stream_sms.h"
#include "../common/handle.h"

infiniStatus_t infini::nvidiaFillHandle(InfiniopHandle *h) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        count = 0;
    }
    INFINI_REQUIRE(h->device_id >= 0 && h->device_id < count, INFINI_STATUS_DEVICE_NOT_FOUND);
    const int id = h->device_id;
    struct {
        cudaDeviceAttr attr;
        int *out;
    } queries[] = {
        {cudaDevAttrMultiProcessorCount, &h->sm_count},
        {cudaDevAttrMaxThreadsPerBlock, &h->max_threads_per_block},
        {cudaDevAttrMaxSharedMemoryPerBlock, &h->max_shared_memory_per_block},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, &h->max_shared_memory_per_block_optin},
        {cudaDevAttrComputeCapabilityMajor, &h->cc_major},
        {cudaDevAttrComputeCapabilityMinor, &h->cc_minor},
        {cudaDevAttrL2CacheSize, &h->l2_cache_bytes},
        {cudaDevAttrMaxThreadsPerMultiProcessor, &h->max_threads_per_sm},
    };
    for (auto &q : queries) {
        CUDA_TRY(cudaDeviceGetAttribute(q.out, q.attr, id));
    }
    h->sm_limit = contextSmLimit(h->sm_count);
    return INFINI_STATUS_SUCCESS;
}
