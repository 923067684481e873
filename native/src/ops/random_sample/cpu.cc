// RandomSample, CPU backend: argmax in one vector pass (cpu_kernels.inc); sampling with a progressive
// partial selection (nth_element + sort of a growing prefix of the order,
// never the whole vocabulary unless the nucleus needs it), F64 accumulation.
#include "../../common/cpu/isa.h"
#include "../../common/cpu/parallel.h"
#include "../../common/cpu/simd.h"
#include "../../common/order_key.h"
#include "info.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <type_traits>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace infini::random_sample::cpu {
namespace {

// Candidate groups hold at least this many elements (else every element is one).
constexpr size_t kMinGroup = 16;

using infini::cpu::widen;

// The order of the sampling, as keys (common/order_key.h): larger value ->
// larger key; -0 == +0; every NaN below -inf (key 0). 16-bit floats keep
// their own bits' key, F32 its own, F64 a 64-bit one: keys are compared only
// within one row.
template <class T>
using KeyOf = std::conditional_t<std::is_same_v<T, double>, uint64_t, uint32_t>;

template <class T>
inline KeyOf<T> sortKey(T v) {
    if constexpr (std::is_same_v<T, double>) {
        uint64_t u;
        std::memcpy(&u, &v, 8);
        return orderKey<uint64_t, 64>(u, kF64InfBits);
    } else if constexpr (std::is_same_v<T, float>) {
        uint32_t u;
        std::memcpy(&u, &v, 4);
        return orderKey<uint32_t, 32>(u, kF32InfBits);
    } else {
        return orderKey<uint32_t, 16>(v.bits, std::is_same_v<T, fp16_t> ? kF16InfBits : kBF16InfBits);
    }
}

// One element of the order: key descending, then index ascending; its weight
// is filled in once its position is sorted.
struct Entry {
    uint64_t key;
    uint32_t idx;
    double weight;
};
inline bool before(const Entry &a, const Entry &b) { return a.key != b.key ? a.key > b.key : a.idx < b.idx; }

// Argmax with NaN below everything and the lowest index among equals: the
// largest non-NaN value in one branch-free (vectorisable) pass, then its first
// index; a row without any non-NaN value gives 0. F64 here; F32 and the
// 16-bit floats in cpu_kernels.inc.
template <class T>
size_t argmax(const T *row, size_t n, double *vmax) {
    using C = infini::cpu::ComputeType<T>;
    constexpr size_t L = 16; // independent lanes: no serial dependency, vectorisable
    C lane[L];
    for (size_t k = 0; k < L; ++k) {
        lane[k] = -std::numeric_limits<C>::infinity();
    }
    size_t i = 0;
    for (; i + L <= n; i += L) {
        for (size_t k = 0; k < L; ++k) {
            const C v = widen(row[i + k]);
            lane[k] = v > lane[k] ? v : lane[k]; // NaN never wins
        }
    }
    C m = -std::numeric_limits<C>::infinity();
    for (; i < n; ++i) {
        const C v = widen(row[i]);
        m = v > m ? v : m;
    }
    for (size_t k = 0; k < L; ++k) {
        m = lane[k] > m ? lane[k] : m;
    }
    for (i = 0; i < n; ++i) {
        if ((C)widen(row[i]) == m) {
            *vmax = (double)m;
            return i;
        }
    }
    *vmax = std::numeric_limits<double>::quiet_NaN(); // every logit is NaN
    return 0;
}

// The 16-bit floats: the same argmax on integer order keys (NaN -> 0, -0 ->
// +0), branch-free, so that no element is converted to float.
template <class H>
inline uint32_t key16(H h) {
    return orderKey<uint32_t, 16>(h.bits, std::is_same_v<H, fp16_t> ? kF16InfBits : kBF16InfBits);
}
} // namespace

#define INFINI_CPU_KERNELS "ops/random_sample/cpu_kernels.inc"
#include "../../common/cpu/foreach_isa.h"

