#pragma once
// Status plumbing shared by every entry point.
#include "infinicore.h"
#include <cstring>

// Return the status of `expr` from the enclosing function unless it is SUCCESS.
#define INFINI_TRY(expr)                                      \
    do {                                                      \
        infiniStatus_t infini_try_status_ = (expr);           \
        if (infini_try_status_ != INFINI_STATUS_SUCCESS) {    \
            return infini_try_status_;                        \
        }                                                     \
    } while (0)

// Return `status` from the enclosing function when `cond` is false.
#define INFINI_REQUIRE(cond, status) \
    do {                             \
        if (!(cond)) {               \
            return (status);         \
        }                            \
    } while (0)

namespace infini {

// NULL_POINTER if any of the pointers is null.
template <class... Ptrs>
inline infiniStatus_t checkNotNull(const Ptrs *...ptrs) {
    bool any_null = ((ptrs == nullptr) || ...);
    return any_null ? INFINI_STATUS_NULL_POINTER : INFINI_STATUS_SUCCESS;
}

// The integer a caller passed for an enum parameter. C callers may pass any
// int; reading it as the enum type first would be undefined behaviour for
// values outside the enum's range, so entry points validate this instead.
template <class Enum>
inline int enumValue(const Enum &e) {
    static_assert(sizeof(Enum) == sizeof(int), "ABI enums are int-sized");
    int v;
    std::memcpy(&v, &e, sizeof v);
    return v;
}

// Run `body` and turn any C++ exception (bad_alloc above all) into a status, so
// that nothing thrown inside the library crosses the C ABI.
template <class F>
inline infiniStatus_t guard(F &&body) noexcept {
    try {
        return body();
    } catch (...) {
        return INFINI_STATUS_INTERNAL_ERROR;
    }
}

} // namespace infini
