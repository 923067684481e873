// The CPU vector path: detected once, optionally lowered by INFINIOP_CPU_VECTOR.
#include "isa.h"
#include "infinicore.h"
#include <cstdlib>
#include <cstring>

namespace infini::cpu {
namespace {

Isa detect() {
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    // Everything the avx512 instance is compiled with (see foreach_isa.h).
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma") &&
        __builtin_cpu_supports("f16c")) {
        return Isa::Avx512;
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c")) {
        return Isa::Avx2;
    }
#endif
    return Isa::Baseline;
}

Isa choose() {
    Isa best = detect();
    const char *want = std::getenv("INFINIOP_CPU_VECTOR");
    if (want == nullptr || *want == '\0') {
        return best;
    }
    Isa asked = best;
    if (std::strcmp(want, "baseline") == 0) {
        asked = Isa::Baseline;
    } else if (std::strcmp(want, "avx2") == 0) {
        asked = Isa::Avx2;
    } else if (std::strcmp(want, "avx512") == 0) {
        asked = Isa::Avx512;
    }
    return (int)asked < (int)best ? asked : best;
}

} // namespace

Isa activeIsa() {
    static const Isa isa = choose();
    return isa;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx"), noinline)) void clearUpperState() { __builtin_ia32_vzeroupper(); }
#else
void clearUpperState() {}
#endif

const char *isaName(Isa isa) {
    switch (isa) {
    case Isa::Avx512: return "avx512";
    case Isa::Avx2: return "avx2";
    default: return "baseline";
    }
}

} // namespace infini::cpu

__INFINI_C const char *infiniopGetCpuVectorPath(void) { return infini::cpu::isaName(infini::cpu::activeIsa()); }
