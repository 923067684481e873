#pragma once
// The launchers of one logit type: a team of several blocks per row is a
// cluster launch (cudaLaunchKernelEx with the cluster attribute, graph-capturable).
#include "argmax.cuh"
#include "sample.cuh"

namespace infini::random_sample::nvidia {

template <class Kernel, class Args>
inline infiniStatus_t launchTeams(Kernel kernel, const Args &args, int rows, int team, int threads, size_t smem,
                                  cudaStream_t stream) {
    cudaLaunchAttribute attr[1];
    const cudaLaunchConfig_t cfg =
        teamLaunchConfig(dim3((unsigned)team, (unsigned)rows, 1), threads, smem, stream, attr);
    CUDA_TRY(cudaLaunchKernelEx(&cfg, kernel, args));
    return INFINI_STATUS_SUCCESS;
}

template <class T>
infiniStatus_t launchArgmax(const RowsArgs &args, int rows, int team, cudaStream_t stream) {
    return launchArgmaxShape<T, kArgmaxThreads, kArgmaxLoads>(args, (uint32_t)rows, team, stream);
}

template <class T>
infiniStatus_t launchArgmaxBulkRows(const RowsArgs &args, int rows, int team, cudaStream_t stream) {
    return launchArgmaxBulk<T, kArgmaxThreads>(args, (uint32_t)rows, team, stream);
}

template <class T>
infiniStatus_t argmaxTeams(bool bulk, int team, int *teams) {
    return bulk ? argmaxBulkTeams<T, kArgmaxThreads>(team, teams)
                : argmaxLoadTeams<T, kArgmaxThreads, kArgmaxLoads>(team, teams);
}

// The kernel with the top-p guess only when a row of the launch guesses.
template <class T, int R>
infiniStatus_t launchSample(const SampleArgs<R> &args, int rows, int team, cudaStream_t stream) {
    bool top_p = false;
    for (int k = 0; k < rows && !top_p; ++k) top_p = guessesTopP(rowMode(args.p[k], args.rows.n), args.rows.n);
    return top_p ? launchTeams(sampleKernel<T, R, true>, args, rows, team, kThreads, sampleSharedBytes<T>(), stream)
                 : launchTeams(sampleKernel<T, R, false>, args, rows, team, kThreads, sampleSharedBytes<T>(), stream);
}

template <class T>
infiniStatus_t prepareKernels(int major) {
    const int bytes = (int)sampleSharedBytes<T>();
    const cudaFuncAttribute limit = cudaFuncAttributeMaxDynamicSharedMemorySize;
    CUDA_TRY(cudaFuncSetAttribute(sampleKernel<T, kFewRows, false>, limit, bytes));
    CUDA_TRY(cudaFuncSetAttribute(sampleKernel<T, kFewRows, true>, limit, bytes));
    CUDA_TRY(cudaFuncSetAttribute(sampleKernel<T, kMaxRows, false>, limit, bytes));
    CUDA_TRY(cudaFuncSetAttribute(sampleKernel<T, kMaxRows, true>, limit, bytes));
    if (major >= 9) {
        INFINI_TRY((prepareArgmax<T, kArgmaxThreads, kArgmaxLoads>()));
        if (kArgmaxBulk) INFINI_TRY((prepareArgmaxBulk<T, kArgmaxThreads>()));
    }
    return INFINI_STATUS_SUCCESS;
}

template <class T>
Launchers launchersOf() {
    return Launchers{launchArgmax<T>,           launchArgmaxBulkRows<T>,   argmaxTeams<T>,
                     launchSample<T, kFewRows>, launchSample<T, kMaxRows>, prepareKernels<T>};
}

} // namespace infini::random_sample::nvidia
