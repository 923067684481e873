// The NVIDIA runtime over the CUDA runtime API (linked statically).
#include "../common/cuda/check.cuh"
#include "backend.h"

namespace infini::rt {
namespace {

cudaMemcpyKind toCuda(infinirtMemcpyKind_t k) {
    switch (k) {
    case INFINIRT_MEMCPY_H2H: return cudaMemcpyHostToHost;
    case INFINIRT_MEMCPY_H2D: return cudaMemcpyHostToDevice;
    case INFINIRT_MEMCPY_D2H: return cudaMemcpyDeviceToHost;
    default: return cudaMemcpyDeviceToDevice;
    }
}

struct NvidiaBackend final : Backend {
    infiniStatus_t deviceCount(int *count) override {
        // No driver or no GPU is not an error: there are just none.
        if (cudaGetDeviceCount(count) != cudaSuccess) {
            cudaGetLastError();
            *count = 0;
        }
        return INFINI_STATUS_SUCCESS;
    }
    infiniStatus_t setDevice(int id) override {
        int count = 0;
        deviceCount(&count);
        if (id < 0 || id >= count) {
            return INFINI_STATUS_DEVICE_NOT_FOUND;
        }
        return cudaStatus(cudaSetDevice(id));
    }
    infiniStatus_t synchronize() override { return cudaStatus(cudaDeviceSynchronize()); }
    infiniStatus_t streamCreate(infinirtStream_t *s) override {
        cudaStream_t st;
        CUDA_TRY(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
        *s = st;
        return INFINI_STATUS_SUCCESS;
    }
    infiniStatus_t streamDestroy(infinirtStream_t s) override {
        return cudaStatus(cudaStreamDestroy((cudaStream_t)s));
    }
    infiniStatus_t streamSynchronize(infinirtStream_t s) override {
        return cudaStatus(cudaStreamSynchronize((cudaStream_t)s));
    }
    infiniStatus_t eventCreate(infinirtEvent_t *e) override {
        cudaEvent_t ev;
        CUDA_TRY(cudaEventCreate(&ev));
        *e = ev;
        return INFINI_STATUS_SUCCESS;
    }
    infiniStatus_t eventRecord(infinirtEvent_t e, infinirtStream_t s) override {
        return cudaStatus(cudaEventRecord((cudaEvent_t)e, (cudaStream_t)s));
    }
    infiniStatus_t eventSynchronize(infinirtEvent_t e) override {
        return cudaStatus(cudaEventSynchronize((cudaEvent_t)e));
    }
    infiniStatus_t eventElapsed(float *ms, infinirtEvent_t a, infinirtEvent_t b) override {
        return cudaStatus(cudaEventElapsedTime(ms, (cudaEvent_t)a, (cudaEvent_t)b));
    }
    infiniStatus_t eventDestroy(infinirtEvent_t e) override { return cudaStatus(cudaEventDestroy((cudaEvent_t)e)); }
    infiniStatus_t malloc(void **p, size_t n) override { return cudaStatus(cudaMalloc(p, n)); }
    infiniStatus_t mallocHost(void **p, size_t n) override { return cudaStatus(cudaMallocHost(p, n)); }
    infiniStatus_t free(void *p) override { return cudaStatus(cudaFree(p)); }
    infiniStatus_t freeHost(void *p) override { return cudaStatus(cudaFreeHost(p)); }
    infiniStatus_t memcpy(void *d, const void *s, size_t n, infinirtMemcpyKind_t k) override {
        return cudaStatus(cudaMemcpy(d, s, n, toCuda(k)));
    }
    infiniStatus_t memcpyAsync(void *d, const void *s, size_t n, infinirtMemcpyKind_t k,
                               infinirtStream_t st) override {
        return cudaStatus(cudaMemcpyAsync(d, s, n, toCuda(k), (cudaStream_t)st));
    }
    infiniStatus_t memset(void *p, int v, size_t n) override { return cudaStatus(cudaMemset(p, v, n)); }
};

} // namespace

Backend *nvidiaBackend() {
    static NvidiaBackend backend;
    return &backend;
}

} // namespace infini::rt
