// Host cost of one Calculate on NVIDIA against a bare empty-kernel launch (issue 11).
//
//   nvcc -O2 -std=c++17 -arch=sm_90 tools/launch_cost.cu -Inative/include -Inative/src -Lbuild/lib \
//        -linfiniop -linfinirt -Xlinker -rpath=$PWD/build/lib -o build/launch_cost && build/launch_cost
//
// Every number is host time per call: a batch of calls timed with the host
// clock, the stream synchronised between batches (outside the timing), the
// median over batches. The inputs are tiny, so the device work is nothing and
// what remains is what the host does to get a kernel queued. Every status and
// CUDA call is checked; Mul's result is checked once against the host.
#include <infiniop.h>
#include <infinirt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <functional>
#include <vector>

#include "check.h"
#include "ops/random_sample/team.cuh"

__global__ void emptyKernel() {}
__global__ void emptyClusterKernel() {}          // launched as clusters of up to 8 (portable)
__global__ void emptyWideClusterKernel() {}      // clusters of 16: the non-portable attribute set

// An empty kernel launched through cudaLaunchKernelEx with `blocks` blocks as
// one cluster (none when blocks == 1), configured as RandomSample's team
// launches are (teamLaunchConfig): what a cluster launch alone costs the host.
static void launchCluster(void (*kernel)(), unsigned blocks, cudaStream_t stream) {
    infini::LaunchConfig config = infini::random_sample::nvidia::teamLaunchConfig(dim3(blocks, 1, 1), 512, 0, stream);
    CHECK_CUDA(cudaLaunchKernelEx(config.get(), kernel));
}

static double perCallUs(const std::function<void()> &fn, int inner = 200, int reps = 31) {
    for (int i = 0; i < inner; ++i) {
        fn();
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<double> samples;
    for (int r = 0; r < reps; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < inner; ++i) {
            fn();
        }
        auto t1 = std::chrono::steady_clock::now();
        CHECK_CUDA(cudaDeviceSynchronize());
        samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / inner);
    }
    std::nth_element(samples.begin(), samples.begin() + reps / 2, samples.end());
    return samples[reps / 2];
}

static infiniopTensorDescriptor_t tensor(std::vector<size_t> shape, std::vector<ptrdiff_t> strides,
                                         infiniDtype_t dtype) {
    infiniopTensorDescriptor_t t;
    CHECK_OK(infiniopCreateTensorDescriptor(&t, shape.size(), shape.data(), strides.empty() ? nullptr : strides.data(),
                                            dtype));
    return t;
}

// A workspace of `size` bytes (null for none).
static void *deviceWorkspace(size_t size) {
    void *p = nullptr;
    if (size) {
        CHECK_CUDA(cudaMalloc(&p, size));
    }
    return p;
}

// A RandomSample descriptor (single-row or batch form) and the workspace it asks for.
struct RandomSampleCall {
    infiniopRandomSampleDescriptor_t desc;
    void *ws;
    size_t ws_size;
};
static RandomSampleCall randomSampleCall(infiniopHandle_t handle, infiniopTensorDescriptor_t result,
                                         infiniopTensorDescriptor_t logits, bool batch) {
    RandomSampleCall c{};
    CHECK_OK(batch ? infiniopCreateRandomSampleBatchDescriptor(handle, &c.desc, result, logits)
                   : infiniopCreateRandomSampleDescriptor(handle, &c.desc, result, logits));
    CHECK_OK(infiniopGetRandomSampleWorkspaceSize(c.desc, &c.ws_size));
    c.ws = deviceWorkspace(c.ws_size);
    return c;
}

static void *deviceRandomF16(size_t n) {
    std::vector<__half> host(n);
    unsigned s = 12345;
    for (auto &v : host) {
        s = s * 1664525u + 1013904223u;
        v = __float2half(((s >> 8) / 16777216.0f) * 4 - 2);
    }
    void *p;
    CHECK_CUDA(cudaMalloc(&p, n * 2));
    CHECK_CUDA(cudaMemcpy(p, host.data(), n * 2, cudaMemcpyHostToDevice));
    return p;
}

