#pragma once
// A global load that also asks L2 to fetch the whole aligned BYTES-byte block
// around it from DRAM (PTX ld's .L2::64B/128B/256B prefetch size): fewer,
// larger DRAM reads where a warp's neighbours will want the rest soon.
// BYTES 0: a plain load. Volatile, so that it stays after griddepcontrol.wait.
#include <cstdint>
#include <cstring>

namespace infini {

#define INFINI_LD_PREFETCH_AS(SIZE)                                                                            \
    if constexpr (sizeof(T) == 16) {                                                                           \
        uint4 v;                                                                                               \
        asm volatile("ld.global.L2::" SIZE ".v4.u32 {%0, %1, %2, %3}, [%4];"                                  \
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)                                              \
                     : "l"(p));                                                                                \
        memcpy(&r, &v, 16);                                                                                    \
    } else if constexpr (sizeof(T) == 8) {                                                                     \
        uint2 v;                                                                                               \
        asm volatile("ld.global.L2::" SIZE ".v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));        \
        memcpy(&r, &v, 8);                                                                                     \
    } else if constexpr (sizeof(T) == 4) {                                                                     \
        uint32_t v;                                                                                            \
        asm volatile("ld.global.L2::" SIZE ".u32 %0, [%1];" : "=r"(v) : "l"(p));                               \
        memcpy(&r, &v, 4);                                                                                     \
    } else {                                                                                                   \
        static_assert(sizeof(T) == 2, "2, 4, 8 or 16 bytes");                                                  \
        unsigned short v;                                                                                      \
        asm volatile("ld.global.L2::" SIZE ".u16 %0, [%1];" : "=h"(v) : "l"(p));                               \
        memcpy(&r, &v, 2);                                                                                     \
    }

template <int BYTES, class T>
__device__ __forceinline__ T ldPrefetch(const T *p) {
    static_assert(BYTES == 0 || BYTES == 64 || BYTES == 128 || BYTES == 256, "an L2 prefetch size");
    if constexpr (BYTES == 0) {
        return *p;
    } else {
        T r;
        if constexpr (BYTES == 64) {
            INFINI_LD_PREFETCH_AS("64B")
        } else if constexpr (BYTES == 128) {
            INFINI_LD_PREFETCH_AS("128B")
        } else {
            INFINI_LD_PREFETCH_AS("256B")
        }
        return r;
    }
}

#undef INFINI_LD_PREFETCH_AS

} // namespace infini
