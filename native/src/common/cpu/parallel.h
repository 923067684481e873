#pragma once
// CPU-side helpers: element access for the 16-bit floats and a parallel-for.
#include "../dtype.h"
#include "thread_pool.h"
#include <cstddef>
#include <type_traits>

namespace infini::cpu {

template <class T> struct ComputeTypeOf { using type = T; };
template <> struct ComputeTypeOf<fp16_t> { using type = float; };
template <> struct ComputeTypeOf<bf16_t> { using type = float; };
template <class T>
using ComputeType = typename ComputeTypeOf<T>::type;

template <class T>
inline ComputeType<T> widen(T v) { return v; }
inline float widen(fp16_t v) { return toFloat(v); }
inline float widen(bf16_t v) { return toFloat(v); }

template <class T>
inline T narrow(ComputeType<T> v) {
    if constexpr (std::is_same_v<T, fp16_t> || std::is_same_v<T, bf16_t>) {
        return fromFloat(v, T{});
    } else {
        return static_cast<T>(v);
    }
}

// Below this much work (elements, roughly) a call stays on the calling
// thread: waking another costs more than it saves.
constexpr size_t kParallelGrain = 1 << 16;
// Work per piece handed out: small enough for the threads to share evenly
// (and for the caller to finish alone when a worker is slow to wake).
constexpr size_t kPieceWork = 1 << 15;

// Run body(i) for i in [0, n), on the pool's threads (thread_pool.h) when the
// work is large enough.
template <class F>
void parallelFor(size_t n, size_t work_per_item, F &&body) {
    const size_t work = n * (work_per_item ? work_per_item : 1);
    const size_t threads = n > 1 && work >= kParallelGrain ? poolThreads() : 1;
    if (threads <= 1) {
        for (size_t i = 0; i < n; ++i) {
            body(i);
        }
        return;
    }
    size_t pieces = work / kPieceWork;
    pieces = pieces < threads ? threads : (pieces > 16 * threads ? 16 * threads : pieces);
    pieces = pieces > n ? n : pieces;
    struct Job {
        std::remove_reference_t<F> *body;
        size_t n, pieces;
    } job{&body, n, pieces};
    runChunks(
        pieces,
        [](void *ctx, size_t c) {
            const Job &j = *static_cast<const Job *>(ctx);
            const size_t end = (c + 1) * j.n / j.pieces;
            for (size_t i = c * j.n / j.pieces; i < end; ++i) {
                (*j.body)(i);
            }
        },
        &job);
}

} // namespace infini::cpu
