#pragma once
// Stores an index into an integer tensor whose element size is known only at run time.
#include <cstddef>
#include <cstdint>

namespace infini {

// result[offset] = idx for an element of `size` bytes (1, 2, 4 or 8; signed or
// unsigned alike, since idx fits the dtype).
__device__ inline void storeIndex(void *result, ptrdiff_t offset, int size, uint64_t idx) {
    char *p = static_cast<char *>(result) + offset * size;
    switch (size) {
    case 1: *reinterpret_cast<uint8_t *>(p) = (uint8_t)idx; break;
    case 2: *reinterpret_cast<uint16_t *>(p) = (uint16_t)idx; break;
    case 4: *reinterpret_cast<uint32_t *>(p) = (uint32_t)idx; break;
    default: *reinterpret_cast<uint64_t *>(p) = idx; break;
    }
}

} // namespace infini
