// LPNorm kernel for a reduced axis that is not innermost: thread (tx, ty) of a
// (bx, by) block owns VEC consecutive inner positions (tx) and the rows ty,
// ty + by, ... of the reduced axis, so that each warp's loads are contiguous.
// With ITEMS > 0 the thread holds its rows in registers (each element read
// once, every load issued before any math); with ITEMS == 0 it streams them
// (three reads). The by partial statistics of a column merge in shared memory.
#include "device.cuh"

namespace infini::lp_norm::nvidia {

namespace {

constexpr int kColsThreads = 256;

template <class T, int VEC, int ITEMS>
__global__ void __launch_bounds__(kColsThreads) colsKernel(const Plan plan, const T *__restrict__ x, T *y) {
    using A = ComputeType<T>;
    using P = Pack<T, VEC>;
    __shared__ A sh_m[kColsThreads * VEC], sh_s[kColsThreads * VEC];
    const int tx = threadIdx.x, ty = threadIdx.y, bx = blockDim.x, by = blockDim.y;
    const int64_t col = (int64_t)blockIdx.x * bx + tx; // in packs
    const bool valid = col < plan.inner;
    const int64_t len = plan.len;
    A *my_m = sh_m + (ty * bx + tx) * VEC;
    A *my_s = sh_s + (ty * bx + tx) * VEC;

    for (int64_t o = blockIdx.y; o < plan.rows; o += gridDim.y) {
        int64_t ox, oy;
        outerOffsets(plan.outer, o, ox, oy);
        const T *xc = x + ox + col * VEC * plan.sxi;
        T *yc = y + oy + col * VEC * plan.syi;
        // The element at row r: pack at xc + r * sxr (VEC > 1: sxi == 1).
        auto load = [&](int64_t r) {
            if constexpr (VEC > 1) {
                return ldPack<T, VEC>(xc + r * plan.sxr, plan.cs);
            } else {
                P p;
                p.v[0] = xc[r * plan.sxr];
                return p;
            }
        };
        auto store = [&](int64_t r, const P &p) {
            if constexpr (VEC > 1) {
                stPack<T, VEC>(yc + r * plan.syr, p, plan.cs);
            } else {
                yc[r * plan.syr] = p.v[0];
            }
        };

        A m[VEC], s[VEC];
#pragma unroll
        for (int j = 0; j < VEC; ++j) {
            m[j] = 0;
            s[j] = 0;
        }
        P buf[ITEMS > 0 ? ITEMS : 1];
        if constexpr (ITEMS > 0) {
            // Every load issued before any math (more bytes in flight); zeros
            // past the end count for nothing.
#pragma unroll
            for (int k = 0; k < ITEMS; ++k) {
                const int64_t r = ty + (int64_t)k * by;
                buf[k] = valid && r < len ? load(r) : P{};
            }
#pragma unroll
            for (int k = 0; k < ITEMS; ++k) {
#pragma unroll
                for (int j = 0; j < VEC; ++j) {
                    m[j] = absMax(m[j], widen(buf[k].v[j]));
                }
            }
        } else if (valid) {
            for (int64_t r = ty; r < len; r += by) {
                const P v = load(r);
#pragma unroll
                for (int j = 0; j < VEC; ++j) {
                    m[j] = absMax(m[j], widen(v.v[j]));
                }
            }
        }
        Factor<A> f[VEC];
#pragma unroll
        for (int j = 0; j < VEC; ++j) {
            f[j] = scaledSumNeeded(m[j]) ? sumScale(m[j]) : Factor<A>{A(0), A(0)}; // else s is not read
        }
        withP(plan.p, [&](auto pc) {
            constexpr int kP = decltype(pc)::value;
            if constexpr (ITEMS > 0) {
#pragma unroll
                for (int k = 0; k < ITEMS; ++k) {
#pragma unroll
                    for (int j = 0; j < VEC; ++j) {
                        s[j] += powP<kP>(f[j].apply(absA<A>(widen(buf[k].v[j]))), plan.p);
                    }
                }
            } else if (valid) {
                for (int64_t r = ty; r < len; r += by) {
                    const P v = load(r);
#pragma unroll
                    for (int j = 0; j < VEC; ++j) {
                        s[j] += powP<kP>(f[j].apply(absA<A>(widen(v.v[j]))), plan.p);
                    }
                }
            }
        });
        if (by > 1) {
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                my_m[j] = m[j];
                my_s[j] = s[j];
            }
            __syncthreads();
            if (ty == 0) {
                for (int t = 1; t < by; ++t) {
                    const A *om = sh_m + (t * bx + tx) * VEC;
                    const A *os = sh_s + (t * bx + tx) * VEC;
#pragma unroll
                    for (int j = 0; j < VEC; ++j) {
                        mergeStats(m[j], s[j], om[j], os[j], plan.p);
                    }
                }
#pragma unroll
                for (int j = 0; j < VEC; ++j) {
                    const Factor<A> g = rowFactor(m[j], s[j], plan.p, plan.eps);
                    my_m[j] = g.q1;
                    my_s[j] = g.c;
                }
            }
            __syncthreads();
            const A *fm = sh_m + tx * VEC;
            const A *fs = sh_s + tx * VEC;
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                f[j] = {fm[j], fs[j]};
            }
            __syncthreads(); // the next outer index reuses the shared arrays
        } else {
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                f[j] = rowFactor(m[j], s[j], plan.p, plan.eps);
            }
        }
        if (!valid) {
            continue;
        }
        if constexpr (ITEMS > 0) {
#pragma unroll
            for (int k = 0; k < ITEMS; ++k) {
                const int64_t r = ty + (int64_t)k * by;
                if (r < len) {
                    P out;
#pragma unroll
                    for (int j = 0; j < VEC; ++j) {
                        out.v[j] = narrow<T>(f[j].apply(widen(buf[k].v[j])));
                    }
                    store(r, out);
                }
            }
        } else {
            for (int64_t r = ty; r < len; r += by) {
                const P v = load(r);
                P out;
#pragma unroll
                for (int j = 0; j < VEC; ++j) {
                    out.v[j] = narrow<T>(f[j].apply(widen(v.v[j])));
                }
                store(r, out);
            }
        }
    }
}

