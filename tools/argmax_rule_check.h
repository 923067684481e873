// The sweep's rule check (tools/argmax_sweep.cu): every shape at teams of 1,
// 2, 4 and 16 on adversarial rows (NaN of both signs and odd payloads, +-inf,
// +-0, all-NaN rows, NaN then -inf, equal maxima at every chunk edge), rows
// 3 elements apart (unaligned starts and ends) and short rows, against a host
// argmax over order keys. Returns the number of wrong rows.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

template <class T>
struct RulePatterns; // NaN, -NaN, NaN with a low payload, +inf, -inf, +0, -0, largest finite, a middle value
template <> struct RulePatterns<__half> { static constexpr uint16_t v[9] = {0x7e00, 0xfe00, 0x7c01, 0x7c00, 0xfc00, 0, 0x8000, 0x7bff, 0x4a00}; };
template <> struct RulePatterns<__nv_bfloat16> { static constexpr uint16_t v[9] = {0x7fc0, 0xffc0, 0x7f81, 0x7f80, 0xff80, 0, 0x8000, 0x7f7f, 0x4140}; };
template <> struct RulePatterns<float> { static constexpr uint32_t v[9] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7f800000u, 0xff800000u, 0u, 0x80000000u, 0x7f7fffffu, 0x41400000u}; };

template <class T, class ShapeT, class Launch>
int argmaxRuleCheck(const std::vector<ShapeT> &shapes, const Launch &launchOf, FILE *full) {
    using Raw = typename FloatBits<T>::Raw;
    const Raw *pat = RulePatterns<T>::v;
    enum { kNaN, kNegNaN, kNaNLow, kInf, kNegInf, kZero, kNegZero, kMax, kMid };
    std::mt19937_64 rng(777);
    int wrong_total = 0;
    struct Case {
        uint32_t rows, n;
    };
    for (const Case c : {Case{9, 1}, Case{9, 7}, Case{9, 9}, Case{9, 33}, Case{9, 4097}, Case{9, 40003}, Case{9, 151936},
                         Case{18, 262147}}) {
        const uint32_t stride = c.n + 3, rows = c.rows;
        const size_t count = (size_t)rows * stride;
        std::vector<Raw> host(count);
        for (auto &x : host) { // random values with many ties
            const T v = T((float)((int)(rng() % 4001) - 2000) * 0.003f);
            std::memcpy(&x, &v, sizeof(Raw));
        }
        for (uint32_t r = 0; r < rows; ++r) {
            Raw *row = &host[(size_t)r * stride];
            const uint32_t n = c.n;
            switch (r % 9) {
            case 0: break;
            case 1: for (uint32_t i = 0; i < n; ++i) if (rng() % 13 == 0) row[i] = pat[rng() % 9]; break;
            case 2: for (uint32_t i = 0; i < n; ++i) row[i] = pat[rng() % 3]; break; // all NaN
            case 3: for (uint32_t i = 0; i < n; ++i) row[i] = pat[rng() % 3];
                for (int k = 0; k < 3; ++k) row[rng() % n] = pat[kNegInf];
                break;
            case 4: for (uint32_t i = 0; i < n; ++i) row[i] = pat[rng() % 2 ? kZero : kNegZero]; break;
            case 5: // equal maxima at the chunk edges of every team size and at the ends
                for (int t : {2, 4, 16}) {
                    const uint32_t V = 16 / sizeof(T), per = ((n + t - 1) / t + V - 1) / V * V;
                    for (uint32_t q = 1; q < (uint32_t)t; ++q) {
                        if (q * per < n) row[q * per] = pat[kMax];
                        if (q * per - 1 < n) row[q * per - 1] = pat[kMax];
                    }
                }
                row[n - 1] = pat[kMax];
                break;
            case 6: for (uint32_t i = 0; i < n; ++i) row[i] = i < n / 3 ? pat[kNaN] : pat[kNegInf];
                row[n - 1 - (n > 1 ? rng() % (n / 2 + 1) : 0)] = pat[kMid];
                break;
            case 7: for (uint32_t i = 0; i < n; ++i) row[i] = rng() % 3 ? pat[kNaN] : pat[kMid];
                for (int k = 0; k < 4; ++k) row[rng() % n] = pat[kInf];
                break;
            case 8: for (uint32_t i = 0; i < n; ++i) row[i] = pat[rng() % 2 ? kNegZero : kNegInf];
                row[rng() % n] = pat[kZero];
                break;
            }
        }
        std::vector<int64_t> want(rows);
        for (uint32_t r = 0; r < rows; ++r) {
            uint64_t bk = 0;
            int64_t bi = 0;
            for (uint32_t i = 0; i < c.n; ++i) {
                const uint64_t k = hostKey<T>(&host[(size_t)r * stride + i]);
                if (k > bk) bk = k, bi = i;
            }
            want[r] = bi;
        }
        T *dev;
        int64_t *out;
        CHECK_CUDA(cudaMalloc(&dev, (count + 8) * sizeof(T)));
        CHECK_CUDA(cudaMalloc(&out, rows * sizeof(int64_t)));
        for (uint32_t shift : {0u, 1u}) { // shift 1: the row starts one element off 16 bytes
            CHECK_CUDA(cudaMemcpy(dev + shift, host.data(), count * sizeof(T), cudaMemcpyHostToDevice));
            for (const auto &sh : shapes) {
                for (int team : {1, 2, 4, 16}) {
                    CHECK_CUDA(cudaMemset(out, 0xff, rows * sizeof(int64_t)));
                    RowsArgs args{dev + shift, out, (ptrdiff_t)stride, 1, c.n, 8};
                    launchOf(sh, args, rows, team);
                    CHECK_CUDA(cudaGetLastError());
                    CHECK_CUDA(cudaDeviceSynchronize());
                    std::vector<int64_t> got(rows);
                    CHECK_CUDA(cudaMemcpy(got.data(), out, rows * sizeof(int64_t), cudaMemcpyDeviceToHost));
                    int wrong = 0;
                    for (uint32_t r = 0; r < rows; ++r) {
                        if (got[r] != want[r] && wrong++ < 3) {
                            std::fprintf(full, "RULE WRONG %s t%d n %u shift %u row %u (kind %u): %lld want %lld\n",
                                         sh.name.c_str(), team, c.n, shift, r, r % 9, (long long)got[r],
                                         (long long)want[r]);
                        }
                    }
                    wrong_total += wrong;
                }
            }
        }
        CHECK_CUDA(cudaFree(dev));
        CHECK_CUDA(cudaFree(out));
    }
    return wrong_total;
}
