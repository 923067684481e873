#pragma once
// The elementwise framework's CPU engine: parallelFor over the merged outer
// dims (or over chunks of one long run), an inner loop the compiler vectorises
// for the process's vector path (cpu_kernels.inc) when every operand is
// contiguous in it. F16/BF16 go through float blocks (common/cpu/convert.h).
#include "../../common/cpu/convert.h"
#include "../../common/cpu/parallel.h"
#include "../../common/cpu/strided.h"
#include "elementwise.h"
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <type_traits>
#include <utility>

namespace infini::elementwise::cpu {

using infini::cpu::ComputeType;
using infini::cpu::narrow;
using infini::cpu::widen;

// op on compute-type operands, narrowed to T. BF16 has F32's exponent range,
// so a float result below F32's normal range was already rounded once (to a
// multiple of 2^-149): it is recomputed in double (exact for a product of two
// 16-bit floats) and rounded once from there.
template <class Op, class T, class... A>
inline T applyOnce(const Op &op, A... a) {
    const auto y = op(a...);
    if constexpr (std::is_same_v<T, bf16_t>) {
        if (std::fabs(y) < FLT_MIN && y != 0.0f) {
            return bf16FromDouble(op((double)a...));
        }
    }
    return narrow<T>(y);
}

// Block form, after the block was narrowed: BF16 elements whose float result
// lies below F32's normal range are redone through applyOnce. Inlined into each
// vector path's loop (cpu_kernels.inc): called out of line from AVX-512 code,
// this SSE-encoded copy cost an AVX-SSE transition a call, ~100 ns, which on
// runs of 3 elements made BF16 Mul 8x NumPy's time (session 35).
template <class Op, class T, size_t... I>
INFINI_VEC_INLINE void fixTinyBf16(const float *y, T *dst, size_t m, const float (*x)[256], std::index_sequence<I...>) {
    if constexpr (std::is_same_v<T, bf16_t>) {
        const Op op{};
        for (size_t i = 0; i < m; ++i) {
            if (std::fabs(y[i]) < FLT_MIN && y[i] != 0.0f) {
                dst[i] = applyOnce<Op, T>(op, x[I][i]...);
            }
        }
    }
}

} // namespace infini::elementwise::cpu

