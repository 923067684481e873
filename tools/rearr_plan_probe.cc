// The Rearrange NVIDIA planner on the host, without a GPU: which plan Create makes for each unit on an
// H200's handle (132 SMs, sm_90), for behind_sweep.py's Rearrange lines, so that a planner knob's reach
// (which cases it changes) can be read before device time is spent. It compiles rearrange_nvidia.cc into
// this program with the kernel launchers stubbed. (Session 46 wrote it as box_emulate.cc, which also ran
// the box transpose kernel on the host; boxes were removed the same session, the tool's first form is in
// 0ee7ff8.)
//   g++ -O1 -std=c++20 -Inative/src -Inative/include -isystem /usr/local/cuda/include -DINFINI_WITH_NVIDIA \
//       [-DKNOB=...] tools/rearr_plan_probe.cc native/src/common/tensor.cc native/src/common/layout.cc \
//       -L/usr/local/cuda/lib64 -lcudart -o /tmp/rearr_plan_probe
//   /tmp/rearr_plan_probe < lines   ("rearrange (SHAPE) src order (O) dst (S) DTYPE": each unit's plan,
//                                    widest first, with the tile groups' lengths)
#include "../native/src/ops/rearrange/rearrange_nvidia.cc"
#include "probe_common.h"
#include "rearr_launch_stubs.h"

#include <cstdio>
#include <iostream>
#include <regex>
#include <string>


namespace {
using namespace infini::rearrange;
using namespace infini::rearrange::nvidia;
} // namespace

// Each line's plans on an H200's handle, widest unit first.
int main() {
    const std::regex line(R"(rearrange \(([\d, ]+)\) src order \(([\d, ]+)\) dst \(([\d, ]+)\) (\w+))");
    static const char *kinds[] = {"None", "Memcpy", "Generic", "Tile"};
    std::string text;
    while (std::getline(std::cin, text)) {
        std::smatch m;
        if (!std::regex_search(text, m, line)) {
            continue;
        }
        InfiniopTensorDescriptor dt{}, st{};
        dt.dtype = st.dtype = probe::dtypeOf(m[4]);
        dt.shape = st.shape = probe::ints(m[1]);
        const std::vector<size_t> order = probe::ints(m[2]), dst = probe::ints(m[3]);
        dt.strides.assign(dst.begin(), dst.end());
        st.strides.assign(dt.shape.size(), 0);
        ptrdiff_t stride = 1;
        for (int k = (int)order.size() - 1; k >= 0; --k) {
            st.strides[order[k]] = stride;
            stride *= (ptrdiff_t)dt.shape[order[k]];
        }
        Info info;
        if (Info::create(&dt, &st, &info) != INFINI_STATUS_SUCCESS) {
            continue;
        }
        NvidiaDesc desc(probe::h200Handle(), info);
        if (desc.plan() != INFINI_STATUS_SUCCESS) {
            std::printf("%s: plan failed\n", m[0].str().c_str());
            continue;
        }
        std::printf("%s:", m[0].str().c_str());
        for (const Plan &p : desc.plans) {
            if (p.kind != Kind::None) {
                std::printf(" [unit %zu %s", p.unit, kinds[(int)p.kind]);
                if (p.kind == Kind::Tile) {
                    std::printf(" a %u b %u grid %u%s", p.tile.len_a, p.tile.len_b, p.grid,
                                p.small_tile_b == 64 ? " small64" : p.small_tile_b ? " small" : "");
                }
                std::printf("]");
            }
        }
        std::printf("\n");
    }
    return 0;
}

