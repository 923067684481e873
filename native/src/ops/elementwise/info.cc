// Backend-independent validation and layout of the elementwise framework.
#include "elementwise.h"
#include <cstdint>
#include <cstring>
#include <vector>

namespace infini::elementwise {

infiniStatus_t makeInfo(const InfiniopTensorDescriptor *out, const InfiniopTensorDescriptor *const *inputs,
                        size_t ninputs, bool (*dtype_ok)(infiniDtype_t), Info *info) {
    INFINI_REQUIRE(ninputs >= 1 && ninputs <= kMaxInputs, INFINI_STATUS_BAD_PARAM);
    // Dtypes: one for all, and one the operator computes.
    for (size_t k = 0; k < ninputs; ++k) {
        INFINI_REQUIRE(inputs[k]->dtype == out->dtype, INFINI_STATUS_BAD_TENSOR_DTYPE);
    }
    INFINI_REQUIRE(dtype_ok(out->dtype), INFINI_STATUS_BAD_TENSOR_DTYPE);

    // Shapes: each input broadcasts to the output by NumPy's rules; its
    // strides over the output's dims, zero where it broadcasts.
    const size_t nd = out->ndim();
    std::vector<std::vector<ptrdiff_t>> strides(ninputs + 1);
    strides[0] = out->strides;
    for (size_t k = 0; k < ninputs; ++k) {
        const InfiniopTensorDescriptor &in = *inputs[k];
        const size_t ind = in.ndim();
        // Leading input dims beyond the output's must be 1 (NumPy would grow
        // the result's rank; the output cannot take it).
        for (size_t d = 0; d + nd < ind; ++d) {
            INFINI_REQUIRE(in.shape[d] == 1, INFINI_STATUS_BAD_TENSOR_SHAPE);
        }
        std::vector<ptrdiff_t> &s = strides[k + 1];
        s.assign(nd, 0);
        for (size_t d = 0; d < nd; ++d) {
            // Input dim aligned with output dim d, counted from the right.
            if (nd - d > ind) {
                continue; // missing leading dim: broadcast
            }
            size_t id = ind - (nd - d);
            if (in.shape[id] == out->shape[d]) {
                s[d] = out->shape[d] == 1 ? 0 : in.strides[id];
            } else if (in.shape[id] == 1) {
                s[d] = 0;
            } else {
                return INFINI_STATUS_BAD_TENSOR_SHAPE;
            }
        }
    }

    // The output: no zero strides, no two elements at one address.
    INFINI_REQUIRE(!out->hasSelfOverlap(), INFINI_STATUS_BAD_TENSOR_STRIDES);

    info->dtype = out->dtype;
    info->ninputs = ninputs;
    info->numel = out->numel();
    std::vector<const ptrdiff_t *> ptrs;
    for (auto &s : strides) {
        ptrs.push_back(s.data());
    }
    info->layout = simplifyLayout(nd, out->shape.data(), ptrs, /*key=*/0);
    bool contiguous = info->layout.ndim() <= 1;
    if (info->layout.ndim() == 1) {
        for (size_t k = 0; k <= ninputs; ++k) {
            contiguous = contiguous && info->layout.strides[k][0] == 1;
        }
    }
    info->contiguous = contiguous && !info->layout.empty;

    // What Calculate needs to tell an exact in-place call from a partial
    // overlap: byte extents and whether an input has the output's layout.
    const ptrdiff_t es = (ptrdiff_t)dtypeSize(out->dtype);
    for (size_t k = 0; k <= ninputs; ++k) {
        const InfiniopTensorDescriptor &t = k == 0 ? *out : *inputs[k - 1];
        info->extent_lo[k] = t.minOffset() * es;
        info->extent_hi[k] = (t.maxOffset() + 1) * es;
    }
    for (size_t k = 0; k < ninputs; ++k) {
        bool same = true;
        for (size_t d = 0; d < nd; ++d) {
            same = same && (out->shape[d] <= 1 || strides[k + 1][d] == out->strides[d]);
        }
        info->same_layout[k] = same;
    }
    return INFINI_STATUS_SUCCESS;
}

unsigned overlappedInputs(const Info &info, const void *out, const void *const *inputs) {
    const uintptr_t o = reinterpret_cast<uintptr_t>(out);
    const uintptr_t o_lo = o + info.extent_lo[0], o_hi = o + info.extent_hi[0];
    unsigned mask = 0;
    for (size_t k = 0; k < info.ninputs; ++k) {
        const uintptr_t p = reinterpret_cast<uintptr_t>(inputs[k]);
        const uintptr_t lo = p + info.extent_lo[k + 1], hi = p + info.extent_hi[k + 1];
        const bool in_place = p == o && info.same_layout[k];
        if (lo < o_hi && o_lo < hi && !in_place) {
            mask |= 1u << k;
        }
    }
    return mask;
}

infiniStatus_t Descriptor::calculateStaged(void *out, const void *const *inputs, unsigned staged,
                                           void *stream) const {
    std::vector<unsigned char> copies[kMaxInputs];
    const void *in[kMaxInputs] = {};
    for (size_t k = 0; k < info.ninputs; ++k) {
        in[k] = inputs[k];
        if ((staged >> k) & 1u) {
            const ptrdiff_t lo = info.extent_lo[k + 1];
            copies[k].resize((size_t)(info.extent_hi[k + 1] - lo));
            std::memcpy(copies[k].data(), static_cast<const unsigned char *>(inputs[k]) + lo, copies[k].size());
            in[k] = reinterpret_cast<const void *>(reinterpret_cast<uintptr_t>(copies[k].data()) - lo);
        }
    }
    return calculate(out, in, stream);
}

} // namespace infini::elementwise
