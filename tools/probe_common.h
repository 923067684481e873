// What tools/lp_plan_probe.cc and tools/mul_plan_probe.cc share: an H200's handle as the planners see it
// (no GPU needed), sweep lines' dtype names and lists of sizes, and contiguous strides.
#pragma once
#include "common/handle.h"

#include <sstream>
#include <string>
#include <vector>

namespace probe {

// The handle fields the NVIDIA planners read, as an H200 reports them (132 SMs, sm_90).
inline InfiniopHandle h200Handle() {
    InfiniopHandle h{};
    h.device = INFINI_DEVICE_NVIDIA;
    h.sm_count = h.sm_limit = 132;
    h.max_threads_per_block = 1024;
    h.max_shared_memory_per_block = 48 * 1024;
    h.max_shared_memory_per_block_optin = 227 * 1024;
    h.cc_major = 9;
    h.cc_minor = 0;
    h.l2_cache_bytes = 60 * 1024 * 1024;
    h.max_threads_per_sm = 2048;
    return h;
}

// behind_sweep.py's dtype names (anything else: F64).
inline infiniDtype_t dtypeOf(const std::string &s) {
    return s == "float16" ? INFINI_DTYPE_F16 : s == "bfloat16" ? INFINI_DTYPE_BF16
                                             : s == "float32"  ? INFINI_DTYPE_F32
                                             : s == "int8"     ? INFINI_DTYPE_I8
                                             : s == "int16"    ? INFINI_DTYPE_I16
                                                               : INFINI_DTYPE_F64;
}

// "3, 4, 5" -> {3, 4, 5}.
inline std::vector<size_t> ints(const std::string &text) {
    std::vector<size_t> v;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item.find_first_not_of(' ') != std::string::npos) {
            v.push_back(std::stoul(item));
        }
    }
    return v;
}

inline std::vector<ptrdiff_t> contiguous(const std::vector<size_t> &shape) {
    std::vector<ptrdiff_t> s(shape.size(), 1);
    for (int d = (int)shape.size() - 2; d >= 0; --d) {
        s[d] = s[d + 1] * (ptrdiff_t)shape[d + 1];
    }
    return s;
}

} // namespace probe
