#include "tensor.h"
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

size_t InfiniopTensorDescriptor::numel() const {
    size_t n = 1;
    for (size_t s : shape) {
        n *= s;
    }
    return n;
}

bool InfiniopTensorDescriptor::isContiguous() const {
    ptrdiff_t expected = 1;
    for (size_t i = ndim(); i-- > 0;) {
        if (shape[i] != 1 && strides[i] != expected) {
            return false;
        }
        expected *= (ptrdiff_t)shape[i];
    }
    return true;
}

namespace {

// Whether sum a_k x_k = 0 has an integer solution with |x_k| <= m_k, x != 0,
// for dims (a_k, m_k) sorted by a_k ascending (a_k > 0): two indices i != j
// with x = i - j reach one address. Depth-first from the largest stride,
// each x_k kept to the values the smaller dims can still cancel
// (|r + a_k x_k| <= sum_{j<k} a_j m_j), the smallest solved directly, the
// first nonzero x taken positive (x and -x are the same pair).
class OverlapSearch {
  public:
    // dims: (|stride|, size), sorted, every stride > 0 and size > 1.
    explicit OverlapSearch(const std::vector<std::pair<size_t, size_t>> &dims) {
        for (auto [stride, size] : dims) {
            dims_.emplace_back((__int128)stride, (__int128)(size - 1));
        }
        reach_.assign(dims_.size(), 0);
        for (size_t k = 1; k < dims_.size(); ++k) {
            reach_[k] = reach_[k - 1] + dims_[k - 1].first * dims_[k - 1].second;
        }
    }
    // 1: a solution, 0: none, -1: gave up after kBudget steps.
    int run() { return find(dims_.size() - 1, 0, false); }

  private:
    static constexpr uint64_t kBudget = uint64_t(1) << 22;
    std::vector<std::pair<__int128, __int128>> dims_;
    std::vector<__int128> reach_;
    uint64_t steps_ = 0;

    static __int128 floorDiv(__int128 n, __int128 d) { return n / d - ((n % d != 0) && ((n < 0) != (d < 0))); }
    static __int128 ceilDiv(__int128 n, __int128 d) { return -floorDiv(-n, d); }

    // Solutions of sum_{j<=k} a_j x_j = -r (nonzero overall unless `any`).
    int find(size_t k, __int128 r, bool any) {
        if (++steps_ > kBudget) {
            return -1;
        }
        const auto [a, m] = dims_[k];
        if (k == 0) {
            if (r % a != 0) {
                return 0;
            }
            const __int128 x = -r / a;
            return x >= -m && x <= m && (any || x != 0) ? 1 : 0;
        }
        __int128 lo = std::max(ceilDiv(-reach_[k] - r, a), -m), hi = std::min(floorDiv(reach_[k] - r, a), m);
        if (!any) {
            lo = std::max<__int128>(lo, 0);
        }
        for (__int128 x = lo; x <= hi; ++x) {
            const int got = find(k - 1, r + a * x, any || x != 0);
            if (got != 0) {
                return got;
            }
        }
        return 0;
    }
};

} // namespace

bool InfiniopTensorDescriptor::hasSelfOverlap() const {
    if (numel() <= 1) {
        return false;
    }
    std::vector<std::pair<size_t, size_t>> dims; // (|stride|, size)
    for (size_t i = 0; i < ndim(); ++i) {
        if (shape[i] > 1) {
            dims.emplace_back((size_t)std::llabs(strides[i]), shape[i]);
        }
    }
    std::sort(dims.begin(), dims.end());
    if (dims.front().first == 0) {
        return true;
    }
    // The usual case: each stride beyond every offset the smaller dims reach.
    size_t reach = 0;
    bool nested = true;
    for (auto [stride, size] : dims) {
        if (stride <= reach) {
            nested = false;
            break;
        }
        reach += stride * (size - 1);
    }
    if (nested) {
        return false;
    }
    // Interleaved strides (e.g. shape (3, 2), strides (2, 3): offsets 0 3 2 5 4
    // 7, all distinct): decided exactly; a search too long to finish counts as
    // an overlap.
    return OverlapSearch(dims).run() != 0;
}

ptrdiff_t InfiniopTensorDescriptor::minOffset() const {
    ptrdiff_t off = 0;
    for (size_t i = 0; i < ndim(); ++i) {
        if (shape[i] > 0 && strides[i] < 0) {
            off += strides[i] * (ptrdiff_t)(shape[i] - 1);
        }
    }
    return off;
}

ptrdiff_t InfiniopTensorDescriptor::maxOffset() const {
    ptrdiff_t off = 0;
    for (size_t i = 0; i < ndim(); ++i) {
        if (shape[i] > 0 && strides[i] > 0) {
            off += strides[i] * (ptrdiff_t)(shape[i] - 1);
        }
    }
    return off;
}
