#pragma once
// The vector vocabulary of the CPU kernels, one struct per path of isa.h:
// VecAvx512 (16 float lanes), VecAvx2 (8), VecBase (4, GCC's portable vector
// extension: SSE2 on x86-64). Arithmetic is written with GCC's vector
// operators (+, *, <, ?:) on V::F; the structs add what operators cannot say:
// loads and stores of the 16-bit floats, abs, sqrt, horizontal reductions.
// Each struct's functions carry the target of their path, so only kernels
// compiled for that path (foreach_isa.h) may call them.
#include "../dtype.h"
#include <cstdint>
#include <cstring>
#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized" // GCC 12's _mm512_undefined_* false positives
#include <immintrin.h>
#pragma GCC diagnostic pop
#define INFINI_CPU_X86 1
#endif
// These functions are always inlined into kernels of their own target, so no
// vector ever crosses a call boundary: the ABI note does not apply.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

#define INFINI_VEC_INLINE __attribute__((always_inline)) inline

namespace infini::cpu {

// What every vector struct has, written once with GCC's vector operators and
// expanded inside each struct (so inside its target): BF16 rounding of float
// bits (nearest even, NaN kept quiet), abs, max, horizontal max and sum.
#define INFINI_VEC_COMMON                                                                     \
    static INFINI_VEC_INLINE I bf16RoundBits(I x) {                                           \
        const I nan = (x & 0x7fffffff) > 0x7f800000;                                          \
        const I rounded = (x + 0x7fff + ((x >> 16) & 1)) >> 16;                               \
        return nan ? ((x >> 16) | 0x40) : rounded;                                            \
    }                                                                                         \
    static INFINI_VEC_INLINE F abs(F v) { return (F)((I)v & 0x7fffffff); }                    \
    /* a NaN in b never wins */                                                               \
    static INFINI_VEC_INLINE F max(F a, F b) { return b > a ? b : a; }                        \
    static INFINI_VEC_INLINE float reduceMax(F v) {                                           \
        float m = v[0];                                                                       \
        for (int k = 1; k < W; ++k) {                                                         \
            m = v[k] > m ? v[k] : m;                                                          \
        }                                                                                     \
        return m;                                                                             \
    }                                                                                         \
    static INFINI_VEC_INLINE float reduceAdd(F v) {                                           \
        float t = 0;                                                                          \
        for (int k = 0; k < W; ++k) {                                                         \
            t += v[k];                                                                        \
        }                                                                                     \
        return t;                                                                             \
    }

// Orders non-temporal stores before what follows (another thread may read them next).
inline void streamFence() {
#ifdef INFINI_CPU_X86
    _mm_sfence();
#endif
}

struct VecBase {
    static constexpr int W = 4;
    typedef float F __attribute__((vector_size(16)));
    typedef int32_t I __attribute__((vector_size(16)));
    typedef uint16_t H __attribute__((vector_size(8)));
    INFINI_VEC_COMMON

    static INFINI_VEC_INLINE F set1(float v) { return F{v, v, v, v}; }
    static INFINI_VEC_INLINE I set1(int32_t v) { return I{v, v, v, v}; }
    // Whether any lane of a comparison's result is set.
    static INFINI_VEC_INLINE bool any(I m) { return (m[0] | m[1] | m[2] | m[3]) != 0; }
    static INFINI_VEC_INLINE F load(const float *p) {
        F v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
#ifdef INFINI_CPU_X86
    static INFINI_VEC_INLINE F sqrt(F v) { return (F)_mm_sqrt_ps((__m128)v); }
#else
    static INFINI_VEC_INLINE F sqrt(F v) {
        return F{__builtin_sqrtf(v[0]), __builtin_sqrtf(v[1]), __builtin_sqrtf(v[2]), __builtin_sqrtf(v[3])};
    }
#endif
    static INFINI_VEC_INLINE void store(float *p, F v) { std::memcpy(p, &v, sizeof v); }
    static INFINI_VEC_INLINE I loadU16(const uint16_t *p) {
        H h;
        std::memcpy(&h, p, sizeof h);
        return __builtin_convertvector(h, I);
    }
    static INFINI_VEC_INLINE F load(const bf16_t *p) { return (F)(loadU16(&p->bits) << 16); }
    static INFINI_VEC_INLINE void store(bf16_t *p, F v) {
        const H h = __builtin_convertvector(bf16RoundBits((I)v), H);
        std::memcpy(p, &h, sizeof h);
    }
    // 64 bytes to a 64-byte aligned d, bypassing the caches where the ISA can.
    static INFINI_VEC_INLINE void stream64(unsigned char *d, const unsigned char *s) {
#ifdef INFINI_CPU_X86
        for (int k = 0; k < 4; ++k) {
            _mm_stream_si128(reinterpret_cast<__m128i *>(d) + k,
                             _mm_loadu_si128(reinterpret_cast<const __m128i *>(s) + k));
        }
#else
        std::memcpy(d, s, 64);
#endif
    }
    // Non-temporal store of one vector to an address aligned to its size
    // (16-bit floats: a plain store on this path).
    static INFINI_VEC_INLINE void stream(float *p, F v) {
#ifdef INFINI_CPU_X86
        _mm_stream_ps(p, (__m128)v);
#else
        store(p, v);
#endif
    }
    template <class T>
    static INFINI_VEC_INLINE void stream(T *p, F v) {
        store(p, v);
    }
    static INFINI_VEC_INLINE F load(const fp16_t *p) { // no F16C assumed
        return F{toFloat(p[0]), toFloat(p[1]), toFloat(p[2]), toFloat(p[3])};
    }
    static INFINI_VEC_INLINE void store(fp16_t *p, F v) {
        for (int k = 0; k < W; ++k) {
            p[k] = fromFloat(v[k], fp16_t{});
        }
    }
};

#ifdef INFINI_CPU_X86
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
struct VecAvx2 {
    static constexpr int W = 8;
    typedef __m256 F;
    typedef int32_t I __attribute__((vector_size(32)));
    typedef uint16_t H __attribute__((vector_size(16)));
    INFINI_VEC_COMMON

