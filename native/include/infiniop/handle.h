#ifndef INFINIOP_HANDLE_H
#define INFINIOP_HANDLE_H

#include "../infinicore.h"

struct InfiniopHandle;
typedef struct InfiniopHandle *infiniopHandle_t;

/* Binds the calling thread's current device (see infinirtSetDevice). */
__INFINI_C __export infiniStatus_t infiniopCreateHandle(infiniopHandle_t *handle);
__INFINI_C __export infiniStatus_t infiniopDestroyHandle(infiniopHandle_t handle);

#endif /* INFINIOP_HANDLE_H */
