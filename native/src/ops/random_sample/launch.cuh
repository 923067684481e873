#pragma once
// The launchers of one logit type: a team of several blocks per row is a
// cluster launch (cudaLaunchKernelEx with the cluster attribute, graph-capturable).
#include "../../common/cuda/kernel_arch.cuh"
#include "argmax_lean.cuh"
#include "sample.cuh"

namespace infini::random_sample::nvidia {

template <class Kernel, class Args>
inline infiniStatus_t launchTeams(Kernel kernel, const Args &args, int rows, int team, int threads, size_t smem,
                                  LaunchStream stream) {
    LaunchConfig config = teamLaunchConfig(dim3((unsigned)team, (unsigned)rows, 1), threads, smem, stream);
    CUDA_TRY(cudaLaunchKernelEx(config.get(), kernel, args));
    return INFINI_STATUS_SUCCESS;
}

// Argmax launches take the lean kernel (argmax_lean.cuh) in two block shapes
// of kArgmaxThreads threads: kArgmaxLoads 16-byte loads in flight a thread and
// 4 blocks an SM, or, for pairs of blocks over long chunks (batches of a few
// dozen long rows), twice the loads and 2 blocks an SM. The kept tile is
// loaded again (Keep false). H200 sweep, graph µs (notes/argmax.md, session
// 10), old library (argmaxKernel / argmaxPipeKernel, 512 threads in teams)
// -> lean: F16 64x151936 (t2) 12.58 -> 8.11, 256x151936 (t1) 31.71 -> 22.12,
// 1x151936 (t16) 5.56 -> 4.46, 8x151936 (t16) 7.45 -> 5.38, 1024x32000 (t1)
// 35.36 -> 20.59, 1x32000 (t4) 6.08 -> 4.83, F64 1x151936 (t16) 8.23 -> 6.26.
// On the H100 (the merged shapes): 64x151936 10.15 (session 9's library:
// 13.3), 1x151936 4.66, 256x151936 31.61.
constexpr int kArgmaxMinBlocks = 4;
constexpr int kArgmaxPairLoads = 8, kArgmaxPairMinBlocks = 2;
constexpr size_t kArgmaxPairMinChunk = 72 * 1024; // bytes a block of a pair reads, at least

template <class T>
infiniStatus_t launchArgmax(const RowsArgs &args, int rows, int team, LaunchStream stream) {
    if (team == 2 && (size_t)args.n * sizeof(T) >= 2 * kArgmaxPairMinChunk) {
        return launchArgmaxLean<T, kArgmaxThreads, kArgmaxPairLoads, kArgmaxPairMinBlocks, false>(
            args, (uint32_t)rows, 2, stream);
    }
    return launchArgmaxLean<T, kArgmaxThreads, kArgmaxLoads, kArgmaxMinBlocks, false>(args, (uint32_t)rows, team,
                                                                                     stream);
}
// Teams of `team` blocks that fit at once: pairs asked of the 2-blocks-an-SM
// shape (it fits no more pairs than the other), every other size of the
// shape that runs it.
template <class T>
infiniStatus_t argmaxLoadTeamsOf(int team, int *teams) {
    return team == 2 ? argmaxLeanTeams<T, kArgmaxThreads, kArgmaxPairLoads, kArgmaxPairMinBlocks, false>(team, teams)
                     : argmaxLeanTeams<T, kArgmaxThreads, kArgmaxLoads, kArgmaxMinBlocks, false>(team, teams);
}
template <class T>
infiniStatus_t prepareArgmaxOf() { // teams of more than 8 (non-portable clusters) take the first shape only
    return prepareArgmaxLean<T, kArgmaxThreads, kArgmaxLoads, kArgmaxMinBlocks, false>();
}

template <class T>
infiniStatus_t launchArgmaxBulkRows(const RowsArgs &args, int rows, int team, LaunchStream stream) {
    return launchArgmaxBulk<T, kArgmaxBulkThreads>(args, (uint32_t)rows, team, stream);
}

template <class T>
infiniStatus_t argmaxTeams(bool bulk, int team, int *teams) {
    return bulk ? argmaxBulkTeams<T, kArgmaxBulkThreads>(team, teams) : argmaxLoadTeamsOf<T>(team, teams);
}

// A sampling launch on the instance compiled for teams of up to MaxTeam; the
// kernel with the top-p guess only when a row of the launch guesses.
template <class T, int R, int MaxTeam>
infiniStatus_t launchSampleOn(const SampleArgs<R> &args, int rows, int team, LaunchStream stream) {
    bool top_p = false;
    for (int k = 0; k < rows && !top_p; ++k) top_p = guessesTopP(rowMode(args.p[k], args.rows.n), args.rows.n);
    return top_p ? launchTeams(sampleKernel<T, R, true, MaxTeam>, args, rows, team, kThreads, sampleSharedBytes<T>(),
                               stream)
                 : launchTeams(sampleKernel<T, R, false, MaxTeam>, args, rows, team, kThreads, sampleSharedBytes<T>(),
                               stream);
}
// Teams of up to kCluster take the kCluster-wide instance; wider ones (few
// rows only) the one of sampleMaxTeam<R>() (sampleInstanceTeam, nvidia.cuh).
template <class T, int R>
infiniStatus_t launchSample(const SampleArgs<R> &args, int rows, int team, LaunchStream stream) {
    constexpr int kWide = sampleMaxTeam<R>();
    if constexpr (kWide > kCluster) {
        if (sampleInstanceTeam(team) == kWide) return launchSampleOn<T, R, kWide>(args, rows, team, stream);
    }
    return launchSampleOn<T, R, kCluster>(args, rows, team, stream);
}

// Both TopP instances of one (R, MaxTeam): the shared-memory limit; on sm_90
// the non-portable cluster size where the instance runs teams wider than the
// portable kPortableTeam.
template <class T, int R, int MaxTeam>
infiniStatus_t prepareSample(int major) {
    const int bytes = (int)sampleSharedBytes<T>();
    const cudaFuncAttribute limit = cudaFuncAttributeMaxDynamicSharedMemorySize;
    CUDA_TRY(cudaFuncSetAttribute(sampleKernel<T, R, false, MaxTeam>, limit, bytes));
    CUDA_TRY(cudaFuncSetAttribute(sampleKernel<T, R, true, MaxTeam>, limit, bytes));
    if (MaxTeam > kPortableTeam && major >= 9) {
        const cudaFuncAttribute wide = cudaFuncAttributeNonPortableClusterSizeAllowed;
        CUDA_TRY(cudaFuncSetAttribute(sampleKernel<T, R, false, MaxTeam>, wide, 1));
        CUDA_TRY(cudaFuncSetAttribute(sampleKernel<T, R, true, MaxTeam>, wide, 1));
    }
    return INFINI_STATUS_SUCCESS;
}

template <class T>
infiniStatus_t prepareKernels(int major) {
    constexpr int kWide = sampleMaxTeam<kFewRows>();
    INFINI_TRY((prepareSample<T, kFewRows, kCluster>(major)));
    if (kWide > kCluster) INFINI_TRY((prepareSample<T, kFewRows, kWide>(major)));
    INFINI_TRY((prepareSample<T, kMaxRows, sampleMaxTeam<kMaxRows>()>(major)));
    if (major >= 9) { // clusters
        INFINI_TRY((prepareArgmaxOf<T>()));
        if (kArgmaxBulk) INFINI_TRY((prepareArgmaxBulk<T, kArgmaxBulkThreads>()));
    }
    return INFINI_STATUS_SUCCESS;
}

// Sampling teams of `team` blocks that fit at once, asked of the few-rows
// small-K instance that runs such teams (its top-p twin has the same block
// shape and shared memory).
template <class T>
infiniStatus_t sampleTeams(int team, int *teams) {
    constexpr int kWide = sampleMaxTeam<kFewRows>();
    const auto kernel = sampleInstanceTeam(team) == kWide ? sampleKernel<T, kFewRows, false, kWide>
                                                          : sampleKernel<T, kFewRows, false, kCluster>;
    LaunchConfig config = teamLaunchConfig(dim3((unsigned)team, 1, 1), kThreads, sampleSharedBytes<T>(), nullptr);
    CUDA_TRY(cudaOccupancyMaxActiveClusters(teams, kernel, config.get()));
    return INFINI_STATUS_SUCCESS;
}

// Teams of more than one block need the kernels' sm_90 code (team.cuh); one
// kernel of the file stands for all (same compilation).
template <class T>
bool kernelsHaveClusters() {
    return kernelCompiledFor(sampleKernel<T, kFewRows, false, kCluster>, 90);
}

template <class T>
Launchers launchersOf() {
    return Launchers{launchArgmax<T>,           launchArgmaxBulkRows<T>,   argmaxTeams<T>,
                     launchSample<T, kFewRows>, launchSample<T, kMaxRows>, prepareKernels<T>,
                     sampleTeams<T>,           kernelsHaveClusters<T>};
}

} // namespace infini::random_sample::nvidia
