#pragma once
// INFINI_HD: a function usable from host and device code (plain inline on the host compiler).
#ifndef INFINI_HD
#ifdef __CUDACC__
#define INFINI_HD __host__ __device__ __forceinline__
#else
#define INFINI_HD inline
#endif
#endif
