// LPNorm kernel for a reduced axis that is not innermost: thread (tx, ty) of a
// (bx, by) block owns VEC consecutive inner positions (tx) and the rows ty,
// ty + by, ... of the reduced axis, so that each warp's loads are contiguous.
// With ITEMS > 0 the thread holds its rows in registers (each element read
// once, every load issued before any math); with ITEMS == 0 it streams them
// in batches of loads (two reads: the statistics, then the scaling). Either
// way its statistics take one pass: the max and the unscaled sum of |x|^p
// together (math.h's one-pass form; redone scaled where the sum leaves the
// plain range). The by partial statistics of a column merge in shared memory.
//
// Few columns along a long axis (4096x4096 axis 0: 1024 packs of columns)
// give too few threads for a whole column each (session 27: 4 blocks, 4.6 ms
// against PyTorch's 77 µs), so the planner may cut the axis into plan.chunks
// chunks of plan.chunk_vecs rows, as the Split plan cuts long rows: the
// Stats kernel writes each chunk's per-column statistics into the workspace,
// the Factor kernel merges a column's chunks (in a fixed order) into its factor,
// and the Apply kernel scales the chunks, read again (from L2 where it fits);
// each of the last two is its predecessor's programmatic dependent. (Merging
// in Apply, every chunk's block merged every record of its columns: 217 µs of
// 243 at 100000x64 F32 under ncu, and 157 registers at 4096x4096 BF16.)
#include "../../common/cuda/pdl.cuh"
#include "device.cuh"

namespace infini::lp_norm::nvidia {

namespace {

constexpr int kColsThreads = 256;

// Whole: a column per thread column of the block (the axis uncut); Stats and
// Apply: the first and last kernels of a cut axis (above; colsFactorKernel
// between them).
enum class ColsMode { Whole, Stats, Apply };

// The Factor and Apply kernels' PDL policy (a PdlPolicy knob: 0 never, 1 eager calls only,
// 2 in graphs too), as INFINI_LP_NORM_SPLIT_PDL for the Split plan.
#ifndef INFINI_LP_NORM_COLS_SPLIT_PDL
#define INFINI_LP_NORM_COLS_SPLIT_PDL 2
#endif

// A column's values over the block's thread rows, combined by `op` in
// thread-row order (the same bits every call) through `sh` (blockDim.x *
// blockDim.y values): the result in thread row 0, or in every thread row
// (ALL); the other rows get v back. A caller that writes `sh` again must pass
// a barrier first.
template <bool ALL, class A, class Op>
__device__ __forceinline__ A combineThreadRows(A v, A *sh, Op op) {
    const int tx = threadIdx.x, ty = threadIdx.y, bx = blockDim.x, by = blockDim.y;
    sh[ty * bx + tx] = v;
    __syncthreads();
    if (!ALL && ty != 0) {
        return v;
    }
    A r = 0; // (the values are sums and maxima of magnitudes)
    for (int t = 0; t < by; ++t) {
        r = op(r, sh[t * bx + tx]);
    }
    return r;
}

// Blocks of at least this many thread rows merge a column's max once: thread row 0 alone takes it over
// the thread rows and posts it (one more barrier), instead of every thread row reading all by x VEC
// values (0: never). Session 49's ncu had (123,21,129,72) F16 axis 2 (by 32, 16-byte packs: 256 shared
// loads and maxima a thread) at 79.2M instructions and short-scoreboard stalls, 200 µs against PyTorch's
// 99. Session 50, call 1 (H200, eager µs, the max once in blocks of any height), on 92 Whole and cut-axis
// cases of >= 25 µs: 0.955 (two default runs 1.000 apart); blocks of 16-32 thread rows gained to 0.80
// ((123,21,129,72) 199 -> 159), blocks of 8 lost up to 1.14x ((351,500,68) BF16 axis 1, cut: Stats),
// where the extra barrier costs more than 8 x VEC loads. Hence 16.
#ifndef INFINI_LP_NORM_COLS_MERGE_ONCE_MIN_ROWS
#define INFINI_LP_NORM_COLS_MERGE_ONCE_MIN_ROWS 16
#endif
// The blockDim.y partial statistics (m, s) of each column merged, in thread-row order, into thread
// row 0's m and s: the max through shared memory first, then each part's sum rescaled to it (no
// chain of dependent divisions). Every thread of the block calls it. (Written out rather than as two
// combineThreadRows: that form cost the 2-byte cut axis 1-3%, 4096x4096 F16 axis 0 65.2 -> 67.3 µs
// in H100 graphs; notes/lp_norm.md, "Session 29".) Tall blocks take the max once (above).
template <class A, int VEC>
__device__ __forceinline__ void mergeThreadRows(A (&m)[VEC], A (&s)[VEC], int p, A *sh_m, A *sh_s) {
    const int tx = threadIdx.x, ty = threadIdx.y, bx = blockDim.x, by = blockDim.y;
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
        sh_m[(ty * bx + tx) * VEC + j] = m[j];
    }
    __syncthreads();
    A top[VEC];
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
        top[j] = 0;
    }
    const bool once = INFINI_LP_NORM_COLS_MERGE_ONCE_MIN_ROWS > 0 && by >= INFINI_LP_NORM_COLS_MERGE_ONCE_MIN_ROWS;
    if (!once || ty == 0) {
        for (int t = 0; t < by; ++t) {
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                top[j] = maxNan(top[j], sh_m[(t * bx + tx) * VEC + j]);
            }
        }
    }
    if (once) {
        if (ty == 0) { // (thread row 0's own slots: no other thread reads them before the barrier)
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                sh_m[tx * VEC + j] = top[j];
            }
        }
        __syncthreads();