namespace {

// F32 and the 16-bit floats on the process's vector path.
template <>
size_t argmax<float>(const float *row, size_t n, double *vmax) {
    bool found;
    const size_t i = INFINI_CPU_DISPATCH(argmaxF32(row, n, &found));
    *vmax = found ? (double)row[i] : std::numeric_limits<double>::quiet_NaN();
    return i;
}
template <class H>
size_t argmax16(const H *row, size_t n, double *vmax) {
    bool found;
    const size_t i = INFINI_CPU_DISPATCH(argmaxKeys(row, n, &found));
    *vmax = (double)widen(row[i]); // NaN when every logit is NaN (then i == 0)
    return i;
}
template <>
size_t argmax<fp16_t>(const fp16_t *row, size_t n, double *vmax) { return argmax16(row, n, vmax); }
template <>
size_t argmax<bf16_t>(const bf16_t *row, size_t n, double *vmax) { return argmax16(row, n, vmax); }

// Candidates for the first M positions of the order: every element whose key
// reaches the M-th largest of the maxima of 4M groups (each of those maxima is
// an element, so at least M pass; for random logits a few more than M). Only
// groups whose maximum reaches it are read again. Short rows: every element.
// Fills entries (key, idx) and returns how many.
template <class T>
size_t candidates(const T *row, size_t n, size_t M, Entry *entries) {
    using Key = KeyOf<T>;
    const size_t G = 4 * M;
    if (G * kMinGroup > n) {
        for (size_t i = 0; i < n; ++i) {
            entries[i] = Entry{sortKey(row[i]), (uint32_t)i, 0.0};
        }
        return n;
    }
    std::vector<Key> gmax(G), top(G);
    INFINI_CPU_DISPATCH(groupMaxKeys(row, n, G, gmax.data()));
    top = gmax;
    std::nth_element(top.begin(), top.begin() + (M - 1), top.end(), std::greater<Key>());
    const Key threshold = top[M - 1];
    size_t count = 0;
    for (size_t g = 0; g < G; ++g) {
        if (gmax[g] < threshold) {
            continue;
        }
        const size_t end = (g + 1) * n / G;
        for (size_t i = g * n / G; i < end; ++i) {
            const Key k = sortKey(row[i]);
            if (k >= threshold) {
                entries[count++] = Entry{k, (uint32_t)i, 0.0};
            }
        }
    }
    return count;
}

// Weights of entries[begin, end) (the vector kernel, in pieces).
template <class T>
void fillWeights(const T *row, Entry *entries, size_t begin, size_t end, double vmax, double temp) {
    constexpr size_t kPiece = 64;
    double v[kPiece], w[kPiece];
    for (size_t b = begin; b < end; b += kPiece) {
        const size_t m = std::min(kPiece, end - b);
        for (size_t i = 0; i < m; ++i) {
            v[i] = (double)widen(row[entries[b + i].idx]);
        }
        INFINI_CPU_DISPATCH(weightsOf(v, w, m, vmax, temp));
        for (size_t i = 0; i < m; ++i) {
            entries[b + i].weight = w[i];
        }
    }
}

template <class T>
size_t sampleRow(const T *row, size_t n, const Params &p, Entry *entries) {
    double vmax;
    const size_t amax = argmax(row, n, &vmax);
    // Degenerate rows (a +inf, or no finite logit at all) and the argmax rule.
    if (isArgmax(p) || !std::isfinite(vmax)) {
        return amax;
    }
    const size_t K = effectiveK(p.topk, n);
    const double temp = p.temperature;
    const double r = p.random_val;
    const double topp = std::min((double)p.topp, 1.0);

    // Total weight c_{n-1}: needed when top-p can bind before K, or K == n.
    // (For K == n it stands for c_{n-1}; it equals it up to rounding order.)
    const bool need_total = topp < 1.0 || K == n;
    const double total = need_total ? INFINI_CPU_DISPATCH(weightTotal(row, n, vmax, temp)) : 0.0;
    const double nucleus = need_total ? topp * total : std::numeric_limits<double>::infinity();
    const double t1 = r * nucleus; // the threshold while topp * c_{n-1} is the smaller bound

    // Walk the order in growing sorted chunks, among candidates for the first
    // positions (gathered again, more of them, if the walk goes past them).
    // Stop once the prefix mass reaches topp * c_{n-1} (then t = t1) or once
    // K positions are sorted.
    size_t sorted = 0, first_t1 = SIZE_MAX, last_pos = SIZE_MAX;
    size_t chunk = std::min<size_t>(K, 64);
    size_t cand = candidates(row, n, chunk, entries);
    double c = 0.0;
    bool nucleus_reached = false;
    while (sorted < K && !nucleus_reached) {
        const size_t end = std::min(K, sorted + chunk);
        size_t weigh_from = sorted;
        if (end > cand) { // the order past the candidates: gather again (the sorted prefix comes back the same)
            cand = candidates(row, n, end, entries);
            if (end < cand) {
                std::nth_element(entries, entries + end, entries + cand, before);
            }
            std::sort(entries, entries + end, before);
            weigh_from = 0;
        } else {
            if (end < cand) {
                std::nth_element(entries + sorted, entries + end, entries + cand, before);
            }
            std::sort(entries + sorted, entries + end, before);
        }
        fillWeights(row, entries, weigh_from, end, vmax, temp);
        for (size_t i = sorted; i < end; ++i) {
            const double w = entries[i].weight;
            c += w;
            if (w > 0.0) {
                last_pos = i;
            }
            if (first_t1 == SIZE_MAX && c >= t1) {
                first_t1 = i;
            }
            if (c >= nucleus || (K == n && first_t1 != SIZE_MAX)) {
                nucleus_reached = true;
                break;
            }
        }
        sorted = end;
        chunk *= 4;
    }
    if (nucleus_reached && first_t1 != SIZE_MAX) {
        return entries[first_t1].idx;
    }
    // K positions sorted with c_{K-1} < topp * c_{n-1}: t = r * c_{K-1}.
    const double t = r * std::min(nucleus, c);
    double cc = 0.0;
    for (size_t i = 0; i < sorted; ++i) {
        cc += entries[i].weight;
        if (cc >= t) {
            return entries[i].idx;
        }
    }
    // Only reachable through rounding: the last position with any weight.
    return entries[last_pos == SIZE_MAX ? 0 : last_pos].idx;
}

template <class R>
void store(void *result, ptrdiff_t offset, size_t value) {
    static_cast<R *>(result)[offset] = (R)value;
}

struct CpuDesc final : Desc {
    size_t slots; // rows sampled at once, each with n entries of workspace

