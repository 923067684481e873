#pragma once
// Stage: sampling (and the argmax of rows mixed into a sampling launch). One
// team per row; the stages are listed in nvidia.cuh. Every team member runs
// the selection on the same merged histograms (summed over members in a fixed
// order), so all take the same decisions without exchanging them.
#include "device.cuh"
#include "sample_tuning.h"
#include "select.cuh"
#include "team.cuh"
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

namespace infini::random_sample::nvidia {

constexpr int kThreads = 512; // sampling block
constexpr int kBinsPerThread = kBins / kThreads;
constexpr int kItems = kCap / kThreads;
// Top p over more than kCap elements: the first guess collects the elements
// at or above the bucket above the one where the vectors' maxima reach this many.
constexpr uint32_t kSpecVectors = 256;

// One radix level's histogram; two alternate, so that a member may clear the
// next level's while another still reads this one. (16-byte aligned: merges
// read 4 bins at once.)
struct alignas(16) Hist {
    uint32_t cnt[kBins];
    double w[kBins];
    double total; // this member's share of the row's total weight
};
template <class K>
struct SampleShared {
    Hist hist[2];
    K key[kCap]; // candidates (member 0's receive everyone's)
    uint32_t idx[kCap];
};
template <class T>
constexpr size_t sampleSharedBytes() { return sizeof(SampleShared<KeyType<T>>); }

// One row. TopP: the launch has rows that guess their top-p crossing
// (guessesTopP; the other rows of such a launch take their usual path);
// without it that code is compiled out, so that it costs the other launches
// no registers, shared memory or instructions. MaxTeam: the largest team
// of the launches of this instance (member arrays and merge groups).
template <class T, bool TopP, int MaxTeam>
__device__ inline void sampleRow(const RowsArgs &a, const RowParams p) {
    static_assert(MaxTeam % kCluster == 0, "merges load members in groups of kCluster");
    using K = KeyType<T>;
    constexpr int KB = FloatBits<T>::bits;
    using Cm = ComputeType<T>;
    using E = Entry<K>;
    using ReduceD = cub::BlockReduce<double, kThreads>;
    using ScanU = cub::BlockScan<uint32_t, kThreads>;
    using ScanD = cub::BlockScan<double, kThreads>;
    constexpr int V = 16 / sizeof(T);
    constexpr int BPT = kBinsPerThread;

    extern __shared__ __align__(16) unsigned char smem_raw[];
    SampleShared<K> &sh = *reinterpret_cast<SampleShared<K> *>(smem_raw);
    __shared__ union {
        E warps[kThreads / 32];                                 // blockBest (kLean)
        typename cub::BlockReduce<E, kThreads>::TempStorage re; // (!kLean)
        typename ReduceD::TempStorage rd;
        typename ScanU::TempStorage su;
        typename ScanD::TempStorage sd;
    } tmp;
    __shared__ E s_bests[MaxTeam], s_all; // every member's argmax, pushed by each
    __shared__ Pick pick;
    __shared__ uint32_t s_count;  // candidates received (member 0)
    __shared__ uint32_t s_mine;   // candidates this member found
    __shared__ uint32_t s_counts[MaxTeam]; // every member's s_mine, pushed by each
    __shared__ double s_totals[MaxTeam]; // every member's share of the total weight, pushed by each
    __shared__ double s_cand_w;           // the weight of member 0's candidates, pushed by member 0
    __shared__ double s_bcast;
    __shared__ __align__(8) uint32_t s_groups[kGroups]; // this member's sweep-1 counts by groups of bins

#ifdef INFINI_RS_TRACE
    long long trace[9] = {};
    int rounds = 0;
#endif
    RS_MARK(0);
    Team::arrive(); // members start together; the first push below waits for that
    const unsigned q = Team::rank();
    const int tid = threadIdx.x;
    const uint32_t n = a.n;
    const T *row = static_cast<const T *>(a.probs) + (ptrdiff_t)blockIdx.y * a.row_stride;
    const ptrdiff_t out_off = (ptrdiff_t)blockIdx.y * a.result_stride;
    const int IB = indexBits(n);
    const RowMode mode = rowMode(p, n);
    uint32_t begin, end;
    const unsigned team = Team::size();
    chunkOf<T>(n, team, q, &begin, &end);
    auto clear = [&](Hist &h, bool weights) {
        for (int i = tid; i < kBins; i += kThreads) {
            h.cnt[i] = 0;
            if (weights) h.w[i] = 0.0;
        }
    };
    // The block-wide sum of x, in every thread.
    auto blockSum = [&](double x) {
        __syncthreads();
        const double s = ReduceD(tmp.rd).Sum(x);
        if (tid == 0) s_bcast = s;
        __syncthreads();
        return s_bcast;
    };

    // ---- Sweep 1: the argmax over the chunk, one packed max per vector; for
    // a top K (K <= kCap) and top-p guesses also the level-0 histogram of the
    // vectors' maxima: if K vectors have their max at or above a bucket, so
    // do >= K elements.
    Level lv0;
    levelAt(0, KB, IB, &lv0);
    bool fast = mode.descent1 && mode.K <= (uint32_t)kCap;
    // Top p over more than kCap (K == n, or K > kCap with topp < 1): guess
    // the crossing from the vectors' maxima, verify it with exact weights.
    const bool spec = TopP && guessesTopP(mode, n);
    const bool vhist = fast || spec;
    if (vhist) clear(sh.hist[0], false);
    if (tid == 0) s_count = 0;
    __syncthreads();
    E best = noEntry<K>();
    forVectors<kThreads, 4, kRolledSweeps>(row, begin, end, [&](const T (&v)[V], uint32_t i0, uint32_t cnt) {
        const K kmax = vecBest<kLean>(v, i0, cnt, best);
        if (vhist) histAdd<false>(sh.hist[0].cnt, nullptr, cnt > 0, digitOf(lv0, kmax, 0u), 0.0);
    });
    if constexpr (kLean) {
        best = blockBest<kThreads>(best, tmp.warps);
    } else {
        best = cub::BlockReduce<E, kThreads>(tmp.re).Reduce(best, EntryMax<K>());
    }
    if (vhist) {
        __syncthreads(); // the histogram is complete
        coarseCounts<kThreads>(sh.hist[0].cnt, s_groups); // published by the team barrier below
    }
    Team::wait();
    if (tid == 0) s_all = best;
    __syncthreads();
    if (tid < team) *Team::at(&s_bests[q], tid) = s_all; // pushed into member tid
    RS_MARK(1);
    Team::sync();
    if (tid < 32) {
        E e = noEntry<K>();
        for (unsigned k = tid; k < team; k += 32) {
            if (before(s_bests[k], e)) e = s_bests[k];
        }
        e = warpBest(e);
        if (tid == 0) s_all = e;
    }
    __syncthreads();
    best = s_all;
    // The max's value from its key (exact: keys map one to one onto values,
    // -0/+0 and NaN aside, which weigh the same): no dependent load.
    const Cm vmax = valueOfKey<T>(best.key);
    if (mode.argmax || !(vmax > -(Cm)INFINITY) || !(vmax < (Cm)INFINITY)) {
        if (q == 0 && tid == 0) storeIndex(a.result, out_off, a.result_size, best.idx);
        return;
    }
    RS_MARK(2);
    const Weigher<T> weigh = makeWeigher<T>(vmax, p.temperature);
    const double r = p.random_val;
    const double topp = p.topp < 1.0f ? (double)p.topp : 1.0;
    int phase = 0; // the histogram of the level just merged

    // This thread's bins of the merged histogram of `phase`.
    // (A thread's BPT == 4 bins are contiguous: one 16-byte load per member,
    // every member's issued before any is summed, in member order.)
    static_assert(BPT == 4, "merges load 4 bins at once");
    const int bin0 = binOf<kThreads>(BPT - 1);
    // (Teams of more than kCluster: groups of kCluster members, loaded and
    // summed one group after the other, still in member order.)
    auto mergedCounts = [&](uint32_t (&c)[BPT]) {
#pragma unroll
        for (unsigned g = 0; g < (unsigned)MaxTeam; g += kCluster) {
            if (g > 0 && g >= team) break;
            uint4 h[kCluster];
#pragma unroll
            for (unsigned m = 0; m < kCluster; ++m) {
                h[m] = g + m < team ? *reinterpret_cast<const uint4 *>(Team::at(sh.hist[phase].cnt + bin0, g + m))
                                    : make_uint4(0, 0, 0, 0);
            }
            if (g == 0) {
#pragma unroll
                for (int k = 0; k < BPT; ++k) c[k] = 0;
            }
#pragma unroll
            for (unsigned m = 0; m < kCluster; ++m) {
                c[3] += h[m].x;
                c[2] += h[m].y;
                c[1] += h[m].z;
                c[0] += h[m].w;
            }
        }
    };
    auto mergedWeights = [&](double (&w)[BPT]) {
#pragma unroll
        for (unsigned g = 0; g < (unsigned)MaxTeam; g += kCluster) {
            if (g > 0 && g >= team) break;
            double2 lo[kCluster], hi[kCluster];
#pragma unroll
            for (unsigned m = 0; m < kCluster; ++m) {
                const double2 *h = reinterpret_cast<const double2 *>(Team::at(sh.hist[phase].w + bin0, g + m));
                lo[m] = g + m < team ? h[0] : make_double2(0.0, 0.0);
                hi[m] = g + m < team ? h[1] : make_double2(0.0, 0.0);
            }
            if (g == 0) {
#pragma unroll
                for (int k = 0; k < BPT; ++k) w[k] = 0.0;
            }
#pragma unroll
            for (unsigned m = 0; m < kCluster; ++m) {
                w[3] += lo[m].x;
                w[2] += lo[m].y;
                w[1] += hi[m].x;
                w[0] += hi[m].y;
            }
        }
    };

    Prefix<K> p1, p2;
    double base = 0.0, t = 0.0, total = 0.0;
    bool t_known = false, total_known = false;
    // Fast top K: the bucket where the vectors' maxima reach K bounds the K-th
    // element from below; everything at or above it is collected (a superset
    // of the top K), unless more than kCap turn out to be (then exactSelect).
    if (fast) {
        selectMergedByCount<MaxTeam>(sh.hist[0].cnt, s_groups, team, mode.K, pick);
        if (pick.bin == 0xffffffffu) {
            fast = false; // fewer than K vectors
        } else {
            p1 = extend(p1, lv0, pick.bin);
        }
    }
    // Top p, first guess: the bucket above the one where the vectors' maxima
    // reach kSpecVectors (at most that many vectors, typically as many
    // elements, the max among them). Collect then verifies, with exact
    // weights, that the crossing lies among them.
    bool spec_on = spec;
    uint32_t spec_bin = 0;
    if (spec) {
        selectMergedByCount<MaxTeam>(sh.hist[0].cnt, s_groups, team, kSpecVectors, pick);
        if (pick.bin == 0xffffffffu) {
            spec_on = false; // fewer vectors: the exact way
        } else {
            spec_bin = pick.above > 0 ? pick.bin + 1 : pick.bin;
            p1 = extend(p1, lv0, spec_bin);
        }
    }

    // The exact selection: descents 1 and 2 over radix levels, a sweep each.
    auto exactSelect = [&]() {
    // ---- Descent 1: the set S of everything at or above prefix p1.
    uint32_t s_size = n;
    if (mode.descent1) {
        uint32_t above = 0;
        for (int l = 0;; ++l) {
            Level lv;
            levelAt(l, KB, IB, &lv);
            {
                phase ^= 1;
                Hist &h = sh.hist[phase];
                clear(h, false);
                __syncthreads();
                const ValueRange<T> range = valueRange<T>(p1.kpref, (K)(p1.kpref | ~p1.kmask));
                forVectors<kThreads, 4, kRolledSweeps>(row, begin, end, [&](const T (&v)[V], uint32_t i0, uint32_t cnt) {
                    if (!__any_sync(0xffffffffu, vecMaybe<kLean>(range, v, cnt))) return;
                    forMarked<V, kSparse>(
                        [&](int e) { return (uint32_t)e < cnt && p1.matches(keyOf(v[e]), n - 1 - (i0 + e)); },
                        [&](int e, bool hit) {
                            histAdd<false>(h.cnt, nullptr, hit, digitOf(lv, keyOf(vecAt(v, e)), n - 1 - (i0 + e)), 0.0);
                        });
                });
                Team::sync();
            }
            uint32_t c[BPT];
            mergedCounts(c);
            selectByCount<kThreads>(c, mode.K - above, tmp.su, pick);
            above += pick.above;
            const uint32_t through = above + pick.cnt;
            p1 = extend(p1, lv, pick.bin);
            // Stop once S is small enough to sort (a deeper level costs one cheap
            // sweep, sorting kCap candidates costs more), or exactly the top K.
            const uint32_t stop_at =
                mode.K > (uint32_t)kCap ? mode.K : (mode.K > kSortSmall ? (uint32_t)kCap : kSortSmall);
            Level next;
            if (through <= stop_at || !levelAt(l + 1, KB, IB, &next)) {
                s_size = through;
                break;
            }
        }
    }

    RS_MARK(3);
    // ---- Descent 2 (|S| > kCap): the bucket of the weight crossing inside S.
    if (s_size > (uint32_t)kCap) {
        for (int l = 0;; ++l) {
            Level lv;
            if (!levelAt(l, KB, IB, &lv)) break; // cannot happen: one element per bin at the end
            const ValueRange<T> range = candidateRange<T>(p1, p2);
            const bool sum_all = l == 0 && mode.need_total && !total_known;
            phase ^= 1;
            Hist &h = sh.hist[phase];
            clear(h, true);
            __syncthreads();
            double my_total = 0.0;
            forVectors<kThreads, 4, kRolledSweeps>(row, begin, end, [&](const T (&v)[V], uint32_t i0, uint32_t cnt) {
                if (!sum_all && !__any_sync(0xffffffffu, vecMaybe<kLean>(range, v, cnt))) return;
                forMarked<V, kSparse>(
                    [&](int e) {
                        const bool valid = (uint32_t)e < cnt;
                        const K key = keyOf(v[e]);
                        const uint32_t ridx = n - 1 - (i0 + e);
                        if (sum_all && valid) my_total += weigh(v[e]); // (used only when sum_all)
                        return valid && p1.atOrAbove(key, ridx) && p2.matches(key, ridx);
                    },
                    [&](int e, bool act) {
                        const T x = vecAt(v, e);
                        histAdd<true>(h.cnt, h.w, act, digitOf(lv, keyOf(x), n - 1 - (i0 + e)), act ? weigh(x) : 0.0);
                    });
            });
            if (sum_all) {
                const double part = blockSum(my_total);
                if (tid == 0) h.total = part;
            }
            Team::sync();
            uint32_t c[BPT];
            double w[BPT];
            mergedCounts(c);
            mergedWeights(w);
            if (l == 0) {
                // c_{K-1} is the weight of S; topp * c_{n-1} needs the row's total.
                if (sum_all) {
                    for (unsigned m = 0; m < team; ++m) total += *Team::at(&sh.hist[phase].total, m);
                    total_known = true;
                }
                double cs = 0.0;
#pragma unroll
                for (int k = 0; k < BPT; ++k) cs += w[k];
                cs = blockSum(cs);
                double bound = cs;
                if (mode.need_total && topp * total < bound) bound = topp * total;
                t = r * bound;
                t_known = true;
            }
            selectByWeight<kThreads>(c, w, t - base, tmp.sd, pick);
            base += pick.wabove;
            p2 = extend(p2, lv, pick.bin);
            if (pick.cnt <= (uint32_t)kCap) break;
        }
    }

    };

    // ---- Collect: every member pushes its candidates (and its share of the
    // total weight when still needed) into member 0.
    uint32_t *count0 = Team::at(&s_count, 0);
    K *key0 = Team::at(sh.key, 0);
    uint32_t *idx0 = Team::at(sh.idx, 0);
    uint32_t found_all = 0; // candidates of the last collect, over the team
    double cand_w = 0.0;    // their weight (top-p guesses only)
    auto collect = [&]() {
    if (tid == 0) s_mine = 0;
    __syncthreads();
    const bool with_total = !total_known && (mode.need_total || spec_on);
    double my_total = 0.0;
    const ValueRange<T> range = candidateRange<T>(p1, p2);
    forVectors<kThreads, 4, kRolledSweeps>(row, begin, end, [&](const T (&v)[V], uint32_t i0, uint32_t cnt) {
        if (with_total) {
            if constexpr (kLean) {
                my_total = weigh.addWeights(my_total, v, cnt);
            } else {
#pragma unroll
                for (int e = 0; e < V; ++e) {
                    if ((uint32_t)e < cnt) my_total += weigh(v[e]);
                }
            }
        }
        if (!__any_sync(0xffffffffu, vecMaybe<kLean>(range, v, cnt))) return;
        auto candidate = [&](int e) {
            const K key = keyOf(v[e]);
            const uint32_t ridx = n - 1 - (i0 + e);
            return (uint32_t)e < cnt && p1.atOrAbove(key, ridx) && p2.matches(key, ridx);
        };
        forMarked<V, kSparse>(candidate, [&](int e, bool take) {
            const unsigned m = __ballot_sync(0xffffffffu, take);
            if (m == 0) return;
            const uint32_t i = i0 + e;
            const int lane = tid & 31;
            const int leader = __ffs(m) - 1;
            uint32_t start = 0;
            if (lane == leader) {
                start = atomicAdd(count0, (uint32_t)__popc(m));
                atomicAdd(&s_mine, (uint32_t)__popc(m));
            }
            start = __shfl_sync(0xffffffffu, start, leader);
            if (take) {
                const uint32_t pos = start + __popc(m & ((1u << lane) - 1u));
                if (pos < (uint32_t)kCap) { // false only when the candidates overflow (then redone)
                    key0[pos] = keyOf(vecAt(v, e));
                    idx0[pos] = i;
                }
            }
        });
    });
    const double part_total = with_total ? blockSum(my_total) : 0.0;
    __syncthreads();
    // Every member learns the counts and weights from pushes: no member reads
    // another after this barrier, so members may leave once past it.
    if (tid < (int)team) {
        *Team::at(&s_counts[q], tid) = s_mine;
        *Team::at(&s_totals[q], tid) = part_total;
    }
    RS_MARK(5);
    Team::sync();
    found_all = 0;
    double sum = 0.0;
    for (unsigned k = 0; k < team; ++k) { // member order: the same sums in every member
        found_all += s_counts[k];
        sum += s_totals[k];
    }
    if (with_total) {
        total = sum;
        total_known = true;
    }
    };
    // The weight of a top-p guess's candidates: member 0 sums what it
    // received and pushes it to every member (kept out of the collect sweep,
    // whose registers the small-K path needs).
    auto candidateWeight = [&]() {
        if (q == 0) {
            const uint32_t m0 = s_count < (uint32_t)kCap ? s_count : (uint32_t)kCap;
            double w = 0.0;
            for (uint32_t i = tid; i < m0; i += kThreads) w += weigh.ofValue(valueOfKey<T>(sh.key[i]));
            w = blockSum(w);
            if (tid < (int)team) *Team::at(&s_cand_w, tid) = w;
        }
        Team::sync();
        return s_cand_w;
    };
    // Top p: a guess holds when its candidates (a prefix of the order) reach
    // the threshold; for K < n they must reach topp * total, so that
    // min(topp * c_{n-1}, c_{K-1}) is known to be topp * total.
    auto specNeed = [&]() { return mode.K == n ? r * topp * total : topp * total; };
    // Second guess: the highest bucket below the first where the weight above
    // it is surely enough: the candidates' weight plus, per bucket, its
    // vectors' count times the weight of its lowest value (each such vector
    // has an element at least that heavy). False when none is.
    auto secondGuess = [&]() {
        const double need = specNeed() * (1.0 + 1e-6) - cand_w;
        uint32_t vc[BPT]; // (every member's sweep-1 histogram is still in place)
        mergedCounts(vc);
        double lb[BPT], ex[BPT], agg;
#pragma unroll
        for (int k = 0; k < BPT; ++k) {
            const uint32_t d = (uint32_t)binOf<kThreads>(k);
            lb[k] = d < spec_bin ? vc[k] * weigh.ofValue(valueOfKey<T>((K)d << lv0.shift)) * (1.0 - 1e-6) : 0.0;
        }
        if (tid == 0) pick.bin = 0xffffffffu;
        __syncthreads();
        ScanD(tmp.sd).ExclusiveSum(lb, ex, agg);
#pragma unroll
        for (int k = 0; k < BPT; ++k) {
            if (ex[k] < need && need <= ex[k] + lb[k]) pick.bin = (uint32_t)binOf<kThreads>(k);
        }
        __syncthreads();
        if (pick.bin == 0xffffffffu) return false;
        p1 = extend(Prefix<K>{}, lv0, pick.bin);
        return true;
    };
    // Rounds: [exact selection,] collect, then either done, a second top-p
    // guess, or (too many candidates: ties; guesses short) the exact way.
    // Before a round that collects again, member 0 resets its counter ahead
    // of a team barrier that precedes every push (the one below, or the
    // first in exactSelect), after which also no one reads the last exchange.
    bool exact = !fast && !spec_on;
    for (int round = 0;; ++round) {
#ifdef INFINI_RS_TRACE
        rounds = round;
#endif
        if (exact) exactSelect();
        RS_MARK(4);
        collect();
        if (exact) break;
        if (spec_on) {
            if (found_all <= (uint32_t)kCap) cand_w = candidateWeight();
            if (found_all <= (uint32_t)kCap && specNeed() <= cand_w * (1.0 - 1e-9)) {
                t = r * topp * total;
                t_known = true;
                break;
            }
            if (round == 0 && found_all <= (uint32_t)kCap && secondGuess()) {
                if (q == 0 && tid == 0) s_count = 0;
                Team::sync();
                continue;
            }
            spec_on = false;
        } else if (found_all <= (uint32_t)kCap) {
            break; // small K: the candidates hold the top K
        }
        if (q == 0 && tid == 0) s_count = 0;
        p1 = Prefix<K>{};
        exact = true;
    }
    RS_MARK(6);
#ifdef INFINI_RS_TRACE
    // Every member but 0 prints here, just before it leaves; member 0 prints at
    // its end, so that no printf falls inside a timed stage of its own.
    auto printMember = [&] {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        printf("trace member %u/%u sm %u: sweep1 %lld merge %lld collect %lld sync %lld cycles\n", q, team, sm,
               trace[1] - trace[0], trace[2] - trace[1], trace[5] - trace[4], trace[6] - trace[5]);
    };
    if (q != 0 && tid == 0) printMember();
#endif
    if (q != 0) return;
    const uint32_t m = s_count < (uint32_t)kCap ? s_count : (uint32_t)kCap;

    // ---- Member 0: sort the candidates, scan their weights (F64), find the crossing.
    // (Every member has passed its last merge: the histograms are free scratch.)
    K *skey;
    uint32_t *sidx;
    // The one-warp tail in the small-K instances only (session 9's A/B: the
    // top-p instance ran 1.8 µs slower with it; INFINI_RS_TOPP_TAIL=1 puts it back there).
    constexpr bool kTail = kSmallTail && (!TopP || kTopPTail);
    sortCandidates<kThreads, kTail>(sh.key, sh.idx, m, reinterpret_cast<K *>(sh.hist[0].w),
                             reinterpret_cast<uint32_t *>(sh.hist[1].w), &skey, &sidx);
    RS_MARK(7);
    // Without descent 2 the candidates are a superset of the top K, in order:
    // only the first K count.
    const uint32_t limit = (!t_known && mode.K < m) ? mode.K : m;
    // t from c_{K-1} (the candidates' total) when not known yet; topp *
    // c_{n-1} uses the row's total.
    auto threshold = [&](double agg) {
        if (t_known) return t;
        double bound = agg;
        if (mode.need_total && topp * total < bound) bound = topp * total;
        return r * bound;
    };
    // This thread's first position (of tid * kItems + k) whose cumulative
    // weight reaches tt (-1: none), and its last weighted one in `last`.
    auto crossing = [&](const double (&w)[kItems], const double (&ex)[kItems], double tt, int &last) {
        int found = -1;
#pragma unroll
        for (int k = kItems - 1; k >= 0; --k) {
            const uint32_t pos = tid * kItems + k;
            if (pos < limit) {
                const double c_before = base + ex[k];
                if (c_before < tt && tt <= c_before + w[k]) found = (int)pos;
                if (w[k] > 0.0 && last < 0) last = (int)pos;
            }
        }
        return found;
    };
    double w[kItems], ex[kItems];
    double sum = 0.0; // this thread's weights; ex: their exclusive prefix within it
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const uint32_t pos = tid * kItems + k;
        w[k] = pos < limit ? weigh.ofValue(valueOfKey<T>(skey[pos])) : 0.0;
        ex[k] = sum;
        sum += w[k];
    }
    int chosen, last = -1;
    if (kTail && limit <= 32u * kItems) {
        // (the usual top K) one warp: a warp scan, no block barriers
        if (tid >= 32) return;
        double incl = sum;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const double y = __shfl_up_sync(0xffffffffu, incl, d);
            if (tid >= d) incl += y;
        }
        const double agg = __shfl_sync(0xffffffffu, incl, 31);
        const double up = __shfl_up_sync(0xffffffffu, incl, 1);
        const double before = tid == 0 ? 0.0 : up;
#pragma unroll
        for (int k = 0; k < kItems; ++k) ex[k] = k == 0 ? before : before + ex[k];
        const int found = crossing(w, ex, threshold(agg), last);
        const unsigned hit = __ballot_sync(0xffffffffu, found >= 0);
        // (rounding only: no crossing, the last weighted position)
        chosen = hit != 0 ? __shfl_sync(0xffffffffu, found, __ffs(hit) - 1) : __reduce_max_sync(0xffffffffu, last);
    } else {
        if (tid == 0) pick.pos = -1;
        double agg;
        __syncthreads();
        ScanD(tmp.sd).ExclusiveSum(w, ex, agg);
        const int found = crossing(w, ex, threshold(agg), last);
        __syncthreads();
        if (found >= 0) pick.pos = found;
        __syncthreads();
        if (pick.pos < 0 && last >= 0) atomicMax(&pick.pos, last); // rounding only: the last weighted position
        __syncthreads();
        chosen = pick.pos;
    }
    if (tid == 0) storeIndex(a.result, out_off, a.result_size, sidx[chosen >= 0 ? chosen : 0]);
