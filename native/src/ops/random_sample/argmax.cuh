#pragma once
// Stage: argmax of whole launches (every row takes the argmax rule), one
// launch per call for any number of rows, no workspace.
//
// A row is read by a team of `team` blocks (1 to kArgmaxMaxTeam; more than one
// is a thread-block cluster, sm_90, 16 being a non-portable size): each member
// reduces its contiguous chunk to (order key, lowest index), pushes it into
// member 0's shared memory, and after one team barrier member 0 writes the
// index. The grid is (team, y, z) with row = y + z * gridDim.y, so one launch
// covers up to 65535^2 rows. The team machinery (argmaxTeamRow, the launch
// config, the occupancy fit) serves every argmax kernel; the library's is
// argmaxLeanKernel (argmax_lean.cuh). Kept here for tools/argmax_sweep.cu:
// argmaxKernel, the threads' own 16-byte loads (U in flight each), and
// argmaxBulkKernel (sm_90), bulk copies into shared memory (kArgmaxBulk).
// Team sizes, block shapes and the measurements behind them: argmax_plan.h,
// launch.cuh, notes/argmax.md.
#include "../../common/cuda/bulk_copy.cuh"
#include "argmax_plan.h"
#include "device.cuh"
#include "team.cuh"
#include <cub/block/block_reduce.cuh>