template <class T, int VEC, int ITEMS>
infiniStatus_t launchColsT(const Plan &plan, const void *x, void *y, cudaStream_t stream) {
    dim3 block(plan.bx, plan.by), grid(plan.grid_x, plan.grid_y);
    colsKernel<T, VEC, ITEMS><<<grid, block, 0, stream>>>(plan, (const T *)x, (T *)y);
    CUDA_TRY_LAUNCH();
    return INFINI_STATUS_SUCCESS;
}

} // namespace

infiniStatus_t launchCols(const Plan &plan, const void *x, void *y, void *, void *stream) {
    auto s = (cudaStream_t)stream;
    return dispatchDtype<INFINI_FLOAT_DTYPES>(plan.dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        // 16-bit types hold 4 elements per pack here (8 bytes): 8 would cost
        // too many registers with 16 rows held.
        constexpr int kVec = sizeof(T) == 2 ? 4 : 16 / sizeof(T);
        auto go = [&](auto vec) {
            constexpr int V = decltype(vec)::value;
            switch (plan.items) {
            case 0: return launchColsT<T, V, 0>(plan, x, y, s);
            case 4: return launchColsT<T, V, 4>(plan, x, y, s);
            case 8: return launchColsT<T, V, 8>(plan, x, y, s);
            case 16: return launchColsT<T, V, 16>(plan, x, y, s);
            default: return INFINI_STATUS_INTERNAL_ERROR;
            }
        };
        if (plan.vec == kVec) {
            return go(std::integral_constant<int, kVec>{});
        }
        return go(std::integral_constant<int, 1>{});
    });
}

} // namespace infini::lp_norm::nvidia
