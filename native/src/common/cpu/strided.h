#pragma once
// Parallel iteration over the outer dims of a simplified layout (CPU backends).
#include "../layout.h"
#include "parallel.h"
#include <array>

namespace infini::cpu {

// Calls body(offsets) once for every index of the outer dims of `layout` (all
// but its last `inner_dims`), with offsets[k] the element offset of operand k
// (layout.offset included). Parallel over blocks of outer indices; within a
// block the offsets advance like an odometer, so no division per step.
template <size_t NOps, class F>
void forEachOuter(const SimpleLayout &layout, size_t inner_dims, size_t inner_work, F &&body) {
    const size_t nd = layout.ndim();
    const size_t outer_nd = nd > inner_dims ? nd - inner_dims : 0;
    size_t outer = 1;
    for (size_t d = 0; d < outer_nd; ++d) {
        outer *= layout.shape[d];
    }
    constexpr size_t kBlock = 64;
    const size_t nblocks = (outer + kBlock - 1) / kBlock;
    parallelFor(nblocks, kBlock * (inner_work ? inner_work : 1), [&](size_t blk) {
        size_t begin = blk * kBlock;
        size_t end = begin + kBlock < outer ? begin + kBlock : outer;
        // Decompose `begin` into an index and offsets once.
        std::array<ptrdiff_t, NOps> off;
        std::vector<size_t> idx(outer_nd, 0);
        for (size_t k = 0; k < NOps; ++k) {
            off[k] = layout.offset[k];
        }
        size_t rest = begin;
        for (size_t d = outer_nd; d-- > 0;) {
            idx[d] = rest % layout.shape[d];
            rest /= layout.shape[d];
            for (size_t k = 0; k < NOps; ++k) {
                off[k] += (ptrdiff_t)idx[d] * layout.strides[k][d];
            }
        }
        for (size_t i = begin; i < end; ++i) {
            body(static_cast<const ptrdiff_t *>(off.data()));
            for (size_t d = outer_nd; d-- > 0;) { // odometer step
                for (size_t k = 0; k < NOps; ++k) {
                    off[k] += layout.strides[k][d];
                }
                if (++idx[d] < layout.shape[d]) {
                    break;
                }
                for (size_t k = 0; k < NOps; ++k) {
                    off[k] -= (ptrdiff_t)layout.shape[d] * layout.strides[k][d];
                }
                idx[d] = 0;
            }
        }
    });
}

} // namespace infini::cpu
