// LPNorm on the CPU: parallelFor over rows, or over tiles of inner positions
// when the reduced axis is not the innermost one (so that reads stay
// contiguous); p = 1 and 2 on F32/F16/BF16 through the vector kernels of
// cpu_kernels.inc (one copy per vector path), contiguous F64 through that
// file's copies of the scalar code here, the rest on the scalar code itself.
#include "../../common/cpu/convert.h"
#include "../../common/cpu/isa.h"
#include "../../common/cpu/parallel.h"
#include "../../common/cpu/simd.h"
#include "../../common/cpu/strided.h"
#include "lp_norm.h"
#include "math.h"
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

namespace infini::lp_norm::cpu {

namespace {

using infini::cpu::ComputeType;
using infini::cpu::narrow;
using infini::cpu::widen;

// Sums of more than kBlock terms: blocks summed in A, the blocks' sums in
// double, so that a long row's rounding error stays near that of one block.
constexpr size_t kBlock = 1024;
constexpr size_t kStreamBytes = size_t(16) << 20;
// Contiguous rows shorter than kVectorRow (below), back to back, go a task of this many elements at a time
// (cpu_kernels.inc's shortRowsVec: 16-bit ones converted a chunk of this size at once).
constexpr size_t kShortRowsChunk = 2048;

// F16 -> F32 through a table (the bit-by-bit conversion is slow in loops).
const float *halfTable() {
    static const std::vector<float> table = [] {
        std::vector<float> t(65536);
        for (uint32_t i = 0; i < 65536; ++i) {
            t[i] = toFloat(fp16_t{(uint16_t)i});
        }
        return t;
    }();
    return table.data();
}

// Element -> compute type.
template <class T>
struct Widen {
    const float *half = nullptr;
    ComputeType<T> operator()(T v) const {
        if constexpr (std::is_same_v<T, fp16_t>) {
            return half[v.bits];
        } else if constexpr (std::is_same_v<T, bf16_t>) {
            uint32_t bits = (uint32_t)v.bits << 16;
            float f;
            std::memcpy(&f, &bits, 4);
            return f;
        } else {
            return v;
        }
    }
};

// v^p, with p known at compile time for 1, 2 and 3 (3: powInt's own products, v * (v * v), so the
// same bits; as a loop it cost p 3 ~7x p 2's time, session 35's CPU sweep).
template <int P, class A>
inline A powP(A v, int p) {
    if constexpr (P == 1) {
        return v;
    } else if constexpr (P == 2) {
        return v * v;
    } else if constexpr (P == 3) {
        return v * (v * v);
    } else {
        return powInt(v, p);
    }
}

// One row of n elements, strides sx and sy (UNIT: both 1). Reductions keep
// kLanes independent partial results so that they vectorise (or at least do
// not wait on one another) without reassociating anything the compiler may not.
constexpr size_t kLanes = 8;

// m = max(m, v) for |x| = v >= 0, the NaNs counted apart (maxNan's result
// once nan is added in): a plain compare and select, which GCC vectorises
// where maxNan's `b > a || b != b` keeps it from doing so (session 27: F64
// rows 52 -> 42 ms for 4096 rows of 4096 in a standalone copy, one thread).
template <class A>
inline void maxApart(A &m, A &nan, A v) {
    m = v > m ? v : m;
    nan += A(v != v);
}

// y[j] = value(j) for a contiguous row of doubles, stored past the caches
// (SSE2 non-temporal stores from the first 16-byte boundary of y), closed by a
// fence when `fence` (the caller fences a tile of rows once, as the vector
// kernels do for the other types). False where it cannot.
template <class T, class F>
inline bool streamRow(T *y, size_t n, F &&value, bool fence) {
#ifdef INFINI_CPU_X86
    if constexpr (std::is_same_v<T, double>) {
        size_t j = 0;
        if (((uintptr_t)y & 7) != 0) {
            return false;
        }
        if (((uintptr_t)y & 15) != 0 && n > 0) {
            y[0] = value(0);
            j = 1;
        }
        for (; j + 2 <= n; j += 2) {
            _mm_stream_pd(y + j, _mm_set_pd(value(j + 1), value(j)));
        }
        for (; j < n; ++j) {
            y[j] = value(j);
        }
        if (fence) {
            ::infini::cpu::streamFence();
        }
        return true;
    }
#endif
    (void)y;
    (void)n;
    (void)value;
    (void)fence;
    return false;
}

// The sum over i < n of term(i, k), k the lane of i (i's place in its run of
// kLanes; a block's tail goes to lane 0): kLanes partial sums a block of kBlock
// terms, in A, the blocks' sums added in double. head(b, e, tk) may take a
// block's first runs itself, adding into tk, and returns where the lanes go on.
template <class A, class Term, class Head>
inline double laneSums(size_t n, Term &&term, Head &&head) {
    double total = 0;
    for (size_t b = 0; b < n; b += kBlock) {
        const size_t e = std::min(n, b + kBlock);
        A tk[kLanes] = {};
        size_t i = head(b, e, tk);
        for (; i + kLanes <= e; i += kLanes) {
            for (size_t k = 0; k < kLanes; ++k) {
                tk[k] += term(i + k, k);
            }
        }
        for (; i < e; ++i) {
            tk[0] += term(i, 0);
        }
        A part = 0;
        for (size_t k = 0; k < kLanes; ++k) {
            part += tk[k];
        }
        total += (double)part;
    }
    return total;
}

// normRow's lanes loop for contiguous doubles and p 1 or 2 over [i, e), in
// GCC's vector extension: lane k takes elements i + k, ... as the scalar loop
// does (the same operations per lane, so the same results), 8 lanes a
// vector: one AVX-512 register on that path (where GCC left the scalar loop
// scalar: vmaxsd / vfmadd231sd, session 29), two AVX2 or four SSE2 ones on
// the others. Returns where the scalar loop goes on.
template <int P>
inline size_t rowLanesF64(const double *x, size_t i, size_t e, double (&mk)[kLanes], double (&nk)[kLanes],
                          double (&tk)[kLanes]) {
    typedef double D __attribute__((vector_size(8 * kLanes)));
    typedef int64_t L __attribute__((vector_size(8 * kLanes)));
    D m, nan, t;
    std::memcpy(&m, mk, sizeof m);
    std::memcpy(&nan, nk, sizeof nan);
    std::memcpy(&t, tk, sizeof t);
    for (; i + kLanes <= e; i += kLanes) {
        D v;
        std::memcpy(&v, x + i, sizeof v);
        const D a = (D)((L)v & INT64_MAX);       // |x|
        m = a > m ? a : m;                        // maxApart: a NaN never wins here...
        nan -= __builtin_convertvector(a != a, D); // ...and is counted apart (a != a: -1 per NaN lane)
        t += P == 1 ? a : a * a;
    }
    std::memcpy(mk, &m, sizeof m);
    std::memcpy(nk, &nan, sizeof nan);
    std::memcpy(tk, &t, sizeof t);
    return i;
}

template <int P, bool UNIT, class T>
void normRow(const T *x, ptrdiff_t sx, T *y, ptrdiff_t sy, size_t n, int p, float eps, Widen<T> w,
             bool stream = false) {
    using A = ComputeType<T>;
    if constexpr (UNIT) {
        sx = 1;
        sy = 1;
    }
    auto at = [&](size_t i) { return w(x[(ptrdiff_t)i * sx]); };
    // One pass for max |x| (NaN if any element is NaN: maxNan's rule) and
    // math.h's one-pass sum of |x|^p (unscaled; blocks of kBlock terms summed
    // in A, the blocks' sums in double), as normColumns does; the scaled sum
    // (a second read) only where that sum leaves the plain range.
    A mk[kLanes] = {}, nk[kLanes] = {};
    const double plain = laneSums<A>(
        n,
        [&](size_t i, size_t k) {
            const A a = std::abs(at(i));
            maxApart(mk[k], nk[k], a);
            return powP<P>(a, p);
        },
        [&](size_t b, size_t e, A(&tk)[kLanes]) {
            if constexpr (UNIT && std::is_same_v<T, double> && (P == 1 || P == 2)) {
                return rowLanesF64<P>(x, b, e, mk, nk, tk);
            }
            return b;
        });
    A m = 0, nans = 0;
    for (size_t k = 0; k < kLanes; ++k) {
        m = maxNan(m, mk[k]);
        nans += nk[k];
    }
    if (nans > A(0)) {
        m = A(NAN);
    }
    const bool finite = m > 0 && m < A(INFINITY);
    const bool usable = finite && plainSumUsable((A)plain);
    A s = 0;
    if (finite && !usable) {
        const Factor<A> f = sumScale(m);
        const A q1 = f.q1, c = f.c;
        s = (A)laneSums<A>(
            n, [&](size_t i, size_t) { return powP<P>((std::abs(at(i)) * q1) * c, p); },
            [](size_t b, size_t, A(&)[kLanes]) { return b; });
    }
    const Factor<A> f = usable ? plainFactor((A)plain, p, eps) : rowFactor(m, s, p, eps);
    const A q1 = f.q1, c = f.c;
    if (UNIT && stream && streamRow(y, n, [&](size_t j) { return narrow<T>((at(j) * q1) * c); }, true)) {
        return;
    }
    for (size_t j = 0; j < n; ++j) {
        y[(ptrdiff_t)j * sy] = narrow<T>((at(j) * q1) * c);
    }
}

constexpr size_t kTile = 128;
constexpr size_t kColumnRows = 128; // rows of a tile the vector kernels reduce at once (64 KB of F32: in L2)

// Rows read ahead in a pass over a tile of columns: a tile row is a few cache
// lines 4-32 KB away from the previous one, where the hardware prefetchers do
// not go.
constexpr size_t kColumnAhead = 8;

// Prefetches the `cols` contiguous elements of a tile row.
template <class T>
inline void prefetchTileRow(const T *row, size_t cols) {
    const char *p = reinterpret_cast<const char *>(row);
    for (size_t l = 0; l < cols * sizeof(T); l += 64) {
        __builtin_prefetch(p + l, 0, 3);
    }
}

// `cols` columns (inner positions, x stride sxi, y stride syi) reduced over n
// rows at once: each pass reads the rows in order.
template <int P, bool UNIT, class T>
void normColumns(const T *x, ptrdiff_t sxr, ptrdiff_t sxi, T *y, ptrdiff_t syr, ptrdiff_t syi, size_t n,
                 size_t cols, int p, float eps, Widen<T> w, bool stream = false) {
    using A = ComputeType<T>;
    if constexpr (UNIT) { // the inner positions are contiguous: the j loops vectorise
        sxi = 1;
        syi = 1;
    }
    A m[kTile], s[kTile], q1[kTile], c[kTile], nan[kTile];
    double total[kTile], plain[kTile];
    for (size_t j = 0; j < cols; ++j) {
        m[j] = 0;
        s[j] = 0;
        nan[j] = 0;
        total[j] = 0;
        plain[j] = 0;
    }
    // One pass for the max and math.h's one-pass sum (|x|^p unscaled) together:
    // where every column's sum is in the plain range, no second read of the
    // tile (session 28: F64 tiles of 128 columns are MBs, past the caches).
    for (size_t b = 0; b < n; b += kBlock) {
        const size_t e = std::min(n, b + kBlock);
        for (size_t r = b; r < e; ++r) {
            const T *row = x + (ptrdiff_t)r * sxr;
            if (UNIT && r + kColumnAhead < n) {
                prefetchTileRow(row + kColumnAhead * sxr, cols);
            }
            for (size_t j = 0; j < cols; ++j) {
                const A a = std::abs(w(row[(ptrdiff_t)j * sxi]));
                maxApart(m[j], nan[j], a);
                s[j] += powP<P>(a, p);
            }
        }
        for (size_t j = 0; j < cols; ++j) {
            plain[j] += (double)s[j];
            s[j] = 0;
        }
    }
    bool scaled = false, all_plain = true; // some column needs the two-step sum; every sum is plain
    for (size_t j = 0; j < cols; ++j) {
        m[j] = nan[j] > A(0) ? A(NAN) : m[j];
        const bool finite = m[j] > 0 && m[j] < A(INFINITY);
        const bool usable = plainSumUsable((A)plain[j]);
        scaled |= finite && !usable;
        all_plain &= usable;
    }
    for (size_t j = 0; scaled && j < cols; ++j) { // the two-step sum's scales (only where it runs)
        const bool finite = m[j] > 0 && m[j] < A(INFINITY);
        const Factor<A> f = finite ? sumScale(m[j]) : Factor<A>{A(0), A(0)};
        q1[j] = f.q1;
        c[j] = f.c;
    }
    for (size_t b = 0; scaled && b < n; b += kBlock) {
        const size_t e = std::min(n, b + kBlock);
        for (size_t r = b; r < e; ++r) {
            const T *row = x + (ptrdiff_t)r * sxr;
            for (size_t j = 0; j < cols; ++j) {
                s[j] += powP<P>((std::abs(w(row[(ptrdiff_t)j * sxi])) * q1[j]) * c[j], p);
            }
        }
        for (size_t j = 0; j < cols; ++j) {
            total[j] += (double)s[j];
            s[j] = 0;
        }
    }
    if (all_plain && (P == 1 || P == 2)) {
        // plainFactor without its per-column calls and branches (the root: t or its square root; eps's
        // factor once): the same bits. Columns of a few rows spent most of their time here (session 45).
        const Factor<A> low = reciprocal(A(eps));
        for (size_t j = 0; j < cols; ++j) {
            const A t = (A)plain[j];
            const A norm = P == 2 ? std::sqrt(t) : t;
            const bool big = norm >= A(eps);
            q1[j] = big ? A(1) : low.q1;
            c[j] = big ? A(1) / norm : low.c;
        }
    } else {
        for (size_t j = 0; j < cols; ++j) {
            const A t = (A)plain[j];
            const Factor<A> f = plainSumUsable(t) ? plainFactor(t, p, eps) : rowFactor(m[j], (A)total[j], p, eps);
            q1[j] = f.q1;
            c[j] = f.c;
        }
    }
    bool streamed = false;
    for (size_t r = 0; r < n; ++r) {
        const T *row = x + (ptrdiff_t)r * sxr;
        T *out = y + (ptrdiff_t)r * syr;
        if (UNIT && r + kColumnAhead < n) {
            prefetchTileRow(row + kColumnAhead * sxr, cols);
        }
        auto value = [&](size_t j) { return narrow<T>((w(row[(ptrdiff_t)j * sxi]) * q1[j]) * c[j]); };
        if (UNIT && stream && streamRow(out, cols, value, false)) {
            streamed = true;
            continue;
        }
        for (size_t j = 0; j < cols; ++j) {
            out[(ptrdiff_t)j * syi] = value(j);
        }
    }
    if (streamed) {
        ::infini::cpu::streamFence();
    }
}

} // namespace

#define INFINI_CPU_KERNELS "ops/lp_norm/cpu_kernels.inc"
#include "../../common/cpu/foreach_isa.h"

namespace {

// p = 1, 2 and 3 on F32 and the 16-bit floats have vector kernels.
template <int P, class T>
constexpr bool kVector = (P == 1 || P == 2 || P == 3) && !std::is_same_v<T, double>;

// Contiguous F32 rows shorter than kVectorRow take the scalar one-pass kernel: the vector kernel's
// three passes and its scaled sum cost more than such a row's elements (session 35, ms vector -> scalar:
// (10,61,54,11) axis 3 p 2 2.48 -> 1.25 (NumPy 1.35), p 3 2.25 -> 1.36 (1.8); (100000,20) 4.9 -> 3.2;
// rows of 40 even). 16-bit rows keep the vector kernel, whose block conversions beat the scalar
// ones ((100000,40) F16 12.8 against 25.2).
constexpr size_t kVectorRow = 64;

// Contiguous rows of kLongRow elements or more go one at a time, each cut into pieces of kRowChunk
// over the threads (a row was one task: a long row ran on one core, at NumPy's speed; session 35).
constexpr size_t kRowChunk = 64 * kBlock, kLongRow = 4 * kRowChunk;

// normRowVec's phases (the max, the scaled sum's block parts, the scaling), each a parallelFor over
// pieces of the row: the same arithmetic in the same order, so the same bits.
template <int P, class T>
void normRowChunked(const T *x, T *y, size_t n, int p, float eps, bool stream) {
    const size_t chunks = (n + kRowChunk - 1) / kRowChunk;
    auto piece = [&](size_t c) { return std::min(kRowChunk, n - c * kRowChunk); };
    std::vector<float> maxima(chunks);
    infini::cpu::parallelFor(chunks, kRowChunk, [&](size_t c) {
        maxima[c] = INFINI_CPU_DISPATCH(rowMaxVec(x + c * kRowChunk, piece(c)));
    });
    float m = 0;
    for (float v : maxima) {
        m = maxNan(m, v);
    }
    float s = 0;
    if (m > 0 && m < INFINITY) {
        const Factor<float> scale = sumScale(m);
        std::vector<float> parts((n + kBlock - 1) / kBlock);
        infini::cpu::parallelFor(chunks, kRowChunk, [&](size_t c) {
            INFINI_CPU_DISPATCH(rowSumPartsVec<P>(x + c * kRowChunk, piece(c), scale, parts.data() + c * (kRowChunk / kBlock)));
        });
        double total = 0;
        for (float v : parts) {
            total += (double)v;
        }
        s = (float)total;
    }
    const Factor<float> f = rowFactor(m, s, p, eps);
    infini::cpu::parallelFor(chunks, kRowChunk, [&](size_t c) {
        INFINI_CPU_DISPATCH(rowScaleVec(x + c * kRowChunk, y + c * kRowChunk, piece(c), f, stream));
    });
}

struct CpuDescriptor final : Descriptor {
    using Descriptor::Descriptor;

