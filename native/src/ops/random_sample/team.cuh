#pragma once
// The blocks that read one row together: the grid's x dimension (the team
// size, 1, 2, 4 or kCluster), y the row. A team of more than one block is a
// thread-block cluster (sm_90; the launcher sets the cluster dimension): its
// members exchange data through each other's shared memory (distributed
// shared memory) between team barriers. A team of one is a plain block.
#include "../../common/cuda/pdl.cuh"
#include "nvidia.cuh"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#include <cooperative_groups.h>
#define INFINI_RS_CLUSTERS 1
#endif

namespace infini::random_sample::nvidia {

struct Team {
    __device__ static unsigned size() { return gridDim.x; }
    // This block's place in the team (its chunk of the row).
    __device__ static unsigned rank() { return blockIdx.x; }
    // A barrier of every thread of every member; orders their shared-memory
    // accesses (release / acquire at cluster scope).
    __device__ static void sync() {
#ifdef INFINI_RS_CLUSTERS
        if (gridDim.x > 1) {
            cooperative_groups::this_cluster().sync();
            return;
        }
#endif
        __syncthreads();
    }
    // A split barrier: arrive() early (say, at the start: every member is
    // then known to run before any touches another's shared memory), wait()
    // before the first access to another member.
    __device__ static void arrive() {
#ifdef INFINI_RS_CLUSTERS
        if (gridDim.x > 1) asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
#endif
    }
    __device__ static void wait() {
#ifdef INFINI_RS_CLUSTERS
        if (gridDim.x > 1) asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
#endif
    }
    // The same shared variable in member q.
    template <class X>
    __device__ static X *at(X *p, unsigned q) {
#ifdef INFINI_RS_CLUSTERS
        if (gridDim.x > 1) return cooperative_groups::this_cluster().map_shared_rank(p, q);
#endif
        return p;
    }
};

// The launch configuration of a grid whose x dimension is the team: a cluster
// of grid.x blocks when there is more than one, PDL when `on` says so.
inline LaunchConfig teamLaunchConfig(dim3 grid, int threads, size_t smem, LaunchStream on) {
    LaunchConfig config(grid, dim3((unsigned)threads, 1, 1), smem, on.stream);
    if (grid.x > 1) {
        config.cluster(grid.x);
    }
    config.pdl(on.pdl);
    return config;
}

} // namespace infini::random_sample::nvidia