namespace infini::random_sample::nvidia {

constexpr uint32_t kArgmaxGridY = 65535;

// One argmax launch: the rows and how many there are (the grid may hold a few more).
struct ArgmaxArgs {
    RowsArgs rows;
    uint32_t count;
    uint32_t stage_bytes; // argmaxBulkKernel: bytes of each of its two shared-memory stages
};

// What both kernels keep in shared memory for the end of a row.
template <class K, int NT>
struct ArgmaxShared {
    typename cub::BlockReduce<Entry<K>, NT>::TempStorage reduce;
    Entry<K> parts[kArgmaxMaxTeam];
};

// The block's best of its chunk -> the team's best -> row r's result.
template <class K, int NT>
__device__ inline void argmaxFinish(Entry<K> best, ArgmaxShared<K, NT> &sh, const RowsArgs &rows, uint32_t r) {
    best = cub::BlockReduce<Entry<K>, NT>(sh.reduce).Reduce(best, EntryMax<K>());
    const ptrdiff_t at = (ptrdiff_t)r * rows.result_stride;
    if (Team::size() == 1) {
        if (threadIdx.x == 0) storeIndex(rows.result, at, rows.result_size, best.idx);
        return;
    }
    Team::wait();
    if (threadIdx.x == 0) *Team::at(&sh.parts[Team::rank()], 0) = best;
    Team::sync();
    if (Team::rank() == 0 && threadIdx.x == 0) {
        Entry<K> all = sh.parts[0];
        for (unsigned k = 1; k < Team::size(); ++k) {
            if (before(sh.parts[k], all)) all = sh.parts[k];
        }
        storeIndex(rows.result, at, rows.result_size, all.idx);
    }
}

// One member's part of row r (grid y and z; x is the team): its chunk's best
// from chunkBest(row, begin, end), then the team's merge (argmaxFinish). Every
// argmax kernel starts this way.
template <class T, int NT, class ChunkBest>
__device__ inline void argmaxTeamRow(const ArgmaxArgs &a, ChunkBest chunkBest) {
    using K = KeyType<T>;
    __shared__ ArgmaxShared<K, NT> sh;
    pdlWaitPrevious(); // (launched with PDL: the logits' writer and the result's readers are done)
    pdlAllowNext();
    const uint32_t r = blockIdx.y + blockIdx.z * gridDim.y;
    if (r >= a.count) return; // a whole team (it shares y and z) leaves together
    Team::arrive();           // members start together; the push at the end waits for that
    const T *row = static_cast<const T *>(a.rows.probs) + (ptrdiff_t)r * a.rows.row_stride;
    uint32_t begin, end;
    chunkOf<T>(a.rows.n, Team::size(), Team::rank(), &begin, &end);
    argmaxFinish(chunkBest(row, begin, end), sh, a.rows, r);
}

// The threads' own loads (any GPU): U 16-byte loads per thread in flight.
// Wide: the instance launched with teams of more than 8 blocks (a non-portable
// cluster size, allowed by prepareArgmax); the body is the same. Teams of at
// most 8 launch the other instance, which keeps the portable default.
template <class T, int NT, int U, bool Wide = false>
__global__ void __launch_bounds__(NT, 1024 / NT) argmaxKernel(const __grid_constant__ ArgmaxArgs a) {
    argmaxTeamRow<T, NT>(a, [](const T *row, uint32_t begin, uint32_t end) {
        Entry<KeyType<T>> best = noEntry<KeyType<T>>();
        forVectors<NT, U>(row, begin, end, [&](const T (&v)[16 / sizeof(T)], uint32_t i0, uint32_t cnt) {
            vecBest(v, i0, cnt, best);
        });
        return best;
    });
}

// Bulk copies (sm_90): the 16-byte-aligned body of the chunk streams into two
// shared-memory stages of a.stage_bytes (one refilled while the other is
// read); the few elements before and after it are read directly.
template <class T, int NT>
__global__ void __launch_bounds__(NT) argmaxBulkKernel(const __grid_constant__ ArgmaxArgs a) {
#ifdef INFINI_BULK_COPY
    using K = KeyType<T>;
    constexpr uint32_t V = 16 / sizeof(T);
    extern __shared__ uint4 s_stages[];
    __shared__ uint64_t s_full[2];
    argmaxTeamRow<T, NT>(a, [&](const T *row, uint32_t begin, uint32_t end) {
        const uint32_t mis = (uint32_t)(((uintptr_t)(row + begin) & 15u) / sizeof(T));
        uint32_t body = begin + (mis == 0 ? 0u : V - mis);
        body = body < end ? body : end;
        const uint32_t tail = body + (end - body) / V * V;
        const uint32_t stage_elems = a.stage_bytes / (uint32_t)sizeof(T);
        const uint32_t batches = (tail - body + stage_elems - 1) / stage_elems;
        auto issue = [&](uint32_t k) {
            const uint32_t i0 = body + k * stage_elems;
            const uint32_t bytes = (tail - i0 < stage_elems ? tail - i0 : stage_elems) * (uint32_t)sizeof(T);
            bulkExpect(&s_full[k & 1], bytes);
            bulkCopy(s_stages + (k & 1) * (a.stage_bytes / 16), row + i0, bytes, &s_full[k & 1]);
        };
        if (threadIdx.x == 0) {
            bulkBarrierInit(&s_full[0]);
            bulkBarrierInit(&s_full[1]);
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            for (uint32_t k = 0; k < 2 && k < batches; ++k) issue(k);
        }
        Entry<K> best = noEntry<K>();
        for (uint32_t k = 0; k < batches; ++k) { // a thread's vectors in increasing index order
            bulkWait(&s_full[k & 1], (k >> 1) & 1);
            const uint32_t i0 = body + k * stage_elems;
            const uint32_t nvec = (tail - i0 < stage_elems ? tail - i0 : stage_elems) / V;
            const uint4 *stage = s_stages + (k & 1) * (a.stage_bytes / 16);
#pragma unroll 4
            for (uint32_t j = threadIdx.x; j < nvec; j += NT) {
                const uint4 raw = stage[j];
                T v[V];
                memcpy(v, &raw, sizeof(raw));
                vecBest(v, i0 + j * V, V, best);
            }
            __syncthreads(); // the stage is read by every thread before it is refilled
            if (threadIdx.x == 0 && k + 2 < batches) issue(k + 2);
        }
        // Head and tail after the body: vecBest's partial path compares indices too.
        const uint32_t nh = body - begin, nt = end - tail;
        if (threadIdx.x < nh + nt) {
            const uint32_t i = threadIdx.x < nh ? begin + threadIdx.x : tail + (threadIdx.x - nh);
            T v[V];
#pragma unroll
            for (uint32_t s = 0; s < V; ++s) v[s] = T();
            v[0] = row[i];
            vecBest(v, i, 1u, best);
        }
        return best;
    });
#endif
}

// The launch of `count` rows, `team` blocks each (a cluster when team > 1).
inline LaunchConfig argmaxConfig(uint32_t count, int team, int threads, size_t smem, LaunchStream stream) {
    const uint32_t y = count < kArgmaxGridY ? count : kArgmaxGridY;
    return teamLaunchConfig(dim3((unsigned)team, y, (count + y - 1) / y), threads, smem, stream);
}

// argmaxKernel<T, NT, U> (any GPU). Graph-capturable, like the one below.
template <class T, int NT, int U>
infiniStatus_t launchArgmaxShape(const RowsArgs &rows, uint32_t count, int team, LaunchStream stream) {
    LaunchConfig config = argmaxConfig(count, team, NT, 0, stream);
    if (team > kPortableTeam) {
        CUDA_TRY(cudaLaunchKernelEx(config.get(), argmaxKernel<T, NT, U, true>, ArgmaxArgs{rows, count, 0}));
    } else {
        CUDA_TRY(cudaLaunchKernelEx(config.get(), argmaxKernel<T, NT, U, false>, ArgmaxArgs{rows, count, 0}));
    }
    return INFINI_STATUS_SUCCESS;
}

// argmaxBulkKernel<T, NT> (sm_90).
// Stage: bytes of each shared-memory stage (a multiple of 16 up to
// kArgmaxStage; 0: argmaxStageBytes).
template <class T, int NT, uint32_t Stage = 0>
infiniStatus_t launchArgmaxBulk(const RowsArgs &rows, uint32_t count, int team, LaunchStream stream) {
    const uint32_t stage = Stage ? Stage : argmaxStageBytes(rows.n, sizeof(T), team);
    LaunchConfig config = argmaxConfig(count, team, NT, 2 * (size_t)stage, stream);
    CUDA_TRY(cudaLaunchKernelEx(config.get(), argmaxBulkKernel<T, NT>, ArgmaxArgs{rows, count, stage}));
    return INFINI_STATUS_SUCCESS;
}

// How many teams of `team` blocks of `kernel` (threads, smem bytes each) fit on the GPU at once.
inline infiniStatus_t argmaxTeamsFit(const void *kernel, int threads, size_t smem, int team, int *teams) {
    LaunchConfig config = argmaxConfig(1, team, threads, smem, nullptr);
    if (team == 1) {
        CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(teams, kernel, threads, smem));
        return INFINI_STATUS_SUCCESS;
    }
    CUDA_TRY(cudaOccupancyMaxActiveClusters(teams, kernel, config.get()));
    return INFINI_STATUS_SUCCESS;
}
template <class T, int NT, int U>
infiniStatus_t argmaxLoadTeams(int team, int *teams) {
    const void *kernel = team > kPortableTeam ? (const void *)argmaxKernel<T, NT, U, true>
                                              : (const void *)argmaxKernel<T, NT, U, false>;
    return argmaxTeamsFit(kernel, NT, 0, team, teams);
}
template <class T, int NT>
infiniStatus_t argmaxBulkTeams(int team, int *teams) { // blocks with whole stages
    return argmaxTeamsFit((const void *)argmaxBulkKernel<T, NT>, NT, 2 * (size_t)kArgmaxStage, team, teams);
}

// Allows clusters of 16 (sm_90 only; elsewhere teams are 1).
template <class T, int NT, int U>
infiniStatus_t prepareArgmax() {
    CUDA_TRY(cudaFuncSetAttribute(argmaxKernel<T, NT, U, true>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    return INFINI_STATUS_SUCCESS;
}

// Allows clusters of 16 and whole stages (sm_90 only).
template <class T, int NT>
infiniStatus_t prepareArgmaxBulk() {
    CUDA_TRY(cudaFuncSetAttribute(argmaxBulkKernel<T, NT>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CUDA_TRY(cudaFuncSetAttribute(argmaxBulkKernel<T, NT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  2 * (int)kArgmaxStage));
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::random_sample::nvidia
