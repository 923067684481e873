#pragma once
// Dtype facts and the one dtype-dispatch helper used by every operator and backend.
#include "infinicore.h"
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace infini {

// Size in bytes of one element; 0 for INVALID and out-of-range values.
constexpr size_t dtypeSize(infiniDtype_t dt) {
    switch (dt) {
    case INFINI_DTYPE_BYTE: case INFINI_DTYPE_BOOL: case INFINI_DTYPE_I8: case INFINI_DTYPE_U8: case INFINI_DTYPE_F8:
        return 1;
    case INFINI_DTYPE_I16: case INFINI_DTYPE_U16: case INFINI_DTYPE_F16: case INFINI_DTYPE_BF16: case INFINI_DTYPE_C16:
        return 2;
    case INFINI_DTYPE_I32: case INFINI_DTYPE_U32: case INFINI_DTYPE_F32: case INFINI_DTYPE_C32:
        return 4;
    case INFINI_DTYPE_I64: case INFINI_DTYPE_U64: case INFINI_DTYPE_F64: case INFINI_DTYPE_C64:
        return 8;
    case INFINI_DTYPE_C128:
        return 16;
    default:
        return 0;
    }
}

constexpr bool dtypeValid(infiniDtype_t dt) { return dtypeSize(dt) != 0; }

constexpr bool dtypeIsInteger(infiniDtype_t dt) {
    return (dt >= INFINI_DTYPE_I8 && dt <= INFINI_DTYPE_U64);
}

constexpr bool dtypeIsSigned(infiniDtype_t dt) {
    return dt >= INFINI_DTYPE_I8 && dt <= INFINI_DTYPE_I64;
}

template <infiniDtype_t D>
using DtypeTag = std::integral_constant<infiniDtype_t, D>;

// Call f(DtypeTag<D>{}) for the D among `Ds` that equals `dt` and return its
// status; BAD_TENSOR_DTYPE when `dt` is not in the list. Backends map the tag
// to their own element type (HostType below, DeviceType in cuda/dtype.cuh).
template <infiniDtype_t... Ds, class F>
inline infiniStatus_t dispatchDtype(infiniDtype_t dt, F &&f) {
    infiniStatus_t status = INFINI_STATUS_BAD_TENSOR_DTYPE;
    (void)((dt == Ds ? (status = f(DtypeTag<Ds>{}), true) : false) || ...);
    return status;
}

// Dtype lists shared by the operators.
#define INFINI_FLOAT_DTYPES INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64
#define INFINI_INT_DTYPES                                                                            \
    INFINI_DTYPE_I8, INFINI_DTYPE_I16, INFINI_DTYPE_I32, INFINI_DTYPE_I64, INFINI_DTYPE_U8, INFINI_DTYPE_U16, \
        INFINI_DTYPE_U32, INFINI_DTYPE_U64

// Host storage types for the 16-bit floats; arithmetic goes through float.
struct fp16_t {
    uint16_t bits;
};
struct bf16_t {
    uint16_t bits;
};

inline float toFloat(fp16_t h) {
    uint32_t sign = (uint32_t)(h.bits & 0x8000u) << 16;
    uint32_t exp = (h.bits >> 10) & 0x1fu;
    uint32_t man = h.bits & 0x3ffu;
    uint32_t bits;
    if (exp == 0x1f) { // inf / nan (quieted, payload kept: as F16C's vcvtph2ps)
        bits = sign | 0x7f800000u | (man << 13) | (man != 0 ? 0x400000u : 0u);
    } else if (exp != 0) { // normal
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man == 0) { // zero
        bits = sign;
    } else { // subnormal: normalise
        int e = -1;
        do {
            man <<= 1;
            ++e;
        } while ((man & 0x400u) == 0);
        bits = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3ffu) << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// Round to nearest even, with overflow to inf and gradual underflow.
inline fp16_t fromFloat(float f, fp16_t) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t abs = x & 0x7fffffffu;
    if (abs > 0x7f800000u) { // nan: quieted, top payload bits kept (as F16C's vcvtps2ph)
        return {(uint16_t)(sign | 0x7e00u | ((abs >> 13) & 0x3ffu))};
    }
    if (abs == 0x7f800000u) { // inf
        return {(uint16_t)(sign | 0x7c00u)};
    }
    if (abs >= 0x477ff000u) { // rounds to >= 65520: inf
        return {(uint16_t)(sign | 0x7c00u)};
    }
    if (abs < 0x38800000u) { // below the smallest normal half: subnormal or zero
        if (abs < 0x33000000u) { // below half of the smallest subnormal
            return {sign};
        }
        uint32_t exp = abs >> 23;
        uint32_t man = (abs & 0x7fffffu) | 0x800000u;
        uint32_t shift = 126u - exp; // 14 .. 24
        uint32_t q = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1u);
        uint32_t half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (q & 1u))) {
            ++q;
        }
        return {(uint16_t)(sign | q)};
    }
    uint32_t q = (abs >> 13) - (112u << 10);
    uint32_t rem = abs & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (q & 1u))) {
        ++q;
    }
    return {(uint16_t)(sign | q)};
}

inline float toFloat(bf16_t b) {
    uint32_t bits = (uint32_t)b.bits << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

inline bf16_t fromFloat(float f, bf16_t) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) { // nan: keep it quiet
        return {(uint16_t)((x >> 16) | 0x40u)};
    }
    x += 0x7fffu + ((x >> 16) & 1u);
    return {(uint16_t)(x >> 16)};
}

// Round a double to BF16 once (nearest even): through float rounded to odd,
// which keeps enough bits (and a sticky bit) for the second rounding to be exact.
inline bf16_t bf16FromDouble(double d) {
    float f = (float)d;
    if (d == d && (double)f != d) {
        uint32_t x;
        std::memcpy(&x, &f, 4);
        if (std::fabs((double)f) > std::fabs(d)) { // rounded away from zero: step back
            --x;
        }
        x |= 1u; // inexact: the sticky bit
        std::memcpy(&f, &x, 4);
    }
    return fromFloat(f, bf16_t{});
}

template <infiniDtype_t D> struct HostTypeOf;
template <> struct HostTypeOf<INFINI_DTYPE_BYTE> { using type = uint8_t; };
template <> struct HostTypeOf<INFINI_DTYPE_BOOL> { using type = uint8_t; };
template <> struct HostTypeOf<INFINI_DTYPE_I8> { using type = int8_t; };
template <> struct HostTypeOf<INFINI_DTYPE_I16> { using type = int16_t; };
template <> struct HostTypeOf<INFINI_DTYPE_I32> { using type = int32_t; };
template <> struct HostTypeOf<INFINI_DTYPE_I64> { using type = int64_t; };
template <> struct HostTypeOf<INFINI_DTYPE_U8> { using type = uint8_t; };
template <> struct HostTypeOf<INFINI_DTYPE_U16> { using type = uint16_t; };
template <> struct HostTypeOf<INFINI_DTYPE_U32> { using type = uint32_t; };
template <> struct HostTypeOf<INFINI_DTYPE_U64> { using type = uint64_t; };
template <> struct HostTypeOf<INFINI_DTYPE_F16> { using type = fp16_t; };
template <> struct HostTypeOf<INFINI_DTYPE_BF16> { using type = bf16_t; };
template <> struct HostTypeOf<INFINI_DTYPE_F32> { using type = float; };
template <> struct HostTypeOf<INFINI_DTYPE_F64> { using type = double; };

// The host element type of a dispatched tag: HostType<decltype(tag)>.
template <class Tag>
using HostType = typename HostTypeOf<Tag::value>::type;

} // namespace infini