#pragma unroll
        for (int j = 0; j < VEC; ++j) {
            top[j] = sh_m[tx * VEC + j];
        }
    }
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
        sh_s[(ty * bx + tx) * VEC + j] =
            scaledSumNeeded(top[j]) ? rescaledSum(s[j], m[j], top[j], p) : A(0);
        m[j] = top[j];
    }
    __syncthreads();
    if (ty == 0) {
#pragma unroll
        for (int j = 0; j < VEC; ++j) {
            s[j] = 0;
        }
        for (int t = 0; t < by; ++t) {
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                s[j] += sh_s[(t * bx + tx) * VEC + j];
            }
        }
    }
}

// 1: in the cut axis's Stats kernels and F64's Whole kernels (but for the 16-row ones), where no thread's
// one-pass sum left the plain range (a block-wide vote), the thread rows post their max and plain sum,
// and thread row 0 alone takes each column's max and total and scales the total once
// (mergePlainThreadRows): no division a thread and one barrier fewer than mergeThreadRows, which every
// thread row otherwise reaches with its sum scaled by its own max (a division a value) and rescales it to
// the column's (another). 0: always mergeThreadRows. Session 51's ncu (H200): the Stats kernel of
// (259,429,58) F64 axis 0 issued ~785 instructions a warp for 14 elements a thread, 29.9 us against
// PyTorch's reduce's 17.2. Call 2 (eager us, every Cols kernel but Whole's 16-row ones, 149 cases of more
// than one thread row, two default runs 0.995 apart over the 109 of >= 20 us): cut axes 0.947 (BF16) to
// 0.987 (F64) on 66 cases ((265,522,32) F16 axis 0 29.4 -> 26.8, PyTorch 30.1); F64 Whole 0.98 on 15
// ((651,43,264) axis 1 72.6 -> 69.3); 2- and 4-byte Whole 1.00-1.05, to 1.22x (thread row 0's longer
// serial merge at 16 thread rows; streamed kernels from 48 to 55 registers, 5 blocks an SM to 4).
// (Session 52: F64's plain-merge kernels summing without the per-element max, taking it only where read,
// lost: 1.026 on 73 F64 Cols cases, to 1.086; f236b9c has the code.)
#ifndef INFINI_LP_NORM_COLS_PLAIN_MERGE
#define INFINI_LP_NORM_COLS_PLAIN_MERGE 1
#endif
// The blockDim.y partial (max, plain sum of |x|^p) of each column merged in thread-row order into thread
// row 0's m and s (the sum scaled by the column's max, as mergeThreadRows leaves it). Every thread of the
// block calls it; only thread row 0's m and s are the column's after it. The caller has checked that
// every sum is plain (plainSumUsable, or a column part with no scaled sum needed).
template <class A, int VEC>
__device__ __forceinline__ void mergePlainThreadRows(A (&m)[VEC], const A (&t)[VEC], A (&s)[VEC], int p, A *sh_m,
                                                     A *sh_s) {
    const int tx = threadIdx.x, ty = threadIdx.y, bx = blockDim.x, by = blockDim.y;
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
        sh_m[(ty * bx + tx) * VEC + j] = m[j];
        sh_s[(ty * bx + tx) * VEC + j] = t[j];
    }
    __syncthreads();
    if (ty != 0) {
        return;
    }
    A top[VEC], sum[VEC];
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
        top[j] = 0;
        sum[j] = 0;
    }
    for (int r = 0; r < by; ++r) {
#pragma unroll
        for (int j = 0; j < VEC; ++j) {
            top[j] = maxNan(top[j], sh_m[(r * bx + tx) * VEC + j]);
            sum[j] += sh_s[(r * bx + tx) * VEC + j];
        }
    }
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
        m[j] = top[j];
        s[j] = scaledSumNeeded(top[j]) ? sum[j] / powInt(top[j], p) : A(0);
    }
}

