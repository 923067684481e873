// Worker threads for parallelFor (see thread_pool.h).
//
// A job's pieces are claimed from one 64-bit counter holding (job number,
// next piece): a worker that copied an older job's fields cannot claim a piece
// of a newer job, so it never calls a function whose context has gone. The
// caller waits only for pieces that were claimed.
#include "thread_pool.h"
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <pthread.h>
#include <thread>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define INFINI_PAUSE() _mm_pause()
#else
#define INFINI_PAUSE() ((void)0)
#endif

namespace infini::cpu {
namespace {

thread_local bool t_in_job = false; // nested calls run on their own thread
// Set in a child after fork(): its workers do not exist and the pool's mutexes
// may have been held by them, so the child runs every call on its own thread.
std::atomic<bool> g_forked{false};

struct Pool {
    std::mutex m;                 // guards the job's fields and `job` below
    std::condition_variable wake; // a new job
    std::mutex busy;              // held by the caller running a job
    uint32_t job = 0;             // the published job number
    ChunkFn fn = nullptr;
    void *ctx = nullptr;
    size_t chunks = 0;
    std::atomic<uint64_t> next{0}; // (job << 32) | next piece
    std::atomic<size_t> done{0};   // pieces finished in this job
    size_t threads = 1;

    Pool() {
#ifdef _OPENMP
        threads = (size_t)(omp_get_max_threads() > 0 ? omp_get_max_threads() : 1);
#else
        threads = std::thread::hardware_concurrency() ? std::thread::hardware_concurrency() : 1;
#endif
        pthread_atfork(nullptr, nullptr, [] { g_forked.store(true); });
        for (size_t i = 1; i < threads; ++i) {
            std::thread(&Pool::work, this).detach(); // they live as long as the process
        }
    }

    // Claims and runs pieces of job `j` until none is left; returns how many it ran.
    size_t drain(uint32_t j, ChunkFn f, void *c, size_t n) {
        size_t ran = 0;
        uint64_t v = next.load(std::memory_order_relaxed);
        for (;;) {
            if ((uint32_t)(v >> 32) != j || (v & 0xffffffffu) >= n) {
                return ran;
            }
            if (next.compare_exchange_weak(v, v + 1, std::memory_order_acq_rel)) {
                f(c, (size_t)(v & 0xffffffffu));
                done.fetch_add(1, std::memory_order_release);
                ++ran;
                v = next.load(std::memory_order_relaxed);
            }
        }
    }

    [[noreturn]] void work() {
        t_in_job = true;
        uint32_t seen = 0;
        for (;;) {
            uint32_t j;
            ChunkFn f;
            void *c;
            size_t n;
            {
                std::unique_lock<std::mutex> lock(m);
                if (job == seen) {
                    // Poll briefly first: back-to-back calls then find us awake.
                    lock.unlock();
                    for (int spin = 0; spin < 4000 && (uint32_t)(next.load(std::memory_order_relaxed) >> 32) == seen;
                         ++spin) {
                        INFINI_PAUSE();
                    }
                    lock.lock();
                    wake.wait(lock, [&] { return job != seen; });
                }
                j = seen = job;
                f = fn;
                c = ctx;
                n = chunks;
            }
            drain(j, f, c, n);
        }
    }

    void run(size_t n, ChunkFn f, void *c) {
        std::unique_lock<std::mutex> own(busy, std::try_to_lock);
        if (!own.owns_lock() || t_in_job || n > 0xffffffffu) { // busy, nested or huge: alone
            for (size_t i = 0; i < n; ++i) {
                f(c, i);
            }
            return;
        }
        uint32_t j;
        {
            std::lock_guard<std::mutex> lock(m);
            j = ++job;
            fn = f;
            ctx = c;
            chunks = n;
            done.store(0, std::memory_order_relaxed);
            next.store((uint64_t)j << 32, std::memory_order_release);
        }
        wake.notify_all();
        t_in_job = true;
        drain(j, f, c, n);
        t_in_job = false;
        // Pieces claimed by workers may still run: wait for them (only them).
        for (int spin = 0; done.load(std::memory_order_acquire) < n; ++spin) {
            if (spin < 20000) {
                INFINI_PAUSE();
            } else {
                std::this_thread::yield();
            }
        }
    }
};

Pool &pool() {
    static Pool *p = new Pool; // never destroyed: detached workers use it until exit
    return *p;
}

} // namespace

size_t poolThreads() { return pool().threads; }

void runChunks(size_t chunks, ChunkFn fn, void *ctx) {
    if (chunks <= 1 || poolThreads() <= 1 || g_forked.load(std::memory_order_relaxed)) {
        for (size_t i = 0; i < chunks; ++i) {
            fn(ctx, i);
        }
        return;
    }
    pool().run(chunks, fn, ctx);
}

} // namespace infini::cpu
