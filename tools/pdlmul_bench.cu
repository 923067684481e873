// Mul's contiguous path with programmatic dependent launch (PDL), off against
// on in one build (issue 13; notes/mul.md, "PDL for back-to-back calls"). One
// process:
//
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include -Inative/src
//        -DINFINI_WITH_NVIDIA tools/pdlmul_bench.cu -o build/pdlmul_bench && build/pdlmul_bench [out.txt]
//
// The library's kernels (elementwise/nvidia.cuh, through mul.cc) are compiled
// into this file and launched by launchContiguous with each policy: off
// (PdlPolicy::Never, the launch main makes), library (kContiguousPdl: PDL for
// eager calls, a plain launch under capture) and always (PDL in graphs too).
// For each case and policy:
//  - a chain of dependent calls queued without a sync: b restored by a copy, c
//    poisoned by a memset, a written by a kernel that knows nothing of PDL;
//    then c = a*b; a = c*b (overwrites what call 1 read); c = c*a in place;
//    b = a*c (overwrites what calls 1 and 2 read). Eagerly, and captured and
//    replayed 3 times (poisoned between), 5 replays queued, and graph, eager
//    chain, graph queued: a, b and c must have the bits of the same steps run
//    one at a time with PDL off, each step's output poisoned before it and
//    checked against the float64 product rounded once (F16/BF16/F32 products
//    of these inputs are exact in float64, so that check is bitwise too);
//    the captured chain's programmatic edges are counted;
//  - timing (the 3 timed cases): graphs of 20 calls over rotated buffer sets
//    (together more than L2) and eager back-to-back batches of 200 calls, the
//    policies interleaved in each of 7 rounds (rotated order), medians (min)
//    in µs per call, host µs per eager launch; the same 200 calls each
//    between two events of its own (the way infiniop_py/bench times a call:
//    does PDL survive an event between kernels?); a device copy of the same
//    bytes as the roofline.
#include "../native/src/ops/mul/mul.cc"

#include <cmath>

#include "bench_util.cuh"

