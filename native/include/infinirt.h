#ifndef INFINIRT_H
#define INFINIRT_H

/* The runtime: devices, memory, streams and events. The current device is
 * per calling thread and starts as (CPU, 0). */

#include "infinicore.h"

typedef void *infinirtStream_t;
typedef void *infinirtEvent_t;

typedef enum {
    INFINIRT_MEMCPY_H2H = 0,
    INFINIRT_MEMCPY_H2D = 1,
    INFINIRT_MEMCPY_D2H = 2,
    INFINIRT_MEMCPY_D2D = 3,
} infinirtMemcpyKind_t;

__INFINI_C __export infiniStatus_t infinirtInit(void);
__INFINI_C __export infiniStatus_t infinirtGetDeviceCount(infiniDevice_t device, int *count);
__INFINI_C __export infiniStatus_t infinirtSetDevice(infiniDevice_t device, int device_id);
__INFINI_C __export infiniStatus_t infinirtGetDevice(infiniDevice_t *device, int *device_id);
__INFINI_C __export infiniStatus_t infinirtDeviceSynchronize(void);

__INFINI_C __export infiniStatus_t infinirtStreamCreate(infinirtStream_t *stream);
__INFINI_C __export infiniStatus_t infinirtStreamDestroy(infinirtStream_t stream);
__INFINI_C __export infiniStatus_t infinirtStreamSynchronize(infinirtStream_t stream);

__INFINI_C __export infiniStatus_t infinirtEventCreate(infinirtEvent_t *event);
__INFINI_C __export infiniStatus_t infinirtEventRecord(infinirtEvent_t event, infinirtStream_t stream);
__INFINI_C __export infiniStatus_t infinirtEventSynchronize(infinirtEvent_t event);
__INFINI_C __export infiniStatus_t infinirtEventElapsedTime(float *ms, infinirtEvent_t start, infinirtEvent_t end);
__INFINI_C __export infiniStatus_t infinirtEventDestroy(infinirtEvent_t event);

__INFINI_C __export infiniStatus_t infinirtMalloc(void **ptr, size_t size);
__INFINI_C __export infiniStatus_t infinirtMallocHost(void **ptr, size_t size);
__INFINI_C __export infiniStatus_t infinirtFree(void *ptr);
__INFINI_C __export infiniStatus_t infinirtFreeHost(void *ptr);
__INFINI_C __export infiniStatus_t infinirtMemcpy(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind);
__INFINI_C __export infiniStatus_t infinirtMemcpyAsync(void *dst, const void *src, size_t size,
                                                        infinirtMemcpyKind_t kind, infinirtStream_t stream);
__INFINI_C __export infiniStatus_t infinirtMemset(void *ptr, int value, size_t count);

#endif /* INFINIRT_H */
