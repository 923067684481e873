// The runtime's ABI: every call goes to the backend of the thread's current device.
#include "../common/status.h"
#include "backend.h"

#ifndef INFINI_WITH_NVIDIA
infini::rt::Backend *infini::rt::nvidiaBackend() { return nullptr; }
#endif

namespace {

struct CurrentDevice {
    infiniDevice_t type = INFINI_DEVICE_CPU;
    int id = 0;
};
thread_local CurrentDevice current;

infini::rt::Backend *backendFor(int type) {
    switch (type) {
    case INFINI_DEVICE_CPU:
        return &infini::rt::cpuBackend();
    case INFINI_DEVICE_NVIDIA:
        return infini::rt::nvidiaBackend();
    default:
        return nullptr;
    }
}

// The backend of the calling thread's current device.
infini::rt::Backend &active() { return *backendFor(current.type); }

bool validCopyKind(const infinirtMemcpyKind_t &kind) {
    int k = infini::enumValue(kind);
    return k >= INFINIRT_MEMCPY_H2H && k <= INFINIRT_MEMCPY_D2D;
}

} // namespace

#define RT_CALL(...) return infini::guard([&] { return __VA_ARGS__; })

__INFINI_C infiniStatus_t infinirtInit(void) { return INFINI_STATUS_SUCCESS; }

__INFINI_C infiniStatus_t infinirtGetDeviceCount(infiniDevice_t device_type, int *count) {
    INFINI_REQUIRE(count != nullptr, INFINI_STATUS_NULL_POINTER);
    const int device = infini::enumValue(device_type);
    if (device == INFINI_DEVICE_NVIDIA && infini::rt::nvidiaBackend() == nullptr) {
        *count = 0; // a CPU-only build sees no NVIDIA device
        return INFINI_STATUS_SUCCESS;
    }
    infini::rt::Backend *b = backendFor(device);
    INFINI_REQUIRE(b != nullptr, INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
    RT_CALL(b->deviceCount(count));
}

__INFINI_C infiniStatus_t infinirtSetDevice(infiniDevice_t device_type, int device_id) {
    const int device = infini::enumValue(device_type);
    if (device == INFINI_DEVICE_NVIDIA && infini::rt::nvidiaBackend() == nullptr) {
        return INFINI_STATUS_DEVICE_NOT_FOUND;
    }
    infini::rt::Backend *b = backendFor(device);
    INFINI_REQUIRE(b != nullptr, INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
    INFINI_TRY(infini::guard([&] { return b->setDevice(device_id); }));
    current.type = static_cast<infiniDevice_t>(device);
    current.id = device_id;
    return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinirtGetDevice(infiniDevice_t *device, int *device_id) {
    INFINI_TRY(infini::checkNotNull(device, device_id));
    *device = current.type;
    *device_id = current.id;
    return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinirtDeviceSynchronize(void) { RT_CALL(active().synchronize()); }

__INFINI_C infiniStatus_t infinirtStreamCreate(infinirtStream_t *stream) {
    INFINI_REQUIRE(stream != nullptr, INFINI_STATUS_NULL_POINTER);
    RT_CALL(active().streamCreate(stream));
}

__INFINI_C infiniStatus_t infinirtStreamDestroy(infinirtStream_t stream) { RT_CALL(active().streamDestroy(stream)); }

__INFINI_C infiniStatus_t infinirtStreamSynchronize(infinirtStream_t stream) {
    RT_CALL(active().streamSynchronize(stream));
}

__INFINI_C infiniStatus_t infinirtEventCreate(infinirtEvent_t *event) {
    INFINI_REQUIRE(event != nullptr, INFINI_STATUS_NULL_POINTER);
    RT_CALL(active().eventCreate(event));
}

__INFINI_C infiniStatus_t infinirtEventRecord(infinirtEvent_t event, infinirtStream_t stream) {
    INFINI_REQUIRE(event != nullptr, INFINI_STATUS_NULL_POINTER);
    RT_CALL(active().eventRecord(event, stream));
}

__INFINI_C infiniStatus_t infinirtEventSynchronize(infinirtEvent_t event) {
    INFINI_REQUIRE(event != nullptr, INFINI_STATUS_NULL_POINTER);
    RT_CALL(active().eventSynchronize(event));
}

__INFINI_C infiniStatus_t infinirtEventElapsedTime(float *ms, infinirtEvent_t start, infinirtEvent_t end) {
    INFINI_TRY(infini::checkNotNull(ms, start, end));
    RT_CALL(active().eventElapsed(ms, start, end));
}

__INFINI_C infiniStatus_t infinirtEventDestroy(infinirtEvent_t event) {
    INFINI_REQUIRE(event != nullptr, INFINI_STATUS_NULL_POINTER);
    RT_CALL(active().eventDestroy(event));
}

__INFINI_C infiniStatus_t infinirtMalloc(void **ptr, size_t size) {
    INFINI_REQUIRE(ptr != nullptr, INFINI_STATUS_NULL_POINTER);
    RT_CALL(active().malloc(ptr, size));
}

__INFINI_C infiniStatus_t infinirtMallocHost(void **ptr, size_t size) {
    INFINI_REQUIRE(ptr != nullptr, INFINI_STATUS_NULL_POINTER);
    RT_CALL(active().mallocHost(ptr, size));
}

__INFINI_C infiniStatus_t infinirtFree(void *ptr) { RT_CALL(active().free(ptr)); }

__INFINI_C infiniStatus_t infinirtFreeHost(void *ptr) { RT_CALL(active().freeHost(ptr)); }

__INFINI_C infiniStatus_t infinirtMemcpy(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind) {
    INFINI_REQUIRE(validCopyKind(kind), INFINI_STATUS_BAD_PARAM);
    if (size == 0) {
        return INFINI_STATUS_SUCCESS;
    }
    INFINI_TRY(infini::checkNotNull(dst, src));
    RT_CALL(active().memcpy(dst, src, size, kind));
}

__INFINI_C infiniStatus_t infinirtMemcpyAsync(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind,
                                              infinirtStream_t stream) {
    INFINI_REQUIRE(validCopyKind(kind), INFINI_STATUS_BAD_PARAM);
    if (size == 0) {
        return INFINI_STATUS_SUCCESS;
    }
    INFINI_TRY(infini::checkNotNull(dst, src));
    RT_CALL(active().memcpyAsync(dst, src, size, kind, stream));
}

__INFINI_C infiniStatus_t infinirtMemset(void *ptr, int value, size_t count) {
    if (count == 0) {
        return INFINI_STATUS_SUCCESS;
    }
    INFINI_REQUIRE(ptr != nullptr, INFINI_STATUS_NULL_POINTER);
    RT_CALL(active().memset(ptr, value, count));
}
