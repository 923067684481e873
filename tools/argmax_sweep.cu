// The shapes of the RandomSample argmax launch (issue 12) on one GPU: every
// block shape (threads, 16-byte loads in flight per thread) and team size (1
// to 16 blocks per row) on the issue's cases, each checked against a host
// argmax first, then timed as CUDA-graph replays (20 launches per graph over
// rotating inputs larger than L2, median) and as eager back-to-back launches.
// Baselines in the same run: an empty launch and a device-to-device copy of
// the same bytes. Kernels: "ldNTxU", threads' own loads (NT threads, U loads
// in flight each); "bulkNT", bulk copies into shared memory (sm_90; only with
// -DARGMAX_SWEEP_BULK: session 4 measured them); the candidates of
// argmax_pipe.cuh: "pipeNTxU" (clusters, the next tile in flight while one is
// compared), "gridNTxU" (plain-block teams merged through a zeroed per-row
// slot; 32-bit keys). Every shape is checked before and after its timing (the
// grid slots must come back to zero). The last table gives, per case, the
// best shape and the library's choice (argmax_plan.h, launch.cuh). First of
// all, the rule check of argmax_rule_check.h (adversarial, unaligned rows).
//
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include -Inative/src \
//        tools/argmax_sweep.cu -o build/argmax_sweep && build/argmax_sweep [full table file]
#include "check.h"
#include "ops/random_sample/launch.cuh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace infini;
using namespace infini::random_sample::nvidia;

constexpr int kPerGraph = 20;
constexpr int kReps = 40;
constexpr size_t kPoolBytes = 96u << 20; // rotating inputs: about twice the L2

__global__ void emptyKernel() {}

// Logits ~ 3 * uniform(-2, 2) from a hash of the position (many exact ties in F16/BF16).
template <class T>
__global__ void fillKernel(T *x, size_t count, uint64_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        uint64_t h = (i + 1) * 0x9e3779b97f4a7c15ull ^ seed;
        h ^= h >> 31;
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 29;
        const double u = (double)(h >> 11) * (1.0 / 9007199254740992.0);
        x[i] = T(3.0 * (4.0 * u - 2.0));
    }
}

template <class T>
uint64_t hostKey(const void *p) {
    using Raw = typename FloatBits<T>::Raw;
    Raw raw;
    std::memcpy(&raw, p, sizeof(Raw));
    return (uint64_t)orderKey<KeyType<T>, FloatBits<T>::bits>((KeyType<T>)raw, FloatBits<T>::inf);
}

#include "argmax_rule_check.h"

