#pragma once
// A whole elementwise operator from its functor: one source file per
// operator, compiled by g++ and again, through its .cu files, by nvcc.
//
//   ops/add/add.cc   the functor (see elementwise.h) and
//                        INFINI_ELEMENTWISE_OPERATOR(Add, infini::AddOp);
//                    g++ (every build): the C ABI (infiniopCreateAddDescriptor,
//                    infiniopGetAddWorkspaceSize, infiniopAdd,
//                    infiniopDestroyAddDescriptor, declared by the public
//                    header infiniop/ops/add.h) on the CPU engine and, in
//                    NVIDIA builds, the NVIDIA engine's factory
//   ops/add/add.cu   #include "add.cc" and
//                        INFINI_ELEMENTWISE_NVIDIA_KERNELS(infini::AddOp, <kernel dtypes>);
//                    nvcc (NVIDIA builds): the kernels. The macro above is
//                    empty under nvcc, so the .cu sees only the functor. An
//                    operator with many dtypes splits them over several such
//                    .cu files so that they compile in parallel (see mul/).
//
// Kernel dtypes: every dtype of Op::Dtypes after kernelDtype<Op> (signed
// integers map to unsigned ones when the operator is sign-agnostic). A
// missing one is a link error of the NVIDIA build, not a runtime failure.
#include "elementwise.h"

#ifdef __CUDACC__
#include "nvidia.cuh"

#define INFINI_ELEMENTWISE_OPERATOR(NAME, OP) static_assert(true, "")
#define INFINI_ELEMENTWISE_OPERATOR_N(NAME, OP, N) static_assert(true, "")

#else
#include "cpu.h"
#include "infiniop.h"
#ifdef INFINI_WITH_NVIDIA
#include "nvidia.h"
#endif

// The parameter lists by the number of inputs: the output first, then the
// inputs in order, as the SPEC's headers declare them.
#define INFINI_EW_TENSORS_1 infiniopTensorDescriptor_t x0
#define INFINI_EW_TENSORS_2 INFINI_EW_TENSORS_1, infiniopTensorDescriptor_t x1
#define INFINI_EW_TENSORS_3 INFINI_EW_TENSORS_2, infiniopTensorDescriptor_t x2
#define INFINI_EW_DATA_1 const void *x0
#define INFINI_EW_DATA_2 INFINI_EW_DATA_1, const void *x1
#define INFINI_EW_DATA_3 INFINI_EW_DATA_2, const void *x2
#define INFINI_EW_ARGS_1 x0
#define INFINI_EW_ARGS_2 INFINI_EW_ARGS_1, x1
#define INFINI_EW_ARGS_3 INFINI_EW_ARGS_2, x2

// The four ABI functions of operator NAME (a binary one) computed by functor
// OP, whose kKind must be OpKind::NAME. The public header infiniop/ops/<name>.h
// declares them (infiniop.h includes it).
#define INFINI_ELEMENTWISE_OPERATOR(NAME, OP) INFINI_ELEMENTWISE_OPERATOR_N(NAME, OP, 2)

// The same for N (1, 2 or 3, a literal) inputs.
#define INFINI_ELEMENTWISE_OPERATOR_N(NAME, OP, N)                                                              \
    static_assert(OP::kInputs == N, #OP "::kInputs is not the ABI's number of inputs");                        \
    static_assert(OP::kKind == infini::OpKind::NAME, #OP "::kKind is not OpKind::" #NAME);                     \
    __INFINI_C infiniStatus_t infiniopCreate##NAME##Descriptor(infiniopHandle_t handle,                        \
                                                                 infiniop##NAME##Descriptor_t *desc_ptr,        \
                                                                 infiniopTensorDescriptor_t y,                  \
                                                                 INFINI_EW_TENSORS_##N) {                       \
        return infini::elementwise::create<OP>(                                                                 \
            handle, desc_ptr, y, {INFINI_EW_ARGS_##N}, &infini::elementwise::cpu::create<OP>,                  \
            INFINI_NVIDIA_FACTORY(&infini::elementwise::nvidia::create<OP>));                                   \
    }                                                                                                           \
    __INFINI_C infiniStatus_t infiniopGet##NAME##WorkspaceSize(infiniop##NAME##Descriptor_t desc, size_t *size) { \
        return infini::elementwise::workspaceSize(desc, OP::kKind, size);                                      \
    }                                                                                                           \
    __INFINI_C infiniStatus_t infiniop##NAME(infiniop##NAME##Descriptor_t desc, void *workspace,               \
                                             size_t workspace_size, void *y, INFINI_EW_DATA_##N, void *stream) { \
        return infini::elementwise::calculate<OP>(desc, workspace, workspace_size, y, {INFINI_EW_ARGS_##N},    \
                                                  stream);                                                      \
    }                                                                                                           \
    __INFINI_C infiniStatus_t infiniopDestroy##NAME##Descriptor(infiniop##NAME##Descriptor_t desc) {           \
        return infini::destroyOp(desc, OP::kKind);                                                             \
    }                                                                                                           \
    static_assert(true, "")

#endif
