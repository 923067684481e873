#pragma once
// The one layout-simplification routine, shared by every operator and backend.
//
// Given a shape and the strides of several operands over it, produce an
// equivalent, smaller loop nest: size-1 dims dropped, dims ordered by the key
// operand's stride (outermost first), the key operand's negative strides
// flipped (moving each operand's base by an element offset), and adjacent dims
// merged wherever they are contiguous in every operand.
#include <cstddef>
#include <vector>

namespace infini {

struct SimpleLayout {
    std::vector<size_t> shape;                  // outermost first; empty for one element
    std::vector<std::vector<ptrdiff_t>> strides; // [operand][dim], in elements
    std::vector<ptrdiff_t> offset;              // [operand]: add to the base pointer, in elements
    bool empty = false;                         // some dim is 0: nothing to do

    size_t ndim() const { return shape.size(); }
    size_t numel() const;
};

// `strides[k]` points at operand k's `ndim` strides. The key operand decides
// the order of the dims and has its negative strides flipped; the others
// follow it. With `sort_dims` false the given order is kept (only size-1 dims
// dropped and contiguous neighbours merged).
SimpleLayout simplifyLayout(size_t ndim, const size_t *shape, const std::vector<const ptrdiff_t *> &strides,
                            size_t key = 0, bool sort_dims = true);

} // namespace infini
