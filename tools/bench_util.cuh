#pragma once
// Small pieces the standalone CUDA harnesses under tools/ share: printing to
// stdout and an optional file (a probe's start: openReport), pass/fail lines, host conversions of the
// device element types, a seeded generator, medians, the count of a graph's
// programmatic edges, a kernel that knows nothing of PDL, and a timer for
// graph replays and eager batches.
#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <vector>

#include "check.h"

namespace bench {

inline FILE *g_out = nullptr; // also written by say() when set
inline int g_failures = 0;

inline void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
inline void say(const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    std::fputs(buf, stdout);
    std::fflush(stdout);
    if (g_out != nullptr) {
        std::fputs(buf, g_out);
        std::fflush(g_out);
    }
}

// A standalone probe's start: its report also goes to argv[1] when given,
// and the first line names device 0; returns that device's properties.
inline cudaDeviceProp openReport(int argc, char **argv) {
    if (argc > 1) {
        g_out = std::fopen(argv[1], "w");
    }
    cudaDeviceProp prop{};
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    say("device: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
    return prop;
}

inline void expect(bool ok, const char *what) {
    g_failures += !ok;
    say("  %-64s %s\n", what, ok ? "ok" : "FAILED");
}

template <class T> double toDouble(T v) { return (double)v; }
template <> inline double toDouble(__half v) { return __half2float(v); }
template <> inline double toDouble(__nv_bfloat16 v) { return __bfloat162float(v); }
// Through float for the half types: exact for values F32 holds exactly (then
// one round to nearest even), as the device's narrowing does.
template <class T> T fromDouble(double v) { return (T)v; }
template <> inline __half fromDouble(double v) { return __float2half_rn((float)v); }
template <> inline __nv_bfloat16 fromDouble(double v) { return __float2bfloat16_rn((float)v); }

struct Rng {
    unsigned long long s;
    double uniform() { // [0, 1)
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return (double)(s >> 11) * (1.0 / 9007199254740992.0);
    }
};

template <class T>
bool sameBits(const std::vector<T> &a, const std::vector<T> &b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

inline double minimum(const std::vector<double> &v) { return *std::min_element(v.begin(), v.end()); }

// A kernel that knows nothing of PDL (it never triggers): the PDL launch after
// it must still see everything it wrote.
template <class T>
__global__ void plainCopyKernel(const T *src, T *dst, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        dst[i] = src[i];
    }
}

inline size_t programmaticEdges(cudaGraph_t g) {
    size_t n = 0;
    CHECK_CUDA(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n));
    std::vector<cudaGraphNode_t> from(n), to(n);
    std::vector<cudaGraphEdgeData> data(n);
    CHECK_CUDA(cudaGraphGetEdges(g, from.data(), to.data(), data.data(), &n));
    size_t prog = 0;
    for (const cudaGraphEdgeData &e : data) {
        prog += e.type == cudaGraphDependencyTypeProgrammatic;
    }
    return prog;
}

} // namespace bench

namespace bench {

// Timing on one stream with a pair of events: graphs of captured calls
// replayed back to back, and eager batches (device µs per call, plus the
// host µs per launch).
class StreamTimer {
  public:
    explicit StreamTimer(cudaStream_t st) : st_(st) {
        CHECK_CUDA(cudaEventCreate(&e0_));
        CHECK_CUDA(cudaEventCreate(&e1_));
    }
    ~StreamTimer() {
        cudaEventDestroy(e0_);
        cudaEventDestroy(e1_);
    }
    StreamTimer(const StreamTimer &) = delete;
    StreamTimer &operator=(const StreamTimer &) = delete;

    // A graph of call(0) .. call(calls - 1), instantiated and replayed once (warm).
    template <class F>
    cudaGraphExec_t capture(int calls, F &&call) {
        cudaGraph_t g;
        cudaGraphExec_t ge;
        CHECK_CUDA(cudaStreamBeginCapture(st_, cudaStreamCaptureModeThreadLocal));
        for (int i = 0; i < calls; ++i) {
            call(i);
        }
        CHECK_CUDA(cudaStreamEndCapture(st_, &g));
        CHECK_CUDA(cudaGraphInstantiate(&ge, g, 0));
        CHECK_CUDA(cudaGraphDestroy(g));
        CHECK_CUDA(cudaGraphLaunch(ge, st_));
        CHECK_CUDA(cudaStreamSynchronize(st_));
        return ge;
    }

    // µs per call of `replays` replays of a graph of `calls` calls.
    double graphUs(cudaGraphExec_t ge, int replays, int calls) {
        CHECK_CUDA(cudaEventRecord(e0_, st_));
        for (int r = 0; r < replays; ++r) {
            CHECK_CUDA(cudaGraphLaunch(ge, st_));
        }
        CHECK_CUDA(cudaEventRecord(e1_, st_));
        return elapsedUs() / (replays * calls);
    }

