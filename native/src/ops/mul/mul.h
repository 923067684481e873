#pragma once
// Mul: c = a * b, the first user of the elementwise framework.
#include "../elementwise/elementwise.h"
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
            return a * b;
        }
    }
};

} // namespace infini
