#pragma once
// Order keys of floating-point bit patterns: unsigned integers ordered as the
// values are (larger value -> larger key), with -0 == +0 and every NaN below
// -inf (key 0). One branch-free formula for every width, so that host loops
// vectorise and device code compares keys instead of converted values.
#include "host_device.h"
#include <cstdint>

namespace infini {

// The +inf bit pattern of each format.
constexpr uint32_t kF16InfBits = 0x7c00u;
constexpr uint32_t kBF16InfBits = 0x7f80u;
constexpr uint32_t kF32InfBits = 0x7f800000u;
constexpr uint64_t kF64InfBits = 0x7ff0000000000000ull;

// The key of a B-bit pattern held in U (at least B bits wide). Negatives flip
// every bit, positives the sign bit; -0 (0x7ff..f after the flip) + 1 lands on
// +0's key; NaN (magnitude above inf) is multiplied to 0.
template <class U, int B>
INFINI_HD U orderKey(U bits, U inf_bits) {
    constexpr U sign = U(1) << (B - 1);
    constexpr U low = sign - 1;
    const U k = (U)((bits ^ (U)(((bits >> (B - 1)) * low) | sign)) + (U)(bits == sign));
    return (U)(k * (U)((bits & low) <= inf_bits));
}

// The bit pattern whose key is `key` (+0 for the key of +-0; a NaN pattern for
// key 0 and for keys that no value maps to).
template <class U, int B>
INFINI_HD U bitsOfKey(U key) {
    constexpr U sign = U(1) << (B - 1);
    constexpr U mask = (U)(sign | (sign - 1));
    return (key & sign) ? (U)(key & (sign - 1)) : (U)(~key & mask);
}

} // namespace infini
