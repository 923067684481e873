#pragma once
// Stage trace of LPNorm's long-row kernels (two_pass.cu, pipe.cu), for
// tools/lpn7_bench.cu only (LPN7_ONLY=trace / pipetrace in a build with
// -DINFINI_LP_NORM_STAGE_TRACE; never in the library). Thread 0 of each block
// stamps the global timer and its SM's clock at a row's start (stage 0),
// after its pass 1 (1), after the merge (2) and after pass 2 (3), for the
// first kStageTraceRows rows of each block.
#ifdef INFINI_LP_NORM_STAGE_TRACE
namespace infini::lp_norm::nvidia {
constexpr int kStageTraceBlocks = 1024, kStageTraceRows = 8, kStageTraceSlots = 4;
__device__ unsigned long long g_stage_trace[kStageTraceBlocks][kStageTraceRows][kStageTraceSlots][2];
__device__ __forceinline__ void stageStamp(int iter, int stage) {
    if (threadIdx.x == 0 && blockIdx.x < kStageTraceBlocks && iter < kStageTraceRows) {
        unsigned long long global;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(global));
        g_stage_trace[blockIdx.x][iter][stage][0] = global;
        g_stage_trace[blockIdx.x][iter][stage][1] = clock64();
    }
}
} // namespace infini::lp_norm::nvidia
#define INFINI_STAGE_STAMP(iter, stage) stageStamp(iter, stage)
#define INFINI_STAGE_SYNC() __syncthreads()
#else
#define INFINI_STAGE_STAMP(iter, stage) ((void)0)
#define INFINI_STAGE_SYNC() ((void)0)
#endif
