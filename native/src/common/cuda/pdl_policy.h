#pragma once
// When a launch uses programmatic dependent launch (pdl.cuh): the host side
// only, so that plans declared in host headers can hold the choice.
#include <cuda_runtime.h>

namespace infini {

// Whether work queued on `stream` now may become part of a graph (a PDL
// launch would then be a programmatic graph edge, which the caller may not
// want). A failed query (the legacy stream while another stream captures in
// global mode) is cleared and answers true: the caller's plain launch then
// reports what it must.
inline bool streamMayBeCapturing(cudaStream_t stream) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
        cudaGetLastError();
        return true;
    }
    return status != cudaStreamCaptureStatusNone;
}

// When a launch may use PDL (a launch-time choice, so that one build can time
// both): Never is the plain launch; NotCapturing takes it for eager calls only
// (in graphs the programmatic edge measured slower than a plain one on the
// H100, notes/lp_norm.md); Always also in graphs.
enum class PdlPolicy {
    Never,
    Always,
    NotCapturing,
};

// The policy a three-way build knob names: 0 Never, 1 NotCapturing (eager
// calls only), 2 Always (INFINI_REARRANGE_PDL, INFINI_LP_NORM_PIPE_PDL).
constexpr PdlPolicy pdlPolicyOfKnob(int knob) {
    return knob == 2 ? PdlPolicy::Always : knob == 1 ? PdlPolicy::NotCapturing : PdlPolicy::Never;
}

inline bool pdlWanted(PdlPolicy policy, cudaStream_t stream) {
    return policy == PdlPolicy::Always || (policy == PdlPolicy::NotCapturing && !streamMayBeCapturing(stream));
}

} // namespace infini
