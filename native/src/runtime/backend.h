#pragma once
// One runtime backend per device type; the ABI functions pick one by the
// calling thread's current device.
#include "infinirt.h"

namespace infini::rt {

struct Backend {
    virtual ~Backend() = default;
    virtual infiniStatus_t deviceCount(int *count) = 0;
    virtual infiniStatus_t setDevice(int id) = 0;
    virtual infiniStatus_t synchronize() = 0;
    virtual infiniStatus_t streamCreate(infinirtStream_t *s) = 0;
    virtual infiniStatus_t streamDestroy(infinirtStream_t s) = 0;
    virtual infiniStatus_t streamSynchronize(infinirtStream_t s) = 0;
    virtual infiniStatus_t eventCreate(infinirtEvent_t *e) = 0;
    virtual infiniStatus_t eventRecord(infinirtEvent_t e, infinirtStream_t s) = 0;
    virtual infiniStatus_t eventSynchronize(infinirtEvent_t e) = 0;
    virtual infiniStatus_t eventElapsed(float *ms, infinirtEvent_t a, infinirtEvent_t b) = 0;
    virtual infiniStatus_t eventDestroy(infinirtEvent_t e) = 0;
    virtual infiniStatus_t malloc(void **p, size_t n) = 0;
    virtual infiniStatus_t mallocHost(void **p, size_t n) = 0;
    virtual infiniStatus_t free(void *p) = 0;
    virtual infiniStatus_t freeHost(void *p) = 0;
    virtual infiniStatus_t memcpy(void *d, const void *s, size_t n, infinirtMemcpyKind_t k) = 0;
    virtual infiniStatus_t memcpyAsync(void *d, const void *s, size_t n, infinirtMemcpyKind_t k,
                                       infinirtStream_t st) = 0;
    virtual infiniStatus_t memset(void *p, int v, size_t n) = 0;
};

Backend &cpuBackend();
// Null in a CPU-only build.
Backend *nvidiaBackend();

} // namespace infini::rt
