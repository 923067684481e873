// Does PTX's %gridid (the temporal grid launch number) differ between launches
// of one kernel, including replays of one CUDA graph, PDL and cluster
// launches? If so, per-call state in a workspace can be tagged with it and
// needs no clearing (notes/lp_norm.md, "Session 15"). Prints every id seen and
// exits 1 when two launches share one, or one is 0.
// nvcc -O2 -std=c++17 -arch=sm_90 tools/gridid_probe.cu -o build/gridid_probe
#include "check.h"
#include <cstdint>
#include <cstdio>
#include <set>
#include <vector>

__device__ __forceinline__ uint64_t gridId() {
    uint64_t id;
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(id));
    return id;
}

// Every block writes the id it sees (all blocks of a grid must agree).
__global__ void storeId(uint64_t *out, int slot) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    out[slot * 64 + blockIdx.x] = gridId();
}

// A cluster launch of the same (clusters of 2).
__global__ void __cluster_dims__(2, 1, 1) storeIdCluster(uint64_t *out, int slot) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    out[slot * 64 + blockIdx.x] = gridId();
}

static void launch(bool cluster, bool pdl, uint64_t *out, int slot, cudaStream_t st) {
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    cfg.gridDim = dim3(8);
    cfg.blockDim = dim3(32);
    cfg.stream = st;
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr;
    cfg.numAttrs = pdl ? 1 : 0;
    if (cluster) {
        CHECK_CUDA(cudaLaunchKernelEx(&cfg, storeIdCluster, out, slot));
    } else {
        CHECK_CUDA(cudaLaunchKernelEx(&cfg, storeId, out, slot));
    }
}

int main() {
    constexpr int kSlots = 4;
    uint64_t *d;
    CHECK_CUDA(cudaMalloc(&d, sizeof(uint64_t) * 64 * kSlots));
    cudaStream_t st;
    CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    std::vector<uint64_t> h(64 * kSlots);
    std::vector<uint64_t> seen;
    bool ok = true;
    auto collect = [&](const char *what) {
        CHECK_CUDA(cudaStreamSynchronize(st));
        CHECK_CUDA(cudaMemcpy(h.data(), d, h.size() * sizeof(uint64_t), cudaMemcpyDeviceToHost));
        std::printf("%-28s", what);
        for (int s = 0; s < kSlots; ++s) {
            for (int b = 1; b < 8; ++b) {
                if (h[s * 64 + b] != h[s * 64]) {
                    std::printf(" [blocks disagree in slot %d]", s);
                    ok = false;
                }
            }
            std::printf(" %llu (0x%llx)", (unsigned long long)h[s * 64], (unsigned long long)h[s * 64]);
            seen.push_back(h[s * 64]);
        }
        std::printf("\n");
    };
    for (int round = 0; round < 2; ++round) {
        CHECK_CUDA(cudaMemset(d, 0, h.size() * sizeof(uint64_t)));
        for (int s = 0; s < kSlots; ++s) {
            launch(s & 1, s & 2, d, s, st);
        }
        CHECK_CUDA(cudaGetLastError());
        collect("eager launches:");
    }
    cudaGraph_t graph;
    CHECK_CUDA(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (int s = 0; s < kSlots; ++s) {
        launch(s & 1, s & 2, d, s, st);
    }
    CHECK_CUDA(cudaStreamEndCapture(st, &graph));
    cudaGraphExec_t exec, exec2;
    CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    CHECK_CUDA(cudaGraphInstantiate(&exec2, graph, 0));
    for (int replay = 0; replay < 3; ++replay) {
        CHECK_CUDA(cudaMemset(d, 0, h.size() * sizeof(uint64_t)));
        CHECK_CUDA(cudaGraphLaunch(exec, st));
        collect("graph replay:");
    }
    CHECK_CUDA(cudaMemset(d, 0, h.size() * sizeof(uint64_t)));
    CHECK_CUDA(cudaGraphLaunch(exec2, st));
    collect("second instantiation:");
    // Back-to-back replays with no host sync between them; only the last is read.
    for (int replay = 0; replay < 100; ++replay) {
        CHECK_CUDA(cudaGraphLaunch(exec, st));
    }
    collect("after 100 more replays:");
    std::set<uint64_t> unique(seen.begin(), seen.end());
    for (uint64_t v : seen) {
        if (v == 0) {
            ok = false;
        }
    }
    std::printf("%zu ids, %zu distinct, zero seen: %s\n", seen.size(), unique.size(), unique.count(0) ? "yes" : "no");
    if (unique.size() != seen.size()) {
        ok = false;
    }
    std::printf("GRIDID %s\n", ok ? "UNIQUE" : "NOT UNIQUE");
    return ok ? 0 : 1;
}
