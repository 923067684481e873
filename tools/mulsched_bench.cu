// Mul's contiguous vector kernel (elementwise/nvidia.cuh, contiguousKernel)
// at other block sizes B and vectors per thread U, and with cache hints on
// its loads and stores, against the library's launch (B 256, U 1) in one
// process (issue 13: 4096² F16/BF16 in the bench's per-call events row sits
// 0.2-0.3 µs from torch.mul's, and torch's kernel ran 0.3 µs faster in graphs
// in session 16's first call; notes/mul.md, "Session 16").
//
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include -Inative/src
//        -DINFINI_WITH_NVIDIA tools/mulsched_bench.cu -o build/mulsched_bench && build/mulsched_bench [out.txt]
//
// Every variant is first checked: the output poisoned, then compared bitwise
// with the float64 product rounded once (exact for these inputs). Timing, 7
// rounds, variants interleaved in a rotated order: graphs of 20 plain
// launches over rotated buffer sets (together more than L2), and 200 calls
// each between two events of its own (the bench's way); medians (min) in µs
// per call, beside a device copy of the same bytes.
#include "../native/src/ops/mul/mul.cc"

#include <cmath>

#include "bench_util.cuh"

namespace mulsched {

using namespace bench;
namespace ew = infini::elementwise::nvidia;

enum class Hint { None, StreamStore, StreamBoth, ReadOnlyLoad };

// The library kernel's vector body (one chunk per block) with hints: the
// stores evict-first (st.global.cs), the loads too (ld.global.cs), or the
// loads through the read-only path (ld.global.nc).
template <class T, int B, Hint H>
__global__ void __launch_bounds__(B) hintedKernel(T *out, const T *a, const T *b, uint64_t numel) {
    using V = ew::Vec<T>;
    const uint64_t nacc = numel / (16 / sizeof(T));
    const uint64_t i = (uint64_t)blockIdx.x * B + threadIdx.x;
    if (i >= nacc) {
        return;
    }
    const uint4 *pa = reinterpret_cast<const uint4 *>(a) + i, *pb = reinterpret_cast<const uint4 *>(b) + i;
    uint4 wa, wb;
    if constexpr (H == Hint::StreamBoth) {
        wa = __ldcs(pa);
        wb = __ldcs(pb);
    } else if constexpr (H == Hint::ReadOnlyLoad) {
        wa = __ldg(pa);
        wb = __ldg(pb);
    } else {
        wa = *pa;
        wb = *pb;
    }
    V x[2];
    memcpy(&x[0], &wa, 16);
    memcpy(&x[1], &wb, 16);
    const V y = ew::applyVec<infini::MulOp>(x);
    uint4 wy;
    memcpy(&wy, &y, 16);
    uint4 *py = reinterpret_cast<uint4 *>(out) + i;
    if constexpr (H == Hint::None || H == Hint::ReadOnlyLoad) {
        *py = wy;
    } else {
        __stcs(py, wy);
    }
}

template <class T>
using Launch = void (*)(T *, const T *, const T *, uint64_t, cudaStream_t);

template <class T, int B, int U>
void launchLibraryKernel(T *c, const T *a, const T *b, uint64_t n, cudaStream_t st) {
    constexpr int V = 16 / sizeof(T);
    ew::Inputs<T, 2> in{{a, b}};
    const uint64_t chunk = (uint64_t)B * U;
    const unsigned grid = (unsigned)((n / V + chunk - 1) / chunk);
    ew::contiguousKernel<infini::MulOp, T, 2, V, U, B><<<grid, B, 0, st>>>(c, in, n);
    CHECK_CUDA(cudaGetLastError());
}

template <class T, int B, Hint H>
void launchHinted(T *c, const T *a, const T *b, uint64_t n, cudaStream_t st) {
    const unsigned grid = (unsigned)((n / (16 / sizeof(T)) + B - 1) / B);
    hintedKernel<T, B, H><<<grid, B, 0, st>>>(c, a, b, n);
    CHECK_CUDA(cudaGetLastError());
}

template <class T>
struct Variant {
    const char *name;
    Launch<T> launch;
};

template <class T>
std::vector<Variant<T>> variants() {
    return {
        {"library B256 U1", launchLibraryKernel<T, 256, 1>},
        {"B128 U1", launchLibraryKernel<T, 128, 1>},
        {"B512 U1", launchLibraryKernel<T, 512, 1>},
        {"B1024 U1", launchLibraryKernel<T, 1024, 1>},
        {"B128 U2", launchLibraryKernel<T, 128, 2>},
        {"B256 U2", launchLibraryKernel<T, 256, 2>},
        {"B128 U4", launchLibraryKernel<T, 128, 4>},
        {"hint none B256", launchHinted<T, 256, Hint::None>},
        {"st.cs B256", launchHinted<T, 256, Hint::StreamStore>},
        {"ld.cs st.cs B256", launchHinted<T, 256, Hint::StreamBoth>},
        {"ld.nc B256", launchHinted<T, 256, Hint::ReadOnlyLoad>},
        {"st.cs B128", launchHinted<T, 128, Hint::StreamStore>},
    };
}

template <infiniDtype_t D>
void runCase(const cudaDeviceProp &prop, const char *name, size_t rows, size_t cols) {
    using T = typename infini::DeviceTypeOf<D>::type;
    const size_t n = rows * cols, bytes = n * sizeof(T);
    say("\n%s %zux%zu\n", name, rows, cols);
    cudaStream_t st;
    CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    Rng rng{0x2545f4914f6cdd1dull ^ (unsigned long long)n};
    std::vector<T> ha(n), hb(n);
    for (std::vector<T> *h : {&ha, &hb}) {
        for (T &v : *h) { // +-[0.5, 2): products exact in float64
            const double u = rng.uniform();
            v = fromDouble<T>((u < 0.5 ? -1 : 1) * (0.5 + 3.0 * std::fabs(u - 0.5)));
        }
    }
    const int sets = (int)std::max<size_t>(2, std::min<size_t>(8, (size_t)prop.l2CacheSize / bytes + 1));
    std::vector<T *> xs(sets), ys(sets), zs(sets);
    for (int s = 0; s < sets; ++s) {
        for (T **p : {&xs[s], &ys[s], &zs[s]}) {
            CHECK_CUDA(cudaMalloc(p, bytes));
        }
        CHECK_CUDA(cudaMemcpy(xs[s], ha.data(), bytes, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(ys[s], hb.data(), bytes, cudaMemcpyHostToDevice));
    }
    const std::vector<Variant<T>> vs = variants<T>();
    const int nv = (int)vs.size();
    std::vector<T> out(n);
    char what[200];
    for (const Variant<T> &v : vs) {
        CHECK_CUDA(cudaMemsetAsync(zs[0], 0xff, bytes, st)); // NaN in every float type
        v.launch(zs[0], xs[0], ys[0], n, st);
        CHECK_CUDA(cudaStreamSynchronize(st));
        CHECK_CUDA(cudaMemcpy(out.data(), zs[0], bytes, cudaMemcpyDeviceToHost));
        size_t bad = 0;
        for (size_t i = 0; i < n; ++i) {
            const T ref = fromDouble<T>(toDouble(ha[i]) * toDouble(hb[i]));
            bad += std::memcmp(&ref, &out[i], sizeof(T)) != 0;
        }
        std::snprintf(what, sizeof what, "%-18s float64 product rounded once, %zu wrong", v.name, bad);
        expect(bad == 0, what);
    }
    constexpr int kCalls = 20, kReplays = 10, kRounds = 7;
    StreamTimer timer(st);
    std::vector<cudaGraphExec_t> graphs;
    for (const Variant<T> &v : vs) {
        graphs.push_back(timer.capture(kCalls, [&](int i) { v.launch(zs[i % sets], xs[i % sets], ys[i % sets], n, st); }));
    }
    const cudaGraphExec_t copy_graph = timer.capture(kCalls, [&](int i) {
        const int s = i % sets;
        CHECK_CUDA(cudaMemcpyAsync(zs[s], xs[s], bytes, cudaMemcpyDeviceToDevice, st));
        CHECK_CUDA(cudaMemcpyAsync(zs[s], ys[s], bytes / 2, cudaMemcpyDeviceToDevice, st));
    });
    std::vector<std::vector<double>> tg(nv), tv(nv);
    std::vector<double> tc;
    for (int r = 0; r < kRounds; ++r) {
        for (int k = 0; k < nv; ++k) {
            const int v = (r + k) % nv;
            tg[v].push_back(timer.graphUs(graphs[v], kReplays, kCalls));
        }
        tc.push_back(timer.graphUs(copy_graph, kReplays, kCalls));
        for (int k = 0; k < nv; ++k) {
            const int v = (r + k) % nv;
            tv[v].push_back(timer.perCallEventsUs(
                kCalls * kReplays, [&](int i) { vs[v].launch(zs[i % sets], xs[i % sets], ys[i % sets], n, st); }));
        }
    }
    say("  µs per call, median of %d rounds (min); graphs of %d plain launches over %d buffer sets; events: %d calls\n"
        "  each between two events; copy of the same bytes (graph) %.2f\n",
        kRounds, kCalls, sets, kCalls * kReplays, median(tc));
    say("    %-18s %15s %8s %15s %8s\n", "variant", "graph", "vs lib", "events", "vs lib");
    for (int v = 0; v < nv; ++v) {
        say("    %-18s %7.2f (%5.2f) %+8.2f %7.2f (%5.2f) %+8.2f\n", vs[v].name, median(tg[v]), minimum(tg[v]),
            median(tg[v]) - median(tg[0]), median(tv[v]), minimum(tv[v]), median(tv[v]) - median(tv[0]));
    }
    for (cudaGraphExec_t ge : graphs) {
        CHECK_CUDA(cudaGraphExecDestroy(ge));
    }
    CHECK_CUDA(cudaGraphExecDestroy(copy_graph));
    for (int s = 0; s < sets; ++s) {
        for (T *p : {xs[s], ys[s], zs[s]}) {
            CHECK_CUDA(cudaFree(p));
        }
    }
    CHECK_CUDA(cudaStreamDestroy(st));
}

} // namespace mulsched

int main(int argc, char **argv) {
    using namespace mulsched;
    const cudaDeviceProp prop = openReport(argc, argv);
    runCase<INFINI_DTYPE_F16>(prop, "f16", 4096, 4096);
    runCase<INFINI_DTYPE_BF16>(prop, "bf16", 4096, 4096);
    runCase<INFINI_DTYPE_F32>(prop, "f32", 8192, 8192);
    say("\n%s: %d failure(s)\n", g_failures ? "FAILED" : "all checks passed", g_failures);
    if (g_out != nullptr) {
        std::fclose(g_out);
    }
    return g_failures ? 1 : 0;
}
