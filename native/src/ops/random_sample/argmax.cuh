#pragma once
// Stage: argmax of whole launches (every row takes the argmax rule), one
// launch per call for any number of rows, no workspace.
//
// A row is read by a team of `team` blocks (1 to kArgmaxMaxTeam; more than one
// is a thread-block cluster, sm_90, 16 being a non-portable size): each member
// reduces its contiguous chunk to (order key, lowest index) with U 16-byte
// loads per thread in flight, pushes it into member 0's shared memory, and
// after one team barrier member 0 writes the index. The grid is (team, y, z)
// with row = y + z * gridDim.y, so one launch covers up to 65535^2 rows.
// Team sizes: argmax_plan.h; block shape: launch.cuh.
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
};

template <class T, int NT, int U>
__global__ void __launch_bounds__(NT, 1024 / NT) argmaxKernel(const __grid_constant__ ArgmaxArgs a) {
    using K = KeyType<T>;
    using E = Entry<K>;
    __shared__ typename cub::BlockReduce<E, NT>::TempStorage tmp;
    __shared__ E s_parts[kArgmaxMaxTeam];
    const uint32_t r = blockIdx.y + blockIdx.z * gridDim.y;
    if (r >= a.count) return; // a whole team (it shares y and z) leaves together
    Team::arrive(); // members start together; the push below waits for that
    const unsigned q = Team::rank();
    const T *row = static_cast<const T *>(a.rows.probs) + (ptrdiff_t)r * a.rows.row_stride;
    uint32_t begin, end;
    chunkOf<T>(a.rows.n, Team::size(), q, &begin, &end);
    E best = noEntry<K>();
    forVectors<NT, U>(row, begin, end, [&](const T (&v)[16 / sizeof(T)], uint32_t i0, uint32_t cnt) {
        vecBest(v, i0, cnt, best);
    });
    best = cub::BlockReduce<E, NT>(tmp).Reduce(best, EntryMax<K>());
    if (Team::size() == 1) {
        if (threadIdx.x == 0) storeIndex(a.rows.result, (ptrdiff_t)r * a.rows.result_stride, a.rows.result_size, best.idx);
        return;
    }
    Team::wait();
    if (threadIdx.x == 0) *Team::at(&s_parts[q], 0) = best;
    Team::sync();
    if (q == 0 && threadIdx.x == 0) {
        E all = s_parts[0];
        for (unsigned k = 1; k < Team::size(); ++k) {
            if (before(s_parts[k], all)) all = s_parts[k];
        }
        storeIndex(a.rows.result, (ptrdiff_t)r * a.rows.result_stride, a.rows.result_size, all.idx);
    }
}

// Launches argmaxKernel<T, NT, U> over `count` rows (team blocks each; a
// cluster when team > 1). Graph-capturable.
template <class T, int NT, int U>
infiniStatus_t launchArgmaxShape(const RowsArgs &rows, uint32_t count, int team, cudaStream_t stream) {
    const uint32_t y = count < kArgmaxGridY ? count : kArgmaxGridY;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3((unsigned)team, y, (count + y - 1) / y);
    cfg.blockDim = dim3((unsigned)NT, 1, 1);
    cfg.stream = stream;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = (unsigned)team;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = team > 1 ? 1 : 0;
    CUDA_TRY(cudaLaunchKernelEx(&cfg, argmaxKernel<T, NT, U>, ArgmaxArgs{rows, count}));
    return INFINI_STATUS_SUCCESS;
}

// Allows clusters of 16 (sm_90; a no-op elsewhere, where teams are 1).
template <class T, int NT, int U>
infiniStatus_t prepareArgmaxShape() {
    int device = 0, major = 0;
    CUDA_TRY(cudaGetDevice(&device));
    CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    if (major >= 9) {
        CUDA_TRY(cudaFuncSetAttribute(argmaxKernel<T, NT, U>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    }
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::random_sample::nvidia
