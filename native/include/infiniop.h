#ifndef INFINIOP_H
#define INFINIOP_H

/* Everything of libinfiniop: handles, tensor descriptors and the operators. */

#include "infiniop/handle.h"
#include "infiniop/operator_descriptor.h"
#include "infiniop/tensor_descriptor.h"
#include "infiniop/ops/lp_norm.h"
#include "infiniop/ops/mul.h"
#include "infiniop/ops/random_sample.h"
#include "infiniop/ops/rearrange.h"

#endif /* INFINIOP_H */
