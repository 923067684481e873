// RandomSample, NVIDIA backend: the descriptor and its Calculate (the paths
// and launch counts are listed in nvidia.cuh).
#include "../../common/cuda/stream_sms.h"
#include "argmax_plan.h"
#include "nvidia.cuh"
#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <utility>

namespace infini::random_sample::nvidia {
namespace {

struct NvidiaDesc final : Desc {
    Launchers launchers;
    int max_team; // blocks per row at most: kCluster (sm_90, rows longer than kTeamMinN) or 1
    bool bulk;    // argmax launches read through bulk copies (sm_90 and kArgmaxBulk)
    bool pdl;     // eager launches may use PDL (sm_90, kernels from sm_90 code: they wait at entry)
    TeamFit argmax_fit{}; // argmaxTeam's fit: teams of 2^l argmax blocks resident at once (0: no clusters)
    TeamFit sample_fit{}; // the same for sampling teams (0: unknown)
    InfiniopHandle handle; // (its SM counts, read at handle creation: the teams' sizes; streams with fewer SMs, stream_sms.h)

    NvidiaDesc(const InfiniopHandle &h, const Info &i, const Launchers &l, int t, bool b, bool p, const TeamFit &afit,
               const TeamFit &sfit)
        : Desc(h, i), launchers(l), max_team(t), bulk(b), pdl(p), argmax_fit(afit), sample_fit(sfit), handle(h) {
        workspace_size = 0;
    }

    // Blocks per row for `rows` rows: halved while the launch would still
    // give every multiprocessor a block, so that batches read whole rows per
    // block (no team overhead) and short launches still spread over the GPU;
    // and halved while its teams would not all be resident at once (a second
    // wave of a few teams doubles the launch: 64 rows in teams of 4 on the
    // H100, where 62 such clusters fit, took 45 µs).
    int teamFor(size_t rows) const {
        int team = max_team;
        if (team > kCluster && rows > (size_t)kWideRows) team = kCluster; // wide teams: few rows only
        while (team > 1 && (rows * (size_t)(team / 2) >= (size_t)handle.sm_count || !fitsAtOnce(rows, team))) team /= 2;
        return team;
    }
    bool fitsAtOnce(size_t rows, int team) const {
        const int fit = sample_fit[fitLevel(team)];
        return !kSampleTeamFit || fit == 0 || rows <= (size_t)fit; // (0: the query failed, assume they fit)
    }

