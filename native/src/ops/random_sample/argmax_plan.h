#pragma once
// RandomSample, NVIDIA: the shape of an argmax launch (argmax.cuh): its
// blocks, and how many read each row, decided on the host from the launch's shape alone. The
// constants were measured on the H100 (notes/argmax.md).
#include <cstddef>

namespace infini::random_sample::nvidia {

constexpr int kArgmaxMaxTeam = 16; // the largest (non-portable) cluster on sm_90
// The block shape of the library's argmax launches: threads, and 16-byte loads
// in flight per thread.
constexpr int kArgmaxThreads = 512, kArgmaxLoads = 8;

// The team size of an argmax launch over `rows` rows of `bytes` bytes each,
// on `sms` multiprocessors, teams of at most `max_team` blocks (1 without
// clusters): rows are split while the launch still fits on the GPU at once
// (kArgmaxBlocksPerSm blocks per multiprocessor) and every member keeps at
// least kArgmaxMinChunk bytes.
constexpr int kArgmaxBlocksPerSm = 2;
constexpr size_t kArgmaxMinChunk = 16 << 10;
inline int argmaxTeam(size_t rows, size_t bytes, int sms, int max_team) {
    int team = 1;
    while (team < max_team && rows * (size_t)team * 2 <= (size_t)sms * kArgmaxBlocksPerSm &&
           bytes / ((size_t)team * 2) >= kArgmaxMinChunk) {
        team *= 2;
    }
    return team;
}

} // namespace infini::random_sample::nvidia