// The least blocks an SM a kernel is compiled for (its registers capped to match; 0: the compiler's
// choice). The cut axis's kernels at 4 (64 registers; 2 where a thread holds 16 rows): at the
// compiler's choice (73-139 registers) 4096x4096 axis 0 took H100 graph µs BF16 90-126, F16 p 1
// 73-95; at 4, 81.0 and 71.6 (session 28, tools/verify_s28b.sh).
// Whole mode where a thread holds at most 8 rows: compiled for 3 blocks an SM (session 33; 0: the
// compiler's choice, which gave F64 at 8 rows 98 registers, 2 blocks an SM, 24% of warps active, its
// loads never enough in flight). At 3, 80 registers (44 bytes spilled); H200 eager µs, (12,16,512,512)
// F64 axis 1 367 -> 314 (PyTorch 345), axis 0 p 1 411 -> 345 (PyTorch 405); the bench's LPNorm rows
// unchanged (tools/verify_s33h.sh).
#ifndef INFINI_LP_NORM_COLS_WHOLE_MIN_BLOCKS
#define INFINI_LP_NORM_COLS_WHOLE_MIN_BLOCKS 3
#endif
// Whole mode at 16 rows a thread: the compiler's choice (0: 172-182 registers, one block an SM), but for
// 16-byte packs of 4- or 8-byte types at 2 (128 registers, none spilled; planCols now streams those
// columns instead, INFINI_LP_NORM_COLS_WHOLE_STREAM_F64 / _F32, so this serves where those are off).
// Session 53, call 1 (H200, eager µs, every 16-row Whole kernel at 2 against two default runs;
// tools/verify_s53a.sh): F32 4-packs (689,149,56) axis 1 39.3 -> 28.7 (PyTorch 48.0), (267,174,40) 20.5
// -> 16.7; F64 pairs (14,140,177,24) axis 2 158.0 -> 103.8; singles of F32 lost (1.01-1.03 on every case
// of >= 20 µs), of F64 tied. Call 2, F32 4-packs on 25 fresh cases: 0.719 (behind PyTorch 14 -> 2).
#ifndef INFINI_LP_NORM_COLS_WHOLE16_MIN_BLOCKS
#define INFINI_LP_NORM_COLS_WHOLE16_MIN_BLOCKS 0
#endif
#ifndef INFINI_LP_NORM_COLS_WHOLE16_WIDE_MIN_BLOCKS
#define INFINI_LP_NORM_COLS_WHOLE16_WIDE_MIN_BLOCKS 2
#endif
// 1: the statistics loop has a p = 3 case of its own (withP's CUBE: no call, so the held rows stay in
// registers); 0: p 3 takes the general case (a call a value).
#ifndef INFINI_LP_NORM_COLS_CUBE
#define INFINI_LP_NORM_COLS_CUBE 1
#endif
// Whole mode where a thread holds at most 64 bytes of rows (ITEMS > 0, ITEMS x its pack), F64 pairs aside:
// compiled for 4 blocks an SM (64 registers; 16-bit 4-packs spill nothing, 8-packs at 4 rows 16 bytes).
// Session 49's ncu had Whole kernels bound by their warps (3 blocks of 8 an SM, ~12 cycles an instruction).
// H200 eager µs, 3 -> 4 blocks for every Whole kernel of at most 8 rows against two default runs
// (tools/verify_s49c.sh, 128 Whole-mode cases): the kernels this rule takes 0.936 (90 cases; behind
// PyTorch 19 -> 14 over the set; (20,10,80,152) F16 axis 0 19.9 -> 13.5, (163,71,45,52) BF16 axis 1 0.84,
// (21,157,172,23) F16 axis 0 0.82); the others lost or tied (16-bit 8-packs at 8 rows 1.23 for F16, F64
// pairs at 4 rows 1.09: 156 and 44 bytes spilled; F32 4-packs at 8 rows 0.93, left at 3). 3: the
// session-33 form everywhere.
#ifndef INFINI_LP_NORM_COLS_WHOLE_SMALL_MIN_BLOCKS
#define INFINI_LP_NORM_COLS_WHOLE_SMALL_MIN_BLOCKS 4
#endif
// The cut axis's Stats and Apply kernels of at most 8 rows a thread: compiled for this many blocks an SM
// (4 as measured in session 28), but for those below.
#ifndef INFINI_LP_NORM_COLS_CUT_MIN_BLOCKS
#define INFINI_LP_NORM_COLS_CUT_MIN_BLOCKS 4
#endif
// ... and where a thread holds 8 rows of 16-byte packs of 4- or 8-byte types (F64 pairs, F32 4-packs):
// at 4 blocks ptxas spilled the F64 pairs' Stats (80 / 184 bytes) and Apply (68 / 48) and F32's Apply
// (40 / 48); at 3 none (74 registers for the F64 Apply). Session 52, call 1 (H200, eager µs, every cut
// kernel of <= 8 rows at 3 against two default runs, 112 cut axes; tools/verify_s52c.sh): the F64 pairs
// at 8 rows 0.936 over the 10 cases of >= 30 µs (none slower than 1.016; (503,7820) axis 0 50.5 -> 43.9,
// (3320,1388) p 1 56.9 -> 50.2), F32 4-packs 0.978 (2 cases); 16-bit 4-packs at 8 rows lost (1.08, to
// 1.12x), streamed F64 pairs 1.04, the rest 1.00: hence this rule alone.
#ifndef INFINI_LP_NORM_COLS_CUT_WIDE_MIN_BLOCKS
#define INFINI_LP_NORM_COLS_CUT_WIDE_MIN_BLOCKS 3
#endif
template <class T, int VEC, ColsMode MODE, int ITEMS>
constexpr int colsMinBlocks() {
    constexpr bool small = ITEMS > 0 && ITEMS * VEC * sizeof(T) <= 64 && !(sizeof(T) == 8 && VEC > 1);
    constexpr bool wide = sizeof(T) >= 4 && VEC * sizeof(T) == 16; // 16-byte packs of 4- or 8-byte types
    return MODE == ColsMode::Whole
               ? (ITEMS <= 8   ? (small ? INFINI_LP_NORM_COLS_WHOLE_SMALL_MIN_BLOCKS : INFINI_LP_NORM_COLS_WHOLE_MIN_BLOCKS)
                  : ITEMS == 16 ? (wide ? INFINI_LP_NORM_COLS_WHOLE16_WIDE_MIN_BLOCKS : INFINI_LP_NORM_COLS_WHOLE16_MIN_BLOCKS)
                                : 0)
               : ITEMS == 16 ? 2
               : ITEMS == 8 && wide ? INFINI_LP_NORM_COLS_CUT_WIDE_MIN_BLOCKS
                                    : INFINI_LP_NORM_COLS_CUT_MIN_BLOCKS;
}

