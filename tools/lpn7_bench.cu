// LPNorm, long rows: the TwoPass plan (two_pass.cu) and the Pipe plan (pipe.cu) against the plan main uses
// for the same shape (Cluster on sm_90, else Split; Stream / Rows for short
// rows) and a device copy of the same bytes, in one process (issue 13;
// notes/lp_norm.md, "TwoPass").
//
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include -Inative/src \
//        -DINFINI_WITH_NVIDIA tools/lpn7_bench.cu -o build/lpn7_bench && build/lpn7_bench [out.txt]
//
// The kernels' sources are compiled into this file. First the checks (every
// plan and TwoPass variant against a float64 reference on fresh random inputs,
// outputs poisoned with NaN before each call, the bound of tests/test_lp_norm.py;
// rows of NaN / inf / zeros by torch's rule, exact NaN positions and zero
// signs; rows whose one-pass sum over/underflows; TwoPass calls bitwise equal
// to each other, in place too). Then CUDA-graph timing: each graph replays one
// call per rotated buffer set (together larger than L2); every plan of a case
// is timed in each of 5 interleaved rounds; medians, µs per call.
// LPN7_ONLY=pipe: only the cases the Pipe plan takes, without TwoPass's sweep
// (main, TwoPass's default and the Pipe variants; tools/verify_lpn9.sh).
// LPN7_ONLY=grid: only the cases the Grid plan (grid.cu) takes, with its lag
// and ring sweep instead of the others' (tools/verify_grid.sh).
// LPN7_ONLY=split: only the cases main's planner gives the Split plan, with
// its apply kernel launched plainly and with PDL (eager only, always), beside Sweep.
// LPN7_ONLY=sweep: only the cases the Sweep plan (sweep.cu) takes, every case
// with all of its variants (L2 budget, blocks an SM, PDL).
// LPN7_ONLY=hold: only the cases the Hold plan (hold.cu) takes, with its variants.
// LPN7_ONLY=holdstore: Hold's default beside a memset of y (session 34).
#include "../native/src/ops/lp_norm/rows.cu"
#include "../native/src/ops/lp_norm/stream.cu"
#include "../native/src/ops/lp_norm/two_pass.cu"
#include "../native/src/ops/lp_norm/pipe.cu"
#include "../native/src/ops/lp_norm/grid.cu"
#include "../native/src/ops/lp_norm/sweep.cu"
#include "../native/src/ops/lp_norm/hold.cu"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.cuh"
#include "handle_util.cuh"

