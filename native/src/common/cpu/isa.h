#pragma once
// Which vector instructions the CPU kernels use: chosen once per process from
// the CPU's features (GCC's __builtin_cpu_supports), or lowered for tests by
// the environment variable INFINIOP_CPU_VECTOR=avx512|avx2|baseline (read once,
// at the first call; a request above what the CPU has is clamped to it).
//
// Kernels are compiled once per path: a kernel file is included three times by
// foreach_isa.h, each time inside `#pragma GCC target(...)` and its own
// namespace (avx512, avx2, baseline), and the operator picks the instance with
// dispatchIsa(). The shipped library is built for the baseline x86-64 ISA.
#define INFINI_CPU_ISA_H
#include <type_traits>
#include <utility>

namespace infini::cpu {

enum class Isa : int { Baseline = 0, Avx2 = 1, Avx512 = 2 };

// The path in use by this process (decided at the first call).
Isa activeIsa();
// "avx512", "avx2" or "baseline".
const char *isaName(Isa isa);

// Clears the upper halves of the vector registers (vzeroupper). Called after
// every AVX2 / AVX-512 kernel: GCC does not always emit it after AVX-512
// code, and the baseline (SSE) code that runs next, libm's included, then
// pays for the dirty state on every instruction (3x slower exp measured).
void clearUpperState();

struct ClearUpperOnExit {
    ~ClearUpperOnExit() { clearUpperState(); }
};

// Calls f(std::integral_constant<Isa, I>{}) for the active path I.
template <class F>
inline decltype(auto) dispatchIsa(F &&f) {
    switch (activeIsa()) {
#if defined(__x86_64__) && defined(__GNUC__)
    case Isa::Avx512: {
        ClearUpperOnExit clear;
        return f(std::integral_constant<Isa, Isa::Avx512>{});
    }
    case Isa::Avx2: {
        ClearUpperOnExit clear;
        return f(std::integral_constant<Isa, Isa::Avx2>{});
    }
#endif
    default: return f(std::integral_constant<Isa, Isa::Baseline>{});
    }
}

} // namespace infini::cpu
