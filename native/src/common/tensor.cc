#include "tensor.h"
#include <algorithm>
#include <cstdlib>

size_t InfiniopTensorDescriptor::numel() const {
    size_t n = 1;
    for (size_t s : shape) {
        n *= s;
    }
    return n;
}

bool InfiniopTensorDescriptor::isContiguous() const {
    ptrdiff_t expected = 1;
    for (size_t i = ndim(); i-- > 0;) {
        if (shape[i] != 1 && strides[i] != expected) {
            return false;
        }
        expected *= (ptrdiff_t)shape[i];
    }
    return true;
}

bool InfiniopTensorDescriptor::hasSelfOverlap() const {
    if (numel() <= 1) {
        return false;
    }
    std::vector<std::pair<size_t, size_t>> dims; // (|stride|, size)
    for (size_t i = 0; i < ndim(); ++i) {
        if (shape[i] > 1) {
            dims.emplace_back((size_t)std::llabs(strides[i]), shape[i]);
        }
    }
    std::sort(dims.begin(), dims.end());
    size_t reach = 0; // largest offset reachable by the dims before this one
    for (auto [stride, size] : dims) {
        if (stride <= reach) {
            return true;
        }
        reach += stride * (size - 1);
    }
    return false;
}

ptrdiff_t InfiniopTensorDescriptor::minOffset() const {
    ptrdiff_t off = 0;
    for (size_t i = 0; i < ndim(); ++i) {
        if (shape[i] > 0 && strides[i] < 0) {
            off += strides[i] * (ptrdiff_t)(shape[i] - 1);
        }
    }
    return off;
}

ptrdiff_t InfiniopTensorDescriptor::maxOffset() const {
    ptrdiff_t off = 0;
    for (size_t i = 0; i < ndim(); ++i) {
        if (shape[i] > 0 && strides[i] > 0) {
            off += strides[i] * (ptrdiff_t)(shape[i] - 1);
        }
    }
    return off;
}