    static INFINI_VEC_INLINE F set1(float v) { return _mm256_set1_ps(v); }
    static INFINI_VEC_INLINE I set1(int32_t v) { return (I)_mm256_set1_epi32(v); }
    static INFINI_VEC_INLINE bool any(I m) { return !_mm256_testz_si256((__m256i)m, (__m256i)m); }
    static INFINI_VEC_INLINE F load(const float *p) { return _mm256_loadu_ps(p); }
    static INFINI_VEC_INLINE F sqrt(F v) { return _mm256_sqrt_ps(v); }
    static INFINI_VEC_INLINE void stream(float *p, F v) { _mm256_stream_ps(p, v); }
    static INFINI_VEC_INLINE void stream(fp16_t *p, F v) {
        _mm_stream_si128(reinterpret_cast<__m128i *>(p), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    }
    static INFINI_VEC_INLINE void stream(bf16_t *p, F v) {
        const __m256i r = (__m256i)(bf16RoundBits((I)v) & 0xffff);
        _mm_stream_si128(reinterpret_cast<__m128i *>(p),
                         _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1)));
    }
    static INFINI_VEC_INLINE void stream64(unsigned char *d, const unsigned char *s) {
        _mm256_stream_si256(reinterpret_cast<__m256i *>(d), _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s)));
        _mm256_stream_si256(reinterpret_cast<__m256i *>(d) + 1,
                            _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s) + 1));
    }
    static INFINI_VEC_INLINE void store(float *p, F v) { _mm256_storeu_ps(p, v); }
    static INFINI_VEC_INLINE F load(const fp16_t *p) {
        return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
    }
    static INFINI_VEC_INLINE void store(fp16_t *p, F v) {
        _mm_storeu_si128(reinterpret_cast<__m128i *>(p), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    }
    static INFINI_VEC_INLINE I loadU16(const uint16_t *p) {
        return (I)_mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
    }
    static INFINI_VEC_INLINE F load(const bf16_t *p) { return (F)(loadU16(&p->bits) << 16); }
    static INFINI_VEC_INLINE void store(bf16_t *p, F v) {
        const __m256i r = (__m256i)(bf16RoundBits((I)v) & 0xffff); // packus saturates: clear the sign's copies
        const __m128i packed = _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
        _mm_storeu_si128(reinterpret_cast<__m128i *>(p), packed);
    }
};
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c")
struct VecAvx512 {
    static constexpr int W = 16;
    typedef __m512 F;
    typedef int32_t I __attribute__((vector_size(64)));
    INFINI_VEC_COMMON

    static INFINI_VEC_INLINE F set1(float v) { return _mm512_set1_ps(v); }
    static INFINI_VEC_INLINE I set1(int32_t v) { return (I)_mm512_set1_epi32(v); }
    static INFINI_VEC_INLINE bool any(I m) { return _mm512_test_epi32_mask((__m512i)m, (__m512i)m) != 0; }
    static INFINI_VEC_INLINE F load(const float *p) { return _mm512_loadu_ps(p); }
    static INFINI_VEC_INLINE F sqrt(F v) { return _mm512_sqrt_ps(v); }
    static INFINI_VEC_INLINE void stream64(unsigned char *d, const unsigned char *s) {
        _mm512_stream_si512(reinterpret_cast<__m512i *>(d), _mm512_loadu_si512(s));
    }
    static INFINI_VEC_INLINE void stream(float *p, F v) { _mm512_stream_ps(p, v); }
    static INFINI_VEC_INLINE void stream(fp16_t *p, F v) {
        _mm256_stream_si256(reinterpret_cast<__m256i *>(p), _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    }
    static INFINI_VEC_INLINE void stream(bf16_t *p, F v) {
        _mm256_stream_si256(reinterpret_cast<__m256i *>(p), _mm512_cvtepi32_epi16((__m512i)bf16RoundBits((I)v)));
    }
    static INFINI_VEC_INLINE void store(float *p, F v) { _mm512_storeu_ps(p, v); }
    static INFINI_VEC_INLINE F load(const fp16_t *p) {
        return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)));
    }
    static INFINI_VEC_INLINE void store(fp16_t *p, F v) {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    }
    static INFINI_VEC_INLINE I loadU16(const uint16_t *p) {
        return (I)_mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)));
    }
    static INFINI_VEC_INLINE F load(const bf16_t *p) { return (F)(loadU16(&p->bits) << 16); }
    static INFINI_VEC_INLINE void store(bf16_t *p, F v) {
        const __m512i r = (__m512i)bf16RoundBits((I)v);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), _mm512_cvtepi32_epi16(r));
    }
};
#pragma GCC pop_options
#endif

} // namespace infini::cpu

#pragma GCC diagnostic pop
