#pragma once
// The launchers of one logit type: a team of several blocks per row is a
// cluster launch (cudaLaunchKernelEx with the cluster attribute, graph-capturable).
#include "../../common/cuda/kernel_arch.cuh"
#include "argmax_pipe.cuh"
#include "sample.cuh"
// -DINFINI_ARGMAX_LEAN=1: the lean argmax kernel (argmax_lean.cuh) in place
// of argmaxPipeKernel (an A/B knob, notes/argmax.md, session am10; off by
// default: the default build launches and compiles what it did before).
// INFINI_ARGMAX_LEAN_SHAPES: its launcher without the switch (the sweep).
#ifndef INFINI_ARGMAX_LEAN
#define INFINI_ARGMAX_LEAN 0
#endif
#if INFINI_ARGMAX_LEAN || defined(INFINI_ARGMAX_LEAN_SHAPES)
#include "argmax_lean.cuh"
#endif

namespace infini::random_sample::nvidia {

template <class Kernel, class Args>
inline infiniStatus_t launchTeams(Kernel kernel, const Args &args, int rows, int team, int threads, size_t smem,
                                  LaunchStream stream) {
    cudaLaunchAttribute attr[2];
    const cudaLaunchConfig_t cfg =
        teamLaunchConfig(dim3((unsigned)team, (unsigned)rows, 1), threads, smem, stream, attr);
    CUDA_TRY(cudaLaunchKernelEx(&cfg, kernel, args));
    return INFINI_STATUS_SUCCESS;
}

// Two argmax kernels of one block shape (so one occupancy fit serves both):
// argmaxPipeKernel (argmax_pipe.cuh) keeps the next tile's loads in flight and
// wins where each block reads a long chunk; argmaxKernel's shorter pipeline
// wins on short chunks. H100 sweep (notes/argmax.md, session 5), F16, graph µs,
// ld -> pipe: 64x151936 (152 KB a block) 16.05 -> 14.79, 256x151936 38.71 ->
// 37.30, F64 1x151936 (76 KB) 9.86 -> 8.40; 1x32000 (16 KB) 6.63 -> 6.78,
// 8x151936 (19 KB) 7.79 -> 8.00, 1024x32000 (64 KB) 39.64 -> 40.04.
constexpr int kArgmaxPipeMinBlocks = 2;
constexpr size_t kArgmaxPipeMinChunk = 72 * 1024; // bytes a block reads, at least

template <class T>
bool argmaxPipes(uint32_t n, int team) {
    return (size_t)n * sizeof(T) >= kArgmaxPipeMinChunk * (size_t)team;
}
// Launches of one block per row (many rows, or any GPU before sm_90) take
// blocks of half the threads: more rows in flight per SM. H100, F16, graph µs,
// 512 -> 256 threads: 256x151936 37.30 -> 33.67 (pipelined), 1024x32000 39.64
// -> 35.99, 64x256 5.48 -> 4.65.
constexpr int kArgmaxRowThreads = 256, kArgmaxRowPipeMinBlocks = 4;
// Teams of 2 on long chunks (batches of a few dozen long rows): half the
// threads, twice the loads in flight each. Sweep, graph µs, pipe 512x4 ->
// 256x8 at t2: F16 64x151936 14.79 -> 13.28, F32 17.69 -> 17.59, F64 31.97
// -> 32.16. (101 registers a thread: 2 blocks an SM, as the 512-thread
// blocks, so argmaxTeam's fit holds for these teams too.)
constexpr int kArgmaxPairThreads = 256, kArgmaxPairLoads = 8, kArgmaxPairMinBlocks = 2;

#if INFINI_ARGMAX_LEAN || defined(INFINI_ARGMAX_LEAN_SHAPES)
// launchArgmax's choice below with the lean kernel wherever it takes
// argmaxPipeKernel: the same block shapes, register caps and chunk threshold,
// so argmaxTeam's fit and every team size stay. The kept tile is loaded
// again (Keep false): kept in registers, 256 x 8 needs 128 and spills 12
// bytes (the sweep's leank256x8 times that one).
template <class T>
infiniStatus_t launchArgmaxLeanRows(const RowsArgs &args, int rows, int team, LaunchStream stream) {
    if (!argmaxPipes<T>(args.n, team)) {
        return team == 1 ? launchArgmaxShape<T, kArgmaxRowThreads, kArgmaxLoads>(args, (uint32_t)rows, 1, stream)
                         : launchArgmaxShape<T, kArgmaxThreads, kArgmaxLoads>(args, (uint32_t)rows, team, stream);
    }
    if (team == 1) {
        return launchArgmaxLean<T, kArgmaxRowThreads, kArgmaxLoads, kArgmaxRowPipeMinBlocks, false>(
            args, (uint32_t)rows, 1, stream);
    }
    if (team == 2) {
        return launchArgmaxLean<T, kArgmaxPairThreads, kArgmaxPairLoads, kArgmaxPairMinBlocks, false>(
            args, (uint32_t)rows, 2, stream);
    }
    return launchArgmaxLean<T, kArgmaxThreads, kArgmaxLoads, kArgmaxPipeMinBlocks, false>(args, (uint32_t)rows, team,
                                                                                         stream);
}
template <class T>
infiniStatus_t prepareArgmaxLeanRows() {
    INFINI_TRY((prepareArgmaxLean<T, kArgmaxThreads, kArgmaxLoads, kArgmaxPipeMinBlocks, false>()));
    return prepareArgmax<T, kArgmaxThreads, kArgmaxLoads>();
}
#endif

template <class T>
infiniStatus_t launchArgmax(const RowsArgs &args, int rows, int team, LaunchStream stream) {
#if INFINI_ARGMAX_LEAN
    return launchArgmaxLeanRows<T>(args, rows, team, stream);
#else
    if (team == 1) {
        return argmaxPipes<T>(args.n, 1)
                   ? launchArgmaxPipe<T, kArgmaxRowThreads, kArgmaxLoads, kArgmaxRowPipeMinBlocks>(
                         args, (uint32_t)rows, 1, stream)
                   : launchArgmaxShape<T, kArgmaxRowThreads, kArgmaxLoads>(args, (uint32_t)rows, 1, stream);
    }
    if (team == 2 && argmaxPipes<T>(args.n, 2)) {
        return launchArgmaxPipe<T, kArgmaxPairThreads, kArgmaxPairLoads, kArgmaxPairMinBlocks>(args, (uint32_t)rows, 2,
                                                                                          stream);
    }
    if (argmaxPipes<T>(args.n, team)) {
        return launchArgmaxPipe<T, kArgmaxThreads, kArgmaxLoads, kArgmaxPipeMinBlocks>(args, (uint32_t)rows, team,
                                                                                      stream);
    }
    return launchArgmaxShape<T, kArgmaxThreads, kArgmaxLoads>(args, (uint32_t)rows, team, stream);
#endif
}
// Both team kernels: 512 threads, 2 blocks an SM, no shared memory beyond the
// final merge; the fit of one holds for the other (teams of 1 need no fit).
template <class T>
infiniStatus_t argmaxLoadTeamsOf(int team, int *teams) {
    return argmaxLoadTeams<T, kArgmaxThreads, kArgmaxLoads>(team, teams);
}
template <class T>
infiniStatus_t prepareArgmaxOf() {
#if INFINI_ARGMAX_LEAN
    INFINI_TRY((prepareArgmaxLeanRows<T>()));
#endif
    INFINI_TRY((prepareArgmaxPipe<T, kArgmaxThreads, kArgmaxLoads, kArgmaxPipeMinBlocks>()));
    return prepareArgmax<T, kArgmaxThreads, kArgmaxLoads>();
}

template <class T>
infiniStatus_t launchArgmaxBulkRows(const RowsArgs &args, int rows, int team, LaunchStream stream) {
    return launchArgmaxBulk<T, kArgmaxThreads>(args, (uint32_t)rows, team, stream);
}

template <class T>
infiniStatus_t argmaxTeams(bool bulk, int team, int *teams) {
    return bulk ? argmaxBulkTeams<T, kArgmaxThreads>(team, teams) : argmaxLoadTeamsOf<T>(team, teams);
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
        if (kArgmaxBulk) INFINI_TRY((prepareArgmaxBulk<T, kArgmaxThreads>()));
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
    cudaLaunchAttribute attr[2];
    const cudaLaunchConfig_t cfg =
        teamLaunchConfig(dim3((unsigned)team, 1, 1), kThreads, sampleSharedBytes<T>(), nullptr, attr);
    CUDA_TRY(cudaOccupancyMaxActiveClusters(teams, kernel, &cfg));
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
