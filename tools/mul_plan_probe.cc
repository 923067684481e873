// The elementwise (Mul) NVIDIA planner on the host, without a GPU: which path and form Create plans for
// behind_sweep.py's Mul lines on an H200's handle, so that a knob's reach can be checked before device
// time is spent (session 43; tools/lp_plan_probe.cc is LPNorm's). The kernels' occupancy, which sizes
// grids only, is taken as 8 blocks an SM.
//   g++ -std=c++17 -O1 -Inative/include -Inative/src -DINFINI_WITH_NVIDIA -isystem /usr/local/cuda/include \
//       [-DKNOB=...] tools/mul_plan_probe.cc native/src/ops/elementwise/plan_nvidia.cc \
//       native/src/ops/elementwise/info.cc native/src/common/tensor.cc native/src/common/layout.cc \
//       -L/usr/local/cuda/lib64 -lcudart -o /tmp/mul_plan_probe
//   /tmp/mul_plan_probe < cases.txt    ("mul (SHAPE) a order (ORDER) b (BSHAPE) DTYPE" lines)
#include "ops/elementwise/nvidia.h"
#include "probe_common.h"

#include <cstdio>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

namespace {

bool anyDtype(infiniDtype_t) { return true; }

const char *pathName(infini::elementwise::nvidia::Path p) {
    using infini::elementwise::nvidia::Path;
    return p == Path::Contiguous ? "Contiguous" : p == Path::Tiled ? "Tiled" : "Strided";
}

} // namespace

int main() {
    using namespace infini::elementwise;
    const InfiniopHandle h = probe::h200Handle();
    nvidia::Occupancy occ;
    occ.strided = occ.strided_vec = occ.tiled = 8;
    occ.pdl = true;
    const std::regex line(R"(mul \(([\d, ]+)\) a order \(([\d, ]+)\) b \(([\d, ]+)\) (\w+))");
    std::string text;
    while (std::getline(std::cin, text)) {
        std::smatch m;
        if (!std::regex_search(text, m, line)) {
            continue;
        }
        const infiniDtype_t dtype = probe::dtypeOf(m[4]);
        const std::vector<size_t> shape = probe::ints(m[1]), order = probe::ints(m[2]);
        const std::vector<size_t> b_shape = probe::ints(m[3]);
        InfiniopTensorDescriptor c{dtype, shape, probe::contiguous(shape)}, a{dtype, shape, {}}, b{dtype, b_shape,
                                                                                           probe::contiguous(b_shape)};
        // a: a contiguous tensor of shape [shape[i] for i in order] seen through the inverse permutation.
        std::vector<size_t> mem;
        for (size_t i : order) {
            mem.push_back(shape[i]);
        }
        const std::vector<ptrdiff_t> inner = probe::contiguous(mem);
        a.strides.assign(shape.size(), 0);
        for (size_t j = 0; j < order.size(); ++j) {
            a.strides[order[j]] = inner[j];
        }
        const InfiniopTensorDescriptor *inputs[] = {&a, &b};
        Info info;
        nvidia::Plan plan;
        if (makeInfo(&c, inputs, 2, anyDtype, &info) != INFINI_STATUS_SUCCESS ||
            nvidia::makePlan(info, h, occ, &plan) != INFINI_STATUS_SUCCESS) {
            std::printf("%s: refused\n", m[0].str().c_str());
            continue;
        }
        std::printf("%s: %s", m[0].str().c_str(), pathName(plan.path));
        if (plan.path == nvidia::Path::Tiled) {
            std::printf(" ni %u nj %u tile_j %u tiles %u grid %u", plan.tiled.ni, plan.tiled.nj,
                        1u << plan.tiled.tile_j_log, plan.tiled.ntiles, plan.grid_tiled);
        } else if (plan.path == nvidia::Path::Strided) {
            std::printf(" launches %zu%s%s%s", plan.launches.size(), plan.has_vec ? " vec" : "",
                        plan.has_lane ? " lane" : "", plan.has_gather ? " gather" : "");
            if (plan.has_gather) {
                std::printf(" dims %u sizes", plan.gather.ndim);
                for (uint32_t d = 0; d < plan.gather.ndim; ++d) {
                    std::printf(" %u", plan.gather.size[d].divisor);
                }
                std::printf(" vec %dB%s", plan.gather_vec_bytes, plan.gather_off32 ? " off32" : "");
            }
        }
        std::printf("\n");
    }
    return 0;
}