template <class T, int VEC, int ITEMS, ColsMode MODE>
__global__ void __launch_bounds__(kColsThreads, colsMinBlocks<T, VEC, MODE, ITEMS>())
    colsKernel(const Plan plan, const T *__restrict__ x, T *y, Stats<ComputeType<T>> *records) {
    using A = ComputeType<T>;
    using P = Pack<T, VEC>;
    __shared__ A sh_m[kColsThreads * VEC], sh_s[kColsThreads * VEC];
    if constexpr (MODE == ColsMode::Stats) {
        pdlAllowNext(); // the Factor kernel may be scheduled (it waits for our records)
    } else if constexpr (MODE == ColsMode::Apply) {
        pdlWaitPrevious(); // nothing global before: the Factor kernel is still writing the factors
    }
    const int tx = threadIdx.x, ty = threadIdx.y, bx = blockDim.x, by = blockDim.y;
    const int64_t col = (int64_t)blockIdx.x * bx + tx; // in packs
    const bool valid = col < plan.inner;
    A *my_m = sh_m + (ty * bx + tx) * VEC;
    A *my_s = sh_s + (ty * bx + tx) * VEC;
    // Whole: q is the outer index; Stats / Apply: q = outer index * chunks + chunk.
    const int64_t chunks = MODE == ColsMode::Whole ? 1 : plan.chunks;
    const int64_t count = plan.rows * chunks;
    // The factors follow the records in the workspace (a Factor<A> a column, as large as a Stats<A>).
    Factor<A> *factors = reinterpret_cast<Factor<A> *>(records + plan.rows * plan.chunks * plan.inner * VEC);

    for (int64_t i = blockIdx.y; i < count; i += gridDim.y) {
        // Apply visits the chunks in the reverse order of Stats: those read last there are still in L2.
        const int64_t q = MODE == ColsMode::Apply ? count - 1 - i : i;
        const int64_t o = q / chunks, c = q - o * chunks;
        const bool whole = MODE == ColsMode::Whole;
        const int64_t r0 = whole ? 0 : c * plan.chunk_vecs; // rows [r0, r1) of the axis
        const int64_t r1 = whole ? plan.len : min(plan.len, r0 + plan.chunk_vecs);
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
        // use(r, pack) for the streamed rows r0 + ty, r0 + ty + by, ... < r1, in order, in batches of
        // loads (Apply stores between batches).
        auto streamRows = [&](auto &&use) {
            forBatchedLoads<sizeof(P) >= 16 ? 4 : 8>(r0 + ty, r1, by, load, use);
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
                const int64_t r = r0 + ty + (int64_t)k * by;
                buf[k] = valid && r < r1 ? load(r) : P{};
            }
        }
        Factor<A> f[VEC];
        if constexpr (MODE == ColsMode::Apply) {
            if (!valid) {
                continue;
            }
            const Factor<A> *fc = factors + (o * plan.inner + col) * VEC;
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                f[j] = fc[j];
            }
        } else { // Whole, Stats: the statistics
            // One pass: the max and the unscaled sum of |x|^p (math.h's one-pass form), then the
            // scaled sum from them; a thread whose sum left the plain range redoes it scaled.
            A t[VEC];
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                t[j] = 0;
            }
            withP<INFINI_LP_NORM_COLS_CUBE != 0>(plan.p, [&](auto pc) {
                constexpr int kP = decltype(pc)::value;
                auto add = [&](const P &v) {
#pragma unroll
                    for (int j = 0; j < VEC; ++j) {
                        const A a = absA<A>(wideAt(v, j));
                        m[j] = maxNan(m[j], a);
                        t[j] += powP<kP>(a, plan.p);
                    }
                };
                if constexpr (ITEMS > 0) {
#pragma unroll
                    for (int k = 0; k < ITEMS; ++k) {
                        add(buf[k]);
                    }
                } else if (valid) {
                    streamRows([&](int64_t, const P &v) { add(v); });
                }
            });
            bool rare = false;
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                rare |= scaledSumNeeded(m[j]) && !plainSumUsable(t[j]);
            }
            // (A thread with no scaled sum needed, all zeros, inf or NaN, adds 0, inf or NaN to its column's
            // plain total, whose max then says the same.)
            // (Never in Whole mode's 16-row kernels, which hold their rows across the merge: 16-bit 16-byte
            // packs went from 128 to 171 registers, from two blocks an SM to one.)
            constexpr bool kPlainMerge =
                INFINI_LP_NORM_COLS_PLAIN_MERGE != 0 &&
                (MODE == ColsMode::Stats || (MODE == ColsMode::Whole && sizeof(T) == 8 && ITEMS != 16));
            const bool plain_merge = kPlainMerge && by > 1 && !__syncthreads_or(rare);
            if (plain_merge) {
                mergePlainThreadRows<A, VEC>(m, t, s, plan.p, sh_m, sh_s);
            } else {
#pragma unroll
                for (int j = 0; j < VEC; ++j) {
                    s[j] = scaledSumNeeded(m[j]) ? t[j] / powInt(m[j], plan.p) : A(0);
                }
            }
            if (rare) { // tiny or huge magnitudes: the two-step form, compiled once for any p
#pragma unroll
                for (int j = 0; j < VEC; ++j) {
                    f[j] = scaledSumNeeded(m[j]) ? sumScale(m[j]) : Factor<A>{A(0), A(0)};
                    s[j] = 0;
                }
                auto addScaled = [&](const P &v) {
#pragma unroll
                    for (int j = 0; j < VEC; ++j) {
                        s[j] += powP<0>(f[j].apply(absA<A>(wideAt(v, j))), plan.p);
                    }
                };
                if constexpr (ITEMS > 0) {
#pragma unroll
                    for (int k = 0; k < ITEMS; ++k) {
                        addScaled(buf[k]);
                    }
                } else {
                    streamRows([&](int64_t, const P &v) { addScaled(v); });
                }
            }
            if (by > 1 && !plain_merge) {
                mergeThreadRows<A, VEC>(m, s, plan.p, sh_m, sh_s);
            }
            if constexpr (MODE == ColsMode::Stats) {
                if (ty == 0 && valid) {
                    Stats<A> *rec = records + (q * plan.inner + col) * VEC;
#pragma unroll
                    for (int j = 0; j < VEC; ++j) {
                        rec[j] = {m[j], s[j]};
                    }
                }
                if (by > 1) {
                    __syncthreads(); // the next chunk reuses the shared arrays
                }
                continue;
            }
            if (by > 1) {
                if (ty == 0) {
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
        }
        // Element j of a pack scaled by its column's factor (16-bit pairs rounded together: mapPack).
        auto scaled = [&](const P &v) { return mapPack(v, [&](A e, int j) { return f[j].apply(e); }); };
        if constexpr (ITEMS > 0) {
#pragma unroll
            for (int k = 0; k < ITEMS; ++k) {
                const int64_t r = r0 + ty + (int64_t)k * by;
                if (r < r1) {
                    store(r, scaled(buf[k]));
                }
            }
        } else {
            streamRows([&](int64_t r, const P &v) { store(r, scaled(v)); });
        }
    }
}

