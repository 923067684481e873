#pragma once
// The CPU backend's worker threads: the caller publishes a job of `chunks`
// independent pieces, takes pieces itself, and returns once every piece taken
// (by anyone) is done. A worker that wakes late finds nothing left and goes
// back to sleep, so a call never waits for a thread that was not scheduled
// (an OpenMP region's end barrier does: on a busy machine, a whole time
// slice). One job at a time; a call made while a job runs (another thread's,
// or a nested one) runs on its own thread.
#include <cstddef>

namespace infini::cpu {

using ChunkFn = void (*)(void *ctx, size_t chunk);

// Threads a job may use, the caller included (OMP_NUM_THREADS respected).
size_t poolThreads();

// Runs fn(ctx, c) for every c in [0, chunks), each exactly once.
void runChunks(size_t chunks, ChunkFn fn, void *ctx);

} // namespace infini::cpu