using Launch = infiniStatus_t (*)(const RowsArgs &, uint32_t, int, LaunchStream);
using Teams = infiniStatus_t (*)(int, int *);
struct Shape {
    std::string name;
    int threads;
    Launch launch;
    Teams teams;   // teams that fit at once (null: ask argmaxTeamsFit about `kernel`)
    const void *kernel; // threads' own loads: for the occupancy query
    bool library;  // the library's kernel on sm_90
};
template <class T, int NT, int U>
Shape loadsShape() {
    CHECK_OK((prepareArgmax<T, NT, U>()));
    return Shape{"ld" + std::to_string(NT) + "x" + std::to_string(U), NT, launchArgmaxShape<T, NT, U>,
                 argmaxLoadTeams<T, NT, U>, nullptr, false};
}
// The library's launcher (launch.cuh: argmaxLeanKernel in one of two block shapes).
template <class T>
infiniStatus_t launchLibrary(const RowsArgs &rows, uint32_t count, int team, LaunchStream stream) {
    return launchArgmax<T>(rows, (int)count, team, stream);
}
template <class T>
Shape libraryShape() {
    CHECK_OK((prepareArgmaxOf<T>()));
    return Shape{"lib", kArgmaxThreads, launchLibrary<T>, argmaxLoadTeamsOf<T>, nullptr, !kArgmaxBulk};
}
template <class T, int NT, uint32_t Stage = 0>
Shape bulkShape() {
    CHECK_OK((prepareArgmaxBulk<T, NT>()));
    const std::string stage = Stage ? "s" + std::to_string(Stage >> 10) : "";
    return Shape{"bulk" + std::to_string(NT) + stage, NT, launchArgmaxBulk<T, NT, Stage>, argmaxBulkTeams<T, NT>,
                 nullptr, kArgmaxBulk && NT == kArgmaxBulkThreads && Stage == 0};
}
template <class T, int NT, int U, int MinB>
Shape pipeShape() {
    CHECK_OK((prepareArgmaxPipe<T, NT, U, MinB>()));
    return Shape{"pipe" + std::to_string(NT) + "x" + std::to_string(U), NT, launchArgmaxPipe<T, NT, U, MinB>,
                 argmaxPipeTeams<T, NT, U, MinB>, nullptr, false};
}
// argmax_lean.cuh: "leanNTxU" loads the kept tile again (the library's
// kernel), "leankNTxU" keeps it in registers.
template <class T, int NT, int U, int MinB, bool Keep>
Shape leanShape() {
    CHECK_OK((prepareArgmaxLean<T, NT, U, MinB, Keep>()));
    return Shape{std::string(Keep ? "leank" : "lean") + std::to_string(NT) + "x" + std::to_string(U), NT,
                 launchArgmaxLean<T, NT, U, MinB, Keep>, argmaxLeanTeams<T, NT, U, MinB, Keep>, nullptr, false};
}
// The grid kernels' per-row slots (zeroed once per case; the kernel leaves them zero).
static ArgmaxSlots g_slots;
template <class T, int NT, int U, int MinB>
infiniStatus_t launchGridShape(const RowsArgs &rows, uint32_t count, int team, LaunchStream stream) {
    return launchArgmaxGrid<T, NT, U, MinB>(rows, count, team, g_slots, stream.stream);
}
template <class T, int NT, int U, int MinB>
infiniStatus_t gridTeams(int team, int *teams) { // plain blocks: as many teams as blocks fit
    int per_sm = 0, sms = 0;
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, argmaxGridKernel<T, NT, U, MinB>, NT, 0));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    *teams = team == 1 ? per_sm : per_sm * sms / team; // the caller multiplies team 1 by the SMs
    return INFINI_STATUS_SUCCESS;
}
template <class T, int NT, int U, int MinB>
Shape gridShape() {
    return Shape{"grid" + std::to_string(NT) + "x" + std::to_string(U), NT, launchGridShape<T, NT, U, MinB>,
                 gridTeams<T, NT, U, MinB>, nullptr, false};
}
// -DARGMAX_SWEEP_LEAN_ONLY: the library, its pipelined shapes and the lean
// ones only (tools/verify_s10.sh: a third of the full sweep's time).
template <class T>
std::vector<Shape> shapes() {
    std::vector<Shape> lean{leanShape<T, 256, 8, 2, false>(), leanShape<T, 256, 8, 2, true>(),
                            leanShape<T, 512, 4, 2, false>(), leanShape<T, 256, 4, 4, false>()};
#ifdef ARGMAX_SWEEP_LEAN_ONLY
    std::vector<Shape> few{libraryShape<T>(), pipeShape<T, 256, 8, 2>(), pipeShape<T, 256, 4, 4>()};
    few.insert(few.end(), lean.begin(), lean.end());
    return few;
#else
    std::vector<Shape> all{libraryShape<T>(), loadsShape<T, 256, 4>(), loadsShape<T, 512, 4>(), loadsShape<T, 512, 8>(),
                           pipeShape<T, 512, 4, 2>(), pipeShape<T, 512, 8, 1>(), pipeShape<T, 256, 4, 4>(),
                           pipeShape<T, 256, 8, 2>()};
    if constexpr (sizeof(KeyType<T>) == 4) {
        all.push_back(gridShape<T, 512, 4, 2>());
        all.push_back(gridShape<T, 256, 8, 2>());
    }
    all.insert(all.end(), lean.begin(), lean.end());
#ifdef ARGMAX_SWEEP_BULK
    for (Shape sh : {bulkShape<T, 256>(), bulkShape<T, 512>(), bulkShape<T, 1024>(), bulkShape<T, 512, 48u << 10>(),
                     bulkShape<T, 512, 24u << 10>()}) {
        all.push_back(sh);
    }
#endif
    return all;
#endif
}

