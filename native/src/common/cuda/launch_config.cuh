#pragma once
// The configuration of a cudaLaunchKernelEx launch or an occupancy query,
// built in one place for every operator: grid, block, dynamic shared memory,
// stream, and the attributes this library's launches carry: a thread-block
// cluster along x, programmatic stream serialization (pdl.cuh), cooperative
// residency (every block resident at once).
#include <cuda_runtime.h>

namespace infini {

class LaunchConfig {
public:
    LaunchConfig(dim3 grid, dim3 block, size_t smem, cudaStream_t stream) {
        cfg_.gridDim = grid;
        cfg_.blockDim = block;
        cfg_.dynamicSmemBytes = smem;
        cfg_.stream = stream;
    }
    // Clusters of `x` blocks along x. Set even for 1 where the caller asks:
    // cudaOccupancyMaxActiveClusters needs the attribute.
    LaunchConfig &cluster(unsigned x) {
        cudaLaunchAttribute &a = add(cudaLaunchAttributeClusterDimension);
        a.val.clusterDim.x = x;
        a.val.clusterDim.y = 1;
        a.val.clusterDim.z = 1;
        return *this;
    }
    // The launch may start while the previous kernel in the stream drains (when `on`).
    LaunchConfig &pdl(bool on) {
        if (on) {
            add(cudaLaunchAttributeProgrammaticStreamSerialization).val.programmaticStreamSerializationAllowed = 1;
        }
        return *this;
    }
    LaunchConfig &cooperative() {
        add(cudaLaunchAttributeCooperative).val.cooperative = 1;
        return *this;
    }
    // What cudaLaunchKernelEx and the occupancy queries take; it points into
    // this object (set here, so copies of the object stay valid).
    const cudaLaunchConfig_t *get() {
        cfg_.attrs = attrs_;
        cfg_.numAttrs = count_;
        return &cfg_;
    }

private:
    static constexpr unsigned kMaxAttrs = 3; // one of each kind above
    // The attribute `id`, cleared: a kind set again replaces its earlier value.
    cudaLaunchAttribute &add(cudaLaunchAttributeID id) {
        unsigned i = 0;
        while (i < count_ && attrs_[i].id != id) {
            ++i;
        }
        count_ = i < count_ ? count_ : i + 1;
        attrs_[i] = cudaLaunchAttribute{};
        attrs_[i].id = id;
        return attrs_[i];
    }
    cudaLaunchConfig_t cfg_{};
    cudaLaunchAttribute attrs_[kMaxAttrs]{};
    unsigned count_ = 0;
};

} // namespace infini
