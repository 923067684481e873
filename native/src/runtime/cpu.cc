// The CPU runtime: host memory; streams are no-ops; events are host timestamps.
#include "backend.h"
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>

namespace infini::rt {
namespace {

using Clock = std::chrono::steady_clock;

// A dummy non-null stream so that callers can treat CPU and GPU alike.
char cpu_stream_token;

struct CpuBackend final : Backend {
    infiniStatus_t deviceCount(int *count) override {
        *count = 1;
        return INFINI_STATUS_SUCCESS;
    }
    infiniStatus_t setDevice(int id) override {
        return id == 0 ? INFINI_STATUS_SUCCESS : INFINI_STATUS_DEVICE_NOT_FOUND;
    }
    infiniStatus_t synchronize() override { return INFINI_STATUS_SUCCESS; }
    infiniStatus_t streamCreate(infinirtStream_t *s) override {
        *s = &cpu_stream_token;
        return INFINI_STATUS_SUCCESS;
    }
    infiniStatus_t streamDestroy(infinirtStream_t) override { return INFINI_STATUS_SUCCESS; }
    infiniStatus_t streamSynchronize(infinirtStream_t) override { return INFINI_STATUS_SUCCESS; }
    infiniStatus_t eventCreate(infinirtEvent_t *e) override {
        auto *t = new (std::nothrow) Clock::time_point(Clock::now());
        if (t == nullptr) {
            return INFINI_STATUS_INTERNAL_ERROR;
        }
        *e = t;
        return INFINI_STATUS_SUCCESS;
    }
    infiniStatus_t eventRecord(infinirtEvent_t e, infinirtStream_t) override {
        *static_cast<Clock::time_point *>(e) = Clock::now();
        return INFINI_STATUS_SUCCESS;
    }
    infiniStatus_t eventSynchronize(infinirtEvent_t) override { return INFINI_STATUS_SUCCESS; }
    infiniStatus_t eventElapsed(float *ms, infinirtEvent_t a, infinirtEvent_t b) override {
        auto d = *static_cast<Clock::time_point *>(b) - *static_cast<Clock::time_point *>(a);
        *ms = std::chrono::duration<float, std::milli>(d).count();
        return INFINI_STATUS_SUCCESS;
    }
    infiniStatus_t eventDestroy(infinirtEvent_t e) override {
        delete static_cast<Clock::time_point *>(e);
        return INFINI_STATUS_SUCCESS;
    }
    infiniStatus_t malloc(void **p, size_t n) override {
        *p = std::malloc(n ? n : 1);
        return *p ? INFINI_STATUS_SUCCESS : INFINI_STATUS_INTERNAL_ERROR;
    }
    infiniStatus_t mallocHost(void **p, size_t n) override { return malloc(p, n); }
    infiniStatus_t free(void *p) override {
        std::free(p);
        return INFINI_STATUS_SUCCESS;
    }
    infiniStatus_t freeHost(void *p) override { return free(p); }
    infiniStatus_t memcpy(void *d, const void *s, size_t n, infinirtMemcpyKind_t) override {
        if (n) {
            std::memmove(d, s, n);
        }
        return INFINI_STATUS_SUCCESS;
    }
    infiniStatus_t memcpyAsync(void *d, const void *s, size_t n, infinirtMemcpyKind_t k, infinirtStream_t) override {
        return memcpy(d, s, n, k);
    }
    infiniStatus_t memset(void *p, int v, size_t n) override {
        std::memset(p, v, n);
        return INFINI_STATUS_SUCCESS;
    }
};

} // namespace

Backend &cpuBackend() {
    static CpuBackend backend;
    return backend;
}

} // namespace infini::rt