namespace lpn7 { // named: an anonymous one beside the kernels' confuses nvcc's host stubs (tools/pdl6_bench.cu)

using namespace bench;
using namespace infini::lp_norm::nvidia;

size_t elemSize(infiniDtype_t dt) { return dt == INFINI_DTYPE_F64 ? 8 : dt == INFINI_DTYPE_F32 ? 4 : 2; }
const char *dtName(infiniDtype_t dt) {
    return dt == INFINI_DTYPE_F64 ? "f64" : dt == INFINI_DTYPE_F32 ? "f32" : dt == INFINI_DTYPE_F16 ? "f16" : "bf16";
}

// Host values <-> device bits, by dtype.
template <class F>
void withHostType(infiniDtype_t dt, F &&f) {
    if (dt == INFINI_DTYPE_F64) {
        f(double{});
    } else if (dt == INFINI_DTYPE_F32) {
        f(float{});
    } else if (dt == INFINI_DTYPE_F16) {
        f(__half{});
    } else {
        f(__nv_bfloat16{});
    }
}
void encode(infiniDtype_t dt, const std::vector<double> &v, std::vector<unsigned char> &bits) {
    withHostType(dt, [&](auto t) {
        using T = decltype(t);
        bits.resize(v.size() * sizeof(T));
        for (size_t i = 0; i < v.size(); ++i) {
            const T e = fromDouble<T>(v[i]);
            std::memcpy(&bits[i * sizeof(T)], &e, sizeof(T));
        }
    });
}
double decodeAt(infiniDtype_t dt, const unsigned char *p) {
    double d = 0;
    withHostType(dt, [&](auto t) {
        using T = decltype(t);
        T e;
        std::memcpy(&e, p, sizeof(T));
        d = toDouble(e);
    });
    return d;
}

double roughNormal(Rng &rng) { // mean 0, variance 1, bounded by 3.5: enough for a norm
    return (rng.uniform() + rng.uniform() + rng.uniform() + rng.uniform() - 2.0) * 1.7320508075688772;
}

// A contiguous rows x len tensor, axis 1, as nvidia.cc's planRows sees it.
Plan basePlan(const InfiniopHandle &h, infiniDtype_t dt, int64_t rows, int64_t len, int p, float eps) {
    Plan b;
    b.dtype = dt;
    b.vec = (int)(16 / elemSize(dt));
    b.p = p;
    b.eps = eps;
    b.len = len;
    b.sxr = b.syr = 1;
    b.outer.nd = 1;
    b.outer.size[0] = rows;
    b.outer.sx[0] = b.outer.sy[0] = len;
    b.rows = rows;
    b.cs = (size_t)rows * len * elemSize(dt) > (size_t)h.l2_cache_bytes;
    return b;
}

int64_t nextPow2(int64_t n) {
    int64_t p = 1;
    while (p < n) {
        p <<= 1;
    }
    return p;
}

// What main's planner (nvidia.cc without the TwoPass step) gives these shapes.
Plan mainPlan(const InfiniopHandle &h, const Plan &base) {
    Plan c = base;
    const int64_t nv = base.len / base.vec;
    const bool too_long = nv > 4096, too_few = nv > 4 * 2048 && base.rows < 2 * (int64_t)h.sm_count;
    if (too_long || too_few) {
        if (planCluster(h, c)) {
            return c;
        }
        c.kind = Kind::Split;
        c.threads = c.tpr = 256;
        c.items = 8;
        c.chunk_vecs = 2048;
        c.chunks = (nv + 2047) / 2048;
        c.grid_x = (unsigned)(base.rows * c.chunks);
        c.workspace = (size_t)c.grid_x * 2 * (base.dtype == INFINI_DTYPE_F64 ? 8 : 4);
        planSplitPdl(c);
        return c;
    }
    if (planStream(h, c)) {
        return c;
    }
    c.kind = Kind::Rows;
    c.cs = false;
    c.items = 4;
    c.tpr = (int)nextPow2((nv + 3) / 4);
    c.threads = c.tpr;
    c.grid_x = (unsigned)base.rows;
    return c;
}

const char *kindName(Kind k) {
    switch (k) {
    case Kind::Cluster: return "cluster";
    case Kind::Split: return "split";
    case Kind::Stream: return "stream";
    case Kind::Rows: return "rows";
    case Kind::TwoPass: return "twopass";
    case Kind::Pipe: return "pipe";
    case Kind::Grid: return "grid";
    case Kind::Sweep: return "sweep";
    case Kind::Hold: return "hold";
    default: return "?";
    }
}

void launchPlan(const Plan &plan, const void *x, void *y, void *ws, cudaStream_t s) {
    infiniStatus_t st = INFINI_STATUS_INTERNAL_ERROR;
    switch (plan.kind) {
    case Kind::TwoPass: // the library launches the default hints only: every hints value is this file's instance
        st = plan.hints == (int)TwoPassHints::KeepFirstPass ? launchTwoPassWith<TwoPassHints::KeepFirstPass>(plan, x, y, s)
             : plan.hints == (int)TwoPassHints::None        ? launchTwoPassWith<TwoPassHints::None>(plan, x, y, s)
                                                            : launchTwoPassWith<TwoPassHints::Streaming>(plan, x, y, s);
        break;
    case Kind::Pipe: st = launchPipe(plan, x, y, ws, s); break;
    case Kind::Grid: st = launchGrid(plan, x, y, ws, s); break;
    case Kind::Sweep: st = launchSweep(plan, x, y, ws, s); break;
    case Kind::Hold: st = launchHold(plan, x, y, ws, s); break;
    case Kind::Cluster: st = launchCluster(plan, x, y, ws, s); break;
    case Kind::Split: st = launchSplit(plan, x, y, ws, s); break;
    case Kind::Stream: st = launchStream(plan, x, y, ws, s); break;
    case Kind::Rows: st = launchRows(plan, x, y, ws, s); break;
    default: break;
    }
    CHECK_OK(st);
    CHECK_CUDA(cudaGetLastError());
}

// One plan to check and time: main's, the TwoPass default, or a TwoPass variant.
struct Variant {
    std::string name;
    Plan plan;
};

const char *hintsName(TwoPassHints h) {
    return h == TwoPassHints::Streaming ? "stream" : h == TwoPassHints::KeepFirstPass ? "keep" : "none";
}

std::string describe(const Plan &p) {
    char b[160];
    if (p.kind == Kind::TwoPass) {
        const int64_t clusters = p.grid_x / p.chunks;
        std::snprintf(b, sizeof b, "twopass C=%lld G=%lld (%u blocks, %lld rounds, hints %s, prefetch %lld KB)",
                      (long long)p.chunks, (long long)clusters, p.grid_x, (long long)((p.rows + clusters - 1) / clusters),
                      hintsName((TwoPassHints)p.hints), (long long)(p.prefetch >> 10));
    } else if (p.kind == Kind::Pipe) {
        const int64_t clusters = p.grid_x / p.chunks;
        std::snprintf(b, sizeof b, "pipe C=%lld G=%lld (%u blocks, %lld rounds, %d slots of %d KB, %lld tiles a chunk)",
                      (long long)p.chunks, (long long)clusters, p.grid_x, (long long)((p.rows + clusters - 1) / clusters),
                      p.items, kTileBytes >> 10, (long long)((p.chunk_vecs + kTilePacks - 1) / kTilePacks));
    } else if (p.kind == Kind::Grid) {
        std::snprintf(b, sizeof b, "grid (%u blocks, %d slots of %lld packs, lag %d, depth %d, %d copies, %zu KB workspace)",
                      p.grid_x, p.items, (long long)p.chunk_vecs, p.tpr, p.by, p.bx, p.workspace >> 10);
    } else if (p.kind == Kind::Sweep) {
        std::snprintf(b, sizeof b, "sweep (%u blocks, %lld chunks a row of %lld packs (%d tiles), %d slots, %lld kept in L2, pdl %d)",
                      p.grid_x, (long long)p.chunks, (long long)p.chunk_vecs, p.tpr, p.items, (long long)p.prefetch,
                      (int)p.pdl);
    } else if (p.kind == Kind::Hold) {
        std::snprintf(b, sizeof b, "hold (%u blocks, pieces of %lld packs, %d slots, rows span <= %lld blocks, pdl %d)",
                      p.grid_x, (long long)p.chunk_vecs, p.items, (long long)p.chunks, (int)p.pdl);
    } else if (p.kind == Kind::Cluster) {
        std::snprintf(b, sizeof b, "cluster of %lld (%u blocks)", (long long)p.chunks, p.grid_x);
    } else {
        std::snprintf(b, sizeof b, "%s (%u blocks)", kindName(p.kind), p.grid_x);
    }
    return b;
}

enum class Fill { Random, Nonfinite, Extreme };

struct Case {
    infiniDtype_t dt;
    int64_t rows, len;
    int p;
    float eps;
    Fill fill;
    double scale;
    bool time;  // graph timing after the checks
    bool sweep; // TwoPass variants besides the default
};

// Row r of the non-finite fill: 0 finite, 1 +inf at one place, 2 NaN at one
// place, 3 NaN and inf, 4 zeros and one NaN, 5 zeros and one -inf, 6 all zero,
// 7 all +-inf.
void fillRow(Rng &rng, double *x, int64_t len, int kind, double scale) {
    for (int64_t i = 0; i < len; ++i) {
        x[i] = kind >= 4 && kind <= 6 ? 0.0 : roughNormal(rng) * scale;
    }
    auto at = [&]() { return std::min<int64_t>(len - 1, (int64_t)(rng.uniform() * (double)len)); };
    switch (kind) {
    case 1: x[at()] = INFINITY; break;
    case 2: x[at()] = NAN; break;
    case 3: x[at()] = NAN; x[at()] = -INFINITY; break;
    case 4: x[at()] = NAN; break;
    case 5: x[at()] = -INFINITY; break;
    case 7:
        for (int64_t i = 0; i < len; ++i) {
            x[i] = rng.uniform() < 0.5 ? -INFINITY : INFINITY;
        }
        break;
    default: break;
    }
}

// torch.nn.functional.normalize's definition in float64 (scaled by the row's
// max), non-finite rows by math.h's rule; all-zero rows give zeros.
void referenceRow(const double *x, double *y, int64_t len, int p, float eps) {
    bool nan = false, inf = false;
    double m = 0;
    for (int64_t i = 0; i < len; ++i) {
        nan |= std::isnan(x[i]);
        inf |= std::isinf(x[i]);
        if (std::isfinite(x[i])) {
            m = std::max(m, std::fabs(x[i]));
        }
    }
    if (nan || inf) {
        for (int64_t i = 0; i < len; ++i) {
            y[i] = nan ? NAN : x[i] / INFINITY;
        }
        return;
    }
    double s = 0;
    for (int64_t i = 0; i < len; ++i) {
        const double a = m > 0 ? std::fabs(x[i]) / m : 0.0;
        s += p == 2 ? a * a : p == 1 ? a : std::pow(a, p);
    }
    const double d = std::max(m * std::pow(s, 1.0 / p), (double)eps);
    for (int64_t i = 0; i < len; ++i) {
        y[i] = d > 0 ? x[i] / d : 0.0;
    }
}

std::string g_mode; // LPN7_ONLY

void runCase(const InfiniopHandle &h, const Case &cs) {
    const size_t es = elemSize(cs.dt);
    const size_t n = (size_t)cs.rows * cs.len, bytes = n * es;
    const Plan base = basePlan(h, cs.dt, cs.rows, cs.len, cs.p, cs.eps);
    std::vector<Variant> vs;
    vs.push_back({"main", mainPlan(h, base)});
    const bool hold_only = g_mode == "holdstore"; // Hold's default alone, beside pure writes
    if (vs[0].plan.kind == Kind::Split && g_mode == "f64") { // Split without the streaming cache hints
        Plan t = vs[0].plan;
        t.cs = !t.cs;
        vs.push_back({t.cs ? "split cs" : "split no cs", t});
    }
    if (vs[0].plan.kind == Kind::Split && (g_mode == "split" || cs.sweep)) { // Split's apply kernel with and without PDL
        using infini::PdlPolicy;
        for (PdlPolicy pol : {PdlPolicy::Never, PdlPolicy::NotCapturing, PdlPolicy::Always}) {
            Plan t = vs[0].plan;
            t.pdl = pol;
            const char *name = pol == PdlPolicy::Never    ? "split plain"
                               : pol == PdlPolicy::Always ? "split pdl"
                                                          : "split pdl eager";
            vs.push_back({name, t});
        }
    }
    if (!hold_only) {
        Plan t = base;
        if (planTwoPass(h, t)) {
            vs.push_back({"twopass", t});
        }
    }
    for (int pdl : {0, 1}) { // plain launches, then PDL in graphs too (PdlPolicy::Always)
        if (hold_only) {
            break;
        }
        Plan t = base;
        PipeTuning tune;
        tune.pdl = pdl ? (int)infini::PdlPolicy::Always : (int)infini::PdlPolicy::Never;
        if (planPipe(h, t, tune)) {
            vs.push_back({pdl ? "pipe pdl" : "pipe", t});
        }
    }
    { // Hold: the library's tuning, then plain launches and fewer packs in registers
        struct HoldTweak {
            const char *name;
            HoldTuning tune;
        };
        const int never = (int)infini::PdlPolicy::Never;
        const HoldTweak hts[] = {{"hold", {}},
                                 {"hold plain", {0, -1, 0.5, never}},
                                 {"hold regs 12", {0, 12, 0.5, -1}},
                                 {"hold regs 0", {0, 0, 0.5, -1}},
                                 // session 33 (H200, 60 MB of L2): fewer registers, more of L2
                                 {"hold regs 16", {0, 16, 0.5, -1}},
                                 {"hold l2 .7", {0, -1, 0.7, -1, 0.7}},
                                 {"hold regs 12 l2 .7", {0, 12, 0.7, -1, 0.7}},
                                 {"hold regs 0 l2 .8", {0, 0, 0.8, -1, 0.8}},
                                 // session 29: what neither registers nor the ring hold read again
                                 // whatever its size (from DRAM where it exceeds L2)
                                 {"hold dram", {0, -1, 1e9, -1, 1e9}},
                                 {"hold dram keep .5", {0, -1, 1e9, -1, 0.5}},
                                 {"hold dram keep .25", {0, -1, 1e9, -1, 0.25}},
                                 {"hold dram keep 0", {0, -1, 1e9, -1, 0.0}}};
        for (const HoldTweak &ht : hts) {
            Plan t = base;
            const std::string name = ht.name;
            const bool dram = name.rfind("hold dram", 0) == 0;
            const bool wanted = name == "hold" || (g_mode == "hold" && !dram) ||
                                ((g_mode == "beyond" || g_mode == "f32big") && dram) ||
                                (g_mode == "gridrule" && name == "hold dram keep .5");
            if (wanted && planHold(h, t, ht.tune)) {
                vs.push_back({ht.name, t});
            }
        }
    }
    if (g_mode != "sweep" && g_mode != "split" && g_mode != "hold" && !hold_only) {
        Plan t = base;
        if (planGrid(h, t)) {
            vs.push_back({"grid", t});
        }
    }
    { // Sweep: the default, and its L2 budget, blocks an SM and PDL varied
        struct SweepTweak {
            const char *name;
            SweepTuning tune;
        };
        const SweepTweak sts[] = {
            {"sweep", {}},
            {"sweep keep 0", {1, 0.0, -1, 4}},
            {"sweep keep .8", {1, 0.8, -1, 4}},
            {"sweep keep all", {1, 100.0, -1, 4}},
            {"sweep 7 slots", {1, 0.6, -1, 7}},
            {"sweep 2/SM", {2, 0.6, -1, 0}},
            {"sweep no pdl", {1, 0.6, (int)infini::PdlPolicy::Never, 4}},
        };
        for (const SweepTweak &st : sts) {
            if (hold_only || (std::string(st.name) != "sweep" &&
                              (g_mode == "hold" || (!cs.sweep && g_mode != "sweep" && g_mode != "split")))) {
                continue;
            }
            Plan t = base;
            if (planSweep(h, t, st.tune)) {
                vs.push_back({st.name, t});
            } else {
                say("  (%s refused by the planner)\n", st.name);
            }
        }
    }
    if (cs.sweep && (g_mode == "grid" || g_mode == "f32big")) { // Grid: the lag and the ring's depth
        struct GridTweak {
            const char *name;
            GridTuning tune;
        };
        const GridTweak gts[] = {
            {"grid lag 5", {5, 0, 8, 1, 3}},     {"grid lag 8", {8, 0, 8, 1, 3}},    {"grid depth 2", {3, 0, 8, 1, 2}},
            {"grid depth 5", {3, 0, 8, 1, 5}},   {"grid depth 16", {3, 0, 8, 1, 16}}, {"grid 16 pieces", {3, 0, 8, 16, 3}},
            {"grid lag 6 d 4", {6, 0, 8, 1, 4}}, {"grid lag 8 d 2", {8, 0, 8, 1, 2}},
            // session 24: deep lag with few rows in flight (slots >= lag + depth + 1)
            {"grid lag 10 d 3", {10, 0, 8, 1, 3}}, {"grid lag 10 d 4", {10, 0, 8, 1, 4}},
            {"grid lag 9 d 4", {9, 0, 8, 1, 4}},   {"grid lag 11 d 2", {11, 0, 8, 1, 2}},
            {"grid lag 8 d 5", {8, 0, 8, 1, 5}},   {"grid lag 6 d 6", {6, 0, 8, 1, 6}},
            {"grid lag 5 d 8", {5, 0, 8, 1, 8}},   {"grid lag 4 d 4", {4, 0, 8, 1, 4}},
        };
        for (const GridTweak &gt : gts) {
            Plan t = base;
            if (planGrid(h, t, gt.tune)) {
                vs.push_back({gt.name, t});
            } else {
                say("  (%s refused by the planner)\n", gt.name);
            }
        }
    }
    if (cs.sweep && g_mode != "grid" && g_mode != "hold") { // Pipe: less slack (smaller clusters), other cluster sizes and ring depths
        struct PipeTweak {
            const char *name;
            int slots, slack, cluster, clusters;
        };
        const PipeTweak pts[] = {
            {"pipe slack 1", 0, 1, 0, 0}, // the smallest cluster that holds the chunk, one slot to spare
            {"pipe slack 4", 0, 4, 0, 0},
            {"pipe C12", 0, 0, 12, 0},
            {"pipe C14", 0, 0, 14, 0},
            {"pipe ring 160 KB", (160 << 10) / kTileBytes, 2, 16, 0}, // clusters of 16, a shallower ring
            {"pipe ring 192 KB", (192 << 10) / kTileBytes, 4, 16, 0},
        };
        for (const PipeTweak &pt : pts) {
            PipeTuning tune;
            tune.slots = pt.slots;
            tune.slack = pt.slack;
            tune.cluster = pt.cluster;
            tune.clusters = pt.clusters;
            Plan t = base;
            if (planPipe(h, t, tune)) {
                vs.push_back({pt.name, t});
            } else {
                say("  (%s refused by the planner)\n", pt.name);
            }
        }
    }
    if (cs.sweep && g_mode != "pipe" && g_mode != "grid" && g_mode != "hold") {
        struct Tweak {
            const char *name;
            TwoPassTuning tune;
        };
        std::vector<Tweak> tweaks;
        auto add = [&](const char *name, int cluster, int clusters, TwoPassHints hints, int per_sm, double l2,
                       int64_t prefetch = 0) {
            TwoPassTuning t;
            t.prefetch = prefetch;
            t.cluster = cluster;
            t.clusters = clusters;
            t.hints = hints;
            t.blocks_per_sm = per_sm;
            t.l2_fraction = l2;
            tweaks.push_back({name, t});
        };
        const TwoPassHints S = TwoPassHints::Streaming;
        // Around the library's default since session 8 (two blocks per SM, 0.7 of L2, pass 1 kept in L2).
        const TwoPassHints K = TwoPassHints::KeepFirstPass;
        add("tp stream", 0, 0, S, 2, 0.7);
        add("tp 1/SM", 0, 0, K, 1, 0.7);
        add("tp 3/SM", 0, 0, K, 3, 0.7);
        add("tp 4/SM", 0, 0, K, 4, 0.7);
        add("tp 4/SM l2 .5", 0, 0, K, 4, 0.5);
        add("tp l2 0.5", 0, 0, K, 2, 0.5);
        add("tp pf 32K", 0, 0, K, 2, 0.7, 32 << 10);
        // Every SM the same number of blocks (132 SMs on the H100: 132 or 264 blocks), the stage
        // trace's lead (notes/lp_norm.md, session 8): a block sharing its SM holds its cluster back.
        add("tp C12 G11", 12, 11, K, 2, 0.7);
        add("tp C6 G22", 6, 22, K, 2, 0.7);
        add("tp C12 G22", 12, 22, K, 2, 0.7);
        add("tp C4 G33", 4, 33, K, 2, 0.7);
        for (const Tweak &tw : tweaks) {
            Plan t = base;
            if (planTwoPass(h, t, tw.tune)) {
                vs.push_back({tw.name, t});
            } else {
                say("  (%s refused by the planner)\n", tw.name);
            }
        }
    }
    say("\n%s %lldx%lld p=%d eps=%g fill=%s scale=%g, %.1f MB\n", dtName(cs.dt), (long long)cs.rows, (long long)cs.len,
        cs.p, cs.eps, cs.fill == Fill::Random ? "random" : cs.fill == Fill::Nonfinite ? "nonfinite" : "extreme",
        cs.scale, bytes / 1e6);
    for (const Variant &v : vs) {
        say("  %-15s %s\n", v.name.c_str(), describe(v.plan).c_str());
    }
    if (vs.size() < 2) {
        say("  no TwoPass plan for this case (refused at plan time)\n");
    }

    // Inputs: rotated sets for timing, together more than twice L2.
    const int sets = cs.time ? (int)std::max<size_t>(2, std::min<size_t>(6, (3 * (size_t)h.l2_cache_bytes) / bytes + 1))
                             : 1;
    Rng rng{0x9e3779b97f4a7c15ull ^ (unsigned long long)(cs.rows * 131 + cs.len * 7 + cs.p)};
    std::vector<double> xv(n);
    for (int64_t r = 0; r < cs.rows; ++r) {
        double *xr = &xv[(size_t)r * cs.len];
        if (cs.fill == Fill::Nonfinite) {
            fillRow(rng, xr, cs.len, (int)(r % 8), cs.scale);
        } else if (cs.fill == Fill::Extreme) { // |x| in [0.25, 1] x scale, random signs
            for (int64_t i = 0; i < cs.len; ++i) {
                xr[i] = (rng.uniform() < 0.5 ? -1.0 : 1.0) * (0.25 + 0.75 * rng.uniform()) * cs.scale;
            }
        } else {
            fillRow(rng, xr, cs.len, 0, cs.scale * (0.5 + 3.5 * rng.uniform()));
        }
    }
    std::vector<unsigned char> xb;
    encode(cs.dt, xv, xb);
    for (size_t i = 0; i < n; ++i) { // the values as the device sees them
        xv[i] = decodeAt(cs.dt, &xb[i * es]);
    }
    std::vector<void *> xs(sets), ys(sets);
    for (int s = 0; s < sets; ++s) {
        CHECK_CUDA(cudaMalloc(&xs[s], bytes));
        CHECK_CUDA(cudaMalloc(&ys[s], bytes));
        CHECK_CUDA(cudaMemcpy(xs[s], xb.data(), bytes, cudaMemcpyHostToDevice));
    }
    size_t wsb = 256;
    for (const Variant &v : vs) {
        wsb = std::max(wsb, v.plan.workspace);
    }
    void *ws = nullptr, *inplace = nullptr;
    CHECK_CUDA(cudaMalloc(&ws, wsb));
    CHECK_CUDA(cudaMalloc(&inplace, bytes));
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    // float64 reference: every row when the fill varies by row, else up to 16 spread rows.
    std::vector<int64_t> checked;
    const int64_t nc = cs.fill == Fill::Random ? std::min<int64_t>(16, cs.rows) : cs.rows;
    for (int64_t i = 0; i < nc; ++i) {
        checked.push_back(i * cs.rows / nc);
    }
    std::vector<double> ref(checked.size() * cs.len);
    for (size_t c = 0; c < checked.size(); ++c) {
        referenceRow(&xv[(size_t)checked[c] * cs.len], &ref[c * cs.len], cs.len, cs.p, cs.eps);
    }
    const double tol = cs.dt == INFINI_DTYPE_F64 ? 1e-12 : cs.dt == INFINI_DTYPE_F32 ? 1e-5 : cs.dt == INFINI_DTYPE_F16 ? 2e-3 : 1e-2;
    const double tiny = cs.dt == INFINI_DTYPE_F64 ? 0 : cs.dt == INFINI_DTYPE_F32 ? 1e-44 : cs.dt == INFINI_DTYPE_F16 ? 6e-8 : 1e-40;
    std::vector<unsigned char> got(bytes), first(bytes);
    // The check of tests/test_lp_norm.py (assert_close / assert_nonfinite) over the checked rows.
    auto verify = [&](const std::string &what) {
        CHECK_CUDA(cudaMemcpy(got.data(), ys[0], bytes, cudaMemcpyDeviceToHost));
        double worst = 0;
        size_t bad = 0;
        for (size_t c = 0; c < checked.size(); ++c) {
            const double *rr = &ref[c * cs.len];
            double rmax = 0;
            for (int64_t i = 0; i < cs.len; ++i) {
                if (!std::isnan(rr[i])) {
                    rmax = std::max(rmax, std::fabs(rr[i]));
                }
            }
            for (int64_t i = 0; i < cs.len; ++i) {
                const double g = decodeAt(cs.dt, &got[((size_t)checked[c] * cs.len + i) * es]);
                if (std::isnan(rr[i]) || std::isnan(g)) {
                    bad += std::isnan(rr[i]) != std::isnan(g);
                    continue;
                }
                if (rr[i] == 0 && (g != 0 || std::signbit(g) != std::signbit(rr[i]))) {
                    ++bad;
                    continue;
                }
                const double e = std::fabs(g - rr[i]);
                worst = std::max(worst, rmax > 0 ? e / rmax : e);
                bad += e > tol * (std::fabs(rr[i]) + rmax) + tiny;
            }
        }
        g_failures += bad != 0;
        say("  check %-15s %zu rows: worst error / row max %.3g, %zu elements off (bound %g) %s\n", what.c_str(),
            checked.size(), worst, bad, tol, bad ? "FAILED" : "ok");
    };
    for (const Variant &v : vs) {
        CHECK_CUDA(cudaMemsetAsync(ys[0], 0xff, bytes, stream)); // NaN everywhere
        CHECK_CUDA(cudaMemsetAsync(ws, 0xa5, wsb, stream));      // garbage in the workspace
        launchPlan(v.plan, xs[0], ys[0], ws, stream);
        CHECK_CUDA(cudaStreamSynchronize(stream));
        verify(v.name);
        if (v.plan.kind != Kind::TwoPass && v.plan.kind != Kind::Pipe && v.plan.kind != Kind::Grid &&
            v.plan.kind != Kind::Sweep && v.plan.kind != Kind::Hold) {
            continue;
        }
        // Deterministic: a second call, and one in place, give the same bits.
        CHECK_CUDA(cudaMemcpy(first.data(), ys[0], bytes, cudaMemcpyDeviceToHost));
        CHECK_CUDA(cudaMemsetAsync(ys[0], 0xff, bytes, stream));
        launchPlan(v.plan, xs[0], ys[0], ws, stream);
        CHECK_CUDA(cudaStreamSynchronize(stream));
        CHECK_CUDA(cudaMemcpy(got.data(), ys[0], bytes, cudaMemcpyDeviceToHost));
        const bool again = std::memcmp(first.data(), got.data(), bytes) == 0;
        CHECK_CUDA(cudaMemcpyAsync(inplace, xs[0], bytes, cudaMemcpyDeviceToDevice, stream));
        launchPlan(v.plan, inplace, inplace, ws, stream);
        CHECK_CUDA(cudaStreamSynchronize(stream));
        CHECK_CUDA(cudaMemcpy(got.data(), inplace, bytes, cudaMemcpyDeviceToHost));
        const bool in_place = std::memcmp(first.data(), got.data(), bytes) == 0;
        g_failures += !again + !in_place;
        say("  %-15s bitwise equal to the first call: second call %s, in place %s\n", v.name.c_str(),
            again ? "yes" : "NO (FAILED)", in_place ? "yes" : "NO (FAILED)");
    }
    if (cs.time) {
        StreamTimer timer(stream);
        // A graph of one call per buffer set (twice round), replayed.
        struct Timed {
            std::string name;
            cudaGraphExec_t exec;
            std::vector<double> us;
        };
        std::vector<Timed> timed;
        const int calls = 2 * sets;
        timed.push_back({"copy", timer.capture(calls, [&](int i) {
                             const int s = i % sets;
                             CHECK_CUDA(cudaMemcpyAsync(ys[s], xs[s], bytes, cudaMemcpyDeviceToDevice, stream));
                         }), {}});
        if (hold_only) { // y written alone (its GB/s below count the case's bytes twice: halve them)
            timed.push_back({"memset y", timer.capture(calls, [&](int i) {
                                 CHECK_CUDA(cudaMemsetAsync(ys[i % sets], 0x3c, bytes, stream));
                             }), {}});
        }
        for (const Variant &v : vs) {
            timed.push_back({v.name, timer.capture(calls, [&](int i) {
                                 launchPlan(v.plan, xs[i % sets], ys[i % sets], ws, stream);
                             }), {}});
        }
        constexpr int kReplays = 10, kRounds = 5;
        for (int round = 0; round < kRounds; ++round) { // every plan in each round, in rotated order
            for (size_t k = 0; k < timed.size(); ++k) {
                Timed &t = timed[(k + round) % timed.size()];
                t.us.push_back(timer.graphUs(t.exec, kReplays, calls));
            }
        }
        const double copy = median(timed[0].us);
        say("  graph µs per call (median of %d rounds, %d buffer sets), GB/s counting x read + y written once:\n",
            kRounds, sets);
        for (Timed &t : timed) {
            const double us = median(t.us);
            say("    %-15s %8.1f µs  %5.0f GB/s  %4.0f%% of copy  (min %.1f)\n", t.name.c_str(), us, 2.0 * bytes / 1e3 / us,
                100.0 * copy / us, minimum(t.us));
            CHECK_CUDA(cudaGraphExecDestroy(t.exec));
        }
        // The result after the replays: the rounds rotate the order, so the last
        // graph on set 0 may be the copy's (session 8: three false FAILEDs); one
        // more call of the last plan on set 0 decides.
        launchPlan(vs.back().plan, xs[0], ys[0], ws, stream);
        CHECK_CUDA(cudaStreamSynchronize(stream));
        verify("after graphs (" + vs.back().name + ")");
    }
    CHECK_CUDA(cudaStreamDestroy(stream));
    for (int s = 0; s < sets; ++s) {
        CHECK_CUDA(cudaFree(xs[s]));
        CHECK_CUDA(cudaFree(ys[s]));
    }
    CHECK_CUDA(cudaFree(ws));
    CHECK_CUDA(cudaFree(inplace));
}

#ifdef INFINI_LP_NORM_STAGE_TRACE
// LPN7_ONLY=trace / pipetrace (a build with -DINFINI_LP_NORM_STAGE_TRACE): one
// launch of the default TwoPass / Pipe plan after a warm-up, then per row
// iteration the stages of every block: pass 1 (row start -> its block summed),
// merge (-> factor known), pass 2 (->
// its chunk written), from each SM's clock; and from the global timer when the
// blocks started and ended each iteration.
// Reads n packs and keeps nothing (LPN7_CLEAN_L2=1 before a traced launch):
// L2 then holds clean lines of another buffer, where the scratch memset leaves
// dirty ones, as a previous kernel's writes do in back-to-back launches.
__global__ void readSweepKernel(const uint4 *p, size_t n, unsigned *sink) {
    unsigned acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint4 v = p[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u) { // never with the memset's bytes; keeps the loads
        *sink = acc;
    }
}

template <class PlanFn>
void traceCase(const InfiniopHandle &h, infiniDtype_t dt, int64_t rows, int64_t len, const char *name, PlanFn plan_fn) {
    Plan plan = basePlan(h, dt, rows, len, 2, 1e-12f);
    if (!plan_fn(h, plan)) {
        say("%s %lldx%lld: no %s plan\n", dtName(dt), (long long)rows, (long long)len, name);
        return;
    }
    const size_t bytes = (size_t)rows * len * elemSize(dt);
    void *x = nullptr, *y = nullptr, *ws = nullptr, *scratch = nullptr;
    constexpr size_t kScratch = 256 << 20; // written before the traced launch: L2 holds none of x, as in graphs
    CHECK_CUDA(cudaMalloc(&x, bytes));
    CHECK_CUDA(cudaMalloc(&y, bytes));
    CHECK_CUDA(cudaMalloc(&ws, std::max<size_t>(plan.workspace, 256)));
    CHECK_CUDA(cudaMalloc(&scratch, kScratch));
    CHECK_CUDA(cudaMemset(x, 0x3c, bytes)); // finite values in every dtype: the one-pass path
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    using Trace = unsigned long long[kStageTraceBlocks][kStageTraceRows][kStageTraceSlots][2];
    static Trace zero, t;
    const bool clean_l2 = std::getenv("LPN7_CLEAN_L2") != nullptr;
    for (int warm = 0; warm < 3; ++warm) { // the last launch is the one read back
        CHECK_CUDA(cudaMemsetAsync(scratch, warm, kScratch, s));
        if (clean_l2) { // the scratch's dirty lines written back, L2 left with clean ones
            readSweepKernel<<<h.sm_count * 4, 512, 0, s>>>(static_cast<const uint4 *>(scratch), kScratch / 16,
                                                           static_cast<unsigned *>(ws));
            CHECK_CUDA(cudaGetLastError());
        }
        CHECK_CUDA(cudaMemcpyToSymbolAsync(g_stage_trace, zero, sizeof(zero), 0, cudaMemcpyHostToDevice, s));
        launchPlan(plan, x, y, ws, s);
    }
    CHECK_CUDA(cudaStreamSynchronize(s));
    CHECK_CUDA(cudaMemcpyFromSymbol(t, g_stage_trace, sizeof(t)));
    int khz = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    const double per_us = khz / 1e3; // SM clocks a microsecond (the maximum clock)
    const int blocks = (int)std::min<int64_t>(plan.grid_x, kStageTraceBlocks);
    unsigned long long t0 = ~0ull, t_end = 0;
    for (int b = 0; b < blocks; ++b) {
        if (t[b][0][0][0] != 0) {
            t0 = std::min(t0, t[b][0][0][0]);
        }
        for (int i = 0; i < kStageTraceRows; ++i) {
            t_end = std::max(t_end, t[b][i][3][0]);
        }
    }
    say("\n%s %s %lldx%lld: %s; kernel span %.2f µs (global timer, first start to last end; L2 flushed before%s)\n", name, dtName(dt),
        (long long)rows, (long long)len, describe(plan).c_str(), (t_end - t0) / 1e3,
        clean_l2 ? ", then a read sweep: no dirty lines" : " by a memset: dirty lines");
    say("  iter blocks | pass 1 µs med [min max] | merge µs med [min max] | pass 2 µs med [min max] | start µs "
        "[first last] | end µs [first last]\n");
    for (int i = 0; i < kStageTraceRows; ++i) {
        std::vector<double> p1, mg, p2, st, en;
        for (int b = 0; b < blocks; ++b) {
            const auto &r = t[b][i];
            if (r[3][0] == 0) {
                continue;
            }
            p1.push_back((double)(r[1][1] - r[0][1]) / per_us);
            mg.push_back((double)(r[2][1] - r[1][1]) / per_us);
            p2.push_back((double)(r[3][1] - r[2][1]) / per_us);
            st.push_back((r[0][0] - t0) / 1e3);
            en.push_back((r[3][0] - t0) / 1e3);
        }
        if (p1.empty()) {
            break;
        }
        auto mm = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            char buf[64];
            std::snprintf(buf, sizeof(buf), "%6.2f [%6.2f %6.2f]", v[v.size() / 2], v.front(), v.back());
            return std::string(buf);
        };
        auto ends = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            char buf[48];
            std::snprintf(buf, sizeof(buf), "[%6.2f %6.2f]", v.front(), v.back());
            return std::string(buf);
        };
        say("  %4d %6zu | %s | %s | %s | %s | %s\n", i, p1.size(), mm(p1).c_str(), mm(mg).c_str(), mm(p2).c_str(),
            ends(st).c_str(), ends(en).c_str());
    }
    if (plan.kind == Kind::Hold) { // one pass: the points of hold.cu's stamps, µs from the first start
        const struct {
            const char *what;
            int iter, stage;
        } points[] = {{"start", 0, 0},          {"registers filled", 1, 0}, {"phase A done", 0, 1},
                      {"factors", 0, 2},        {"held tiles stored", 1, 1}, {"registers stored", 1, 2},
                      {"end", 0, 3}};
        // One stamp's µs over the blocks that wrote it: median [min max].
        auto point = [&](const char *what, int iter, int stage) {
            std::vector<double> v;
            for (int b = 0; b < blocks; ++b) {
                if (t[b][iter][stage][0] != 0) {
                    v.push_back((t[b][iter][stage][0] - t0) / 1e3);
                }
            }
            std::sort(v.begin(), v.end());
            if (!v.empty()) {
                say("  %-18s µs: median %6.2f [%6.2f %6.2f] (%zu blocks)\n", what, v[v.size() / 2], v.front(),
                    v.back(), v.size());
            }
        };
        for (const auto &pt : points) {
            point(pt.what, pt.iter, pt.stage);
        }
        // Tile by tile: register tiles 2k landed / passed, stream tiles 4k landed (hold.cu's iter 2-7 stamps).
        const char *what[] = {"reg tile %d landed", "reg tile %d passed", "tile %d landed"};
        const int step[] = {2, 2, 4};
        for (int stage = 0; stage < 3; ++stage) {
            for (int it = 2; it < kStageTraceRows; ++it) {
                char name[32];
                std::snprintf(name, sizeof name, what[stage], (it - 2) * step[stage]);
                point(name, it, stage);
            }
        }
    }
    CHECK_CUDA(cudaStreamDestroy(s));
    CHECK_CUDA(cudaFree(x));
    CHECK_CUDA(cudaFree(y));
    CHECK_CUDA(cudaFree(ws));
    CHECK_CUDA(cudaFree(scratch));
}
#endif

