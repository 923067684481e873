#pragma once
// Stage: argmax of whole launches (every row takes the argmax rule). One team
// per row reads the row once at the copy roofline; each member reduces its
// chunk to (order key, lowest index) and pushes it into member 0's shared
// memory; after one team barrier member 0 writes the result.
#include "device.cuh"
#include "team.cuh"
#include <cub/block/block_reduce.cuh>

namespace infini::random_sample::nvidia {

constexpr int kArgmaxThreads = 512;

template <class T>
__global__ void __launch_bounds__(kArgmaxThreads, 2) argmaxKernel(const __grid_constant__ RowsArgs a) {
    using K = KeyType<T>;
    using E = Entry<K>;
    __shared__ typename cub::BlockReduce<E, kArgmaxThreads>::TempStorage tmp;
    __shared__ E s_parts[kCluster];
    Team::arrive(); // members start together; the push below waits for that
    const unsigned q = Team::rank();
    const T *row = static_cast<const T *>(a.probs) + (ptrdiff_t)blockIdx.y * a.row_stride;
    uint32_t begin, end;
    chunkOf<T>(a.n, Team::size(), q, &begin, &end);
    E best = noEntry<K>();
    forVectors<kArgmaxThreads>(row, begin, end, [&](const T (&v)[16 / sizeof(T)], uint32_t i0, uint32_t cnt) {
        vecBest(v, i0, cnt, best);
    });
    best = cub::BlockReduce<E, kArgmaxThreads>(tmp).Reduce(best, EntryMax<K>());
    Team::wait();
    if (threadIdx.x == 0) *Team::at(&s_parts[q], 0) = best;
    Team::sync();
    if (q == 0 && threadIdx.x == 0) {
        E all = s_parts[0];
        for (unsigned k = 1; k < Team::size(); ++k) {
            if (before(s_parts[k], all)) all = s_parts[k];
        }
        storeIndex(a.result, (ptrdiff_t)blockIdx.y * a.result_stride, a.result_size, all.idx);
    }
}

} // namespace infini::random_sample::nvidia