// Median µs per call: graphs of kPerGraph calls over rotating buffers, replayed.
static double graphUs(const std::function<void(cudaStream_t, int)> &call, int nbuf, cudaStream_t s) {
    const int ngraphs = std::max(1, (nbuf + kPerGraph - 1) / kPerGraph);
    std::vector<cudaGraphExec_t> execs(ngraphs);
    for (int g = 0; g < ngraphs; ++g) {
        cudaGraph_t graph;
        CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        for (int j = 0; j < kPerGraph; ++j) call(s, (g * kPerGraph + j) % nbuf);
        CHECK_CUDA(cudaStreamEndCapture(s, &graph));
        CHECK_CUDA(cudaGraphInstantiate(&execs[g], graph, 0));
        CHECK_CUDA(cudaGraphDestroy(graph));
    }
    cudaEvent_t a, b;
    CHECK_CUDA(cudaEventCreate(&a));
    CHECK_CUDA(cudaEventCreate(&b));
    for (int g = 0; g < std::min(ngraphs, 3); ++g) CHECK_CUDA(cudaGraphLaunch(execs[g], s));
    std::vector<double> t;
    for (int r = 0; r < kReps; ++r) {
        CHECK_CUDA(cudaEventRecord(a, s));
        CHECK_CUDA(cudaGraphLaunch(execs[r % ngraphs], s));
        CHECK_CUDA(cudaEventRecord(b, s));
        CHECK_CUDA(cudaEventSynchronize(b));
        float ms = 0;
        CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms * 1e3 / kPerGraph);
    }
    for (auto e : execs) CHECK_CUDA(cudaGraphExecDestroy(e));
    CHECK_CUDA(cudaEventDestroy(a));
    CHECK_CUDA(cudaEventDestroy(b));
    std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
    return t[t.size() / 2];
}

// Median µs per call of kPerGraph back-to-back eager launches between two events.
static double eagerUs(const std::function<void(cudaStream_t, int)> &call, int nbuf, cudaStream_t s) {
    cudaEvent_t a, b;
    CHECK_CUDA(cudaEventCreate(&a));
    CHECK_CUDA(cudaEventCreate(&b));
    for (int j = 0; j < kPerGraph; ++j) call(s, j % nbuf);
    std::vector<double> t;
    for (int r = 0; r < kReps; ++r) {
        CHECK_CUDA(cudaEventRecord(a, s));
        for (int j = 0; j < kPerGraph; ++j) call(s, (r * kPerGraph + j) % nbuf);
        CHECK_CUDA(cudaEventRecord(b, s));
        CHECK_CUDA(cudaEventSynchronize(b));
        float ms = 0;
        CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms * 1e3 / kPerGraph);
    }
    CHECK_CUDA(cudaEventDestroy(a));
    CHECK_CUDA(cudaEventDestroy(b));
    std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
    return t[t.size() / 2];
}

struct Best {
    std::string name;
    double graph = 1e30, eager = 0, lib_graph = 0, lib_eager = 0, copy_us = 0;
    std::string best_shape, lib_shape;
    bool all_ok = true;
    std::map<std::string, std::pair<std::string, double>> family; // "ld", "pipe", ...: its best shape, graph us
};

