#pragma once
// Bulk copies from global to shared memory on sm_90 (the copy engine of each
// multiprocessor, `cp.async.bulk`), completing on a shared-memory barrier
// (`mbarrier`) that counts the bytes landed. A block that streams this way
// keeps far more bytes in flight than its threads' own loads can (those stop
// at about 16 KB per multiprocessor on the H100: notes/argmax.md).
//
// Use: one thread initialises the barrier (bulkBarrierInit), the block syncs;
// per phase one thread calls bulkExpect(bar, total bytes) and issues the
// bulkCopy calls that make up that total; every reader waits with
// bulkWait(bar, phase & 1). Addresses and sizes: multiples of 16 bytes.
#include <cstdint>

namespace infini {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define INFINI_BULK_COPY 1

__device__ inline uint32_t sharedAddress(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

// Orders this thread's shared-memory accesses (generic proxy) before the copy
// engine's (async proxy) that a later barrier lets another thread issue: its
// writes before a bulk store reads them, its reads before a bulk copy
// overwrites the places, a barrier's initialisation before a copy completes on it.
__device__ inline void asyncProxyFence() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

__device__ inline void bulkBarrierInit(uint64_t *bar) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sharedAddress(bar)) : "memory");
    // The barrier is then visible to the copy engine (async proxy) as well.
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asyncProxyFence();
}

// The calling thread's arrival for this phase, which also completes only after `bytes` land.
__device__ inline void bulkExpect(uint64_t *bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sharedAddress(bar)), "r"(bytes)
                 : "memory");
}

__device__ inline void bulkCopy(void *dst_shared, const void *src_global, uint32_t bytes, uint64_t *bar) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     sharedAddress(dst_shared)),
                 "l"(src_global), "r"(bytes), "r"(sharedAddress(bar))
                 : "memory");
}

// The same with an L2 cache policy (createpolicy) for the lines it reads.
__device__ inline void bulkCopyHint(void *dst_shared, const void *src_global, uint32_t bytes, uint64_t *bar,
                                    uint64_t policy) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], "
                 "%4;" ::"r"(sharedAddress(dst_shared)),
                 "l"(src_global), "r"(bytes), "r"(sharedAddress(bar)), "l"(policy)
                 : "memory");
}

// Per-thread async copies (`cp.async`, 16 bytes each; sm_80 on) completing on
// the same kind of barrier: initialised for `count` arrivals a phase
// (barrierInit), each of `count` threads issues its copies of the phase and
// then asyncArrive, which arrives once every copy the thread issued so far
// has landed. A thread that reads only what it copied itself reuses those
// places with no block-wide barrier. (H100, 132 SMs x 508 KB: 23.6 µs this
// way against 25.2 with bulk copies; tools/readrate_probe.cu --async.)
__device__ inline void barrierInit(uint64_t *bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sharedAddress(bar)), "r"(count) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// L2 policy `policy` (createpolicy) for the line it reads when `hinted`.
__device__ inline void asyncCopy16(void *dst_shared, const void *src_global, bool hinted, uint64_t policy) {
    if (hinted) {
        asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;" ::"r"(sharedAddress(dst_shared)),
                     "l"(src_global), "l"(policy)
                     : "memory");
    } else {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sharedAddress(dst_shared)), "l"(src_global)
                     : "memory");
    }
}

__device__ inline void asyncArrive(uint64_t *bar) {
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(sharedAddress(bar)) : "memory");
}

// Asks L2 to fetch `bytes` (a multiple of 16) from 16-byte aligned `src`: a
// hint with no effect on memory consistency, so a kernel launched with
// programmatic dependent launch may issue it before it waits for the previous
// kernel (L2 is where every store lands; the loads after the wait see them).
__device__ inline void bulkPrefetchL2(const void *src, uint32_t bytes) {
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(src), "r"(bytes) : "memory");
}

// Waits until the phase of parity `parity` of the barrier has completed.
__device__ inline void bulkWait(uint64_t *bar, uint32_t parity) {
    uint32_t done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(sharedAddress(bar)), "r"(parity)
                     : "memory");
    }
}
#endif

} // namespace infini
