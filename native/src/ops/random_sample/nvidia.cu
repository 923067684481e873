// RandomSample, NVIDIA backend: the descriptor and its Calculate.
#include "nvidia.cuh"
#include <algorithm>

namespace infini::random_sample::nvidia {
namespace {

struct NvidiaDesc final : Desc {
    uint32_t splits = 0; // prepass blocks per row (0: the row's block reads the row alone)
    uint32_t chunk = 0;  // elements per prepass block

    NvidiaDesc(const InfiniopHandle &h, const Info &i) : Desc(h, i) {
        // Rows longer than one chunk are first swept by several blocks each
        // (argmax, level-0 histogram, total weight), so that one row's latency
        // is not one multiprocessor's bandwidth.
        if (info.n > kChunk) {
            const size_t c = std::max<size_t>(kChunk, ((info.n + kThreads - 1) / kThreads + 7) / 8 * 8);
            chunk = (uint32_t)c;
            splits = (uint32_t)((info.n + c - 1) / c);
        }
        const size_t rows = std::min<size_t>(info.batch, kMaxRows);
        workspace_size = prepassBytes(rows, splits);
    }

    infiniStatus_t calculate(void *workspace, void *result, const void *probs, const ParamArrays &params,
                             void *stream) const override {
        ScopedCudaDevice scoped(device_id);
        INFINI_TRY(scoped.status());
        infiniStatus_t (*launcher)(const LaunchArgs &, const PreArgs &, cudaStream_t) = nullptr;
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
        PreArgs pre = prepassLayout(workspace, std::min<size_t>(info.batch, kMaxRows), splits, chunk);
        // Rows travel by value, kMaxRows per launch (one launch up to that).
        for (size_t b0 = 0; b0 < info.batch; b0 += kMaxRows) {
            const size_t rows = std::min<size_t>(kMaxRows, info.batch - b0);
            args.probs = static_cast<const char *>(probs) + (ptrdiff_t)b0 * info.row_stride * (ptrdiff_t)esize;
            args.result = static_cast<char *>(result) + (ptrdiff_t)b0 * info.result_stride * (ptrdiff_t)rsize;
            args.rows = (int)rows;
            pre.any_hist = false;
            pre.any_hist2 = false;
            pre.finish_argmax = splits > 0;
            for (size_t k = 0; k < rows; ++k) {
                const Params p = params.at(b0 + k);
                args.p[k] = RowParams{p.random_val, p.topp, p.topk, p.temperature};
                // The same test as rowMode().descent1 in the kernels.
                pre.finish_argmax &= isArgmax(p);
                const bool sampled = !isArgmax(p) && info.n > (size_t)kCap;
                pre.any_hist |= sampled && effectiveK(p.topk, info.n) < info.n;
                pre.any_hist2 |= sampled && effectiveK(p.topk, info.n) == info.n;
            }
            INFINI_TRY(launcher(args, pre, static_cast<cudaStream_t>(stream)));
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
