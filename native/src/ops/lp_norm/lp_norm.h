#pragma once
// The LPNorm operator descriptor shared by the backends.
#include "../../common/descriptor.h"
#include "info.h"
#include <utility>

namespace infini::lp_norm {

struct Descriptor : InfiniopDescriptor {
    Info info;
    Descriptor(const InfiniopHandle &h, Info i) : InfiniopDescriptor(h, OpKind::LPNorm), info(std::move(i)) {}
    virtual infiniStatus_t calculate(void *workspace, size_t workspace_size, void *y, const void *x,
                                     void *stream) const = 0;
};

namespace cpu {
infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Descriptor **out);
}
namespace nvidia {
infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Descriptor **out);
}

} // namespace infini::lp_norm