int main() {
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // every line out at once, even into a pipe
    CHECK_CUDA(cudaSetDevice(0));
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    CHECK_CUDA(cudaFree(nullptr));
    // A handle binds the thread's current infinirt device (CPU until set).
    CHECK_OK(infinirtSetDevice(INFINI_DEVICE_NVIDIA, 0));
    infiniopHandle_t handle;
    CHECK_OK(infiniopCreateHandle(&handle));
    cudaStream_t stream = nullptr; // the legacy default stream, as the Python calls use
    std::printf("device: %s\n\n", prop.name);

    std::printf("| call | host µs/call | / empty launch |\n|---|---:|---:|\n");
    const double launch = perCallUs([&] { emptyKernel<<<1, 32, 0, stream>>>(); });
    struct Rows { // printed as measured: a failure later still leaves the numbers before it
        double launch;
        void push_back(std::pair<const char *, double> r) const {
            std::printf("| %s | %.3f | %.2fx |\n", r.first, r.second, r.second / launch);
        }
    } rows{launch};
    rows.push_back({"empty kernel <<<1, 32>>>", launch});
    rows.push_back({"empty kernel + cudaGetLastError",
                    perCallUs([&] { emptyKernel<<<1, 32, 0, stream>>>(); (void)cudaGetLastError(); })});
    int dev = -1;
    rows.push_back({"cudaGetDevice", perCallUs([&] { (void)cudaGetDevice(&dev); }, 2000)});
    rows.push_back({"cudaSetDevice (same device)", perCallUs([&] { (void)cudaSetDevice(0); }, 2000)});
    rows.push_back({"cudaGetLastError", perCallUs([&] { (void)cudaGetLastError(); }, 2000)});
    rows.push_back({"cudaLaunchKernelEx, 1 block of 512, no cluster",
                    perCallUs([&] { launchCluster(emptyClusterKernel, 1, stream); })});
    if (prop.major >= 9) {
        CHECK_CUDA(cudaFuncSetAttribute(emptyWideClusterKernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
        rows.push_back({"cudaLaunchKernelEx, one cluster of 2", perCallUs([&] { launchCluster(emptyClusterKernel, 2, stream); })});
        rows.push_back({"cudaLaunchKernelEx, one cluster of 8", perCallUs([&] { launchCluster(emptyClusterKernel, 8, stream); })});
        rows.push_back({"cudaLaunchKernelEx, one cluster of 8, non-portable kernel",
                        perCallUs([&] { launchCluster(emptyWideClusterKernel, 8, stream); })});
        rows.push_back({"cudaLaunchKernelEx, one cluster of 16 (non-portable)",
                        perCallUs([&] { launchCluster(emptyWideClusterKernel, 16, stream); })});
    }

    // Mul 16x64 F16 (contiguous), checked once.
    const size_t n = 16 * 64;
    void *a = deviceRandomF16(n), *b = deviceRandomF16(n), *c;
    CHECK_CUDA(cudaMalloc(&c, n * 2));
    auto t16x64 = tensor({16, 64}, {}, INFINI_DTYPE_F16);
    infiniopMulDescriptor_t mul;
    CHECK_OK(infiniopCreateMulDescriptor(handle, &mul, t16x64, t16x64, t16x64));
    CHECK_OK(infiniopMul(mul, nullptr, 0, c, a, b, stream));
    {
        std::vector<__half> ha(n), hb(n), hc(n);
        CHECK_CUDA(cudaMemcpy(ha.data(), a, n * 2, cudaMemcpyDeviceToHost));
        CHECK_CUDA(cudaMemcpy(hb.data(), b, n * 2, cudaMemcpyDeviceToHost));
        CHECK_CUDA(cudaMemcpy(hc.data(), c, n * 2, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < n; ++i) {
            const float want = __half2float(__float2half(__half2float(ha[i]) * __half2float(hb[i])));
            if (__half2float(hc[i]) != want) {
                std::fprintf(stderr, "Mul: element %zu is %g, want %g\n", i, __half2float(hc[i]), want);
                return 1;
            }
        }
    }
    rows.push_back({"infiniopMul 16x64 F16", perCallUs([&] { CHECK_OK(infiniopMul(mul, nullptr, 0, c, a, b, stream)); })});

    // Rearrange: a 64x16 tensor's transpose into a contiguous 16x64.
    auto tT = tensor({16, 64}, {1, 16}, INFINI_DTYPE_F16);
    infiniopRearrangeDescriptor_t re;
    CHECK_OK(infiniopCreateRearrangeDescriptor(handle, &re, t16x64, tT));
    rows.push_back({"infiniopRearrange 16x64 F16 transpose",
                    perCallUs([&] { CHECK_OK(infiniopRearrange(re, c, a, stream)); })});
    infiniopRearrangeDescriptor_t re_copy;
    CHECK_OK(infiniopCreateRearrangeDescriptor(handle, &re_copy, t16x64, t16x64));
    rows.push_back({"infiniopRearrange 16x64 F16 contiguous (a memcpy)",
                    perCallUs([&] { CHECK_OK(infiniopRearrange(re_copy, c, a, stream)); })});

    // LPNorm 16x64 F16 along the last axis.
    infiniopLPNormDescriptor_t lp;
    CHECK_OK(infiniopCreateLPNormDescriptor(handle, &lp, t16x64, t16x64, -1, 2, 1e-12f));
    size_t lp_ws_size = 0;
    CHECK_OK(infiniopGetLPNormWorkspaceSize(lp, &lp_ws_size));
    void *lp_ws = deviceWorkspace(lp_ws_size);
    rows.push_back({"infiniopLPNorm 16x64 F16",
                    perCallUs([&] { CHECK_OK(infiniopLPNorm(lp, lp_ws, lp_ws_size, c, a, stream)); })});

    // RandomSample (argmax) n=151936 F16 and the batch form, 64 rows of 1024.
    const size_t vocab = 151936;
    void *logits = deviceRandomF16(vocab), *result;
    CHECK_CUDA(cudaMalloc(&result, 64 * 8));
    auto tres = tensor({}, {}, INFINI_DTYPE_I64);
    auto tlog = tensor({vocab}, {}, INFINI_DTYPE_F16);
    const RandomSampleCall rs = randomSampleCall(handle, tres, tlog, false);
    rows.push_back({"infiniopRandomSample argmax n=151936 F16", perCallUs([&] {
                        CHECK_OK(infiniopRandomSample(rs.desc, rs.ws, rs.ws_size, result, logits, 0.f, 0.9f, 5, 1.f,
                                                      stream));
                    }, 100)});

    rows.push_back({"infiniopRandomSample sample k=50 p=0.9 n=151936 F16", perCallUs([&] {
                        CHECK_OK(infiniopRandomSample(rs.desc, rs.ws, rs.ws_size, result, logits, 0.5f, 0.9f, 50, 0.8f,
                                                      stream));
                    }, 100)});
    const RandomSampleCall rs32k = randomSampleCall(handle, tres, tensor({32000}, {}, INFINI_DTYPE_F16), false);
    rows.push_back({"infiniopRandomSample argmax n=32000 F16", perCallUs([&] {
                        CHECK_OK(infiniopRandomSample(rs32k.desc, rs32k.ws, rs32k.ws_size, result, logits, 0.f, 0.9f, 5,
                                                      1.f, stream));
                    }, 100)});

    void *blog = deviceRandomF16(64 * 1024);
    auto tbres = tensor({64}, {}, INFINI_DTYPE_I64);
    auto tblog = tensor({64, 1024}, {}, INFINI_DTYPE_F16);
    const RandomSampleCall rsb = randomSampleCall(handle, tbres, tblog, true);
    std::vector<float> rv(64, 0.f), tp(64, 0.9f), tt(64, 1.f);
    std::vector<int> tk(64, 5);
    rows.push_back({"infiniopRandomSampleBatch argmax 64x1024 F16", perCallUs([&] {
                        CHECK_OK(infiniopRandomSampleBatch(rsb.desc, rsb.ws, rsb.ws_size, result, blog, rv.data(),
                                                           tp.data(), tk.data(), tt.data(), 64, stream));
                    }, 100)});

    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaGetLastError());
    return 0;
}
