#pragma once
// Build-time switches of the sampling kernel (sample.cuh): the stage trace
// and the A/B knobs of its code-size work (each -D macro's default is the
// shipped choice; tools/verify_rs7.sh times the other side).

// Tuning aid (off unless built with -DINFINI_RS_TRACE): member 0 of each row
// prints the cycles spent in each stage.
#ifdef INFINI_RS_TRACE
#include <cstdio>
#define RS_MARK(i) (trace[i] = clock64())
#else
#define RS_MARK(i) ((void)0)
#endif

namespace infini::random_sample::nvidia {

// The sweeps take their vectors through one copy of their vector body
// (forVectors' kOneBody): the unrolled copies made the kernel ~24k
// instructions, and ncu counted ~45% of its issue gaps as instruction-fetch
// stalls (H100, session 6; notes/random_sample.md). For A/B runs,
// -DINFINI_RS_ROLLED=0 builds the unrolled sweeps, =1 session 6's rolled
// ones (a second copy of the body for the head).
#ifndef INFINI_RS_ROLLED
#define INFINI_RS_ROLLED 2
#endif
constexpr int kRolledSweeps = INFINI_RS_ROLLED;
// The per-element work of descents 1 and 2 and of the collect: one copy, in a
// loop over the elements that some lane of the warp needs (forMarked,
// session rs7); -DINFINI_RS_SPARSE=0 unrolls it over every element, for A/B.
#ifndef INFINI_RS_SPARSE
#define INFINI_RS_SPARSE 1
#endif
constexpr bool kSparse = INFINI_RS_SPARSE != 0;
// Sweep 1's block argmax by warp shuffles (blockBest) instead of
// cub::BlockReduce, and vecBest / vecMaybe Lean (device.cuh): less code on
// the path of every row (session rs7); -DINFINI_RS_LEAN=0 for A/B.
#ifndef INFINI_RS_LEAN
#define INFINI_RS_LEAN 1
#endif
constexpr bool kLean = INFINI_RS_LEAN != 0;
// Member 0's tail for few candidates (session 9): the rank sort by groups of
// lanes (sortCandidates) and, for at most 128 weighed positions, the scan and
// the pick in one warp, without block barriers; -DINFINI_RS_SMALL_TAIL=0 for
// A/B (one lane a candidate, the block scan).
#ifndef INFINI_RS_SMALL_TAIL
#define INFINI_RS_SMALL_TAIL 1
#endif
constexpr bool kSmallTail = INFINI_RS_SMALL_TAIL != 0;
#ifndef INFINI_RS_TOPP_TAIL
#define INFINI_RS_TOPP_TAIL 0
#endif
constexpr bool kTopPTail = INFINI_RS_TOPP_TAIL != 0;

} // namespace infini::random_sample::nvidia