// The Factor kernel of a cut axis: an element column a thread column (tx) of a
// (32, kFactorRows) block, the chunks ty, ty + kFactorRows, ... a thread
// row: the max of their records, then each record's sum rescaled to it, the
// loads of kBatch records issued together; the thread rows merged through
// shared memory in ty order (the same bits every call). Threads per element,
// not per pack, and batched loads: its predecessor (a thread a pack of
// columns walking its records one at a time) took 10-16 µs of a call. Small
// blocks (64 registers): launched early, they wait beside the Stats kernel's
// last blocks.
constexpr int kFactorRows = 8;
constexpr int kFactorThreads = 256; // a block: ROWS thread rows of kFactorThreads / ROWS columns
// Cut axes of at most this many chunks get a Factor kernel of one thread row (a column a thread of 256,
// its chunks in turn; the barriers pass at once) in place of 8 thread rows (0: never). Session 49's ncu:
// (147,25,25,80) BF16 axis 0, 3 chunks, Factor 8.6 µs (1563 blocks, 5 of 8 thread rows idle at two
// barriers a column; barrier stalls 4.5) against PyTorch's 2.6 µs clamp. Session 50, call 1 (H200, eager
// µs, 0 -> 8), 63 cut axes of 2-8 chunks and >= 25 µs: 0.972 (two default runs 0.998 apart), to 0.90
// ((136,17,125,20) BF16 axis 0 36.0 -> 32.5); the cut-axis GPU tests (3-7 chunks of each dtype) and
// memcheck passed on it. By chunks: 3-6 0.95-0.99 with no loss over 1.016, 7 0.999, 8 1.012, and call 2
// had (351,500,68) BF16 axis 1 (8 chunks of 68 columns) at 1.12x: a thread then walks 8 records in turn
// where 8 thread rows took one each. Hence 6.
#ifndef INFINI_LP_NORM_COLS_FACTOR_ONE_ROW_CHUNKS
#define INFINI_LP_NORM_COLS_FACTOR_ONE_ROW_CHUNKS 6
#endif