#ifdef INFINI_LP_NORM_GRID_TRACE
// LPN7_ONLY=gridtrace: the last of 6 Grid calls back to back (3 buffer sets),
// per row the median over blocks of each point (µs from the earliest
// "landed"), and block 0's.
void gridTraceCase(const InfiniopHandle &h, infiniDtype_t dt, int64_t rows, int64_t len, GridTuning tune) {
    Plan plan = basePlan(h, dt, rows, len, 2, 1e-12f);
    if (!planGrid(h, plan, tune)) {
        say("gridtrace: refused\n");
        return;
    }
    // Calls back to back over kSets buffer sets, as the graph timing rotates
    // them (no call reads lines the one before left in L2); the last is traced.
    constexpr int kSets = 3, kCalls = 2 * kSets;
    const size_t bytes = (size_t)rows * len * elemSize(dt);
    void *xs[kSets], *ys[kSets], *ws;
    for (int i = 0; i < kSets; ++i) {
        CHECK_CUDA(cudaMalloc(&xs[i], bytes));
        CHECK_CUDA(cudaMalloc(&ys[i], bytes));
        CHECK_CUDA(cudaMemset(xs[i], 0x3c, bytes)); // 1.0-ish in F16/BF16 halves
    }
    CHECK_CUDA(cudaMalloc(&ws, plan.workspace));
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < kCalls; ++i) {
        launchPlan(plan, xs[i % kSets], ys[i % kSets], ws, nullptr);
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    static unsigned long long tr[kGridTraceBlocks][kGridTraceRows][kGridTracePoints];
    CHECK_CUDA(cudaMemcpyFromSymbol(tr, g_grid_trace, sizeof tr));
    const int nb = (int)std::min<int64_t>(plan.grid_x, kGridTraceBlocks), nr = (int)std::min<int64_t>(rows, kGridTraceRows);
    unsigned long long t0 = ~0ull;
    for (int bb = 0; bb < nb; ++bb) {
        t0 = std::min(t0, tr[bb][0][0]);
    }
    say("\ngridtrace %s %lldx%lld: %s\n  row | median over blocks: landed, published, past the factor wait, stored, "
        "factor posted (µs) | block 0's five | max landed, max published | block 0's merger: poll round's end, "
        "merge entered, max reduced, sum reduced, posted\n",
        dtName(dt), (long long)rows, (long long)len, describe(plan).c_str());
    for (int r = 0; r < nr; ++r) {
        double med[kGridTracePoints];
        double mx = 0, mx_pub = 0;
        for (int pt = 0; pt < kGridTracePoints; ++pt) {
            std::vector<double> v;
            for (int bb = 0; bb < nb; ++bb) {
                v.push_back((double)(tr[bb][r][pt] - t0) / 1e3);
            }
            std::sort(v.begin(), v.end());
            med[pt] = v[v.size() / 2];
            if (pt == 0) {
                mx = v.back();
            }
            if (pt == 1) {
                mx_pub = v.back();
            }
        }
        auto at = [&](int pt) { return ((double)tr[0][r][pt] - (double)t0) / 1e3; };
        say("  %3d | %7.2f %7.2f %7.2f %7.2f %7.2f | %7.2f %7.2f %7.2f %7.2f %7.2f | %7.2f %7.2f | %7.2f %7.2f %7.2f %7.2f "
            "%7.2f\n",
            r, med[0], med[1], med[2], med[3], med[4], at(0), at(1), at(2), at(3), at(4), mx, mx_pub, at(8), at(5), at(6),
            at(7), at(4));
    }
    for (int i = 0; i < kSets; ++i) {
        CHECK_CUDA(cudaFree(xs[i]));
        CHECK_CUDA(cudaFree(ys[i]));
    }
    CHECK_CUDA(cudaFree(ws));
}
#endif

} // namespace lpn7