// unitRun, compiled once per vector path.
namespace infini::elementwise::cpu {
#define INFINI_CPU_KERNELS "ops/elementwise/cpu_kernels.inc"
#include "../../common/cpu/foreach_isa.h"

// off[k] += operand k's offset of index o over L's first `dims` dims (the last fastest).
template <size_t NOps>
inline void outerOffsets(const SimpleLayout &L, size_t dims, size_t o, ptrdiff_t (&off)[NOps]) {
    for (size_t d = dims; d-- > 0;) {
        const size_t idx = o % L.shape[d];
        o /= L.shape[d];
        for (size_t k = 0; k < NOps; ++k) {
            off[k] += (ptrdiff_t)idx * L.strides[k][d];
        }
    }
}

// `rows` runs of `n` elements, run j: out[j * ro + i * so] = op(in_k[j * r[k] + i * s[k]]...), where
// `so` and `s` are the operands' strides along a run. Unit-stride (or broadcast) runs go to the vector
// path's unitRows, one dispatch for all of them.
template <class Op, class T, size_t... I>
inline void runRows(size_t rows, size_t n, T *out, ptrdiff_t ro, const T *const *in, const ptrdiff_t *r,
                    ptrdiff_t so, const ptrdiff_t *s, std::index_sequence<I...> seq) {
    if (so == 1 && ((s[I] == 0 || s[I] == 1) && ...)) {
        const unsigned mask = (((unsigned)(s[I] == 1) << I) | ... | 0u);
        INFINI_CPU_DISPATCH(unitRowsMasked<Op, T>(mask, rows, n, out, ro, in, r, seq));
        return;
    }
    const Op op{};
    for (size_t j = 0; j < rows; ++j) {
        T *o = out + (ptrdiff_t)j * ro;
        const T *p[sizeof...(I)] = {(in[I] + (ptrdiff_t)j * r[I])...};
        for (size_t i = 0; i < n; ++i) {
            o[(ptrdiff_t)i * so] = applyOnce<Op, T>(op, widen(p[I][(ptrdiff_t)i * s[I]])...);
        }
    }
}

// One run of `n` elements (runRows' with one row).
template <class Op, class T, size_t... I>
inline void runKernel(size_t n, T *out, const T *const *in, ptrdiff_t so, const ptrdiff_t *s,
                      std::index_sequence<I...> seq) {
    const ptrdiff_t r[sizeof...(I)] = {};
    runRows<Op, T>(1, n, out, 0, in, r, so, s, seq);
}

template <class Op, class T>
infiniStatus_t run(const Info &info, void *out_ptr, const void *const *in_ptrs) {
    constexpr size_t N = Op::kInputs;
    constexpr size_t NOps = N + 1;
    const SimpleLayout &L = info.layout;
    T *out = static_cast<T *>(out_ptr) + L.offset[0];
    const T *in[N];
    for (size_t k = 0; k < N; ++k) {
        in[k] = static_cast<const T *>(in_ptrs[k]) + L.offset[k + 1];
    }
    const size_t nd = L.ndim();
    if (nd == 0) { // a single element
        ptrdiff_t s[N] = {};
        runKernel<Op, T>(1, out, in, 1, s, std::make_index_sequence<N>{});
        return INFINI_STATUS_SUCCESS;
    }
    const size_t inner = L.shape[nd - 1];
    ptrdiff_t s_inner[N];
    for (size_t k = 0; k < N; ++k) {
        s_inner[k] = L.strides[k + 1][nd - 1];
    }
    const ptrdiff_t so_inner = L.strides[0][nd - 1];

    constexpr size_t kChunk = 1 << 14;
    if (inner >= 2 * kChunk) {
        // Long runs: parallel over (outer index, chunk of the run).
        size_t outer = L.numel() / inner;
        size_t chunks = (inner + kChunk - 1) / kChunk;
        infini::cpu::parallelFor(outer * chunks, kChunk, [&](size_t item) {
            const size_t o = item / chunks, c = item % chunks;
            size_t begin = c * kChunk, len = begin + kChunk < inner ? kChunk : inner - begin;
            ptrdiff_t off[NOps] = {};
            outerOffsets(L, nd - 1, o, off);
            const T *p[N];
            for (size_t k = 0; k < N; ++k) {
                p[k] = in[k] + off[k + 1] + (ptrdiff_t)begin * s_inner[k];
            }
            runKernel<Op, T>(len, out + off[0] + (ptrdiff_t)begin * so_inner, p, so_inner, s_inner,
                             std::make_index_sequence<N>{});
        });
        return INFINI_STATUS_SUCCESS;
    }
    constexpr size_t kShortRun = 64;
    if (nd >= 2 && inner < kShortRun) {
        // Runs of a few elements (an inner extent a broadcast left short): tasks of whole rows of the
        // next dim, about kTaskElems elements each, one dispatch a task instead of one a run (session
        // 35's CPU sweep: (41,124,23,10) F32 times b (41,124,23,1) 1.55x NumPy's time before).
        constexpr size_t kTaskElems = 4096;
        const size_t rows = L.shape[nd - 2];
        const size_t per_task = std::max<size_t>(1, kTaskElems / std::max<size_t>(inner, 1));
        const size_t chunks = (rows + per_task - 1) / per_task;
        const size_t planes = L.numel() / (rows * inner);
        ptrdiff_t r_in[N];
        for (size_t k = 0; k < N; ++k) {
            r_in[k] = L.strides[k + 1][nd - 2];
        }
        const ptrdiff_t r_out = L.strides[0][nd - 2];
        infini::cpu::parallelFor(planes * chunks, per_task * inner, [&](size_t item) {
            const size_t o = item / chunks;
            const size_t first = (item % chunks) * per_task;
            const size_t count = std::min(per_task, rows - first);
            ptrdiff_t off[NOps] = {};
            outerOffsets(L, nd - 2, o, off);
            const T *p[N];
            for (size_t k = 0; k < N; ++k) {
                p[k] = in[k] + off[k + 1] + (ptrdiff_t)first * r_in[k];
            }
            runRows<Op, T>(count, inner, out + off[0] + (ptrdiff_t)first * r_out, r_out, p, r_in, so_inner, s_inner,
                           std::make_index_sequence<N>{});
        });
        return INFINI_STATUS_SUCCESS;
    }
    // Short runs: forEachOuter hands out blocks of rows (it adds L.offset).
    T *out0 = static_cast<T *>(out_ptr);
    const T *in0[N];
    for (size_t k = 0; k < N; ++k) {
        in0[k] = static_cast<const T *>(in_ptrs[k]);
    }
    infini::cpu::forEachOuter<NOps>(L, 1, inner, [&](const ptrdiff_t *off) {
        const T *p[N];
        for (size_t k = 0; k < N; ++k) {
            p[k] = in0[k] + off[k + 1];
        }
        runKernel<Op, T>(inner, out0 + off[0], p, so_inner, s_inner, std::make_index_sequence<N>{});
    });
    return INFINI_STATUS_SUCCESS;
}

template <class Op>
struct CpuDescriptor final : Descriptor {
    using RunFn = infiniStatus_t (*)(const Info &, void *, const void *const *);
    RunFn fn;
    CpuDescriptor(const InfiniopHandle &h, const Info &i, RunFn f) : Descriptor(h, Op::kKind, i), fn(f) {}
    infiniStatus_t calculate(void *out, const void *const *inputs, void *) const override {
        return fn(info, out, inputs);
    }
};

// The CPU factory of an operator: pass &cpu::create<Op> to elementwise::create.
template <class Op>
infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Descriptor **out) {
    typename CpuDescriptor<Op>::RunFn fn = nullptr;
    auto pick = [&](auto tag) {
        constexpr infiniDtype_t kd = kernelDtype<Op>(decltype(tag)::value);
        fn = &run<Op, typename HostTypeOf<kd>::type>;
        return INFINI_STATUS_SUCCESS;
    };
    INFINI_TRY(dispatch(typename Op::Dtypes{}, info.dtype, pick));
    *out = new CpuDescriptor<Op>(handle, info, fn);
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::elementwise::cpu
