#pragma once
// The elementwise framework, backend-independent part: validation of N inputs
// broadcast to one output, the merged layout every backend iterates, the
// operator descriptor every elementwise operator shares, and the ABI glue.
//
// An elementwise operator is a functor (see mul/mul.cc; operator.h turns it
// into the operator's C ABI and backends):
//
//   struct MulOp {
//       static constexpr infini::OpKind kKind = infini::OpKind::Mul;
//       static constexpr size_t kInputs = 2;
//       // Whether the result's bits do not depend on the integer inputs'
//       // signedness (wrap-around + - *): signed and unsigned types of one size
//       // then share one kernel.
//       static constexpr bool kSignAgnostic = true;
//       using Dtypes = infini::elementwise::DtypeList<...>;
//       template <class T> INFINI_HD T operator()(T a, T b) const;
//   };
//
// The functor sees compute values: float for F16/BF16 (widened, then the
// result rounded once), the storage type otherwise (unsigned for signed
// integers when kSignAgnostic).
#include "../../common/descriptor.h"
#include "../../common/dtype.h"
#include "../../common/layout.h"
#include "../../common/status.h"
#include "../../common/tensor.h"
#include <array>
#include <cstddef>
#include <initializer_list>

#include "../../common/host_device.h"

namespace infini::elementwise {

// At most this many inputs (the output is operand 0, inputs 1..N).
constexpr size_t kMaxInputs = 3;
constexpr size_t kMaxOperands = kMaxInputs + 1;

template <infiniDtype_t... Ds>
struct DtypeList {};

// dispatchDtype over a DtypeList.
template <infiniDtype_t... Ds, class F>
inline infiniStatus_t dispatch(DtypeList<Ds...>, infiniDtype_t dt, F &&f) {
    return dispatchDtype<Ds...>(dt, static_cast<F &&>(f));
}

template <infiniDtype_t... Ds>
constexpr bool contains(DtypeList<Ds...>, infiniDtype_t dt) {
    return ((dt == Ds) || ...);
}

// The dtype whose kernel computes `dt` for an operator: signed integers map to
// the unsigned type of their size when the operator is sign-agnostic, so that
// one instantiation serves both (and the arithmetic wraps without UB).
template <class Op>
constexpr infiniDtype_t kernelDtype(infiniDtype_t dt) {
    if (!Op::kSignAgnostic) {
        return dt;
    }
    switch (dt) {
    case INFINI_DTYPE_I8: return INFINI_DTYPE_U8;
    case INFINI_DTYPE_I16: return INFINI_DTYPE_U16;
    case INFINI_DTYPE_I32: return INFINI_DTYPE_U32;
    case INFINI_DTYPE_I64: return INFINI_DTYPE_U64;
    default: return dt;
    }
}

// Everything Calculate needs, decided at Create; backend-independent.
struct Info {
    infiniDtype_t dtype = INFINI_DTYPE_INVALID;
    size_t ninputs = 0;
    // Operand 0 is the output (the key operand: no negative strides after
    // simplification, dims ordered by its strides), then the inputs with their
    // broadcast dims at stride 0.
    SimpleLayout layout;
    size_t numel = 0;
    // Every operand walks one run of stride 1 (or it is a single element).
    bool contiguous = false;
    // Overlap between the output and an input (see calculate below): each
    // operand's byte extent [lo, hi) relative to its pointer, and per input
    // whether it has the output's layout (then one shared pointer is exact in
    // place, which is allowed; a broadcast input never has it).
    ptrdiff_t extent_lo[kMaxOperands] = {}, extent_hi[kMaxOperands] = {};
    bool same_layout[kMaxInputs] = {};
};

// Validates `out` = f(inputs...) and fills `info`:
//   BAD_TENSOR_DTYPE   dtypes differ, or `dtype_ok(dtype)` is false
//   BAD_TENSOR_SHAPE   an input is not broadcastable to the output by NumPy's
//                      rules (trailing dims aligned; a dim equal or 1; extra
//                      leading input dims must be 1)
//   BAD_TENSOR_STRIDES the output has a zero stride or two elements at one
//                      address
infiniStatus_t makeInfo(const InfiniopTensorDescriptor *out, const InfiniopTensorDescriptor *const *inputs,
                        size_t ninputs, bool (*dtype_ok)(infiniDtype_t), Info *info);

// The descriptor of every elementwise operator: a backend engine behind one
// virtual call.
struct Descriptor : InfiniopDescriptor {
    Info info;
    Descriptor(const InfiniopHandle &h, OpKind kind, const Info &i) : InfiniopDescriptor(h, kind), info(i) {}
    // `inputs` has info.ninputs pointers. Pointers are already checked.
    virtual infiniStatus_t calculate(void *out, const void *const *inputs, void *stream) const = 0;
    // calculate() with the inputs of bit k of `staged` first copied (their
    // byte extents) to temporaries: the output partly overlaps them. This
    // default is for host memory; device backends override it.
    virtual infiniStatus_t calculateStaged(void *out, const void *const *inputs, unsigned staged, void *stream) const;
};

// The inputs that the output partly overlaps, as a bit mask: their byte
// extents intersect and they are not exactly in place (the same pointer with
// the same layout). An interval test, so conservative: interleaved views that
// share no element are staged too, which is correct, only slower.
unsigned overlappedInputs(const Info &info, const void *out, const void *const *inputs);

using Factory = BackendFactory<Descriptor, Info>;

// ---- ABI glue: INFINI_ELEMENTWISE_OPERATOR (operator.h) calls these. ----

template <class Op>
bool opSupports(infiniDtype_t dt) {
    return contains(typename Op::Dtypes{}, dt);
}

template <class Op>
infiniStatus_t create(InfiniopHandle *handle, InfiniopDescriptor **desc_ptr, InfiniopTensorDescriptor *out,
                      std::initializer_list<InfiniopTensorDescriptor *> inputs, Factory cpu, Factory nvidia) {
    static_assert(Op::kInputs >= 1 && Op::kInputs <= kMaxInputs, "too many inputs");
    INFINI_TRY(checkNotNull(handle, desc_ptr, out));
    for (auto *in : inputs) {
        INFINI_TRY(checkNotNull(in));
    }
    INFINI_REQUIRE(inputs.size() == Op::kInputs, INFINI_STATUS_BAD_PARAM);
    return guard([&] {
        Info info;
        INFINI_TRY(makeInfo(out, inputs.begin(), inputs.size(), &opSupports<Op>, &info));
        Descriptor *desc = nullptr;
        INFINI_TRY((createOnDevice<Descriptor, Info>(*handle, info, &desc, cpu, nvidia)));
        *desc_ptr = desc;
        return INFINI_STATUS_SUCCESS;
    });
}

template <class Op>
infiniStatus_t calculate(InfiniopDescriptor *desc, void *workspace, size_t workspace_size, void *out,
                         std::initializer_list<const void *> inputs, void *stream) {
    Descriptor *op = nullptr;
    INFINI_TRY(beginCalculate(desc, Op::kKind, workspace, workspace_size, &op));
    INFINI_REQUIRE(inputs.size() == op->info.ninputs, INFINI_STATUS_BAD_PARAM);
    if (op->info.numel == 0) { // nothing to do, nothing launched; null buffers are fine
        return INFINI_STATUS_SUCCESS;
    }
    INFINI_REQUIRE(out != nullptr, INFINI_STATUS_NULL_POINTER);
    for (const void *p : inputs) {
        INFINI_REQUIRE(p != nullptr, INFINI_STATUS_NULL_POINTER);
    }
    INFINI_TRY(checkElementAligned(*op, dtypeSize(op->info.dtype), {out}));
    INFINI_TRY(checkElementAligned(*op, dtypeSize(op->info.dtype), inputs));
    // An output that partly overlaps an input reads it through a temporary
    // copy, as NumPy does; exact in place needs none.
    const unsigned staged = overlappedInputs(op->info, out, inputs.begin());
    return guard([&] {
        return staged == 0 ? op->calculate(out, inputs.begin(), stream)
                           : op->calculateStaged(out, inputs.begin(), staged, stream);
    });
}

inline infiniStatus_t workspaceSize(InfiniopDescriptor *desc, OpKind kind, size_t *size) {
    INFINI_TRY(checkNotNull(desc, size));
    INFINI_REQUIRE(asOp<Descriptor>(desc, kind) != nullptr, INFINI_STATUS_BAD_PARAM);
    *size = desc->workspace_size;
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::elementwise
