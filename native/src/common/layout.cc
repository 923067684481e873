#include "layout.h"
#include <algorithm>
#include <numeric>

namespace infini {

size_t SimpleLayout::numel() const {
    if (empty) {
        return 0;
    }
    size_t n = 1;
    for (size_t s : shape) {
        n *= s;
    }
    return n;
}

SimpleLayout simplifyLayout(size_t ndim, const size_t *shape, const std::vector<const ptrdiff_t *> &strides,
                            size_t key, bool sort_dims) {
    const size_t nops = strides.size();
    SimpleLayout out;
    out.strides.assign(nops, {});
    out.offset.assign(nops, 0);

    std::vector<size_t> dims;
    for (size_t d = 0; d < ndim; ++d) {
        if (shape[d] == 0) {
            out.empty = true;
        }
        if (shape[d] > 1) {
            dims.push_back(d);
        }
    }
    if (out.empty) {
        return out;
    }

    // Flip the key operand's negative strides: iterate such a dim backwards,
    // starting every operand at that dim's last element.
    std::vector<std::vector<ptrdiff_t>> st(nops, std::vector<ptrdiff_t>(ndim, 0));
    for (size_t k = 0; k < nops; ++k) {
        for (size_t d = 0; d < ndim; ++d) {
            st[k][d] = strides[k][d];
        }
    }
    for (size_t d : dims) {
        if (st[key][d] < 0) {
            for (size_t k = 0; k < nops; ++k) {
                out.offset[k] += st[k][d] * (ptrdiff_t)(shape[d] - 1);
                st[k][d] = -st[k][d];
            }
        }
    }

    if (sort_dims) {
        // Outermost = largest key stride; ties broken by the other operands'
        // strides so that merges stay possible, then by original order.
        std::stable_sort(dims.begin(), dims.end(), [&](size_t a, size_t b) {
            for (size_t i = 0; i < nops; ++i) {
                size_t k = (key + i) % nops;
                ptrdiff_t sa = st[k][a] < 0 ? -st[k][a] : st[k][a];
                ptrdiff_t sb = st[k][b] < 0 ? -st[k][b] : st[k][b];
                if (sa != sb) {
                    return sa > sb;
                }
            }
            return false;
        });
    }

    // Merge an outer dim into its inner neighbour when, in every operand,
    // stride(outer) == stride(inner) * size(inner).
    for (size_t d : dims) {
        bool merge = !out.shape.empty();
        if (merge) {
            size_t last = out.shape.size() - 1;
            for (size_t k = 0; k < nops && merge; ++k) {
                ptrdiff_t whole; // stride * size may overflow where stride * (size - 1) did not
                merge = !__builtin_mul_overflow(st[k][d], (ptrdiff_t)shape[d], &whole) &&
                        out.strides[k][last] == whole;
            }
        }
        if (merge) {
            size_t last = out.shape.size() - 1;
            out.shape[last] *= shape[d];
            for (size_t k = 0; k < nops; ++k) {
                out.strides[k][last] = st[k][d];
            }
        } else {
            out.shape.push_back(shape[d]);
            for (size_t k = 0; k < nops; ++k) {
                out.strides[k].push_back(st[k][d]);
            }
        }
    }
    return out;
}

} // namespace infini
