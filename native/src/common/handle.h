#pragma once
// The handle behind infiniopHandle_t: a device and what kernels need to know of it.
#include "infiniop/handle.h"

struct InfiniopHandle {
    infiniDevice_t device;
    int device_id;
    // NVIDIA only (zero on CPU): read once at creation.
    int sm_count;
    int max_threads_per_block;
    int max_shared_memory_per_block;       // without opting in
    int max_shared_memory_per_block_optin; // with cudaFuncAttributeMaxDynamicSharedMemorySize
    int cc_major;
    int cc_minor;
    int l2_cache_bytes;
    int max_threads_per_sm;
    int sm_limit; // the SMs the creating thread's context may use (MPS, an execution affinity): <= sm_count
};

namespace infini {
// Query the device properties of an NVIDIA handle (defined in the NVIDIA build).
infiniStatus_t nvidiaFillHandle(InfiniopHandle *handle);
} // namespace infini
