// Session 31: the host cost of streamSmCount (common/cuda/stream_sms.h), which LPNorm's whole-device
// plans and RandomSample's teams now ask at every call, beside cudaGetDevice (which every Calculate
// already pays). ns a call, median of 9 runs of 100000 calls each.
//   nvcc -O3 -std=c++17 -Inative/src -Inative/include tools/stream_sms_cost.cu \
//       native/src/common/cuda/stream_sms_nvidia.cc -o build/stream_sms_cost
#include "common/cuda/stream_sms.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

template <class F>
double nsPerCall(F &&f) {
    constexpr int kCalls = 100000;
    std::vector<double> runs;
    for (int r = 0; r < 9; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < kCalls; ++i) {
            f();
        }
        runs.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / kCalls);
    }
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2];
}

int main() {
    int sms = 0;
    if (cudaFree(nullptr) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) {
        std::printf("no device\n");
        return 1;
    }
    cudaStream_t made = nullptr;
    cudaStreamCreateWithFlags(&made, cudaStreamNonBlocking);
    struct {
        const char *name;
        cudaStream_t stream;
    } streams[] = {{"legacy default stream (0)", nullptr}, {"per-thread default stream", cudaStreamPerThread},
                   {"a created stream", made}};
    volatile int sink = 0;
    std::printf("device SMs %d; context SM limit %d\n", sms, infini::contextSmLimit(sms));
    for (auto &s : streams) {
        std::printf("%-28s streamSmCount %d: %.1f ns a call\n", s.name, infini::streamSmCount(s.stream, sms),
                    nsPerCall([&] { sink += infini::streamSmCount(s.stream, sms); }));
    }
    int dev = 0;
    std::printf("%-28s cudaGetDevice: %.1f ns a call\n", "", nsPerCall([&] {
                    cudaGetDevice(&dev);
                    sink += dev;
                }));
    return 0;
}
