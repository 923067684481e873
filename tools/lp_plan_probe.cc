// The LPNorm NVIDIA planner on the host, without a GPU: which plan Create makes for given shapes on an
// H200's handle (132 SMs, 60 MB of L2, sm_90), so that a measuring knob's reach (which cases it changes)
// can be checked before device time is spent. It compiles nvidia.cc into this program. The planners that
// live beside their kernels (the sm_90 row plans: Stream, Cluster, TwoPass, Pipe, Grid, Sweep, Hold, which
// query the kernels) are stubbed here to decline, so row cases show Rows / Split where the GPU may take one
// of those; Rows, Split, Cols and Slab decisions are the library's own.
//   g++ -std=c++17 -O1 -Inative/include -Inative/src -DINFINI_WITH_NVIDIA -isystem /usr/local/cuda/include \
//       [-DKNOB=...] tools/lp_plan_probe.cc native/src/common/tensor.cc native/src/common/layout.cc \
//       -L/usr/local/cuda/lib64 -lcudart -o /tmp/lp_plan_probe
//   /tmp/lp_plan_probe < cases.txt    (shaped_cases.py / behind_sweep.py lines: "lp_norm (SHAPE) axis A p P DTYPE")
#include "../native/src/ops/lp_norm/nvidia.cc"
#include "probe_common.h"

#include <cstdio>
#include <iostream>
#include <regex>
#include <string>

// The kernels' files' planners and launchers: never called for launches here; the planners decline.
namespace infini {
int streamSmCount(cudaStream_t, int device_sms) { return device_sms; }
namespace lp_norm::nvidia {
#define INFINI_PROBE_LAUNCH(NAME)                                                                              \
    infiniStatus_t NAME(const Plan &, const void *, void *, void *, void *) { return INFINI_STATUS_INTERNAL_ERROR; }
INFINI_PROBE_LAUNCH(launchRows)
INFINI_PROBE_LAUNCH(launchSplit)
INFINI_PROBE_LAUNCH(launchCols)
INFINI_PROBE_LAUNCH(launchSlab)
INFINI_PROBE_LAUNCH(launchCluster)
INFINI_PROBE_LAUNCH(launchStream)
INFINI_PROBE_LAUNCH(launchTwoPass)
INFINI_PROBE_LAUNCH(launchPipe)
INFINI_PROBE_LAUNCH(launchGrid)
INFINI_PROBE_LAUNCH(launchSweep)
INFINI_PROBE_LAUNCH(launchHold)
void planColsPdl(Plan &) {}
bool planSlabSmem(const InfiniopHandle &, const Plan &) { return true; } // (an H200 allows 227 KB a block)
void planSplitPdl(Plan &) {}
bool planCluster(const InfiniopHandle &, Plan &) { return false; }
bool planTwoPass(const InfiniopHandle &, Plan &, const TwoPassTuning &) { return false; }
bool planPipe(const InfiniopHandle &, Plan &, const PipeTuning &) { return false; }
bool planGrid(const InfiniopHandle &, Plan &, const GridTuning &) { return false; }
bool planSweep(const InfiniopHandle &, Plan &, const SweepTuning &) { return false; }
bool planHold(const InfiniopHandle &, Plan &, const HoldTuning &) { return false; }
bool planStream(const InfiniopHandle &, Plan &, bool) { return false; }
} // namespace lp_norm::nvidia
} // namespace infini

namespace {

using namespace infini::lp_norm;
using namespace infini::lp_norm::nvidia;

const char *kindName(Kind k) {
    static const char *names[] = {"Rows",  "Split", "Cluster", "Stream", "TwoPass", "Pipe",
                                  "Grid",  "Sweep", "Hold",    "Cols",   "Slab"};
    return names[(int)k];
}

void print(const char *label, const Plan &p) {
    std::printf(" %s=%s vec %d items %d bx %d by %d tpr %d threads %d chunks %lld chunk_rows %lld grid %u x %u "
                "ragged %d ws %zu",
                label, kindName(p.kind), p.vec, p.items, p.bx, p.by, p.tpr, p.threads, (long long)p.chunks,
                (long long)p.chunk_vecs, p.grid_x, p.grid_y, (int)p.ragged, p.workspace);
}

} // namespace

int main() {
    const InfiniopHandle h = probe::h200Handle();
    const std::regex line(R"(lp_norm \(([\d, ]+)\) axis (\d+) p (\d+) (\w+))");
    std::string text;
    while (std::getline(std::cin, text)) {
        std::smatch m;
        if (!std::regex_search(text, m, line)) {
            continue;
        }
        InfiniopTensorDescriptor t{};
        t.dtype = probe::dtypeOf(m[4]);
        t.shape = probe::ints(m[1]);
        t.strides = probe::contiguous(t.shape);
        Info info;
        if (Info::make(&t, &t, std::stoi(m[2]), std::stoi(m[3]), 1e-12f, &info) != INFINI_STATUS_SUCCESS) {
            std::printf("%s: Info::make refused\n", m[0].str().c_str());
            continue;
        }
        NvidiaDescriptor desc(h, info);
        const infiniStatus_t st = desc.make(h);
        std::printf("%s: status %d", m[0].str().c_str(), (int)st);
        print("scalar", desc.scalar_plan);
        if (desc.has_vec) {
            print("vec", desc.vec_plan);
        }
        std::printf("\n");
    }
    return 0;
}
