#pragma once
// The arithmetic of one LPNorm row, shared by the CPU and NVIDIA backends.
//
// A row x_0..x_{L-1} is reduced in two steps: m = max |x_i|, then
// s = sum (|x_i| / m)^p, so that nothing overflows or underflows however large
// or small the values are (the largest term is 1). The norm is m * s^(1/p) and
// y_i = x_i / max(norm, eps). Divisions by m or by the denominator are done as
// x * q1 * c, where q1 is a power of two and c a normal number, so that
// neither factor overflows even for subnormal or huge m (1 / m alone would).
// Partial results over pieces of a row merge: (m, s) over the union is
// (M, sum s_k * (m_k / M)^p) with M = max m_k.
//
// How a backend uses it, per row (the interface both backends share):
//   m = absMax over the row (starting from 0; NaN propagates);
//   s = scaledSumNeeded(m) ? sum powInt(sumScale(m).apply(|x_i|), p) : 0;
//   f = rowFactor(m, s, p, eps); y_i = f.apply(x_i).
// Optionally first the one-pass form, which needs no max: t = sum |x_i|^p
// unscaled; if plainSumUsable(t), f = plainFactor(t, p, eps) (the same
// result up to rounding), else the two steps above.
//
// Non-finite inputs, as torch.nn.functional.normalize: a NaN anywhere in a
// row makes its norm NaN and the whole row NaN; otherwise an inf makes the
// norm inf and y_i = x_i / inf: a signed 0 for finite x_i, NaN at the infs.
// (All-zero rows give zeros even with eps = 0, where torch gives NaN.)
#include "../../common/host_device.h"
#include <cmath>

#define LPN_HD INFINI_HD
#if defined(__CUDACC__)
#define LPN_COLD __host__ __device__ __noinline__ // rare paths stay out of the kernels' hot code
#else
#define LPN_COLD inline
#endif