    CpuDesc(const InfiniopHandle &h, const Info &i, size_t s) : Desc(h, i), slots(s) {
        workspace_size = slots * info.n * sizeof(Entry);
    }

    infiniStatus_t calculate(void *workspace, void *result, const void *probs, const ParamArrays &params,
                             void *stream) const override {
        (void)stream;
        const Info &in = info;
        const size_t S = slots;
        return dispatchDtype<INFINI_FLOAT_DTYPES>(in.probs_dtype, [&](auto tag) {
            using T = HostType<decltype(tag)>;
            return dispatchDtype<INFINI_INT_DTYPES>(in.result_dtype, [&](auto rtag) {
                using R = HostType<decltype(rtag)>;
                auto run_slot = [&](size_t s) {
                    Entry *entries = static_cast<Entry *>(workspace) + s * in.n;
                    for (size_t b = s; b < in.batch; b += S) {
                        const T *row = static_cast<const T *>(probs) + (ptrdiff_t)b * in.row_stride;
                        const size_t idx = sampleRow(row, in.n, params.at(b), entries);
                        store<R>(result, (ptrdiff_t)b * in.result_stride, idx);
                    }
                };
                infini::cpu::parallelFor(S, in.n * ((in.batch + S - 1) / S), run_slot);
                return INFINI_STATUS_SUCCESS;
            });
        });
    }
};

} // namespace

infiniStatus_t create(const InfiniopHandle &handle, const Info &info, Desc **desc) {
    size_t threads = 1;
#ifdef _OPENMP
    threads = (size_t)std::max(1, omp_get_max_threads());
#endif
    const size_t slots = std::max<size_t>(1, std::min(info.batch, threads));
    *desc = new CpuDesc(handle, info, slots);
    return INFINI_STATUS_SUCCESS;
}

} // namespace infini::random_sample::cpu
