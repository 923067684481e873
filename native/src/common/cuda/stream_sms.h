#pragma once
// How many SMs the work of a stream may use, for the plans that are sized for
// the whole device: LPNorm's Hold (whose blocks wait for each other's records,
// so they must all be resident at once) and Grid (cooperative), and the
// thread-block clusters of LPNorm's Cluster, TwoPass and Pipe plans and
// RandomSample's teams. On a stream of a green context with fewer SMs than the
// device, Grid's and the clusters' launches are refused, and Hold, launched
// plain as it was in session 31, waited forever (notes/lp_norm.md, session 31;
// whether the driver refuses its cooperative launch of session 32 there
// instead has not been tried); the operators take their portable plans there.
#include "../handle.h"
#include <cuda_runtime.h>

namespace infini {

// The SMs of the context that `stream` belongs to (a green context's own,
// else its context's), at most `device_sms`; `device_sms` where the driver
// cannot say (drivers before CUDA 12.4 have no green contexts).
int streamSmCount(cudaStream_t stream, int device_sms);

// The SMs that the calling thread's current context may use at most (an
// execution affinity, as MPS's active thread percentage sets), at most
// `device_sms`: read once at handle creation.
int contextSmLimit(int device_sms);

// -DINFINI_STREAM_SMS_CHECK=0: every stream taken for the whole device, as
// before session 31 (a measuring knob: the check's host cost, the failures).
#ifndef INFINI_STREAM_SMS_CHECK
#define INFINI_STREAM_SMS_CHECK 1
#endif

// Whether work on `stream` may use every SM of the handle's device.
inline bool streamHasWholeDevice(const InfiniopHandle &h, cudaStream_t stream) {
    return !INFINI_STREAM_SMS_CHECK || (h.sm_limit >= h.sm_count && streamSmCount(stream, h.sm_count) >= h.sm_count);
}

// launch(true): the launch sized for the whole device (clusters, a
// cooperative grid), which a stream with fewer SMs may refuse; then, and only
// then (the stream's check is a driver call, ~0.5 us on the H100), the refusal
// cleared (it is not sticky) and launch(false), the portable form.
template <class Launch>
infiniStatus_t launchOrPortable(const InfiniopHandle &h, cudaStream_t stream, Launch &&launch) {
    const infiniStatus_t status = launch(true);
    if (status == INFINI_STATUS_SUCCESS || streamHasWholeDevice(h, stream)) {
        return status;
    }
    cudaGetLastError();
    return launch(false);
}

} // namespace infini
