// Mul: c = a * b, an elementwise operator (see elementwise/operator.h): the
// functor and its C ABI here, its NVIDIA kernels in kernels_*.cu.
#include "../elementwise/operator.h"
#include <type_traits>

namespace infini {

struct MulOp {
    static constexpr OpKind kKind = OpKind::Mul;
    static constexpr size_t kInputs = 2;
    // Wrap-around products have the same low bits for signed and unsigned
    // operands: signed dtypes run the unsigned kernel of their size.
    static constexpr bool kSignAgnostic = true;
    using Dtypes = elementwise::DtypeList<INFINI_FLOAT_DTYPES, INFINI_INT_DTYPES>;

    template <class T>
    INFINI_HD T operator()(T a, T b) const {
        if constexpr (std::is_integral_v<T>) {
            // Unsigned arithmetic at least as wide as unsigned int: uint8/16
            // would otherwise promote to (signed) int and overflow is UB.
            using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
            return static_cast<T>(static_cast<W>(a) * static_cast<W>(b));
        } else {
            // F16/BF16 arrive as float and the engine rounds the result to the
            // dtype once (round to nearest even). That equals rounding the
            // exact product once, subnormal results included, as long as
            // this multiply is IEEE F32 with subnormals (no flush to zero):
            // F16: an 11-bit x 11-bit product is >= 2^-48 and exact in F32.
            // BF16: an 8 x 8-bit product is exact in F32 unless it is below
            // 2^-134 with bits under F32's 2^-149; it then lies below
            // 2^-134 - 2^-150 (its 16-bit significand would have to be
            // 2^16 - 1 = 3*5*17*257, not a product of two 8-bit ones), so
            // the F32 rounding cannot land on BF16's only midpoint there,
            // 2^-134, and the second rounding gives 0 as the exact one does.
            // tests/test_mul.py checks every significand pair over that range.
            return a * b;
        }
    }
};

} // namespace infini

INFINI_ELEMENTWISE_OPERATOR(Mul, infini::MulOp);
