// Compiles the kernel file named by INFINI_CPU_KERNELS once per vector path
// (isa.h), each copy in its own namespace under its own `#pragma GCC target`,
// so that the compiler may use that path's instructions in it (and only
// there: the rest of the library stays baseline x86-64). Inside the file,
// `V` is the path's vector struct (simd.h) and INFINI_ISA_NS its namespace.
// The kernel file has no include guard and includes nothing itself: everything
// it uses (simd.h, isa.h included) must be included before this header, which
// is included inside the operator's namespace.
//
//   #define INFINI_CPU_KERNELS "ops/x/cpu_kernels.inc"
//   #include "common/cpu/foreach_isa.h"
//   ... dispatchIsa([&](auto isa) { return kernelsFor<decltype(isa)::value>::...; })
#if !defined(INFINI_VEC_INLINE) || !defined(INFINI_CPU_ISA_H)
#error "include common/cpu/simd.h and common/cpu/isa.h before foreach_isa.h"
#endif
#ifndef INFINI_CPU_KERNELS
#error "define INFINI_CPU_KERNELS before including foreach_isa.h"
#endif

#define INFINI_ISA_NS baseline
namespace INFINI_ISA_NS {
using V = ::infini::cpu::VecBase;
}
#include INFINI_CPU_KERNELS
#undef INFINI_ISA_NS

#ifdef INFINI_CPU_X86
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
#define INFINI_ISA_NS avx2
namespace INFINI_ISA_NS {
using V = ::infini::cpu::VecAvx2;
}
#include INFINI_CPU_KERNELS
#undef INFINI_ISA_NS
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c")
#define INFINI_ISA_NS avx512
namespace INFINI_ISA_NS {
using V = ::infini::cpu::VecAvx512;
}
#include INFINI_CPU_KERNELS
#undef INFINI_ISA_NS
#pragma GCC pop_options
#endif

#undef INFINI_CPU_KERNELS


// CALL (e.g. `kernel<T>(a, b)`) in the namespace of the process's vector path.
#ifndef INFINI_CPU_DISPATCH
#ifdef INFINI_CPU_X86
#define INFINI_CPU_DISPATCH(...)                                                              \
    ::infini::cpu::dispatchIsa([&](auto isa_) -> decltype(auto) {                             \
        if constexpr (decltype(isa_)::value == ::infini::cpu::Isa::Avx512) {                  \
            return avx512::__VA_ARGS__;                                                       \
        } else if constexpr (decltype(isa_)::value == ::infini::cpu::Isa::Avx2) {             \
            return avx2::__VA_ARGS__;                                                         \
        } else {                                                                              \
            return baseline::__VA_ARGS__;                                                     \
        }                                                                                     \
    })
#else
#define INFINI_CPU_DISPATCH(...) baseline::__VA_ARGS__
#endif
#endif