template <class T>
Best runCase(const char *dtname, uint32_t rows, uint32_t n, int sms, FILE *full) {
    const size_t esize = sizeof(T), bytes = (size_t)rows * n * esize;
    const int nbuf = (int)std::min<size_t>(1024, std::max<size_t>(2, (kPoolBytes + bytes - 1) / bytes));
    T *pool;
    CHECK_CUDA(cudaMalloc(&pool, bytes * nbuf));
    fillKernel<<<1024, 256>>>(pool, (size_t)rows * n * nbuf, 12345u + rows * 7 + n);
    CHECK_CUDA(cudaGetLastError());
    int64_t *out;
    CHECK_CUDA(cudaMalloc(&out, rows * sizeof(int64_t)));
    void *copy_dst;
    CHECK_CUDA(cudaMalloc(&copy_dst, bytes));
    CHECK_CUDA(cudaMalloc(&g_slots.packed, rows * sizeof(unsigned long long)));
    CHECK_CUDA(cudaMalloc(&g_slots.tickets, rows * sizeof(uint32_t)));
    CHECK_CUDA(cudaMemset(g_slots.packed, 0, rows * sizeof(unsigned long long)));
    CHECK_CUDA(cudaMemset(g_slots.tickets, 0, rows * sizeof(uint32_t)));
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK_CUDA(cudaDeviceSynchronize());

    // Host reference on buffer 0: the largest order key, the lowest index among equals.
    std::vector<unsigned char> host(bytes);
    CHECK_CUDA(cudaMemcpy(host.data(), pool, bytes, cudaMemcpyDeviceToHost));
    std::vector<int64_t> want(rows);
    for (uint32_t r = 0; r < rows; ++r) {
        uint64_t bk = 0;
        int64_t bi = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const uint64_t k = hostKey<T>(&host[((size_t)r * n + i) * esize]);
            if (k > bk) bk = k, bi = i;
        }
        want[r] = bi;
    }

    Best best;
    char name[96];
    std::snprintf(name, sizeof(name), "%s %ux%u", dtname, rows, n);
    best.name = name;
    best.copy_us = graphUs([&](cudaStream_t st, int k) {
        CHECK_CUDA(cudaMemcpyAsync(copy_dst, (char *)pool + (size_t)k * bytes, bytes, cudaMemcpyDeviceToDevice, st));
    }, nbuf, s);
    const double empty_us = graphUs([&](cudaStream_t st, int) { emptyKernel<<<1, 32, 0, st>>>(); }, 1, s);
    std::fprintf(full, "\n== %s: %.2f MB, %d buffers; copy %.1f us (%.0f GB/s read+write), empty launch %.2f us\n",
                 name, bytes / 1e6, nbuf, best.copy_us, 2 * bytes / best.copy_us / 1e3, empty_us);
    std::fprintf(full, "%-12s %5s %9s %9s %8s %9s %s\n", "shape", "team", "graph_us", "eager_us", "GB/s",
                 "clusters", "ok");
    const std::vector<Shape> all_shapes = shapes<T>(); // first: their prepare calls allow clusters of 16
    TeamFit fit{};
    for (int l = 1; l < 5; ++l) {
        CHECK_OK(argmaxTeams<T>(kArgmaxBulk, 1 << l, &fit[l]));
    }
    const int lib_team = argmaxTeam(rows, (size_t)n * esize, sms, fit);
    for (const Shape &sh : all_shapes) {
        for (int team = 1; team <= kArgmaxMaxTeam; team *= 2) {
            RowsArgs args{pool, out, (ptrdiff_t)n, 1, n, 8};
            auto call = [&](cudaStream_t st, int k) {
                RowsArgs a = args;
                a.probs = (const char *)pool + (size_t)k * bytes;
                CHECK_OK(sh.launch(a, rows, team, st));
            };
            int clusters = -1;
            if (sh.teams) {
                CHECK_OK(sh.teams(team, &clusters));
                if (team == 1) clusters *= sms;
            } else {
                CHECK_OK(argmaxTeamsFit(sh.kernel, sh.threads, 0, team, &clusters));
                if (team == 1) clusters *= sms;
            }
            // Buffer 0 against the host; the grid slots must be zero again after every launch.
            auto check = [&]() {
                CHECK_CUDA(cudaMemset(out, 0xff, rows * sizeof(int64_t)));
                call(s, 0);
                CHECK_CUDA(cudaGetLastError());
                CHECK_CUDA(cudaStreamSynchronize(s));
                std::vector<int64_t> got(rows);
                CHECK_CUDA(cudaMemcpy(got.data(), out, rows * sizeof(int64_t), cudaMemcpyDeviceToHost));
                std::vector<unsigned long long> packed(rows);
                std::vector<uint32_t> tickets(rows);
                CHECK_CUDA(cudaMemcpy(packed.data(), g_slots.packed, rows * 8, cudaMemcpyDeviceToHost));
                CHECK_CUDA(cudaMemcpy(tickets.data(), g_slots.tickets, rows * 4, cudaMemcpyDeviceToHost));
                int wrong = 0;
                for (uint32_t r = 0; r < rows; ++r) wrong += got[r] != want[r] || packed[r] != 0 || tickets[r] != 0;
                return wrong;
            };
            int bad = check();
            const double g = graphUs(call, nbuf, s), e = eagerUs(call, nbuf, s);
            bad += check();
            best.all_ok &= bad == 0;
            char shape[32];
            std::snprintf(shape, sizeof(shape), "%s t%d", sh.name.c_str(), team);
            std::fprintf(full, "%-12s %5d %9.2f %9.2f %8.0f %9d %s\n", shape, team, g, e, bytes / g / 1e3, clusters,
                         bad ? "WRONG" : "ok");
            if (bad == 0 && g < best.graph) best.graph = g, best.eager = e, best.best_shape = shape;
            std::string fam = sh.name.substr(0, sh.name.find_first_of("0123456789"));
            if (fam == "leank") fam = "lean";
            auto it = best.family.find(fam);
            if (bad == 0 && (it == best.family.end() || g < it->second.second)) best.family[fam] = {shape, g};
            if (sh.library && team == lib_team) {
                best.lib_graph = g, best.lib_eager = e, best.lib_shape = shape;
            }
        }
    }
    std::fflush(full);
    CHECK_CUDA(cudaStreamDestroy(s));
    CHECK_CUDA(cudaFree(pool));
    CHECK_CUDA(cudaFree(out));
    CHECK_CUDA(cudaFree(copy_dst));
    CHECK_CUDA(cudaFree(g_slots.packed));
    CHECK_CUDA(cudaFree(g_slots.tickets));
    return best;
}

