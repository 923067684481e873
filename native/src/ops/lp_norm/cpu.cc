// LPNorm on the CPU: OpenMP over rows, or over tiles of inner positions when
// the reduced axis is not the innermost one (so that reads stay contiguous).
#include "../../common/cpu/parallel.h"
#include "../../common/cpu/strided.h"
#include "lp_norm.h"
#include "math.h"
#include <algorithm>
#include <cstdlib>

namespace infini::lp_norm::cpu {

namespace {

using infini::cpu::ComputeType;
using infini::cpu::narrow;
using infini::cpu::widen;

constexpr size_t kBlock = 256;

template <class T>
void normRow(const T *x, ptrdiff_t sx, T *y, ptrdiff_t sy, size_t n, int p, float eps) {
    using A = ComputeType<T>;
    A m = 0;
    for (size_t i = 0; i < n; ++i) {
        m = maxNan(m, (A)std::abs(widen(x[(ptrdiff_t)i * sx])));
    }
    A s = 0;
    if (m > 0 && m < A(INFINITY)) {
        // Blocks of kBlock terms summed in A, the blocks' sums in double: a
        // long row's rounding error stays near that of one block.
        const Factor<A> f = sumScale(m);
        double total = 0;
        for (size_t b = 0; b < n; b += kBlock) {
            const size_t e = std::min(n, b + kBlock);
            A part = 0;
            for (size_t i = b; i < e; ++i) {
                part += powInt(f.apply((A)std::abs(widen(x[(ptrdiff_t)i * sx]))), p);
            }
            total += (double)part;
        }
        s = (A)total;
    }
    const Factor<A> f = rowFactor(m, s, p, eps);
    for (size_t i = 0; i < n; ++i) {
        y[(ptrdiff_t)i * sy] = narrow<T>(f.apply(widen(x[(ptrdiff_t)i * sx])));
    }
}

// `w` columns (inner positions, x stride sxi, y stride syi) reduced over n
// rows at once: each pass reads the rows in order.
template <class T>
void normColumns(const T *x, ptrdiff_t sxr, ptrdiff_t sxi, T *y, ptrdiff_t syr, ptrdiff_t syi, size_t n, size_t w,
                 int p, float eps) {
    using A = ComputeType<T>;
    constexpr size_t kTile = 64;
    A m[kTile], s[kTile];
    Factor<A> f[kTile];
    for (size_t j = 0; j < w; ++j) {
        m[j] = 0;
        s[j] = 0;
    }
    for (size_t r = 0; r < n; ++r) {
        const T *row = x + (ptrdiff_t)r * sxr;
        for (size_t j = 0; j < w; ++j) {
            m[j] = maxNan(m[j], (A)std::abs(widen(row[(ptrdiff_t)j * sxi])));
        }
    }
    for (size_t j = 0; j < w; ++j) {
        f[j] = (m[j] > 0 && m[j] < A(INFINITY)) ? sumScale(m[j]) : Factor<A>{A(0), A(0)};
    }
    double total[kTile] = {};
    for (size_t b = 0; b < n; b += kBlock) { // blocks of rows, as in normRow
        const size_t e = std::min(n, b + kBlock);
        for (size_t r = b; r < e; ++r) {
            const T *row = x + (ptrdiff_t)r * sxr;
            for (size_t j = 0; j < w; ++j) {
                s[j] += powInt(f[j].apply((A)std::abs(widen(row[(ptrdiff_t)j * sxi]))), p);
            }
        }
        for (size_t j = 0; j < w; ++j) {
            total[j] += (double)s[j];
            s[j] = 0;
        }
    }
    for (size_t j = 0; j < w; ++j) {
        f[j] = rowFactor(m[j], (A)total[j], p, eps);
    }
    for (size_t r = 0; r < n; ++r) {
        const T *row = x + (ptrdiff_t)r * sxr;
        T *out = y + (ptrdiff_t)r * syr;
        for (size_t j = 0; j < w; ++j) {
            out[(ptrdiff_t)j * syi] = narrow<T>(f[j].apply(widen(row[(ptrdiff_t)j * sxi])));
        }
    }
}

struct CpuDescriptor final : Descriptor {
    using Descriptor::Descriptor;

    template <class T>
    infiniStatus_t run(T *y, const T *x) const {
        const Info &in = info;
        const size_t nd = in.outer_shape.size();
        x += in.x_off;
        y += in.y_off;
        const bool columns = nd > 0 && std::llabs(in.outer_x[nd - 1]) < std::llabs(in.x_red) &&
                             std::llabs(in.outer_y[nd - 1]) < std::llabs(in.y_red);
        if (!columns) {
            SimpleLayout lay;
            lay.shape = in.outer_shape;
            lay.strides = {in.outer_x, in.outer_y};
            lay.offset = {0, 0};
            infini::cpu::forEachOuter<2>(lay, 0, in.len, [&](const ptrdiff_t *off) {
                normRow(x + off[0], in.x_red, y + off[1], in.y_red, in.len, in.p, in.eps);
            });
            return INFINI_STATUS_SUCCESS;
        }
        // Tiles of the innermost dim, parallel over (outer index, tile).
        constexpr size_t kTile = 64;
        const size_t inner = in.outer_shape[nd - 1];
        const size_t tiles = (inner + kTile - 1) / kTile;
        const size_t outer = in.rows / inner;
        infini::cpu::parallelFor(outer * tiles, kTile * in.len, [&](size_t item) {
            size_t o = item / tiles, t = item % tiles;
            ptrdiff_t ox = 0, oy = 0;
            for (size_t d = nd - 1; d-- > 0;) {
                size_t i = o % in.outer_shape[d];
                o /= in.outer_shape[d];
                ox += (ptrdiff_t)i * in.outer_x[d];
                oy += (ptrdiff_t)i * in.outer_y[d];
            }
            const size_t j0 = t * kTile;
            const size_t w = std::min(kTile, inner - j0);
            const ptrdiff_t sxi = in.outer_x[nd - 1], syi = in.outer_y[nd - 1];
            normColumns(x + ox + (ptrdiff_t)j0 * sxi, in.x_red, sxi, y + oy + (ptrdiff_t)j0 * syi, in.y_red, syi,
                        in.len, w, in.p, in.eps);
        });
        return INFINI_STATUS_SUCCESS;
    }

    infiniStatus_t calculate(void *, size_t, void *y, const void *x, void *) const override {
        return dispatchDtype<INFINI_FLOAT_DTYPES>(info.dtype, [&](auto tag) {
            using T = HostType<decltype(tag)>;
            return run(static_cast<T *>(y), static_cast<const T *>(x));
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
