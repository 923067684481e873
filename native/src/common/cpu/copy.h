#pragma once
// Byte copies too large for the caches: non-temporal stores on the process's
// vector path (they skip the read-for-ownership of the destination, a third
// of a cached copy's traffic). Smaller copies should use memcpy.
#include "isa.h"
#include "simd.h"
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace infini::cpu::copy {
#define INFINI_CPU_KERNELS "common/cpu/copy_kernels.inc"
#include "foreach_isa.h"
} // namespace infini::cpu::copy

namespace infini::cpu {

// Copies of at least this many bytes in all stream past the caches.
constexpr size_t kStreamBytes = size_t(16) << 20;

inline void streamCopy(void *dst, const void *src, size_t n) {
    using namespace copy;
    auto *d = static_cast<unsigned char *>(dst);
    auto *s = static_cast<const unsigned char *>(src);
    INFINI_CPU_DISPATCH(streamCopy(d, s, n));
}

} // namespace infini::cpu