    // Whether row r of x and of y starts at r * len (contiguous rows, one after the other).
    bool rowsBackToBack() const {
        ptrdiff_t next = (ptrdiff_t)info.len;
        for (size_t d = info.outer_shape.size(); d-- > 0;) {
            if (info.outer_shape[d] == 1) {
                continue;
            }
            if (info.outer_x[d] != next || info.outer_y[d] != next) {
                return false;
            }
            next *= (ptrdiff_t)info.outer_shape[d];
        }
        return true;
    }

    template <int P, class T>
    infiniStatus_t run(T *y, const T *x) const {
        const Info &in = info;
        const size_t nd = in.outer_shape.size();
        x += in.x_off;
        y += in.y_off;
        Widen<T> w;
        if constexpr (std::is_same_v<T, fp16_t>) {
            w.half = halfTable();
        }
        // Outputs too large for the caches are stored past them (no read for ownership).
        const bool big = in.rows * in.len * sizeof(T) >= kStreamBytes;
        const bool columns = nd > 0 && std::llabs(in.outer_x[nd - 1]) < std::llabs(in.x_red) &&
                             std::llabs(in.outer_y[nd - 1]) < std::llabs(in.y_red);
        // A fence closes each streamed row or tile: short rows are not worth it.
        const bool stream = big && (columns || in.len * sizeof(T) >= 4096);
        if (!columns) {
            if constexpr (kVector<P, T>) {
                if (in.x_red == 1 && in.y_red == 1 && in.len >= kLongRow) {
                    for (size_t r = 0; r < in.rows; ++r) {
                        ptrdiff_t ox = 0, oy = 0;
                        size_t rest = r;
                        for (size_t d = nd; d-- > 0;) {
                            const size_t i = rest % in.outer_shape[d];
                            rest /= in.outer_shape[d];
                            ox += (ptrdiff_t)i * in.outer_x[d];
                            oy += (ptrdiff_t)i * in.outer_y[d];
                        }
                        normRowChunked<P>(x + ox, y + oy, in.len, in.p, in.eps, stream);
                    }
                    return INFINI_STATUS_SUCCESS;
                }
            }
            if (in.x_red == 1 && in.y_red == 1 && in.len < kVectorRow && rowsBackToBack()) {
                // Short rows, a task of kShortRowsChunk elements (cpu_kernels.inc's shortRowsVec).
                const size_t per = kShortRowsChunk / in.len, tasks = (in.rows + per - 1) / per;
                infini::cpu::parallelFor(tasks, per * in.len, [&](size_t t) {
                    const size_t r = t * per, k = std::min(per, in.rows - r);
                    INFINI_CPU_DISPATCH(shortRowsVec<P>(x + r * in.len, y + r * in.len, k, in.len, in.p, in.eps));
                });
                return INFINI_STATUS_SUCCESS;
            }
            SimpleLayout lay;
            lay.shape = in.outer_shape;
            lay.strides = {in.outer_x, in.outer_y};
            lay.offset = {0, 0};
            infini::cpu::forEachOuter<2>(lay, 0, in.len, [&](const ptrdiff_t *off) {
                if constexpr (kVector<P, T>) {
                    if (in.x_red == 1 && in.y_red == 1 && (!std::is_same_v<T, float> || in.len >= kVectorRow)) {
                        INFINI_CPU_DISPATCH(normRowVec<P>(x + off[0], y + off[1], in.len, in.p, in.eps, stream));
                        return;
                    }
                }
                if (in.x_red == 1 && in.y_red == 1) { // contiguous: unit-stride loops vectorise
                    if constexpr (std::is_same_v<T, double>) { // (built for the vector path)
                        INFINI_CPU_DISPATCH(normRowTarget<P>(x + off[0], y + off[1], in.len, in.p, in.eps, w, stream));
                    } else {
                        normRow<P, true>(x + off[0], 1, y + off[1], 1, in.len, in.p, in.eps, w, stream);
                    }
                } else {
                    normRow<P, false>(x + off[0], in.x_red, y + off[1], in.y_red, in.len, in.p, in.eps, w);
                }
            });
            return INFINI_STATUS_SUCCESS;
        }
        // Tiles of the innermost dim, parallel over (outer index, tile).
        const size_t inner = in.outer_shape[nd - 1];
        const ptrdiff_t sxi = in.outer_x[nd - 1], syi = in.outer_y[nd - 1];
        const size_t tile = kTile;
        // Streamed tiles start on a cache line of y (the first one is narrow)
        // when every row of y starts at the same offset in a line.
        size_t head = 0;
        if (stream && sxi == 1 && syi == 1) {
            bool same = (in.y_red * (ptrdiff_t)sizeof(T)) % 64 == 0 && ((uintptr_t)y & 63) % sizeof(T) == 0;
            for (size_t d = 0; d + 1 < nd; ++d) {
                same &= (in.outer_y[d] * (ptrdiff_t)sizeof(T)) % 64 == 0;
            }
            head = same ? std::min(inner, ((64 - ((uintptr_t)y & 63)) & 63) / sizeof(T)) : 0;
        }
        const size_t tiles = (head != 0) + (inner - head + tile - 1) / tile;
        const size_t outer = in.rows / inner;
        infini::cpu::parallelFor(outer * tiles, tile * in.len, [&](size_t item) {
            size_t o = item / tiles, t = item % tiles;
            ptrdiff_t ox = 0, oy = 0;
            for (size_t d = nd - 1; d-- > 0;) {
                size_t i = o % in.outer_shape[d];
                o /= in.outer_shape[d];
                ox += (ptrdiff_t)i * in.outer_x[d];
                oy += (ptrdiff_t)i * in.outer_y[d];
            }
            const size_t j0 = head == 0 ? t * tile : t == 0 ? 0 : head + (t - 1) * tile;
            const size_t cols = std::min(head != 0 && t == 0 ? head : tile, inner - j0);
            const T *xt = x + ox + (ptrdiff_t)j0 * sxi;
            T *yt = y + oy + (ptrdiff_t)j0 * syi;
            if (sxi == 1 && syi == 1) {
                if constexpr (std::is_same_v<T, double>) { // (the scalar kernel, built for the vector path)
                    INFINI_CPU_DISPATCH(normColumnsTarget<P>(xt, in.x_red, yt, in.y_red, in.len, cols, in.p, in.eps, w,
                                                             stream));
                    return;
                }
                size_t done = 0; // whole vectors of columns, then the rest one by one
                if constexpr (kVector<P, T>) {
                    done = INFINI_CPU_DISPATCH(
                        vectorColumns<P>(xt, in.x_red, yt, in.y_red, in.len, cols, in.p, in.eps, stream));
                }
                if (done < cols) {
                    normColumns<P, true>(xt + done, in.x_red, 1, yt + done, in.y_red, 1, in.len, cols - done, in.p,
                                         in.eps, w, stream);
                }
            } else {
                normColumns<P, false>(xt, in.x_red, sxi, yt, in.y_red, syi, in.len, cols, in.p, in.eps, w);
            }
        });
        return INFINI_STATUS_SUCCESS;
    }

    infiniStatus_t calculate(void *, size_t, void *y, const void *x, void *) const override {
        return dispatchDtype<INFINI_FLOAT_DTYPES>(info.dtype, [&](auto tag) {
            using T = HostType<decltype(tag)>;
            auto *yp = static_cast<T *>(y);
            auto *xp = static_cast<const T *>(x);
            switch (info.p) {
            case 1: return run<1>(yp, xp);
            case 2: return run<2>(yp, xp);
            case 3: return run<3>(yp, xp);
            default: return run<0>(yp, xp);
            }
        });
    }
};

} // namespace

infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Descriptor **out) {
    *out = new CpuDescriptor(handle, info);
    (*out)->workspace_size = 0;
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::lp_norm::cpu