namespace pdlmul { // named: an anonymous one beside the library's confuses nvcc's host stubs

using namespace bench;
namespace ew = infini::elementwise::nvidia;
using infini::PdlPolicy;

struct Variant {
    const char *name;
    PdlPolicy policy;
};
const Variant kVariants[] = {
    {"off", PdlPolicy::Never},
    {"library", ew::kContiguousPdl},
    {"always", PdlPolicy::Always},
};
constexpr int kNumVariants = (int)(sizeof kVariants / sizeof kVariants[0]);

const char *policyName(PdlPolicy p) {
    return p == PdlPolicy::Never ? "Never" : p == PdlPolicy::Always ? "Always" : "NotCapturing";
}

// Timed cases: µs per call, medians.
constexpr int kTimedCases = 3;
double g_graph[kTimedCases][kNumVariants], g_eager[kTimedCases][kNumVariants], g_events[kTimedCases][kNumVariants],
    g_copy[kTimedCases];
const char *g_case_names[kTimedCases];
int g_timed = 0;

// The contiguous plan makePlan (plan_nvidia.cc) makes for `numel` elements.
template <infiniDtype_t D>
ew::Plan contiguousPlan(uint64_t numel) {
    using T = typename infini::DeviceTypeOf<D>::type;
    ew::Occupancy occ;
    CHECK_OK((ew::occupancy<infini::MulOp, D>(&occ)));
    ew::Plan p;
    p.path = ew::Path::Contiguous;
    p.nops = 3;
    p.elem_size = sizeof(T);
    p.numel = numel;
    const uint64_t vectors = std::max<uint64_t>(numel / (16 / sizeof(T)), 1);
    int device = 0, sms = 0;
    CHECK_CUDA(cudaGetDevice(&device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    p.block_vec = ew::contiguousVecBlock(vectors, sms, ew::kBlock);
    p.grid_vec = (unsigned)((vectors + p.block_vec - 1) / p.block_vec);
    p.grid_scalar = (unsigned)((numel + ew::kUnroll * ew::kBlock - 1) / (ew::kUnroll * ew::kBlock));
    p.pdl = occ.pdl;
    return p;
}

// Elements of out that differ from the float64 product rounded once.
template <class T>
size_t wrongProducts(const std::vector<T> &out, const std::vector<T> &x, const std::vector<T> &y) {
    size_t bad = 0;
    for (size_t i = 0; i < out.size(); ++i) {
        const T ref = fromDouble<T>(toDouble(x[i]) * toDouble(y[i]));
        bad += std::memcmp(&ref, &out[i], sizeof(T)) != 0;
    }
    return bad;
}

// rows x cols elements; `lead` elements into every buffer (1: the unaligned,
// scalar kernel); timed when `time`.
template <infiniDtype_t D>
void runCase(const cudaDeviceProp &prop, const char *name, size_t rows, size_t cols, size_t lead, bool time) {
    using T = typename infini::DeviceTypeOf<D>::type;
    const size_t n = rows * cols, bytes = n * sizeof(T), alloc = (n + lead) * sizeof(T);
    say("\n%s %zux%zu%s\n", name, rows, cols, lead ? ", every pointer one element past 16-byte alignment" : "");
    const ew::Plan plan = contiguousPlan<D>(n);
    const int block = lead ? ew::kBlock : plan.block_vec;
    const void *any_kernel =
        lead                          ? (const void *)ew::contiguousKernel<infini::MulOp, T, 2, 1, ew::kUnroll>
        : block == ew::kWideBlock ? (const void *)ew::contiguousKernel<infini::MulOp, T, 2, 16 / sizeof(T), 1, ew::kWideBlock>
                                      : (const void *)ew::contiguousKernel<infini::MulOp, T, 2, 16 / sizeof(T), 1>;
    int per_sm = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, any_kernel, block, 0));
    const unsigned grid = lead ? plan.grid_scalar : plan.grid_vec;
    say("  plan: %u blocks of %d (one chunk each), %d fit an SM: %.2f waves; plan.pdl %d (kernels from sm_90+ "
        "PTX)\n",
        grid, block, per_sm, (double)grid / (per_sm * prop.multiProcessorCount), (int)plan.pdl);
    if (!plan.pdl) {
        say("  PDL is not available for these kernels on this device: every policy is the plain launch\n");
    }
    cudaStream_t st;
    CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    auto mul = [&](T *c, const T *a, const T *b, PdlPolicy policy) {
        const void *in[2] = {a, b};
        CHECK_OK((ew::launchContiguous<infini::MulOp, D>(plan, c, in, st, policy)));
    };

    // ---- the dependent chain ----
    Rng rng{0x9e3779b97f4a7c15ull ^ (unsigned long long)(n * 131 + lead)};
    std::vector<T> ha(n), hb(n);
    for (std::vector<T> *h : {&ha, &hb}) {
        for (T &v : *h) { // +-[0.5, 2): no zeros, no overflow or underflow along the chain
            const double u = rng.uniform();
            v = fromDouble<T>((u < 0.5 ? -1 : 1) * (0.5 + 3.0 * std::fabs(u - 0.5)));
        }
    }
    T *base[5];
    for (T *&p : base) {
        CHECK_CUDA(cudaMalloc(&p, alloc));
    }
    T *const src_a = base[0] + lead, *const src_b = base[1] + lead;
    T *const buf[3] = {base[2] + lead, base[3] + lead, base[4] + lead}; // a, b, c
    enum { A, B, C };
    CHECK_CUDA(cudaMemcpy(src_a, ha.data(), bytes, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(src_b, hb.data(), bytes, cudaMemcpyHostToDevice));
    struct Step {
        int out, x, y;
    };
    const Step steps[4] = {{C, A, B}, {A, C, B}, {C, C, A}, {B, A, C}};
    const unsigned copy_grid = (unsigned)prop.multiProcessorCount * 4;
    auto setup = [&]() {
        CHECK_CUDA(cudaMemcpyAsync(buf[B], src_b, bytes, cudaMemcpyDeviceToDevice, st));
        CHECK_CUDA(cudaMemsetAsync(buf[C], 0xff, bytes, st)); // NaN in every float type
        plainCopyKernel<T><<<copy_grid, 256, 0, st>>>(src_a, buf[A], n);
        CHECK_CUDA(cudaGetLastError());
    };
    auto chain = [&](PdlPolicy policy) {
        setup();
        for (const Step &s : steps) {
            mul(buf[s.out], buf[s.x], buf[s.y], policy);
        }
    };
    auto poison = [&]() {
        for (T *p : buf) {
            CHECK_CUDA(cudaMemsetAsync(p, 0xff, bytes, st));
        }
    };
    auto fetch = [&](const T *d, std::vector<T> &hv) {
        CHECK_CUDA(cudaStreamSynchronize(st));
        hv.resize(n);
        CHECK_CUDA(cudaMemcpy(hv.data(), d, bytes, cudaMemcpyDeviceToHost));
    };
    // Reference: the steps one at a time, PDL off, each output poisoned
    // before (unless in place) and checked against float64.
    std::vector<T> want[3] = {ha, hb, {}}, got[3];
    poison();
    setup();
    char what[200];
    for (int k = 0; k < 4; ++k) {
        const Step &s = steps[k];
        if (s.out != s.x && s.out != s.y) {
            CHECK_CUDA(cudaMemsetAsync(buf[s.out], 0xff, bytes, st));
        }
        mul(buf[s.out], buf[s.x], buf[s.y], PdlPolicy::Never);
        std::vector<T> out;
        fetch(buf[s.out], out);
        const size_t bad = wrongProducts(out, want[s.x], want[s.y]);
        std::snprintf(what, sizeof what, "step %d (%c = %c*%c), PDL off: float64 product rounded once, %zu wrong",
                      k + 1, "abc"[s.out], "abc"[s.x], "abc"[s.y], bad);
        expect(bad == 0, what);
        want[s.out] = std::move(out);
    }
    auto same = [&]() {
        bool ok = true;
        for (int k = 0; k < 3; ++k) {
            fetch(buf[k], got[k]);
            ok = ok && sameBits(got[k], want[k]);
        }
        return ok;
    };
    for (const Variant &v : kVariants) {
        poison();
        chain(v.policy);
        bool ok = same();
        cudaGraph_t g;
        cudaGraphExec_t ge;
        CHECK_CUDA(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
        chain(v.policy);
        CHECK_CUDA(cudaStreamEndCapture(st, &g));
        // Always: calls 2-4 follow a PDL-aware kernel, call 1 a plain one
        // (counted as programmatic or not, depending on the runtime).
        const size_t prog = programmaticEdges(g);
        const bool edges_ok = v.policy == PdlPolicy::Always && plan.pdl ? prog >= 3 && prog <= 4 : prog == 0;
        CHECK_CUDA(cudaGraphInstantiate(&ge, g, 0));
        for (int rep = 0; rep < 3; ++rep) {
            poison();
            CHECK_CUDA(cudaGraphLaunch(ge, st));
            ok = ok && same();
        }
        poison();
        for (int rep = 0; rep < 5; ++rep) {
            CHECK_CUDA(cudaGraphLaunch(ge, st));
        }
        ok = ok && same();
        poison();
        CHECK_CUDA(cudaGraphLaunch(ge, st));
        chain(v.policy);
        CHECK_CUDA(cudaGraphLaunch(ge, st));
        ok = ok && same();
        CHECK_CUDA(cudaGraphExecDestroy(ge));
        CHECK_CUDA(cudaGraphDestroy(g));
        std::snprintf(what, sizeof what, "%-8s chains eager, graph x3, x5 queued, mixed: bitwise; %zu prog. edge(s)",
                      v.name, prog);
        expect(ok && edges_ok, what);
    }
    for (T *p : base) {
        CHECK_CUDA(cudaFree(p));
    }
    if (!time || g_timed >= kTimedCases) {
        CHECK_CUDA(cudaStreamDestroy(st));
        return;
    }

    // ---- timing: rotated sets (a, b, c), together more than L2 ----
    const int sets =
        (int)std::max<size_t>(2, std::min<size_t>(8, (3 * (size_t)prop.l2CacheSize) / (3 * bytes) + 1));
    std::vector<T *> xs(sets), ys(sets), zs(sets);
    for (int s = 0; s < sets; ++s) {
        for (T **p : {&xs[s], &ys[s], &zs[s]}) {
            CHECK_CUDA(cudaMalloc(p, bytes));
        }
        CHECK_CUDA(cudaMemcpy(xs[s], ha.data(), bytes, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(ys[s], hb.data(), bytes, cudaMemcpyHostToDevice));
    }
    constexpr int kCalls = 20, kReplays = 10, kRounds = 7;
    StreamTimer timer(st);
    std::vector<cudaGraphExec_t> graphs;
    for (const Variant &v : kVariants) {
        graphs.push_back(timer.capture(kCalls, [&](int i) { mul(zs[i % sets], xs[i % sets], ys[i % sets], v.policy); }));
    }
    // The roofline: a copy of the same bytes (1.5 buffers read and written
    // against Mul's 2 read and 1 written), into the outputs only.
    const cudaGraphExec_t copy_graph = timer.capture(kCalls, [&](int i) {
        const int s = i % sets;
        CHECK_CUDA(cudaMemcpyAsync(zs[s], xs[s], bytes, cudaMemcpyDeviceToDevice, st));
        CHECK_CUDA(cudaMemcpyAsync(zs[s], ys[s], bytes / 2, cudaMemcpyDeviceToDevice, st)); // inputs kept
    });
    std::vector<double> tg[kNumVariants], te[kNumVariants], th[kNumVariants], tv[kNumVariants], tc;
    for (int r = 0; r < kRounds; ++r) { // every policy each round, the order rotated
        for (int k = 0; k < kNumVariants; ++k) {
            const int v = (r + k) % kNumVariants;
            tg[v].push_back(timer.graphUs(graphs[v], kReplays, kCalls));
        }
        tc.push_back(timer.graphUs(copy_graph, kReplays, kCalls));
        for (int k = 0; k < kNumVariants; ++k) {
            const int v = (r + k) % kNumVariants;
            double host;
            const PdlPolicy policy = kVariants[v].policy;
            te[v].push_back(timer.eagerUs(
                kCalls * kReplays, [&](int i) { mul(zs[i % sets], xs[i % sets], ys[i % sets], policy); }, &host));
            th[v].push_back(host);
            tv[v].push_back(timer.perCallEventsUs(
                kCalls * kReplays, [&](int i) { mul(zs[i % sets], xs[i % sets], ys[i % sets], policy); }));
        }
    }
    const int c = g_timed++;
    g_case_names[c] = name;
    g_copy[c] = median(tc);
    const double moved = 3.0 * bytes / 1e3; // bytes read + written per µs = GB/s
    say("  µs per call, median of %d rounds (min): graphs of %d calls over %d buffer sets, eager batches of %d,\n"
        "  and the same %d calls each between two events (`events`: the bench's way, median per call)\n"
        "  copy of the same bytes (graph) %.2f (%.2f) = %.0f GB/s\n",
        kRounds, kCalls, sets, kCalls * kReplays, kCalls * kReplays, g_copy[c], minimum(tc), moved / g_copy[c]);
    say("    %-8s %15s %7s %15s %7s %6s %10s %8s\n", "policy", "graph", "vs off", "eager", "vs off", "%roof",
        "host/call", "events");
    for (int v = 0; v < kNumVariants; ++v) {
        g_graph[c][v] = median(tg[v]);
        g_eager[c][v] = median(te[v]);
        g_events[c][v] = median(tv[v]);
        say("    %-8s %7.2f (%5.2f) %+7.2f %7.2f (%5.2f) %+7.2f %5.1f%% %7.2f us %8.2f\n", kVariants[v].name,
            g_graph[c][v], minimum(tg[v]), g_graph[c][v] - g_graph[c][0], g_eager[c][v], minimum(te[v]),
            g_eager[c][v] - g_eager[c][0], 100.0 * g_copy[c] / g_eager[c][v], median(th[v]), g_events[c][v]);
    }
    // The timed outputs are still right: set 0 against the chain's first step.
    std::vector<T> out;
    fetch(zs[0], out);
    const size_t bad = wrongProducts(out, ha, hb);
    std::snprintf(what, sizeof what, "output after the timed calls: float64 product rounded once, %zu wrong", bad);
    expect(bad == 0, what);
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

void summary() {
    say("\nsummary, µs per call (medians), the library's policy %s:\n", policyName(ew::kContiguousPdl));
    say("  %-6s %7s %7s %7s %7s | %7s %7s %7s | %7s %7s\n", "case", "copy", "eager", "eager", "gain", "graph",
        "graph", "graph", "events", "events");
    say("  %-6s %7s %7s %7s %7s | %7s %7s %7s | %7s %7s\n", "", "", "off", "library", "", "off", "library", "always",
        "off", "library");
    for (int c = 0; c < g_timed; ++c) {
        say("  %-6s %7.2f %7.2f %7.2f %+7.2f | %7.2f %7.2f %7.2f | %7.2f %7.2f\n", g_case_names[c], g_copy[c],
            g_eager[c][0], g_eager[c][1], g_eager[c][1] - g_eager[c][0], g_graph[c][0], g_graph[c][1], g_graph[c][2],
            g_events[c][0], g_events[c][1]);
    }
}

} // namespace pdlmul

int main(int argc, char **argv) {
    using namespace pdlmul;
    if (argc > 1) {
        g_out = std::fopen(argv[1], "w");
    }
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    int driver = 0, runtime = 0;
    CHECK_CUDA(cudaDriverGetVersion(&driver));
    CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
    say("device: %s, %d SMs, cc %d.%d, L2 %d MB; driver %d, runtime %d\n", prop.name, prop.multiProcessorCount,
        prop.major, prop.minor, prop.l2CacheSize >> 20, driver, runtime);
    runCase<INFINI_DTYPE_F16>(prop, "f16", 4096, 4096, 0, true); // the issue's cases
    runCase<INFINI_DTYPE_BF16>(prop, "bf16", 4096, 4096, 0, true);
    runCase<INFINI_DTYPE_F32>(prop, "f32", 8192, 8192, 0, true);
    summary();
    runCase<INFINI_DTYPE_F16>(prop, "f16", 1001, 999, 1, false); // the scalar kernel, an odd tail
    runCase<INFINI_DTYPE_F32>(prop, "f32", 1, 1000003, 0, false); // the vector kernel's tail
    say("\n%s: %d failure(s)\n", g_failures ? "FAILED" : "all checks passed", g_failures);
    if (g_out != nullptr) {
        std::fclose(g_out);
    }
    return g_failures ? 1 : 0;
}
