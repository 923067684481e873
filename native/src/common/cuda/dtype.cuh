#pragma once
// Device element types of a dispatched dtype tag, and float conversions.
#include "../dtype.h"
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace infini {

template <infiniDtype_t D> struct DeviceTypeOf { using type = typename HostTypeOf<D>::type; };
template <> struct DeviceTypeOf<INFINI_DTYPE_F16> { using type = __half; };
template <> struct DeviceTypeOf<INFINI_DTYPE_BF16> { using type = __nv_bfloat16; };

// The device element type of a dispatched tag: DeviceType<decltype(tag)>.
template <class Tag>
using DeviceType = typename DeviceTypeOf<Tag::value>::type;

// Compute type: F16/BF16 widen to float, everything else is itself.
template <class T> struct ComputeTypeOf { using type = T; };
template <> struct ComputeTypeOf<__half> { using type = float; };
template <> struct ComputeTypeOf<__nv_bfloat16> { using type = float; };
template <class T>
using ComputeType = typename ComputeTypeOf<T>::type;

template <class T>
__host__ __device__ inline ComputeType<T> widen(T v) { return v; }
template <>
__host__ __device__ inline float widen(__half v) { return __half2float(v); }
template <>
__host__ __device__ inline float widen(__nv_bfloat16 v) { return __bfloat162float(v); }

template <class T>
__host__ __device__ inline T narrow(ComputeType<T> v) { return static_cast<T>(v); }
template <>
__host__ __device__ inline __half narrow<__half>(float v) { return __float2half_rn(v); }
template <>
__host__ __device__ inline __nv_bfloat16 narrow<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

} // namespace infini
