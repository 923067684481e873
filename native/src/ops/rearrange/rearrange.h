#pragma once
// The Rearrange operator descriptor shared by the backends.
#include "common/descriptor.h"
#include "info.h"

namespace infini::rearrange {

struct Desc : InfiniopDescriptor {
    Info info;
    Desc(const InfiniopHandle &h, Info i) : InfiniopDescriptor(h, OpKind::Rearrange), info(std::move(i)) {}
    virtual infiniStatus_t calculate(void *dst, const void *src, void *stream) const = 0;
};

namespace cpu {
infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Desc **desc);
}
#ifdef INFINI_WITH_NVIDIA
namespace nvidia {
infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Desc **desc);
}
#endif

} // namespace infini::rearrange