// ROWS thread rows of kFactorThreads / ROWS columns a block (kFactorRows: the (32, 8) blocks above; 1: a
// thread a column).
template <class A, int ROWS>
__global__ void __launch_bounds__(kFactorThreads, 4) colsFactorKernel(const Plan plan, Stats<A> *records) {
    pdlWaitPrevious(); // nothing global before: the Stats kernel is still writing the records
    pdlAllowNext();    // the Apply kernel waits for our factors (and so for the records' kernel too)
    constexpr int kBatch = sizeof(A) == 8 ? 4 : 8; // (8 F64 records spill at 64 registers)
    constexpr int kCols = kFactorThreads / ROWS;
    __shared__ A sh_m[ROWS][kCols], sh_s[ROWS][kCols];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t width = plan.inner * plan.vec; // element columns an outer index
    const int64_t e = (int64_t)blockIdx.x * kCols + tx;
    const bool valid = e < width;
    Factor<A> *factors = reinterpret_cast<Factor<A> *>(records + plan.rows * plan.chunks * width);
    for (int64_t o = blockIdx.y; o < plan.rows; o += gridDim.y) {
        const Stats<A> *rec = records + o * plan.chunks * width + e;
        // rec[c * width] for the chunks c of this thread row, in order, kBatch loads at a time.
        auto forRecords = [&](auto &&use) {
            forBatchedLoads<kBatch>(
                ty, valid ? plan.chunks : 0, ROWS, [&](int64_t c) { return rec[c * width]; },
                [&](int64_t, const Stats<A> &r) { use(r); });
        };
        A m = 0;
        forRecords([&](const Stats<A> &r) { m = maxNan(m, r.m); });
        if constexpr (ROWS > 1) {
            m = combineThreadRows<true>(m, &sh_m[0][0], MaxNanOp{});
        }
        A s = 0;
        if (scaledSumNeeded(m)) { // else (NaN, inf, zeros) the factor reads no sum
            forRecords([&](const Stats<A> &r) { s += rescaledSum(r.s, r.m, m, plan.p); });
        }
        if constexpr (ROWS > 1) {
            s = combineThreadRows<false>(s, &sh_s[0][0], SumOp{});
        }
        if (ty == 0 && valid) {
            factors[o * width + e] = rowFactor(m, s, plan.p, plan.eps);
        }
        if constexpr (ROWS > 1) {
            __syncthreads(); // the next outer index reuses the shared arrays
        }
    }
}