int main(int argc, char **argv) {
    FILE *full = argc > 1 ? std::fopen(argv[1], "w") : stdout;
    if (!full) return 1;
    int sms = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s, %d SMs, L2 %d MB\n", prop.name, sms, prop.l2CacheSize >> 20);
    // The rule first (F16, BF16, F32; F64 keys do not fit the grid slots).
    CHECK_CUDA(cudaMalloc(&g_slots.packed, 64 * sizeof(unsigned long long)));
    CHECK_CUDA(cudaMalloc(&g_slots.tickets, 64 * sizeof(uint32_t)));
    CHECK_CUDA(cudaMemset(g_slots.packed, 0, 64 * sizeof(unsigned long long)));
    CHECK_CUDA(cudaMemset(g_slots.tickets, 0, 64 * sizeof(uint32_t)));
    auto launchOf = [](const Shape &sh, const RowsArgs &a, uint32_t rows, int team) {
        CHECK_OK(sh.launch(a, rows, team, nullptr));
    };
    const int rule_wrong = argmaxRuleCheck<__half>(shapes<__half>(), launchOf, full) +
                           argmaxRuleCheck<__nv_bfloat16>(shapes<__nv_bfloat16>(), launchOf, full) +
                           argmaxRuleCheck<float>(shapes<float>(), launchOf, full);
    CHECK_CUDA(cudaFree(g_slots.packed));
    CHECK_CUDA(cudaFree(g_slots.tickets));
    std::printf("rule check (F16/BF16/F32 adversarial and unaligned rows, every shape, teams 1/2/4/16): %d wrong rows\n",
                rule_wrong);
    std::fflush(stdout);
    std::vector<Best> all;
    for (auto [rows, n] : std::vector<std::pair<uint32_t, uint32_t>>{
             {1, 32000}, {1, 151936}, {1, 262144}, {8, 151936}, {64, 151936}, {256, 151936}, {64, 32000}, {1024, 32000},
             {64, 256}}) { // 64x256: the fixed cost of each shape (launch, first load, team merge)
        all.push_back(runCase<__half>("f16", rows, n, sms, full));
    }
    all.push_back(runCase<float>("f32", 1, 151936, sms, full));
    all.push_back(runCase<float>("f32", 64, 151936, sms, full));
    all.push_back(runCase<double>("f64", 1, 151936, sms, full));
    all.push_back(runCase<double>("f64", 64, 151936, sms, full));
    std::printf("\n| case | best shape | graph us | eager us | library shape | graph us | eager us | copy us | ok |\n");
    std::printf("|---|---|---:|---:|---|---:|---:|---:|---|\n");
    for (const Best &b : all) {
        std::printf("| %s | %s | %.2f | %.2f | %s | %.2f | %.2f | %.2f | %s |\n", b.name.c_str(), b.best_shape.c_str(),
                    b.graph, b.eager, b.lib_shape.c_str(), b.lib_graph, b.lib_eager, b.copy_us,
                    b.all_ok ? "yes" : "NO");
    }
    std::printf("\n| case | library graph us | best ld | best pipe | best grid | best lean |\n|---|---:|---|---|---|---|\n");
    for (const Best &b : all) {
        auto cell = [&](const char *fam) {
            auto it = b.family.find(fam);
            char c[64] = "-";
            if (it != b.family.end()) std::snprintf(c, sizeof(c), "%s %.2f", it->second.first.c_str(), it->second.second);
            return std::string(c);
        };
        std::printf("| %s | %.2f | %s | %s | %s | %s |\n", b.name.c_str(), b.lib_graph, cell("ld").c_str(),
                    cell("pipe").c_str(), cell("grid").c_str(), cell("lean").c_str());
    }
    if (full != stdout) std::fclose(full);
    bool ok = rule_wrong == 0;
    for (const Best &b : all) ok &= b.all_ok;
    return ok ? 0 : 1;
}
