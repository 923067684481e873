#pragma once
// The tensor descriptor behind the opaque infiniopTensorDescriptor_t.
#include "infiniop/tensor_descriptor.h"
#include <cstddef>
#include <vector>

struct InfiniopTensorDescriptor {
    infiniDtype_t dtype;
    std::vector<size_t> shape;
    std::vector<ptrdiff_t> strides; // in elements

    size_t ndim() const { return shape.size(); }
    size_t numel() const;
    // Row-major contiguous, ignoring dims of size 1.
    bool isContiguous() const;
    // Whether two distinct indices can reach one address (a zero stride on a dim
    // longer than 1, or strides that interleave so that offsets repeat): exact,
    // except that a search past ~4M steps (pathological interleavings) answers
    // true.
    bool hasSelfOverlap() const;
    // Smallest and largest element offsets reached, relative to the base pointer.
    ptrdiff_t minOffset() const;
    ptrdiff_t maxOffset() const;
};