    // Device µs per call of call(0) .. call(calls - 1) queued back to back;
    // the host µs per call it took to queue them into *host_us.
    template <class F>
    double eagerUs(int calls, F &&call, double *host_us) {
        CHECK_CUDA(cudaEventRecord(e0_, st_));
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; ++i) {
            call(i);
        }
        *host_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / calls;
        CHECK_CUDA(cudaEventRecord(e1_, st_));
        return elapsedUs() / calls;
    }

    // The median µs of `calls` calls queued back to back, each between two
    // events of its own (as infiniop_py/bench's time_cuda measures): the
    // events sit between consecutive kernels.
    template <class F>
    double perCallEventsUs(int calls, F &&call) {
        std::vector<cudaEvent_t> ev(2 * (size_t)calls);
        for (cudaEvent_t &e : ev) {
            CHECK_CUDA(cudaEventCreate(&e));
        }
        for (int i = 0; i < calls; ++i) {
            CHECK_CUDA(cudaEventRecord(ev[2 * i], st_));
            call(i);
            CHECK_CUDA(cudaEventRecord(ev[2 * i + 1], st_));
        }
        CHECK_CUDA(cudaStreamSynchronize(st_));
        std::vector<double> us(calls);
        for (int i = 0; i < calls; ++i) {
            float ms;
            CHECK_CUDA(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
            us[i] = ms * 1e3;
        }
        for (cudaEvent_t e : ev) {
            CHECK_CUDA(cudaEventDestroy(e));
        }
        return median(us);
    }

  private:
    double elapsedUs() {
        CHECK_CUDA(cudaEventSynchronize(e1_));
        float ms;
        CHECK_CUDA(cudaEventElapsedTime(&ms, e0_, e1_));
        return ms * 1e3;
    }

    cudaStream_t st_;
    cudaEvent_t e0_, e1_;
};

// The copy probes' frame (copy_probe.cu, move_probe.cu): `sets` pairs of
// buffers of `bytes` (x random words, the same in every set), one stream.
// form(name, launch): y poisoned, launch(x, y) over the sets captured as one
// graph of 2 * sets launches; prints graph µs a launch (median of 5 rounds of
// 10 replays) and GB/s (bytes read + written), then checks every y against x.
class CopyBench {
  public:
    CopyBench(size_t bytes, int sets, int name_width)
        : bytes_(bytes), width_(name_width), xs_(sets), ys_(sets), st_(newStream()) {
        host_.resize(bytes / 4);
        Rng rng{7};
        for (auto &w : host_) {
            w = (unsigned)(rng.uniform() * 4294967296.0);
        }
        for (int s = 0; s < sets; ++s) {
            CHECK_CUDA(cudaMalloc(&xs_[s], bytes));
            CHECK_CUDA(cudaMalloc(&ys_[s], bytes));
            CHECK_CUDA(cudaMemcpy(xs_[s], host_.data(), bytes, cudaMemcpyHostToDevice));
        }
        timer_ = std::make_unique<StreamTimer>(st_);
        say("%-*s %12s %14s %20s\n", width_, "form", "µs a launch", "GB/s (r + w)", "check");
    }
    ~CopyBench() {
        timer_.reset();
        cudaStreamDestroy(st_);
        for (size_t s = 0; s < xs_.size(); ++s) {
            cudaFree(xs_[s]);
            cudaFree(ys_[s]);
        }
    }
    CopyBench(const CopyBench &) = delete;
    CopyBench &operator=(const CopyBench &) = delete;

    cudaStream_t stream() const { return st_; }

    template <class F>
    void form(const char *name, F &&launch) {
        const int sets = (int)xs_.size(), calls = 2 * sets;
        for (int s = 0; s < sets; ++s) {
            CHECK_CUDA(cudaMemsetAsync(ys_[s], 0xa5, bytes_, st_)); // poison
        }
        cudaGraphExec_t ge = timer_->capture(calls, [&](int i) {
            launch(xs_[i % sets], ys_[i % sets]);
            CHECK_CUDA(cudaGetLastError());
        });
        std::vector<double> us;
        for (int r = 0; r < 5; ++r) {
            us.push_back(timer_->graphUs(ge, 10, calls));
        }
        CHECK_CUDA(cudaStreamSynchronize(st_));
        CHECK_CUDA(cudaGraphExecDestroy(ge));
        bool ok = true;
        std::vector<unsigned> back(bytes_ / 4);
        for (int s = 0; s < sets && ok; ++s) {
            CHECK_CUDA(cudaMemcpy(back.data(), ys_[s], bytes_, cudaMemcpyDeviceToHost));
            ok = back == host_;
        }
        g_failures += !ok;
        const double t = median(us);
        say("%-*s %12.2f %14.0f %20s\n", width_, name, t, 2.0 * bytes_ / 1e3 / t, ok ? "ok" : "FAILED");
    }

  private:
    size_t bytes_;
    int width_;
    std::vector<unsigned char *> xs_, ys_;
    std::vector<unsigned> host_;
    cudaStream_t st_;
    std::unique_ptr<StreamTimer> timer_;

    static cudaStream_t newStream() {
        cudaStream_t st;
        CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
        return st;
    }
};

} // namespace bench
