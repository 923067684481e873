#pragma once
// RandomSample: backend-independent validation and the descriptor base.
//
// One OpKind::RandomSample serves the single form (result 0-d, probs [n]) and
// (ours) the batch form (result [B], probs [B, n]); `Info::batched` records
// which Create made the descriptor, and each Calculate entry refuses the other
// form's descriptor with BAD_PARAM.
#include "../../common/descriptor.h"
#include "../../common/dtype.h"
#include "../../common/tensor.h"
#include <cmath>
#include <cstdint>

namespace infini::random_sample {

// The sampling parameters of one row.
struct Params {
    float random_val;
    float topp;
    int topk;
    float temperature;
};

struct Info {
    bool batched = false;
    size_t batch = 1;              // B (1 for the single form)
    size_t n = 0;                  // vocabulary size
    ptrdiff_t row_stride = 0;      // probs, in elements, between rows (>= n when B > 1)
    ptrdiff_t result_stride = 0;   // result, in elements, between rows
    infiniDtype_t probs_dtype = INFINI_DTYPE_INVALID;
    infiniDtype_t result_dtype = INFINI_DTYPE_INVALID;
};

// The largest index a result dtype holds.
inline uint64_t maxIndexOf(infiniDtype_t dt) {
    switch (dt) {
    case INFINI_DTYPE_I8: return INT8_MAX;
    case INFINI_DTYPE_I16: return INT16_MAX;
    case INFINI_DTYPE_I32: return INT32_MAX;
    case INFINI_DTYPE_I64: return INT64_MAX;
    case INFINI_DTYPE_U8: return UINT8_MAX;
    case INFINI_DTYPE_U16: return UINT16_MAX;
    case INFINI_DTYPE_U32: return UINT32_MAX;
    case INFINI_DTYPE_U64: return UINT64_MAX;
    default: return 0;
    }
}

inline bool isFloatDtype(infiniDtype_t dt) {
    return dt == INFINI_DTYPE_F16 || dt == INFINI_DTYPE_BF16 || dt == INFINI_DTYPE_F32 || dt == INFINI_DTYPE_F64;
}

// Validates result/probs for the single (batched=false) or batch form.
inline infiniStatus_t makeInfo(const InfiniopTensorDescriptor &result, const InfiniopTensorDescriptor &probs,
                               bool batched, Info *info) {
    Info out;
    out.batched = batched;
    out.probs_dtype = probs.dtype;
    out.result_dtype = result.dtype;
    INFINI_REQUIRE(isFloatDtype(probs.dtype), INFINI_STATUS_BAD_TENSOR_DTYPE);
    INFINI_REQUIRE(dtypeIsInteger(result.dtype), INFINI_STATUS_BAD_TENSOR_DTYPE);
    if (!batched) {
        INFINI_REQUIRE(result.ndim() == 0 && probs.ndim() == 1, INFINI_STATUS_BAD_TENSOR_SHAPE);
        out.batch = 1;
        out.n = probs.shape[0];
        out.row_stride = 0;
        out.result_stride = 0;
    } else {
        INFINI_REQUIRE(result.ndim() == 1 && probs.ndim() == 2, INFINI_STATUS_BAD_TENSOR_SHAPE);
        INFINI_REQUIRE(result.shape[0] == probs.shape[0], INFINI_STATUS_BAD_TENSOR_SHAPE);
        out.batch = probs.shape[0];
        out.n = probs.shape[1];
        out.row_stride = probs.strides[0];
        out.result_stride = result.strides[0];
        // Rows must not overlap each other, and results must be distinct.
        if (out.batch > 1) {
            INFINI_REQUIRE(out.row_stride >= (ptrdiff_t)out.n, INFINI_STATUS_BAD_TENSOR_STRIDES);
            INFINI_REQUIRE(out.result_stride != 0, INFINI_STATUS_BAD_TENSOR_STRIDES);
        }
    }
    // There must be an index to return.
    INFINI_REQUIRE(out.n >= 1, INFINI_STATUS_BAD_TENSOR_SHAPE);
    // (ours) Indices are 32-bit inside the kernels.
    INFINI_REQUIRE(out.n <= (size_t)INT32_MAX, INFINI_STATUS_BAD_TENSOR_SHAPE);
    // Column stride 1 (irrelevant for a single column).
    const ptrdiff_t col_stride = probs.strides[probs.ndim() - 1];
    INFINI_REQUIRE(out.n == 1 || col_stride == 1, INFINI_STATUS_BAD_TENSOR_STRIDES);
    // The result dtype must hold n - 1.
    INFINI_REQUIRE((uint64_t)(out.n - 1) <= maxIndexOf(result.dtype), INFINI_STATUS_BAD_TENSOR_DTYPE);
    *info = out;
    return INFINI_STATUS_SUCCESS;
}

// BAD_PARAM for a row's parameters outside the contract.
inline infiniStatus_t checkParams(const Params &p) {
    INFINI_REQUIRE(!std::isnan(p.random_val) && p.random_val >= 0.0f && p.random_val < 1.0f,
                   INFINI_STATUS_BAD_PARAM);
    INFINI_REQUIRE(!std::isnan(p.topp) && !std::isnan(p.temperature), INFINI_STATUS_BAD_PARAM);
    return INFINI_STATUS_SUCCESS;
}

// The argmax rule of the definition.
inline bool isArgmax(const Params &p) {
    return p.random_val == 0.0f || p.topp <= 0.0f || p.topk == 1 || p.temperature <= 0.0f;
}

// K = min(topk, n), topk <= 0 meaning n.
inline size_t effectiveK(int topk, size_t n) {
    return (topk <= 0 || (size_t)topk >= n) ? n : (size_t)topk;
}

// The parameter arrays of a Calculate (host memory, one entry per row; the
// single form points them at its scalar arguments).
struct ParamArrays {
    const float *random_val;
    const float *topp;
    const int *topk;
    const float *temperature;
    Params at(size_t b) const { return Params{random_val[b], topp[b], topk[b], temperature[b]}; }
};

struct Desc : InfiniopDescriptor {
    Info info;
    Desc(const InfiniopHandle &h, const Info &i) : InfiniopDescriptor(h, OpKind::RandomSample), info(i) {}
    // `params` holds info.batch rows, already checked.
    virtual infiniStatus_t calculate(void *workspace, void *result, const void *probs, const ParamArrays &params,
                                     void *stream) const = 0;
};

namespace cpu {
infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Desc **desc);
}
namespace nvidia {
infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Desc **desc);
}

} // namespace infini::random_sample