namespace infini::lp_norm {

using std::frexp;
using std::ldexp;
using std::pow;
using std::sqrt;

// Powers of two kept apart from the rest of a factor so that both stay normal.
template <class A> struct Limits;
template <> struct Limits<float> { static constexpr int kSplit = 64; };
template <> struct Limits<double> { static constexpr int kSplit = 512; };

// |v|^p for integer p >= 1 by squaring (p may be huge: at most 31 steps).
template <class A>
LPN_HD A powInt(A v, int p) {
    if (p == 1) {
        return v;
    }
    if (p == 2) {
        return v * v;
    }
    A r = 1, b = v;
    unsigned e = (unsigned)p;
    while (e != 0) {
        if (e & 1u) {
            r *= b;
        }
        e >>= 1;
        if (e != 0) {
            b *= b;
        }
    }
    return r;
}

template <class A>
LPN_HD A rootInt(A s, int p) {
    if (p == 1) {
        return s;
    }
    if (p == 2) {
        return sqrt(s);
    }
    return pow(s, A(1) / A(p));
}

// Max that propagates NaN (fmax would drop it).
template <class A>
LPN_HD A maxNan(A a, A b) {
    return (b > a || b != b) ? b : a;
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
template <>
__device__ __forceinline__ float maxNan(float a, float b) { // one instruction
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
#endif

// The running max of |x| over a row: m = absMax(m, x_i) from m = 0.
template <class A>
LPN_HD A absMax(A m, A x) {
    return maxNan(m, x < A(0) ? -x : x);
}

// Whether the scaled sum is needed after the max: only for 0 < m < inf (a
// NaN, inf or all-zero row is decided by m alone).
template <class A>
LPN_HD bool scaledSumNeeded(A m) {
    return m > A(0) && m < A(INFINITY);
}

// x / v == (x * q1) * c for positive finite v.
template <class A>
struct Factor {
    A q1, c;
    LPN_HD A apply(A x) const { return (x * q1) * c; }
};

template <class A>
LPN_COLD Factor<A> reciprocalSplit(A v) {
    int d;
    A f = frexp(v, &d); // v = f * 2^d, f in [0.5, 1)
    constexpr int k = Limits<A>::kSplit;
    int d1 = d > k ? k : (d < -k ? -k : 0);
    return {ldexp(A(1), -d1), ldexp(A(1), -(d - d1)) / f};
}

template <class A>
LPN_HD Factor<A> reciprocal(A v) {
    constexpr A kLow = A(1.0 / 18446744073709551616.0), kHigh = A(18446744073709551616.0); // 2^-64, 2^64
    if (v >= kLow && v <= kHigh) { // the common case: one reciprocal
        return {A(1), A(1) / v};
    }
    return reciprocalSplit(v);
}

// What scales a row for the sum, given its max |x| (m > 0 finite).
template <class A>
LPN_HD Factor<A> sumScale(A m) {
    return reciprocal(m);
}

// A piece's scaled sum sk (scaled by its own max mk) rescaled to the max m of
// a union that contains it (m > 0 finite): sk * (mk / m)^p, 0 for an all-zero
// piece. (m may be subnormal: the ratio is divided, not multiplied by 1 / m.)
template <class A>
LPN_HD A rescaledSum(A sk, A mk, A m, int p) {
    return mk > A(0) ? sk * powInt(mk / m, p) : A(0);
}

// s = sum over the pieces, each scaled by its own m_k: merge into (m, s).
template <class A>
LPN_HD void mergeStats(A &m, A &s, A mk, A sk, int p) {
    if (m != m) { // NaN stays
        return;
    }
    if (!(mk <= m)) { // mk larger, or NaN
        A t = m;
        m = mk;
        mk = t;
        A u = s;
        s = sk;
        sk = u;
    }
    s += rescaledSum(sk, mk, m, p);
}

// s is read only when scaledSumNeeded(m).
template <class A>
LPN_COLD Factor<A> rowFactorSlow(A m, A s, int p, float eps) {
    if (m != m) { // NaN in the row: all NaN
        return {A(1), A(NAN)};
    }
    if (m == A(INFINITY) || m == 0) { // x / inf (0, or NaN at the infs); all zero: x * 0 keeps the zeros
        return {A(1), A(0)};
    }
    if (s != s) {
        return {A(1), A(NAN)};
    }
    if (s < A(1)) { // the max's own term is 1: less is rounding, e.g. (|m| * (1 / m))^p = (1 - ulp)^p -> 0 for huge p
        s = A(1);
    }
    const A r = rootInt(s, p);
    // Compared in double so that m * r cannot overflow.
    if ((double)m * (double)r >= (double)eps) {
        Factor<A> f = reciprocal(m);
        f.c /= r;
        return f;
    }
    return reciprocal(A(eps));
}

// The factor that turns x_i into y_i for a row with max |x| m and scaled sum s.
template <class A>
LPN_HD Factor<A> rowFactor(A m, A s, int p, float eps) {
    constexpr A kLow = A(1.0 / 18446744073709551616.0), kHigh = A(18446744073709551616.0); // 2^-64, 2^64
    if (m >= kLow && m <= kHigh && s >= A(1) && s < A(INFINITY)) {
        const A norm = m * rootInt(s, p); // in [m, m * L^(1/p)]: no overflow or underflow possible
        return norm >= A(eps) ? Factor<A>{A(1), A(1) / norm} : reciprocal(A(eps));
    }
    return rowFactorSlow(m, s, p, eps);
}

// The one-pass form: t = sum |x_i|^p without scaling. Usable when t lies in
// [2^-64, 2^64] (F32; [1e-200, 1e200] for F64): then no term overflowed (no
// NaN or inf in the row either), terms flushed to zero are negligible, and
// the norm t^(1/p) and its reciprocal are normal numbers.
template <class A> struct PlainLimits;
template <> struct PlainLimits<float> {
    static constexpr float kMin = 1.0f / 18446744073709551616.0f, kMax = 18446744073709551616.0f; // 2^-64, 2^64
};
template <> struct PlainLimits<double> { static constexpr double kMin = 1e-200, kMax = 1e200; };

template <class A>
LPN_HD bool plainSumUsable(A t) {
    return t >= PlainLimits<A>::kMin && t <= PlainLimits<A>::kMax;
}

template <class A>
LPN_HD Factor<A> plainFactor(A t, int p, float eps) {
    const A norm = rootInt(t, p);
    return norm >= A(eps) ? Factor<A>{A(1), A(1) / norm} : reciprocal(A(eps));
}

} // namespace infini::lp_norm
