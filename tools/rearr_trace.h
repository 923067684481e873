// The global-memory trace of the emulated 2-byte tile kernels (tools/rearr4_emulate.cc):
// loadGlobal / storeGlobal (tile_index.cuh's hooks) record each access of a
// thread; after each block the accesses are grouped into warp instructions
// (warp, slot) and counted in 32-byte sectors, as the L1TEX sees them:
// - requests: per warp instruction, the distinct sectors its lanes touch (what
//   one instruction sends to L2 when nothing hits in L1: ncu's
//   l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st});
// - block-distinct load sectors: the same with every load of a block that hits
//   a sector an earlier load of the block touched counted as an L1 hit;
// - distinct sectors over the launch, and for stores the byte mask of each
//   sector (partially written at the end, written by more than one
//   instruction).
// Include after the device dialect and before the kernels, with
// INFINI_REARRANGE_TRACE defined.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace emu {
struct Access {
    int slot;
    uintptr_t addr;
    int bytes;
    bool store;
};
constexpr int kThreads = 256, kLanes = 32;
inline std::vector<Access> trace_log[kThreads]; // per thread of the running block
inline thread_local int trace_tid = 0;
inline bool tracing = false;
// Loads must stay within [load_lo, load_hi) (the src view's extent, set by the emulator); others are counted.
inline uintptr_t load_lo = 0, load_hi = UINTPTR_MAX;
inline std::atomic<uint64_t> loads_outside{0};

struct SectorCounts {
    uint64_t ld_inst = 0, ld_req = 0, ld_block = 0, st_inst = 0, st_req = 0;
    std::map<int, uint64_t> ld_hist, st_hist; // sectors per instruction -> instructions
    std::unordered_set<uint64_t> ld_sectors;
    std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> st_sectors; // byte mask, instructions

    // Groups the block's accesses (every thread's log) into warp instructions.
    void addBlock() {
        std::unordered_set<uint64_t> block_ld;
        for (int w = 0; w < kThreads / kLanes; ++w) {
            std::map<std::pair<bool, int>, std::vector<const Access *>> inst; // (store, slot) -> lanes' accesses
            for (int t = w * kLanes; t < (w + 1) * kLanes; ++t) {
                for (const Access &a : trace_log[t]) inst[{a.store, a.slot}].push_back(&a);
            }
            for (auto &[key, lanes] : inst) {
                std::vector<uint64_t> sec;
                for (const Access *a : lanes) {
                    for (uint64_t s = a->addr / 32; s <= (a->addr + a->bytes - 1) / 32; ++s) sec.push_back(s);
                }
                std::sort(sec.begin(), sec.end());
                sec.erase(std::unique(sec.begin(), sec.end()), sec.end());
                if (key.first) {
                    ++st_inst;
                    st_req += sec.size();
                    ++st_hist[(int)sec.size()];
                    for (uint64_t s : sec) ++st_sectors[s].second;
                    for (const Access *a : lanes) {
                        for (int b = 0; b < a->bytes; ++b) st_sectors[(a->addr + b) / 32].first |= 1u << ((a->addr + b) % 32);
                    }
                } else {
                    ++ld_inst;
                    ld_req += sec.size();
                    ++ld_hist[(int)sec.size()];
                    for (uint64_t s : sec) {
                        ld_block += block_ld.insert(s).second;
                        ld_sectors.insert(s);
                    }
                }
            }
        }
        for (auto &l : trace_log) l.clear();
    }

    void print(const char *name) const {
        uint64_t partial = 0, shared = 0;
        for (auto &[s, m] : st_sectors) {
            partial += m.first != 0xFFFFFFFFu;
            shared += m.second > 1;
        }
        auto hist = [](const std::map<int, uint64_t> &h) {
            for (auto &[n, c] : h) std::printf(" %d:%llu", n, (unsigned long long)c);
        };
        std::printf("%s\n  stores: %llu instructions, %llu sector requests, %llu distinct sectors (%llu written by 2+ "
                    "instructions, %llu partial at the end); sectors/instruction:",
                    name, (unsigned long long)st_inst, (unsigned long long)st_req,
                    (unsigned long long)st_sectors.size(), (unsigned long long)shared, (unsigned long long)partial);
        hist(st_hist);
        std::printf("\n  loads: %llu instructions, %llu sector requests, %llu block-distinct (L1 hits within a block "
                    "out), %llu distinct sectors; sectors/instruction:",
                    (unsigned long long)ld_inst, (unsigned long long)ld_req, (unsigned long long)ld_block,
                    (unsigned long long)ld_sectors.size());
        hist(ld_hist);
        // The far-partition model (notes/rearrange.md, session 7): ncu's lts__t_sectors count a request at the
        // requesting partition's slice, and once more at the other partition's slice for the half of the
        // addresses homed there, after the local slice merged the requests to one sector.
        std::printf("\n  model of ncu's L2 sectors: write = requests + distinct / 2 = %.3fM; read = block-distinct + "
                    "distinct / 2 = %.3fM (requests + distinct / 2 = %.3fM)\n",
                    (st_req + st_sectors.size() / 2.0) / 1e6, (ld_block + ld_sectors.size() / 2.0) / 1e6,
                    (ld_req + ld_sectors.size() / 2.0) / 1e6);
    }
};
} // namespace emu

namespace infini::rearrange::nvidia {
template <class T>
inline T loadGlobal(const T *p, int slot) {
    if (emu::tracing) emu::trace_log[emu::trace_tid].push_back({slot, (uintptr_t)p, (int)sizeof(T), false});
    if ((uintptr_t)p < emu::load_lo || (uintptr_t)p + sizeof(T) > emu::load_hi) ++emu::loads_outside;
    return *p;
}
template <class T>
inline void storeGlobal(T *p, T v, int slot) {
    if (emu::tracing) emu::trace_log[emu::trace_tid].push_back({slot, (uintptr_t)p, (int)sizeof(T), true});
    *p = v;
}
} // namespace infini::rearrange::nvidia