#ifdef INFINI_RS_TRACE
    RS_MARK(8);
    if (tid == 0) printMember();
    if (tid == 0) // (marks of stages that did not run are 0: their spans are meaningless)
        printf("trace n=%u team=%u m=%u rounds=%d: sweep1 %lld merge %lld descent1 %lld descent2 %lld collect %lld sync %lld "
               "sort %lld scan %lld cycles\n", n, team, m, rounds, trace[1] - trace[0], trace[2] - trace[1],
               trace[3] - trace[2], trace[4] - trace[3], trace[5] - trace[4], trace[6] - trace[5],
               trace[7] - trace[6], trace[8] - trace[7]);
#endif
}

// One instance per (rows per launch, TopP, MaxTeam), chosen on the host
// (launch.cuh): one sampleRow per kernel, so that the top-p code's registers
// and static shared memory do not weigh on the small-K launches, and the
// member arrays and merge groups of teams of 16 not on launches of teams of
// at most kCluster (sampleInstanceTeam, nvidia.cuh). Teams wider than
// kCluster are clusters of sm_90: elsewhere (sm_80) such an instance is never
// launched, and its body is left out (compile time).
template <class T, int R, bool TopP, int MaxTeam>
__global__ void __launch_bounds__(kThreads, 2) sampleKernel(const __grid_constant__ SampleArgs<R> args) {
    static_assert(MaxTeam <= sampleMaxTeam<R>(), "launches of R rows take no wider teams");
#ifdef INFINI_RS_CLUSTERS
    constexpr bool kLaunched = true;
#else
    constexpr bool kLaunched = MaxTeam <= kCluster;
#endif
    if constexpr (kLaunched) {
        pdlWaitPrevious(); // (launched with PDL: the logits' writer and the result's readers are done)
        pdlAllowNext();
        sampleRow<T, TopP, MaxTeam>(args.rows, args.p[blockIdx.y]);
    } else {
        __trap();
    }
}

} // namespace infini::random_sample::nvidia