template <class T, int VEC, int ITEMS, ColsMode MODE>
infiniStatus_t launchColsT(const Plan &plan, const void *x, void *y, void *workspace, cudaStream_t stream,
                           bool pdl = false) {
    auto *records = static_cast<Stats<ComputeType<T>> *>(workspace);
    CUDA_TRY(launchKernel(colsKernel<T, VEC, ITEMS, MODE>, dim3(plan.grid_x, plan.grid_y), dim3(plan.bx, plan.by), 0,
                          stream, pdl, plan, (const T *)x, (T *)y, records));
    return INFINI_STATUS_SUCCESS;
}

// Whether a cut axis runs in packs of V elements of T (16-bit types: 4; wider packs only whole).
template <class T, int V>
constexpr bool cutAxisPack() {
    return sizeof(T) != 2 || V <= 4;
}

// f(T{}, VEC constant, ITEMS constant) for the plan's element type, pack and rows held.
template <class F>
infiniStatus_t withColsShape(const Plan &plan, F &&f) {
    return dispatchDtype<INFINI_FLOAT_DTYPES>(plan.dtype, [&](auto tag) {
        using T = DeviceType<decltype(tag)>;
        // 16-bit types: 4 elements a pack, or kColsPack16Bit where the axis stays whole (nvidia_plan.h).
        constexpr int kVec = sizeof(T) == 2 ? 4 : 16 / sizeof(T);
        constexpr int kWholeVec = sizeof(T) == 2 ? kColsPack16Bit : kVec;
        auto go = [&](auto vec) {
            switch (plan.items) {
            case 0: return f(T{}, vec, std::integral_constant<int, 0>{});
            case 4: return f(T{}, vec, std::integral_constant<int, 4>{});
            case 8: return f(T{}, vec, std::integral_constant<int, 8>{});
            case 16: return f(T{}, vec, std::integral_constant<int, 16>{});
            default: return INFINI_STATUS_INTERNAL_ERROR;
            }
        };
        if constexpr (kWholeVec != kVec) {
            if (plan.vec == kWholeVec) {
                return go(std::integral_constant<int, kWholeVec>{});
            }
        }
        if (plan.vec == kVec) {
            return go(std::integral_constant<int, kVec>{});
        }
        return go(std::integral_constant<int, 1>{});
    });
}

} // namespace

