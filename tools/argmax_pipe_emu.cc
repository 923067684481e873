// CPU emulation of the F16 argmax candidates of argmax_pipe.cuh (issue 12):
// every thread of every team member walks its chunk as pipeChunkBest does
// (unaligned head, full tiles behind the packed-max threshold test, the last
// tile moved back to stay full, tail elements compared last), then the block and the team merge with the (key, index) order.
// Compared with a plain host argmax over order keys on random and adversarial
// rows (NaN of both signs and any payload, +-inf, +-0, ties across chunk
// edges, all-NaN rows, rows at every start offset modulo 8).
//
//   g++ -O2 -std=c++17 -Inative/src tools/argmax_pipe_emu.cc -o build/argmax_pipe_emu && build/argmax_pipe_emu
// `build/argmax_pipe_emu lean`: the tiles as leanChunkBest (argmax_lean.cuh)
// walks them instead: running max only, the first tile reaching it kept, the
// index found in that tile after the stream. Kind 9 (both modes): equal
// maxima every 37 elements over the second half (the moved-back last tile's
// overlap holds some).
#include "common/order_key.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

using namespace infini;

static uint32_t key(uint16_t h) { return orderKey<uint32_t, 16>(h, kF16InfBits); }
static float toFloat(uint16_t h) { // exact F16 -> float
    const uint32_t s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    float v;
    if (e == 0) v = std::ldexp((float)m, -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = std::ldexp((float)(m | 1024), (int)e - 25);
    return s ? -v : v;
}
static bool isNaN(uint16_t h) { return (h & 0x7fff) > 0x7c00; }
// __hmax (HMNMX2 without .NAN): a NaN operand yields the other; -0 / +0 either.
static uint16_t hmax(uint16_t a, uint16_t b) {
    if (isNaN(a)) return b;
    if (isNaN(b)) return a;
    return toFloat(a) >= toFloat(b) ? a : b;
}
// The pattern whose key is k (valueOfKey), as a float.
static float valueOfKey(uint32_t k) {
    return toFloat((uint16_t)bitsOfKey<uint32_t, 16>(k));
}

struct Entry {
    uint32_t key, idx;
};
static bool before(const Entry &a, const Entry &b) { return a.key != b.key ? a.key > b.key : a.idx < b.idx; }
constexpr Entry kNone{0, 0xffffffffu};
constexpr int V = 8;
static bool g_lean = false;

// vecBest of device.cuh on v[0..cnt).
static void vecBest(const uint16_t *v, uint32_t i0, uint32_t cnt, Entry &best) {
    if (cnt == (uint32_t)V) {
        uint16_t mx = v[0];
        for (int s = 1; s < V; ++s) mx = hmax(mx, v[s]);
        const uint32_t kmax = key(mx);
        if (kmax > best.key || best.idx == 0xffffffffu) {
            for (int s = V - 1; s >= 0; --s)
                if (key(v[s]) == kmax) best = Entry{kmax, i0 + s};
        }
        return;
    }
    for (uint32_t s = 0; s < cnt; ++s) {
        const Entry e{key(v[s]), i0 + s};
        if (before(e, best)) best = e;
    }
}

// One thread (tid) of an NT-thread block over data[begin, end); `base` is the
// row's offset in elements from a 16-byte boundary.
static Entry threadBest(const std::vector<uint16_t> &row, uint32_t base, uint32_t begin, uint32_t end, int NT, int U,
                        int tid) {
    const uint32_t Tile = (uint32_t)NT * V * U;
    Entry best = kNone;
    float thr = -INFINITY;
    auto retune = [&] { thr = best.key == 0 ? -INFINITY : valueOfKey(best.key); };
    const uint32_t mis = (base + begin) % V;
    const uint32_t head = mis == 0 ? 0u : V - mis;
    const uint32_t h = begin + (head < end - begin ? head : end - begin);
    if (h > begin && (uint32_t)tid < h - begin) {
        vecBest(&row[begin + tid], begin + tid, 1u, best);
        retune();
    }
    const uint32_t nvec = (end - h) / V, tb = h + nvec * V, tileVecs = (uint32_t)NT * U;
    if (nvec >= tileVecs) { // every tile full; the last one moved back to end at the last vector
        const uint32_t ntiles = (nvec + tileVecs - 1) / tileVecs, olast = nvec - tileVecs;
        if (g_lean) { // leanChunkBest
            float m = NAN;
            uint32_t moff = 0;
            for (uint32_t t = 0; t < ntiles; ++t) {
                const uint32_t off = t * tileVecs < olast ? t * tileVecs : olast;
                const uint32_t i0 = h + (off + (uint32_t)tid) * V;
                uint16_t mh = row[i0];
                for (int u = 0; u < U; ++u)
                    for (int s = 0; s < V; ++s) mh = hmax(mh, row[i0 + u * NT * V + s]);
                const float tm = toFloat(mh);
                if (tm > m || (m != m && (tm == tm || off == 0))) m = tm, moff = off;
            }
            uint32_t first = 0;
            for (int k = U * V - 1; k >= 0; --k) {
                if (toFloat(row[h + (moff + (uint32_t)(k / V * NT + tid)) * V + k % V]) == m) first = (uint32_t)k;
            }
            const uint32_t idx = h + (moff + first / V * NT + (uint32_t)tid) * V + first % V;
            const Entry e{key(row[idx]), idx};
            if (before(e, best)) best = e;
        }
        for (uint32_t t = 0; t < ntiles && !g_lean; ++t) {
            const uint32_t off = t * tileVecs < olast ? t * tileVecs : olast;
            const uint32_t i0 = h + (off + (uint32_t)tid) * V;
            if (best.idx == 0xffffffffu) best = Entry{0, i0};
            uint16_t m = row[i0];
            for (int u = 0; u < U; ++u)
                for (int s = 0; s < V; ++s) m = hmax(m, row[i0 + u * NT * V + s]);
            if (!(toFloat(m) >= thr)) continue;
            for (int u = 0; u < U; ++u) vecBest(&row[i0 + u * NT * V], i0 + u * NT * V, V, best);
            retune();
        }
    } else { // forVectors over [h, tb) (aligned: no head)
        for (uint32_t tile = h; tile < tb; tile += Tile) {
            for (int u = 0; u < U; ++u) {
                const uint32_t i0 = tile + (uint32_t)(u * NT + tid) * V;
                const uint32_t cnt = i0 >= tb ? 0u : (tb - i0 < (uint32_t)V ? tb - i0 : (uint32_t)V);
                vecBest(&row[i0 < tb ? i0 : 0], i0, cnt, best);
            }
        }
    }
    if ((uint32_t)tid < end - tb) vecBest(&row[tb + tid], tb + tid, 1u, best); // the tail elements, last
    return best;
}

static uint32_t emulate(const std::vector<uint16_t> &row, uint32_t base, int team, int NT, int U) {
    const uint32_t n = (uint32_t)row.size();
    const uint32_t per = ((n + team - 1) / team + V - 1) / V * V;
    Entry all = kNone;
    uint64_t packed = 0; // the grid kernel's atomicMax slot
    for (int q = 0; q < team; ++q) {
        const uint64_t b = (uint64_t)q * per;
        const uint32_t begin = b < n ? (uint32_t)b : n;
        const uint32_t end = n - begin < per ? n : begin + per;
        Entry blk = kNone;
        for (int tid = 0; tid < NT; ++tid) {
            const Entry e = threadBest(row, base, begin, end, NT, U, tid);
            if (before(e, blk)) blk = e;
        }
        if (before(blk, all)) all = blk;
        const uint64_t p = ((uint64_t)blk.key << 32) | (uint32_t)~blk.idx;
        packed = p > packed ? p : packed;
    }
    if (~(uint32_t)packed != all.idx) {
        std::printf("packed slot disagrees: %u vs %u\n", ~(uint32_t)packed, all.idx);
        return 0xfffffffeu;
    }
    return all.idx;
}

static uint32_t reference(const std::vector<uint16_t> &row) {
    uint32_t bk = 0, bi = 0;
    for (uint32_t i = 0; i < row.size(); ++i) {
        const uint32_t k = key(row[i]);
        if (k > bk) bk = k, bi = i;
    }
    return bi;
}

int main(int argc, char **argv) {
    g_lean = argc > 1 && std::strcmp(argv[1], "lean") == 0;
    std::mt19937_64 rng(20261123);
    auto randHalf = [&](float scale) { // values of 3 * uniform(-2, 2) rounded to F16 (many ties)
        const float x = std::uniform_real_distribution<float>(-2.f, 2.f)(rng) * scale;
        // round to F16 by search over the bit patterns' order: cheap enough through frexp
        int e;
        const float m = std::frexp(std::fabs(x), &e);
        uint16_t h;
        if (x == 0) h = 0;
        else {
            const int E = e - 1 + 15;
            if (E <= 0) h = (uint16_t)std::lround(std::fabs(x) * 16777216.f);
            else h = (uint16_t)((E << 10) + (int)std::lround((m * 2 - 1) * 1024));
            if (x < 0) h |= 0x8000;
        }
        return h;
    };
    const uint16_t specials[] = {0x7e00, 0xfe00, 0x7c01, 0xffff, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x7bff, 0xfbff, 0x0001};
    int bad = 0, cases = 0;
    struct Shape {
        int NT, U;
    };
    const Shape shapes[] = {{512, 4}, {256, 4}, {512, 8}, {256, 8}, {64, 2}, {32, 1}};
    const uint32_t ns[] = {1, 7, 8, 9, 33, 257, 4097, 32000, 40003, 151936};
    for (const Shape sh : shapes) {
        for (uint32_t n : ns) {
            if (n >= 100000 && sh.NT < 256) continue;
            for (int team : {1, 2, 3, 4, 16}) {
                for (int kind = 0; kind < 10; ++kind) {
                    for (uint32_t base : {0u, 1u, 5u, 7u}) {
                        if (n > 40003 && (base == 1 || base == 5 || kind % 3 == 1)) continue; // keep it quick
                        std::vector<uint16_t> row(n);
                        for (auto &x : row) x = randHalf(3.f);
                        switch (kind) {
                        case 0: break; // random, many ties
                        case 1: // sprinkled specials
                            for (uint32_t i = 0; i < n; ++i)
                                if (rng() % 17 == 0) row[i] = specials[rng() % 11];
                            break;
                        case 2: for (auto &x : row) x = 0x7e00 ^ (uint16_t)(rng() % 2 ? 0x8000 : 0); break; // all NaN
                        case 3: // all NaN but a few -inf
                            for (auto &x : row) x = (uint16_t)(0x7c01 + rng() % 0x3fe) | (rng() % 2 ? 0x8000 : 0);
                            for (int k = 0; k < 3; ++k) row[rng() % n] = 0xfc00;
                            break;
                        case 4: for (auto &x : row) x = rng() % 2 ? 0x8000 : 0x0000; break; // +-0 only
                        case 5: // equal maxima at chunk edges and at the ends
                            for (int t : {2, 3, 4, 16}) {
                                const uint32_t per = ((n + t - 1) / t + V - 1) / V * V;
                                for (uint32_t q = 1; q < (uint32_t)t; ++q) {
                                    if (q * per < n) row[q * per] = 0x4a00;
                                    if (q * per - 1 < n) row[q * per - 1] = 0x4a00;
                                }
                            }
                            row[n - 1] = 0x4a00;
                            break;
                        case 6: // NaN head, then -inf, then a real max late
                            for (uint32_t i = 0; i < n; ++i) row[i] = i < n / 3 ? 0x7e00 : 0xfc00;
                            row[n - 1 - (n > 1 ? rng() % (n / 2 + 1) : 0)] = 0xc000;
                            break;
                        case 7: // +inf ties and NaN around them
                            for (uint32_t i = 0; i < n; ++i) row[i] = rng() % 3 ? 0x7e00 : 0x3c00;
                            for (int k = 0; k < 4; ++k) row[rng() % n] = 0x7c00;
                            break;
                        case 9: // equal maxima every 37 elements over the second half
                            for (uint32_t i = n / 2; i < n; i += 37) row[i] = 0x4a00;
                            break;
                        case 8: // a single -0 maximum among negatives, +0 later
                            for (auto &x : row) x = 0x8000 | (uint16_t)(1 + rng() % 0x7bff);
                            row[rng() % n] = 0x8000;
                            row[rng() % n] = 0x0000;
                            break;
                        }
                        const uint32_t want = reference(row), got = emulate(row, base, team, sh.NT, sh.U);
                        ++cases;
                        if (got != want) {
                            if (++bad < 20)
                                std::printf("WRONG NT %d U %d n %u team %d kind %d base %u: %u want %u\n", sh.NT, sh.U, n,
                                            team, kind, base, got, want);
                        }
                    }
                }
            }
        }
    }
    std::printf("%s: %d cases, %d wrong\n", g_lean ? "lean" : "pipe", cases, bad);
    return bad != 0;
}
