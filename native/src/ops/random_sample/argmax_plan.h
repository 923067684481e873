#pragma once
// RandomSample, NVIDIA: the shape of an argmax launch (argmax.cuh): its
// blocks, and how many read each row, decided on the host from the launch's shape alone. The
// constants were measured on the H100 (notes/argmax.md).
#include <array>
#include <cstddef>
#include <cstdint>

namespace infini::random_sample::nvidia {

constexpr int kArgmaxMaxTeam = 16; // the largest (non-portable) cluster on sm_90
// Teams of 2^l blocks of a kernel that fit on the GPU at once, fit[l] for
// l = 1..4 (cudaOccupancyMaxActiveClusters; 0: none, or unknown): the argmax
// launches' here, the sampling launches' in nvidia.cu.
using TeamFit = std::array<int, 5>;
constexpr int fitLevel(int team) { return team >= 16 ? 4 : team >= 8 ? 3 : team >= 4 ? 2 : team >= 2 ? 1 : 0; }
constexpr int kPortableTeam = 8;   // the largest cluster every sm_90 GPU launches
// The block shape of the library's argmax launches (launch.cuh): threads, and
// 16-byte loads in flight per thread; the bulk-copy kernel's threads.
constexpr int kArgmaxThreads = 256, kArgmaxLoads = 4, kArgmaxBulkThreads = 512;

// Whether sm_90 argmax launches read through bulk copies (argmaxBulkKernel)
// instead of the threads' own loads. Off: the bulk-copy kernel compiles and
// is in tools/argmax_sweep.cu, but has not yet run on a GPU (notes/argmax.md).
constexpr bool kArgmaxBulk = false;
// Bytes of each of the two shared-memory stages of a bulk-copy block.
constexpr uint32_t kArgmaxStage = 96u << 10;
// Teams split rows down to chunks of at least this many bytes.
constexpr size_t kArgmaxMinChunk = 8u << 10;

// The team size of an argmax launch over `rows` rows of `bytes` bytes each on
// `sms` multiprocessors. fit[l]: how many teams of 2^l blocks fit on the GPU
// at once (cudaOccupancyMaxActiveClusters), 0 where clusters are not
// available. Rows are split while every block still gets its own
// multiprocessor, every team is resident at once (a second wave of clusters
// doubled the time on the H100) and chunks keep kArgmaxMinChunk bytes;
// batches of more rows than that read one row per block.
inline int argmaxTeam(size_t rows, size_t bytes, int sms, const TeamFit &fit) {
    int team = 1;
    for (int l = 1; l < 5; ++l) {
        const size_t t = (size_t)1 << l;
        if (rows * t > (size_t)sms || (size_t)fit[l] < rows || bytes / t < kArgmaxMinChunk) break;
        team = (int)t;
    }
    return team;
}

// The stage size of a bulk-copy launch: whole stages for teams (one block per
// multiprocessor spreads a team over as many), else two halves of the row
// (short rows: several blocks per multiprocessor).
inline uint32_t argmaxStageBytes(size_t n, size_t esize, int team) {
    if (team > 1) return kArgmaxStage;
    const size_t half = ((n * esize + 1) / 2 + 15) / 16 * 16;
    return half < 16 ? 16u : half > kArgmaxStage ? kArgmaxStage : (uint32_t)half;
}

} // namespace infini::random_sample::nvidia