infiniStatus_t launchCols(const Plan &plan, const void *x, void *y, void *workspace, void *stream) {
    auto s = (cudaStream_t)stream;
    return withColsShape(plan, [&](auto t, auto vec, auto items) {
        using T = decltype(t);
        constexpr int V = decltype(vec)::value, I = decltype(items)::value;
        if (plan.chunks <= 1) {
            return launchColsT<T, V, I, ColsMode::Whole>(plan, x, y, workspace, s);
        }
        if constexpr (!cutAxisPack<T, V>()) {
            return INFINI_STATUS_INTERNAL_ERROR;
        } else {
            const bool pdl = plan.pdl_ok && pdlWanted(plan.pdl, s);
            INFINI_TRY((launchColsT<T, V, I, ColsMode::Stats>(plan, x, y, workspace, s)));
            using A = ComputeType<T>;
            auto launchFactor = [&](auto rows) { // the Factor kernel of rows.value thread rows
                constexpr int R = decltype(rows)::value, kCols = kFactorThreads / R;
                const dim3 grid((unsigned)ceilDiv(plan.inner * V, int64_t(kCols)),
                                (unsigned)std::min<int64_t>(plan.rows, 65535));
                return launchKernel(colsFactorKernel<A, R>, grid, dim3(kCols, R), 0, s, pdl, plan,
                                    static_cast<Stats<A> *>(workspace));
            };
            const bool one_row = plan.chunks <= INFINI_LP_NORM_COLS_FACTOR_ONE_ROW_CHUNKS;
            CUDA_TRY(one_row ? launchFactor(std::integral_constant<int, 1>{})
                             : launchFactor(std::integral_constant<int, kFactorRows>{}));
            return launchColsT<T, V, I, ColsMode::Apply>(plan, x, y, workspace, s, pdl);
        }
    });
}

void planColsPdl(Plan &plan) {
    withColsShape(plan, [&](auto t, auto vec, auto items) {
        using T = decltype(t);
        constexpr int V = decltype(vec)::value, I = decltype(items)::value;
        if constexpr (cutAxisPack<T, V>()) {
            using A = ComputeType<T>;
            plan.pdl_ok = kernelHonoursPdl(colsKernel<T, V, I, ColsMode::Apply>) &&
                          kernelHonoursPdl(colsFactorKernel<A, kFactorRows>) &&
                          kernelHonoursPdl(colsFactorKernel<A, 1>);
        }
        return INFINI_STATUS_SUCCESS;
    });
    plan.pdl = pdlPolicyOfKnob(INFINI_LP_NORM_COLS_SPLIT_PDL);
}

} // namespace infini::lp_norm::nvidia
