// Mul on the CPU: the framework's CPU engine with MulOp.
#include "../elementwise/cpu.h"
#include "mul.h"

namespace infini::mul_cpu {
infiniStatus_t create(const InfiniopHandle &h, const elementwise::Info &info, elementwise::Descriptor **out) {
    return elementwise::cpu::create<MulOp>(h, info, out);
}
} // namespace infini::mul_cpu