    infiniStatus_t calculate(void *, void *result, const void *probs, const ParamArrays &params,
                             void *stream_ptr) const override {
        ScopedCudaDevice scoped(device_id);
        INFINI_TRY(scoped.status());
        const cudaStream_t plain = static_cast<cudaStream_t>(stream_ptr);
        const LaunchStream stream{plain, pdl && pdlWanted(kRandomSamplePdl, plain)};
        // A team of more than one block is a cluster, sized for the whole device:
        // on a stream with fewer SMs (a green context's) that may refuse it, one
        // block a row (stream_sms.h).
        auto teams = [&](int team, auto &&launch) -> infiniStatus_t {
            if (team == 1) {
                return launch(1);
            }
            return launchOrPortable(handle, plain, [&](bool whole) { return launch(whole ? team : 1); });
        };
        const ptrdiff_t esize = (ptrdiff_t)dtypeSize(info.probs_dtype);
        const ptrdiff_t rsize = (ptrdiff_t)dtypeSize(info.result_dtype);
        RowsArgs rows{probs, result, info.row_stride, info.result_stride, (uint32_t)info.n, (int)rsize};
        auto at = [&](size_t b0) {
            RowsArgs a = rows;
            a.probs = static_cast<const char *>(probs) + (ptrdiff_t)b0 * info.row_stride * esize;
            a.result = static_cast<char *>(result) + (ptrdiff_t)b0 * info.result_stride * rsize;
            return a;
        };
        bool all_argmax = true;
        for (size_t b = 0; b < info.batch && all_argmax; ++b) all_argmax = isArgmax(params.at(b));
        if (all_argmax) { // no per-row parameters: one launch (argmax.cuh)
            int team = argmaxTeam(info.batch, info.n * esize, handle.sm_count, argmax_fit);
            for (size_t b0 = 0; b0 < info.batch; b0 += INT32_MAX) {
                const int n_rows = (int)std::min<size_t>(INT32_MAX, info.batch - b0);
                INFINI_TRY(teams(team, [&](int t) {
                    team = t; // (refused: the later launches too)
                    return (bulk ? launchers.argmaxBulk : launchers.argmax)(at(b0), n_rows, t, stream);
                }));
            }
            return INFINI_STATUS_SUCCESS;
        }
        auto fill = [&](auto &args, size_t b0, size_t n_rows) {
            args.rows = at(b0);
            for (size_t k = 0; k < n_rows; ++k) {
                const Params p = params.at(b0 + k);
                args.p[k] = RowParams{p.random_val, p.topp, p.topk, p.temperature};
            }
        };
        if (info.batch <= (size_t)kFewRows) {
            SampleArgs<kFewRows> args;
            fill(args, 0, info.batch);
            return teams(teamFor(info.batch), [&](int t) { return launchers.sampleFew(args, (int)info.batch, t, stream); });
        }
        SampleArgs<kMaxRows> args; // parameters travel by value: kMaxRows rows per launch
        int cap = sampleMaxTeam<kMaxRows>();
        for (size_t b0 = 0; b0 < info.batch; b0 += kMaxRows) {
            const size_t n_rows = std::min<size_t>(kMaxRows, info.batch - b0);
            fill(args, b0, n_rows);
            const int team = std::min(teamFor(n_rows), cap); // (a last launch of few rows)
            INFINI_TRY(teams(team, [&](int t) {
                cap = t < team ? 1 : cap; // (refused: the later launches too)
                return launchers.sampleMany(args, (int)n_rows, t, stream);
            }));
        }
        return INFINI_STATUS_SUCCESS;
    }
};

// Teams of 2^l blocks of one kind of kernel that fit at once on `device`
// (fit[l], l >= 1, from `query(team, &count)`; 0 where such clusters cannot
// launch). Cluster occupancy queries cost far more than the rest of Create,
// and their answer depends only on the device and the kernel: asked once per
// (kernel kind, device, logit type) per process.
enum class FitKind { ArgmaxLoads, ArgmaxBulk, Sampling };
template <class Query>
TeamFit cachedFit(FitKind kind, int device, infiniDtype_t dtype, Query query) {
    static std::mutex mutex;
    static std::map<std::array<int, 3>, TeamFit> known;
    const std::lock_guard<std::mutex> lock(mutex);
    const std::array<int, 3> key{(int)kind, device, (int)dtype};
    auto it = known.find(key);
    if (it == known.end()) {
        TeamFit found{};
        for (int l = 1; l < (int)found.size(); ++l) {
            if (query(1 << l, &found[l]) != INFINI_STATUS_SUCCESS) { // no such teams
                (void)cudaGetLastError();
                found[l] = 0;
            }
        }
        it = known.emplace(key, found).first;
    }
    return it->second;
}

} // namespace

infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Desc **desc) {
    Launchers launchers{};
    switch (info.probs_dtype) {
    case INFINI_DTYPE_F16: launchers = launchersF16(); break;
    case INFINI_DTYPE_BF16: launchers = launchersBF16(); break;
    case INFINI_DTYPE_F32: launchers = launchersF32(); break;
    case INFINI_DTYPE_F64: launchers = launchersF64(); break;
    default: return INFINI_STATUS_BAD_TENSOR_DTYPE;
    }
    ScopedCudaDevice scoped(handle.device_id);
    INFINI_TRY(scoped.status());
    const int major = handle.cc_major;
    INFINI_TRY(launchers.prepare(major));
    const bool clusters = major >= 9 && launchers.clusters();
    int team = clusters && info.n > kTeamMinN ? kCluster : 1;
    const bool bulk = kArgmaxBulk && clusters;
    TeamFit afit{}, sfit{}; // (clusters: sm_90)
    if (clusters) {
        afit = cachedFit(bulk ? FitKind::ArgmaxBulk : FitKind::ArgmaxLoads, handle.device_id, info.probs_dtype,
                         [&](int t, int *count) { return launchers.argmaxTeams(bulk, t, count); });
        sfit = cachedFit(FitKind::Sampling, handle.device_id, info.probs_dtype,
                         [&](int t, int *count) { return launchers.sampleTeams(t, count); });
    }
    // wide teams where kWideRows of them fit at once
    if (team == kCluster && info.n >= kWideMinN && sfit[fitLevel(kSampleTeam)] >= kWideRows) team = kSampleTeam;
    *desc = new NvidiaDesc(handle, info, launchers, team, bulk, clusters, afit, sfit);
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::random_sample::nvidia
