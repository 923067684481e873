// RandomSample, NVIDIA backend: the descriptor and its Calculate.
#include "nvidia.cuh"
#include <algorithm>

namespace infini::random_sample::nvidia {
namespace {

struct NvidiaDesc final : Desc {
    NvidiaDesc(const InfiniopHandle &h, const Info &i) : Desc(h, i) { workspace_size = 0; }

    infiniStatus_t calculate(void *workspace, void *result, const void *probs, const ParamArrays &params,
                             void *stream) const override {
        (void)workspace;
        ScopedCudaDevice scoped(device_id);
        INFINI_TRY(scoped.status());
        infiniStatus_t (*launcher)(const LaunchArgs &, cudaStream_t) = nullptr;
        switch (info.probs_dtype) {
        case INFINI_DTYPE_F16: launcher = launchF16; break;
        case INFINI_DTYPE_BF16: launcher = launchBF16; break;
        case INFINI_DTYPE_F32: launcher = launchF32; break;
        case INFINI_DTYPE_F64: launcher = launchF64; break;
        default: return INFINI_STATUS_BAD_TENSOR_DTYPE;
        }
        const size_t esize = dtypeSize(info.probs_dtype);
        const size_t rsize = dtypeSize(info.result_dtype);
        LaunchArgs args{};
        args.n = (uint32_t)info.n;
        args.row_stride = info.row_stride;
        args.result_stride = info.result_stride;
        args.result_size = (int)rsize;
        // Rows travel by value, kMaxRows per launch (one launch up to that).
        for (size_t b0 = 0; b0 < info.batch; b0 += kMaxRows) {
            const size_t rows = std::min<size_t>(kMaxRows, info.batch - b0);
            args.probs = static_cast<const char *>(probs) + (ptrdiff_t)b0 * info.row_stride * (ptrdiff_t)esize;
            args.result = static_cast<char *>(result) + (ptrdiff_t)b0 * info.result_stride * (ptrdiff_t)rsize;
            args.rows = (int)rows;
            for (size_t k = 0; k < rows; ++k) {
                const Params p = params.at(b0 + k);
                args.p[k] = RowParams{p.random_val, p.topp, p.topk, p.temperature};
            }
            INFINI_TRY(launcher(args, static_cast<cudaStream_t>(stream)));
        }
        return INFINI_STATUS_SUCCESS;
    }
};

} // namespace

infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Desc **desc) {
    *desc = new NvidiaDesc(handle, info);
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::random_sample::nvidia