int main(int argc, char **argv) {
    using namespace lpn7;
    if (argc > 1) {
        g_out = std::fopen(argv[1], "w");
    }
    const InfiniopHandle h = deviceHandle();
    for (int size : {1, 2, 4, 8, 12, 16}) {
        say("  TwoPass clusters of %d active at once: BF16 %d, F32 %d, F64 %d\n", size,
            activeClusters(INFINI_DTYPE_BF16, size), activeClusters(INFINI_DTYPE_F32, size),
            activeClusters(INFINI_DTYPE_F64, size));
    }
    const int room = pipeRoom(h);
    for (int size : {8, 10, 12, 13, 14, 16}) {
        say("  Pipe clusters of %d (%d / 10 slots) active at once: BF16 %d / %d, F64 %d / %d\n", size, room,
            pipeActiveClusters(h, INFINI_DTYPE_BF16, size, room), pipeActiveClusters(h, INFINI_DTYPE_BF16, size, 10),
            pipeActiveClusters(h, INFINI_DTYPE_F64, size, room), pipeActiveClusters(h, INFINI_DTYPE_F64, size, 10));
    }
    const infiniDtype_t BF = INFINI_DTYPE_BF16, F16 = INFINI_DTYPE_F16, F32 = INFINI_DTYPE_F32,
                        F64 = INFINI_DTYPE_F64;
    const int64_t M = 1 << 20;
    const int64_t K = 1 << 10;
    const Fill R = Fill::Random, N = Fill::Nonfinite, X = Fill::Extreme;
    const Case cases[] = {
        // The issue's case first (checked, then timed with the variant sweep), so that a cap keeps it.
        {BF, 32, M, 2, 1e-12f, R, 1.0, true, true},
        // Checks only: every dtype and p, non-finite rows, the scaled fallback, uneven chunks.
        {BF, 24, M, 2, 1e-12f, N, 1.0, false, false},
        {F32, 16, M, 1, 0.0f, N, 1.0, false, false},
        {F16, 16, M / 2, 3, 1e-12f, N, 1.0, false, false},
        {F64, 16, M / 4, 2, 1e-12f, N, 1.0, false, false},
        {F32, 5, M, 2, 0.0f, X, 1e30, false, false},
        {F32, 5, M, 3, 1e-12f, X, 1e-30, false, false},
        {BF, 6, M, 2, 0.0f, X, 1e30, false, false},
        {F16, 6, M, 1, 1e-12f, X, 1e-6, false, false},
        {F64, 8, M / 2, 2, 1e-12f, X, 1e300, false, false},
        {BF, 37, M - 8 * 37, 2, 1e-12f, R, 1.0, false, false}, // rows not a multiple of the clusters, uneven chunks
        {F16, 300, 65536 + 8, 1, 1e-12f, R, 1.0, false, false}, // many long rows: clusters of 1
        {F32, 10, 16899 * 4, 2, 1e-12f, N, 1.0, false, false},  // Grid on 132 SMs: the last block's chunk empty
        {F64, 20, 3 * M / 8 + 6, 3, 0.0f, R, 1.0, false, false}, // Grid: uneven chunks, the ring wraps
        // Timed (the rest of the brief's list); two more with the variant sweep.
        {BF, 64, M, 2, 1e-12f, R, 1.0, true, true},
        {BF, 16, M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 20, M, 2, 1e-12f, R, 1.0, true, false}, // Hold in the library (fewer than 3 rounds of Pipe's clusters)
        {BF, 12, M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 8, M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 2, M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 4, M, 2, 1e-12f, R, 1.0, true, false},       // Split in the library (too few rows for a cluster plan)
        {BF, 1, 16 * M, 2, 1e-12f, R, 1.0, true, false},  // one long vector: Split
        {F32, 2, 2 * M, 2, 1e-12f, R, 1.0, true, false},  // Split
        // Shorter rows that reach Split / Sweep (too few for a cluster plan; LPN7_ONLY=split):
        {BF, 1, M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 4, M / 4, 2, 1e-12f, R, 1.0, true, false},
        {BF, 8, M / 8, 2, 1e-12f, R, 1.0, true, false},
        {F16, 5, 66000, 2, 1e-12f, R, 1.0, true, false},
        {BF, 200, 70000, 2, 1e-12f, R, 1.0, true, false},
        {BF, 16, 2 * M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 32, M, 1, 1e-12f, R, 1.0, true, false},  // Hold with p 1 (its packed sums, one held pack in local memory)
        {F16, 16, M, 2, 1e-12f, R, 1.0, true, false}, // Hold on F16
        {BF, 4096, 4096, 2, 1e-12f, R, 1.0, true, false},
        {F32, 32, M, 2, 1e-12f, R, 1.0, true, true},
        // Session 26: where Hold overtakes Sweep / TwoPass / Pipe below 8 rows of 1M (4x1M and 1x16M
        // above: Hold ahead; 2x1M and 1x1M: Sweep ahead).
        {BF, 3, M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 2, 2 * M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 1, 4 * M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 6, M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 1, 8 * M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 8, M / 2, 2, 1e-12f, R, 1.0, true, false},
        {BF, 16, M / 2, 2, 1e-12f, R, 1.0, true, false},
        {F16, 4, M, 1, 1e-12f, R, 1.0, true, false},
        // Session 26, second round: longer totals of shorter rows, and p 3 (Hold's element loop).
        {BF, 32, M / 2, 2, 1e-12f, R, 1.0, true, false},
        {BF, 64, M / 2, 2, 1e-12f, R, 1.0, true, false},
        {BF, 32, M / 4, 2, 1e-12f, R, 1.0, true, false},
        {BF, 64, M / 4, 2, 1e-12f, R, 1.0, true, false},
        {BF, 128, M / 8, 2, 1e-12f, R, 1.0, true, false},
        {BF, 4, M, 3, 1e-12f, R, 1.0, true, false},
        {BF, 1, 16 * M, 3, 1e-12f, R, 1.0, true, false},
        {BF, 16, M / 2, 3, 1e-12f, R, 1.0, true, false},
    };
    // Session 27 (LPN7_ONLY=holdwide): Hold against the library's plan and every other plan where
    // holdPays has no measurement: 4- and 8-byte elements (Cluster / Split in the library) and 2-byte
    // rows outside the session-26 region (Hold's pieces span at most two rows: <= ~132 rows).
    const Case wide_cases[] = {
        {F32, 2, 2 * M, 2, 1e-12f, R, 1.0, true, false}, // session 26: Hold 21.7, Split 19.3
        {F32, 1, 4 * M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 1, 8 * M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 4, M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 8, M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 12, M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 16, M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 16, M, 1, 1e-12f, R, 1.0, true, false},
        {F32, 8, M, 3, 1e-12f, R, 1.0, true, false},
        {F32, 8, M / 2, 2, 1e-12f, R, 1.0, true, false},
        {F32, 32, M / 4, 2, 1e-12f, R, 1.0, true, false},
        {F32, 64, M / 4, 2, 1e-12f, R, 1.0, true, false},
        {F64, 2, M, 2, 1e-12f, R, 1.0, true, false},
        {F64, 4, M, 2, 1e-12f, R, 1.0, true, false},
        {F64, 8, M, 2, 1e-12f, R, 1.0, true, false},
        {F64, 1, 4 * M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 128, M / 16, 2, 1e-12f, R, 1.0, true, false},
        {BF, 100, M / 10, 2, 1e-12f, R, 1.0, true, false},
        {BF, 96, M / 4, 2, 1e-12f, R, 1.0, true, false},
        {BF, 128, M / 4, 2, 1e-12f, R, 1.0, true, false},
        {BF, 2, 4 * M, 2, 1e-12f, R, 1.0, true, false},
    };
    // Session 29 (LPN7_ONLY=f64): F64 rows beyond what Hold takes (Split in the library, behind
    // PyTorch in session 28's survey), every plan and its variants.
    const Case f64_cases[] = {
        {F64, 16, M, 2, 1e-12f, R, 1.0, true, true},
        {F64, 32, M, 2, 1e-12f, R, 1.0, true, true},
        {F64, 16, M / 4, 2, 1e-12f, R, 1.0, true, true},
        {F64, 8, M / 2, 2, 1e-12f, R, 1.0, true, false},
        {F64, 32, M / 4, 2, 1e-12f, R, 1.0, true, false},
        {F64, 64, M / 4, 2, 1e-12f, R, 1.0, true, false},
        {F64, 12, M, 2, 1e-12f, R, 1.0, true, false},
        {F64, 4, 4 * M, 2, 1e-12f, R, 1.0, true, false},
        {F64, 16, M, 1, 1e-12f, R, 1.0, true, false},
        {F64, 16, M, 3, 1e-12f, R, 1.0, true, false},
    };
    // Session 29 (LPN7_ONLY=beyond): rows too large for Hold's L2 budget, against Hold reading what it
    // does not hold twice from DRAM ("hold dram"); and shorter F64 rows (where Hold should start).
    const Case beyond_cases[] = {
        {F64, 16, M, 2, 1e-12f, R, 1.0, true, false},
        {F64, 32, M, 2, 1e-12f, R, 1.0, true, false},
        {F64, 12, M, 2, 1e-12f, R, 1.0, true, false},
        {F64, 4, 4 * M, 2, 1e-12f, R, 1.0, true, false},
        {F64, 16, M, 1, 1e-12f, R, 1.0, true, false},
        {F64, 16, M, 3, 1e-12f, R, 1.0, true, false},
        {F64, 6, M, 2, 1e-12f, N, 1.0, false, false}, // checks: non-finite rows
        {F64, 7, 3 * M + 16, 3, 0.0f, X, 1e-300, false, false},
        {F32, 4, 8 * M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 8, 4 * M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 32, 2 * M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 64, M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 64, M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 128, M, 2, 1e-12f, R, 1.0, true, false},
        {F64, 32, M / 8, 2, 1e-12f, R, 1.0, true, false},
        {F64, 64, M / 8, 2, 1e-12f, R, 1.0, true, false},
        {F64, 128, M / 16, 2, 1e-12f, R, 1.0, true, false},
        {F64, 8, M / 4, 2, 1e-12f, R, 1.0, true, false},
        {F64, 4, M / 2, 2, 1e-12f, R, 1.0, true, false},
        // (call 3) few long rows beyond the budget, where the library planned Sweep or Split
        {BF, 1, 64 * M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 2, 32 * M, 2, 1e-12f, R, 1.0, true, false},
        {F16, 4, 16 * M, 1, 1e-12f, R, 1.0, true, false},
        {F32, 1, 32 * M, 2, 1e-12f, R, 1.0, true, false},
        {F64, 1, 16 * M, 2, 1e-12f, R, 1.0, true, false},
        {F64, 2, 12 * M, 3, 1e-12f, N, 1.0, false, false},
    };
    // Session 29 (LPN7_ONLY=f32big, for session 30): Grid (off in the library) took F32 64x1M in 199 µs
    // against Cluster's 223 (calls 2-3); F32 rows beyond Hold's budget where Cluster plans, every
    // plan (Grid's tunings on the first case), and F64 ones for comparison.
    const Case f32big_cases[] = {
        {F32, 64, M, 2, 1e-12f, R, 1.0, true, true},
        {F32, 128, M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 48, M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 24, M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 128, M / 2, 2, 1e-12f, R, 1.0, true, false},
        {F32, 256, M / 4, 2, 1e-12f, R, 1.0, true, false},
        {F32, 64, M, 1, 1e-12f, R, 1.0, true, false},
        {F32, 64, M, 3, 1e-12f, R, 1.0, true, false},
        {F32, 40, M + 4, 2, 1e-12f, N, 1.0, false, false}, // checks: non-finite rows, uneven chunks
        {F64, 64, M / 4, 2, 1e-12f, R, 1.0, true, false},
        {F64, 128, M / 4, 2, 1e-12f, R, 1.0, true, false},
    };
    // Session 30 (LPN7_ONLY=gridrule): Grid won every F32 case of 1M rows in f32big (64x1M 197 against
    // Cluster's 221, 24x1M 77 against Hold beyond its budget's 91) and lost at 2 MB rows (F32 128x512K,
    // F64 64x256K). Its chunks are 2-33 KB a block, so rows of 3-4.4 MB of every dtype, inside and
    // beyond Hold's budget, against the plan the library takes.
    const Case gridrule_cases[] = {
        {F32, 16, M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 32, M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 64, 3 * M / 4, 2, 1e-12f, R, 1.0, true, false},
        {BF, 16, 2 * M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 32, 2 * M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 64, 2 * M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 64, 3 * M / 2, 2, 1e-12f, R, 1.0, true, false},
        {F16, 64, 2 * M, 1, 1e-12f, R, 1.0, true, false},
        {F64, 16, M / 2, 2, 1e-12f, R, 1.0, true, false},
        {F64, 32, M / 2, 2, 1e-12f, R, 1.0, true, false},
        {F64, 64, M / 2, 2, 1e-12f, R, 1.0, true, false},
        {F64, 64, M / 2, 3, 1e-12f, R, 1.0, true, false},
        {BF, 40, 2 * M + 8, 2, 1e-12f, N, 1.0, false, false}, // checks: non-finite rows, uneven chunks
        {F64, 20, M / 2 + 2, 2, 1e-12f, N, 1.0, false, false},
    };
    // LPN7_ONLY=gridedge: where Grid starts to pay (the library: chunks of 22 KB+, rows of 2.8 MB+).
    const Case gridedge_cases[] = {
        {F32, 64, 640 * K, 2, 1e-12f, R, 1.0, true, false}, {F32, 64, 704 * K, 2, 1e-12f, R, 1.0, true, false},
        {F32, 128, 768 * K, 2, 1e-12f, R, 1.0, true, false}, {F64, 64, 352 * K, 2, 1e-12f, R, 1.0, true, false},
        {F64, 64, 384 * K, 2, 1e-12f, R, 1.0, true, false},  {BF, 64, 1408 * K, 2, 1e-12f, R, 1.0, true, false},
    };
    // LPN7_ONLY=pipewide: Pipe (the library's for 2-byte rows only) took F64 64x256K in 110 µs against
    // Cluster's 136 and F32 64x640K in 137 against 165 (gridedge, f32big), but lost F32 128x512K and
    // 256x256K to Cluster: 4- and 8-byte rows of 256 KB-2.5 MB beyond Hold's budget, every plan.
    const Case pipewide_cases[] = {
        {F64, 48, 320 * K, 2, 1e-12f, R, 1.0, true, false}, {F64, 128, 192 * K, 2, 1e-12f, R, 1.0, true, false},
        {F64, 128, 128 * K, 2, 1e-12f, R, 1.0, true, false}, {F64, 256, 64 * K, 2, 1e-12f, R, 1.0, true, false},
        {F64, 512, 32 * K, 2, 1e-12f, R, 1.0, true, false},  {F64, 64, 256 * K, 3, 1e-12f, R, 1.0, true, false},
        {F64, 24, 256 * K, 2, 1e-12f, R, 1.0, true, false},  {F32, 64, 576 * K, 2, 1e-12f, R, 1.0, true, false},
        {F32, 96, 640 * K, 2, 1e-12f, R, 1.0, true, false},  {F32, 128, 384 * K, 2, 1e-12f, R, 1.0, true, false},
        {F32, 48, 512 * K, 2, 1e-12f, R, 1.0, true, false},
    };
    // LPN7_ONLY=pipeedge: the smallest 8-byte shapes the library now gives Pipe (rows of 32K-64K, which
    // Hold does not take, just beyond L2's 50 MB), against Split / Cluster ("main").
    const Case pipeedge_cases[] = {
        {F64, 200, 32 * K, 2, 1e-12f, R, 1.0, true, false}, {F64, 240, 40 * K, 2, 1e-12f, R, 1.0, true, false},
        {F64, 160, 48 * K, 2, 1e-12f, R, 1.0, true, false}, {F64, 132, 56 * K, 1, 1e-12f, R, 1.0, true, false},
        {F64, 1000, 32 * K, 2, 1e-12f, R, 1.0, true, false},
    };
    // LPN7_ONLY=holdstore (session 34): Hold's default on the cases it takes, beside a copy and a
    // memset of y (the write phase's ceiling), in a build with -DINFINI_LP_NORM_HOLD_STORE_CS=0 or not.
    const Case holdstore_cases[] = {
        {BF, 32, M, 2, 1e-12f, R, 1.0, true, false}, {BF, 24, M, 2, 1e-12f, R, 1.0, true, false},
        {BF, 16, M, 2, 1e-12f, R, 1.0, true, false}, {F16, 16, M, 2, 1e-12f, R, 1.0, true, false},
        {F32, 16, M, 2, 1e-12f, R, 1.0, true, false}, {BF, 37, M - 8 * 37, 2, 1e-12f, N, 1.0, false, false},
    };
    // LPN7_ONLY=trace / pipetrace: the stage trace (a -DINFINI_LP_NORM_STAGE_TRACE build);
    // LPN7_ONLY=holdrule: the timed cases of fewer than 8 rows or rows shorter than 1M that Hold
    // takes, against every other plan (where Hold should start); LPN7_ONLY=holdwide: the same for
    // wide_cases (4- and 8-byte elements, 2-byte rows beyond holdPays' measured region);
    // LPN7_ONLY=variants: the cases with the variant sweep only; LPN7_ONLY=sweep: the cases the
    // Sweep plan (sweep.cu) takes, with all its variants; LPN7_ONLY=ncu: two cases
    // checked, untimed (for `ncu -k regex:twoPassKernel`: three launches each, 16x1M then 32x1M BF16).
    const char *only = std::getenv("LPN7_ONLY");
    g_mode = only != nullptr ? only : "";
    const std::string &mode = g_mode;
#ifdef INFINI_LP_NORM_STAGE_TRACE
    if (mode == "sweeptrace") { // iteration 0: the stats kernel (start, first tile, last tile, record); 1: apply
        auto plan_fn = [](const InfiniopHandle &hh, Plan &p) { return planSweep(hh, p); };
        traceCase(h, BF, 8, M, "Sweep", plan_fn);
        traceCase(h, BF, 16, M, "Sweep", plan_fn);
        traceCase(h, BF, 32, M, "Sweep", plan_fn);
        auto pipe_fn = [](const InfiniopHandle &hh, Plan &p) { return planPipe(hh, p); };
        traceCase(h, BF, 32, M, "Pipe", pipe_fn);
        return 0;
    }
    if (mode == "holdtrace") {
        auto hold_fn = [](const InfiniopHandle &hh, Plan &p) { return planHold(hh, p); };
        auto hold0_fn = [](const InfiniopHandle &hh, Plan &p) { return planHold(hh, p, HoldTuning{0, 0, 0.5, -1}); };
        traceCase(h, BF, 16, M, "Hold", hold_fn);
        traceCase(h, BF, 32, M, "Hold", hold_fn);
        traceCase(h, BF, 16, M, "Hold regs 0", hold0_fn);
        traceCase(h, BF, 32, M, "Hold regs 0", hold0_fn);
        auto pipe_fn = [](const InfiniopHandle &hh, Plan &p) { return planPipe(hh, p); };
        traceCase(h, BF, 32, M, "Pipe", pipe_fn);
        return 0;
    }
    if (mode == "trace" || mode == "pipetrace") {
        const bool pipe = mode == "pipetrace";
        auto plan_fn = [pipe](const InfiniopHandle &hh, Plan &p) { return pipe ? planPipe(hh, p) : planTwoPass(hh, p); };
        const char *name = pipe ? "Pipe" : "TwoPass";
        traceCase(h, BF, 16, M, name, plan_fn);
        traceCase(h, BF, 32, M, name, plan_fn);
        traceCase(h, BF, 64, M, name, plan_fn);
        if (!pipe) {
            traceCase(h, F32, 32, M, name, plan_fn);
        }
        return 0;
    }
#endif
#ifdef INFINI_LP_NORM_GRID_TRACE
    if (mode == "gridtrace") {
        gridTraceCase(h, BF, 32, M, GridTuning{});
        gridTraceCase(h, BF, 32, M, GridTuning{6, 0, 8, 1, 4});
        gridTraceCase(h, BF, 32, M, GridTuning{3, 0, 8, 1, 3}); // session 10's default
        gridTraceCase(h, BF, 32, M, GridTuning{8, 0, 8, 1, 5});
        gridTraceCase(h, BF, 32, M, GridTuning{6, 0, 8, 1, 6});
        gridTraceCase(h, F32, 32, M, GridTuning{});
        return 0;
    }
#endif
    auto runAll = [&](const auto &list) { // every case of a mode's list
        for (const Case &c : list) {
            runCase(h, c);
        }
    };
    if (mode == "ncu") {
        runCase(h, {BF, 16, M, 2, 1e-12f, R, 1.0, false, false});
        runCase(h, {BF, 32, M, 2, 1e-12f, R, 1.0, false, false});
    } else if (mode == "f32big") {
        runAll(f32big_cases);
    } else if (mode == "gridrule" || mode == "gridedge" || mode == "pipeedge" || mode == "pipewide") {
        g_mode = "gridrule"; // (session 30's modes: the same variants, Hold from DRAM at keep .5 among them)
        if (mode == "gridrule") {
            runAll(gridrule_cases);
        } else if (mode == "gridedge") {
            runAll(gridedge_cases);
        } else if (mode == "pipeedge") {
            runAll(pipeedge_cases);
        } else {
            runAll(pipewide_cases);
        }
    } else if (mode == "beyond") {
        runAll(beyond_cases);
    } else if (mode == "holdstore") {
        runAll(holdstore_cases);
    } else if (mode == "f64") { // every plan on F64 rows that Hold does not hold
        runAll(f64_cases);
    } else if (mode == "holdwide") { // Hold against the others where holdPays has no measurement
        g_mode = "hold";
        for (const Case &c : wide_cases) {
            Plan hold = basePlan(h, c.dt, c.rows, c.len, c.p, c.eps);
            if (planHold(h, hold)) {
                runCase(h, c);
            } else {
                say("\n%s %lldx%lld p %d: Hold refused by its planner\n", dtName(c.dt), (long long)c.rows,
                    (long long)c.len, c.p);
            }
        }
    } else if (mode == "holdrule") { // Hold against the others on the timed cases below 8 rows of 1M
        g_mode = "hold";
        for (const Case &c : cases) {
            Plan hold = basePlan(h, c.dt, c.rows, c.len, c.p, c.eps);
            if (c.time && (c.rows < 8 || c.len < M) && planHold(h, hold)) {
                runCase(h, c);
            }
        }
    } else {
        for (const Case &c : cases) {
            Plan pipe = basePlan(h, c.dt, c.rows, c.len, c.p, c.eps);
            Plan grid = pipe;
            Plan sweep = pipe;
            Plan hold = pipe;
            if (mode == "pipe"    ? planPipe(h, pipe)
                : mode == "grid"  ? planGrid(h, grid)
                : mode == "split" ? mainPlan(h, pipe).kind == Kind::Split
                : mode == "sweep" ? planSweep(h, sweep)
                : mode == "hold"  ? planHold(h, hold)
                                  : mode != "variants" || c.sweep) {
                runCase(h, c);
            }
        }
    }
    say("\n%s: %d failure(s)\n", g_failures ? "FAILED" : "all checks passed", g_failures);
    if (g_out != nullptr) {
        std::fclose(g_out);
    }
    return g_failures ? 1 : 0;
}
