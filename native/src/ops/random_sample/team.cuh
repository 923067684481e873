#pragma once
// The blocks that read one row together: a thread-block cluster of C blocks
// (sm_90; the grid's x dimension is the cluster, y the row) or, with C == 1,
// a single block. Members exchange data through each other's shared memory
// (distributed shared memory) between team barriers.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#include <cooperative_groups.h>
#define INFINI_RS_CLUSTERS 1
#endif

namespace infini::random_sample::nvidia {

template <int C>
struct Team {
    // This block's place in the team (its chunk of the row).
    __device__ static unsigned rank() { return C == 1 ? 0u : blockIdx.x; }
    // A barrier of every thread of every member; orders their shared-memory
    // accesses (release / acquire at cluster scope).
    __device__ static void sync() {
        if constexpr (C == 1) {
            __syncthreads();
        } else {
#ifdef INFINI_RS_CLUSTERS
            cooperative_groups::this_cluster().sync();
#else
            __trap(); // never launched below sm_90 (checked at Create)
#endif
        }
    }
    // A split barrier: arrive() early (say, at the start: every member is
    // then known to run before any touches another's shared memory), wait()
    // before the first access to another member.
    __device__ static void arrive() {
#ifdef INFINI_RS_CLUSTERS
        if constexpr (C > 1) asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
#endif
    }
    __device__ static void wait() {
#ifdef INFINI_RS_CLUSTERS
        if constexpr (C > 1) asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
#endif
    }
    // The same shared variable in member q.
    template <class X>
    __device__ static X *at(X *p, unsigned q) {
        if constexpr (C == 1) {
            return p;
        } else {
#ifdef INFINI_RS_CLUSTERS
            return cooperative_groups::this_cluster().map_shared_rank(p, q);
#else
            return p;
#endif
        }
    }
};

} // namespace infini::random_sample::nvidia
