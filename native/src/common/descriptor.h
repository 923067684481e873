#pragma once
// The base of every operator descriptor, and the device switch written once.
#include "handle.h"
#include "infiniop/operator_descriptor.h"
#include "status.h"
#include <cstdint>
#include <initializer_list>
#include <new>

namespace infini {

// Tags each descriptor with its operator so that passing, say, a Mul
// descriptor to infiniopLPNorm is refused instead of misread.
enum class OpKind { Rearrange, Mul, LPNorm, RandomSample };

} // namespace infini

struct InfiniopDescriptor {
    infiniDevice_t device_type;
    int device_id;
    infini::OpKind kind;
    size_t workspace_size = 0;

    InfiniopDescriptor(const InfiniopHandle &h, infini::OpKind k)
        : device_type(h.device), device_id(h.device_id), kind(k) {}
    virtual ~InfiniopDescriptor() = default;
    InfiniopDescriptor(const InfiniopDescriptor &) = delete;
    InfiniopDescriptor &operator=(const InfiniopDescriptor &) = delete;
};

namespace infini {

// A backend's factory: builds the operator's descriptor for a device from
// already-validated, backend-independent info.
template <class Desc, class Info>
using BackendFactory = infiniStatus_t (*)(const InfiniopHandle &, const Info &, Desc **);

#ifdef INFINI_WITH_NVIDIA
#define INFINI_NVIDIA_FACTORY(f) (f)
#else
#define INFINI_NVIDIA_FACTORY(f) nullptr
#endif

// The one device switch: pick the backend's factory by the handle's device.
template <class Desc, class Info>
infiniStatus_t createOnDevice(const InfiniopHandle &handle, const Info &info, Desc **out,
                              BackendFactory<Desc, Info> cpu, BackendFactory<Desc, Info> nvidia) {
    BackendFactory<Desc, Info> factory = nullptr;
    switch (handle.device) {
    case INFINI_DEVICE_CPU:
        factory = cpu;
        break;
    case INFINI_DEVICE_NVIDIA:
        factory = nvidia;
        break;
    default:
        break;
    }
    if (factory == nullptr) {
        return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
    }
    return guard([&] { return factory(handle, info, out); });
}

// The operator descriptor behind an ABI pointer, or null when it is null or of
// another operator.
template <class Desc>
Desc *asOp(InfiniopDescriptor *desc, OpKind kind) {
    if (desc == nullptr || desc->kind != kind) {
        return nullptr;
    }
    return static_cast<Desc *>(desc);
}

// The common prologue of every Calculate: a live descriptor of this operator
// and enough workspace.
template <class Desc>
infiniStatus_t beginCalculate(InfiniopDescriptor *desc, OpKind kind, const void *workspace, size_t workspace_size,
                              Desc **op) {
    INFINI_REQUIRE(desc != nullptr, INFINI_STATUS_NULL_POINTER);
    *op = asOp<Desc>(desc, kind);
    INFINI_REQUIRE(*op != nullptr, INFINI_STATUS_BAD_PARAM);
    INFINI_REQUIRE(workspace_size >= desc->workspace_size, INFINI_STATUS_INSUFFICIENT_WORKSPACE);
    INFINI_REQUIRE(desc->workspace_size == 0 || workspace != nullptr, INFINI_STATUS_NULL_POINTER);
    return INFINI_STATUS_SUCCESS;
}

// On a GPU every element access is naturally aligned: a data pointer that is
// not a multiple of its element's size would fault there (and leave the CUDA
// context unusable), so Calculate refuses it first (BAD_PARAM). The CPU
// reads any address. (Rearrange moves bytes in units its pointers allow and
// takes any address.)
inline infiniStatus_t checkElementAligned(const InfiniopDescriptor &desc, size_t elem_size,
                                          std::initializer_list<const void *> ptrs) {
    if (desc.device_type == INFINI_DEVICE_CPU || elem_size <= 1) {
        return INFINI_STATUS_SUCCESS;
    }
    for (const void *p : ptrs) {
        INFINI_REQUIRE(reinterpret_cast<uintptr_t>(p) % elem_size == 0, INFINI_STATUS_BAD_PARAM);
    }
    return INFINI_STATUS_SUCCESS;
}

// Destroy: refuses null and descriptors of another operator.
inline infiniStatus_t destroyOp(InfiniopDescriptor *desc, OpKind kind) {
    INFINI_REQUIRE(desc != nullptr, INFINI_STATUS_NULL_POINTER);
    INFINI_REQUIRE(desc->kind == kind, INFINI_STATUS_BAD_PARAM);
    delete desc;
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini
