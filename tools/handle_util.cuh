#pragma once
// The library's handle for device 0 as the standalone LPNorm harnesses under
// tools/ need it to call the planners directly (what infiniopCreateHandle
// fills in), with one line about the device.
#include "bench_util.cuh"
#include "common/handle.h"

namespace bench {

inline InfiniopHandle deviceHandle() {
    InfiniopHandle h{};
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    h.device = INFINI_DEVICE_NVIDIA;
    h.device_id = 0;
    h.sm_count = prop.multiProcessorCount;
    h.max_threads_per_block = prop.maxThreadsPerBlock;
    h.max_shared_memory_per_block = (int)prop.sharedMemPerBlock;
    h.max_shared_memory_per_block_optin = (int)prop.sharedMemPerBlockOptin;
    h.cc_major = prop.major;
    h.cc_minor = prop.minor;
    h.l2_cache_bytes = prop.l2CacheSize;
    h.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    h.sm_limit = h.sm_count;
    int driver = 0, runtime = 0;
    CHECK_CUDA(cudaDriverGetVersion(&driver));
    CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
    say("device: %s, %d SMs, cc %d.%d, L2 %d MB, smem opt-in %d KB; driver %d, runtime %d\n", prop.name, h.sm_count,
        h.cc_major, h.cc_minor, h.l2_cache_bytes >> 20, h.max_shared_memory_per_block_optin >> 10, driver, runtime);
    return h;
}

} // namespace bench
