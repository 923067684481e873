#pragma once
// LPNorm: backend-independent validation and the (outer, reduced) view of the operands.
#include "../../common/dtype.h"
#include "../../common/layout.h"
#include "../../common/status.h"
#include "../../common/tensor.h"
#include <cmath>
#include <vector>

namespace infini::lp_norm {

struct Info {
    infiniDtype_t dtype;
    int p;
    float eps;
    // The reduced axis: its length and each operand's stride (elements).
    size_t len;
    ptrdiff_t x_red, y_red;
    // The other dims, simplified with y as key (size-1 dims dropped, y's
    // negative strides flipped, contiguous dims merged), outermost first.
    std::vector<size_t> outer_shape;
    std::vector<ptrdiff_t> outer_x, outer_y;
    // Element offsets to add to the base pointers (from the flips).
    ptrdiff_t x_off, y_off;
    size_t rows;        // product of outer_shape
    bool empty;         // nothing to compute
    bool same_layout;   // x and y have the same strides: y == x is a valid in-place call

    // Create: validate and build. Statuses per the SPEC (section 4, LPNorm).
    static infiniStatus_t make(const InfiniopTensorDescriptor *y, const InfiniopTensorDescriptor *x, int axis, int p,
                               float eps, Info *out) {
        const infiniDtype_t dt = y->dtype;
        INFINI_REQUIRE(dt == INFINI_DTYPE_F16 || dt == INFINI_DTYPE_BF16 || dt == INFINI_DTYPE_F32 ||
                           dt == INFINI_DTYPE_F64,
                       INFINI_STATUS_BAD_TENSOR_DTYPE);
        INFINI_REQUIRE(x->dtype == dt, INFINI_STATUS_BAD_TENSOR_DTYPE);
        INFINI_REQUIRE(x->ndim() == y->ndim() && x->shape == y->shape, INFINI_STATUS_BAD_TENSOR_SHAPE);
        const int ndim = (int)y->ndim();
        INFINI_REQUIRE(axis >= -ndim && axis < ndim, INFINI_STATUS_BAD_PARAM);
        INFINI_REQUIRE(p >= 1, INFINI_STATUS_BAD_PARAM);
        INFINI_REQUIRE(!std::isnan(eps) && eps >= 0.0f, INFINI_STATUS_BAD_PARAM);
        INFINI_REQUIRE(!y->hasSelfOverlap(), INFINI_STATUS_BAD_TENSOR_STRIDES);
        const size_t a = (size_t)(axis < 0 ? axis + ndim : axis);

        Info info{};
        info.dtype = dt;
        info.p = p;
        info.eps = eps;
        info.len = y->shape[a];
        info.x_red = x->strides[a];
        info.y_red = y->strides[a];
        info.same_layout = x->strides == y->strides;
        info.empty = y->numel() == 0;

        std::vector<size_t> shape;
        std::vector<ptrdiff_t> sx, sy;
        for (size_t d = 0; d < (size_t)ndim; ++d) {
            if (d != a) {
                shape.push_back(y->shape[d]);
                sx.push_back(x->strides[d]);
                sy.push_back(y->strides[d]);
            }
        }
        SimpleLayout s = simplifyLayout(shape.size(), shape.data(), {sy.data(), sx.data()}, 0);
        info.outer_shape = s.shape;
        info.outer_y = s.strides[0];
        info.outer_x = s.strides[1];
        info.y_off = s.empty ? 0 : s.offset[0];
        info.x_off = s.empty ? 0 : s.offset[1];
        // The norm does not depend on the order along the axis: walk it with a
        // non-negative y stride.
        if (info.y_red < 0 && info.len > 1) {
            info.y_off += info.y_red * (ptrdiff_t)(info.len - 1);
            info.x_off += info.x_red * (ptrdiff_t)(info.len - 1);
            info.y_red = -info.y_red;
            info.x_red = -info.x_red;
        }
        info.rows = 1;
        for (size_t n : info.outer_shape) {
            info.rows *= n;
        }
        *out = std::move(info);
        return INFINI_STATUS_SUCCESS;
    }
};

} // namespace infini::lp_norm
