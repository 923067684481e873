// The elementwise framework's NVIDIA engine: the plan decided at Create.
#include "../../common/cuda/check.cuh"
#include "nvidia.h"
#include <algorithm>
#include <cstdlib>

namespace infini::elementwise::nvidia {

namespace {

constexpr uint64_t kUnroll = 4;          // work items per thread and round, as in nvidia.cuh
constexpr size_t kMaxLaunches = 1 << 16; // beyond: NOT_IMPLEMENTED (needs > kMaxDims huge dims)

// Blocks for `work_items` threads' work: at most as many as are resident at
// once (`per_sm` per SM), trimmed so that every block loops equally often.
unsigned gridFor(uint64_t work_items, int block, const InfiniopHandle &h, int per_sm) {
    uint64_t cap = (uint64_t)std::max(1, h.sm_count) * (uint64_t)std::max(1, per_sm);
    uint64_t want = (work_items + block - 1) / block;
    if (want > cap) {
        // As many blocks as fit at once, trimmed so that every block loops
        // the same number of times (no last, partly idle round).
        uint64_t rounds = (want + cap - 1) / cap;
        want = (want + rounds - 1) / rounds;
    }
    return (unsigned)std::max<uint64_t>(1, want);
}

// Blocks that each take one chunk of `per_block` work items (capped: the
// kernels loop over further chunks then).
unsigned chunks(uint64_t work_items, uint64_t per_block) {
    return (unsigned)std::min<uint64_t>((work_items + per_block - 1) / per_block, INT32_MAX);
}

// The output (operand 0) is one row-major block: its dims after
// simplification are contiguous and in order.
bool outputContiguous(const SimpleLayout &L) {
    int64_t run = 1;
    for (size_t d = L.ndim(); d-- > 0;) {
        if (L.strides[0][d] != run) {
            return false;
        }
        run *= (int64_t)L.shape[d];
    }
    return true;
}

// > 0: a transposed operand whose 32x32 tiles would hold less than this percentage of data (small
// planes: 33x33 fills 27% of four tiles) goes to the gather form instead, where the output is
// contiguous. H200, session 36, eager µs, tiled -> gather (PyTorch): (60,202,33,33) BF16 (27% full)
// 146.2 -> 47.0 (44.0); (109,27,141,17) F16 (47%) 47.3 -> 25.6 (24.1); (152,14,223,18) F16 (56%) 52.0 ->
// 28.3 (28.7); (893,297,44) BF16 (64%) 57.1 -> 34.9 (35.0). Fuller tiles were not measured: 70 keeps
// them tiled. 0: off.
#ifndef INFINI_ELEMENTWISE_TILED_MIN_FILL
#define INFINI_ELEMENTWISE_TILED_MIN_FILL 70
#endif
// > 0 sends a transposed operand whose transposed plane (the two dims the tiles would cover) holds at
// most this many bytes to the gather form too, however full its tiles, where the output is contiguous.
// Session 37's call 1 sent every tiled case there: small planes gained, a large one lost (8192x8192 F32
// transposed: 239.6 -> 510.8 µs). At 256 KB (call 3, tools/verify_s37c.sh, eager µs, PyTorch's):
// (560,239,58) F16 order (0,2,1), 28 KB: 34.0 -> 23.1 (26.9); (208,93,7,79) BF16 47.1 -> 33.3 (35.4);
// (367,206,75) F32 29.0 -> 24.0 (27.4). 0: off.
#ifndef INFINI_ELEMENTWISE_GATHER_PLANE_BYTES
#define INFINI_ELEMENTWISE_GATHER_PLANE_BYTES 262144
#endif

// > 0: the gather form takes small planes (the rule above) only where the transposed operand's
// neighbours along j lie at most this many output bytes apart; sparse tiles go to it wherever they lie.
// The gather form reads a transposed operand an element at a time; its sectors are reused only where
// the j neighbours' outputs fall in one block's vectors (session 37's gains: j next to i, 58-79
// elements apart). Session 39, call 2 (tools/verify_s39b.sh, this and narrow tiles, sparse tiles still
// to tiles there), eager µs, gather -> tiles (PyTorch): (27,281,509) BF16 a order (1,2,0), neighbours
// 280 KB apart, 30.6 -> 17.9 (17.8); (32,265,309) F16 order (2,1,0) 23.1 -> 12.6 (22.6); (108,235,287)
// F32 order (2,1,0) 56.9 -> 31.3 (56.6); sparse tiles lost ((8,466,20,30) BF16 order (1,2,3,0), 23% full:
// 15.5 -> 28.2; (69,13,80,71) BF16 order (0,2,3,1), 45%: 33.0 -> 44.4), hence the gather form for them.
// 0: off.
#ifndef INFINI_ELEMENTWISE_GATHER_REUSE_BYTES
#define INFINI_ELEMENTWISE_GATHER_REUSE_BYTES 1024
#endif

// Tiles over an ni x nj plane along i and along j, 2^lg of a tile's kTileElems along j.
struct TileCounts {
    uint32_t i, j;
};
TileCounts tileCounts(uint32_t ni, uint32_t nj, uint32_t lg) {
    return {(ni + (kTileElems >> lg) - 1) >> (kTileElemsLog - lg), (nj + (1u << lg) - 1) >> lg};
}

// The percentage of the tiles' elements that hold data, tiles of 2^lg along j over an ni x nj plane.
double tileFill(uint32_t ni, uint32_t nj, uint32_t lg) {
    const TileCounts n = tileCounts(ni, nj, lg);
    return 100.0 * ni * nj / ((double)n.i * n.j * kTileElems);
}

// Of the tile shapes from 2^lowest to 2^highest along j (the rest along i), the one whose tiles are
// fullest (ties: the longer runs along j); its fill in percent through *fill.
uint32_t tileJLog(uint32_t ni, uint32_t nj, uint32_t lowest, uint32_t highest, double *fill) {
    uint32_t best = highest;
    *fill = -1;
    for (uint32_t lg = highest; lg >= lowest; --lg) {
        const double f = tileFill(ni, nj, lg);
        if (f > *fill) {
            *fill = f;
            best = lg;
        }
    }
    return best;
}

// The tiled path, when an input walks the output's innermost dim with a
// stride but another dim with stride 1 (a transposed operand).
bool planTiled(const Info &info, const InfiniopHandle &h, const Occupancy &occ, Plan *plan) {
    const SimpleLayout &L = info.layout;
    const size_t nd = L.ndim(), nops = info.ninputs + 1;
    if (nd < 2 || nd - 2 > (size_t)kMaxDims || info.numel > kMaxLaunchElems) {
        return false;
    }
    const size_t in = nd - 1;
    if (L.strides[0][in] != 1 || L.shape[in] < 16) {
        return false;
    }
    auto transposed = [&](size_t k, size_t d) {
        return std::llabs(L.strides[k][in]) > 1 && std::llabs(L.strides[k][d]) == 1;
    };
    size_t j = nd;
    for (size_t k = 1; k < nops && j == nd; ++k) {
        for (size_t d = 0; d < in; ++d) {
            if (transposed(k, d)) {
                j = d;
                break;
            }
        }
    }
    if (j == nd || L.shape[j] < (INFINI_ELEMENTWISE_NARROW_TILES ? 5 : 16)) {
        return false;
    }
    TiledArgs a{};
    a.ni = (uint32_t)L.shape[in];
    a.nj = (uint32_t)L.shape[j];
    double fill;
    a.tile_j_log = tileJLog(a.ni, a.nj, INFINI_ELEMENTWISE_NARROW_TILES && a.nj < 32 ? 3 : 5, 5, &fill);
    const uint64_t es = dtypeSize(info.dtype);
    const uint64_t j_apart = (uint64_t)std::llabs(L.strides[0][j]) * es; // output bytes between j neighbours
    // Wide tiles (INFINI_ELEMENTWISE_WIDE_TILES_2B) for the planes whose 32-wide tiles are too sparse and
    // which the lane gather would otherwise take, where they fill their tiles.
    if (INFINI_ELEMENTWISE_WIDE_TILES_2B > 5 && es <= 2 && fill < INFINI_ELEMENTWISE_TILED_MIN_FILL &&
        j_apart > kLaneMinApartBytes && info.numel >= kWideTilesMinElems) {
        double wide_fill;
        const uint32_t widest = (uint32_t)std::min(INFINI_ELEMENTWISE_WIDE_TILES_2B, 7);
        const uint32_t lg = tileJLog(a.ni, a.nj, 6, widest, &wide_fill);
        if (wide_fill >= INFINI_ELEMENTWISE_TILED_MIN_FILL) {
            a.tile_j_log = lg;
            fill = wide_fill;
        }
    }
    const TileCounts tiles = tileCounts(a.ni, a.nj, a.tile_j_log);
    a.tiles_i = tiles.i;
    a.tiles_j = tiles.j;
    const bool sparse_tiles = fill < INFINI_ELEMENTWISE_TILED_MIN_FILL;
    const bool small_plane = (uint64_t)a.ni * a.nj * es <= (uint64_t)INFINI_ELEMENTWISE_GATHER_PLANE_BYTES;
    const bool near_reuse =
        INFINI_ELEMENTWISE_GATHER_REUSE_BYTES == 0 || j_apart <= (uint64_t)INFINI_ELEMENTWISE_GATHER_REUSE_BYTES;
    // Narrow planes to the lane gather (INFINI_ELEMENTWISE_LANE_TILE_ROWS): where each transposed input
    // steps at most nj elements along the output's rows, and its sectors are reused while in L2.
    bool lane_steps = true;
    for (size_t k = 1; k < nops; ++k) {
        lane_steps = lane_steps && (!transposed(k, j) || (uint64_t)std::llabs(L.strides[k][in]) <= a.nj);
    }
    const bool lane_reuse = j_apart <= (uint64_t)INFINI_ELEMENTWISE_LANE_TILE_NEAR_BYTES ||
                            (es <= 4 && info.numel * es <= (uint64_t)INFINI_ELEMENTWISE_LANE_TILE_SMALL_BYTES);
    const bool lane_rows = INFINI_ELEMENTWISE_LANE_GATHER && a.nj <= (uint32_t)INFINI_ELEMENTWISE_LANE_TILE_ROWS &&
                           j_apart > kLaneMinApartBytes && lane_steps && lane_reuse;
    if (nd <= (size_t)kMaxDims && outputContiguous(L) && (sparse_tiles || (small_plane && near_reuse) || lane_rows)) {
        return false;
    }
    a.div_tiles_i = FastDiv(a.tiles_i);
    a.div_tiles_j = FastDiv(a.tiles_j);
    uint64_t batch = 1;
    for (size_t d = 0; d < in; ++d) {
        if (d == j) {
            continue;
        }
        a.batch_size[a.nbatch] = FastDiv((uint32_t)L.shape[d]);
        for (size_t k = 0; k < nops; ++k) {
            a.batch_stride[a.nbatch][k] = L.strides[k][d];
        }
        ++a.nbatch;
        batch *= L.shape[d];
    }
    uint64_t ntiles = (uint64_t)a.tiles_i * a.tiles_j * batch;
    if (ntiles > kMaxLaunchElems) {
        return false;
    }
    a.ntiles = (uint32_t)ntiles;
    for (size_t k = 0; k < nops; ++k) {
        a.si[k] = L.strides[k][in];
        a.sj[k] = L.strides[k][j];
        a.offset[k] = L.offset[k];
        if (k > 0 && transposed(k, j)) {
            a.staged |= 1u << (k - 1);
        }
    }
    plan->path = Path::Tiled;
    plan->tiled = a;
    plan->grid_tiled = (unsigned)std::min<uint64_t>(ntiles, gridFor(ntiles * plan->block, plan->block, h, occ.tiled));
    return true;
}

// The vector form of a single strided launch: the innermost dim is
// contiguous in the output, of stride 1 or 0 in every input, and a multiple of
// the vector width, as are the outer strides of every operand that is not
// constant along it.
void planStridedVec(const Info &info, const InfiniopHandle &h, const Occupancy &occ, Plan *plan) {
    if (plan->launches.size() != 1) {
        return;
    }
    const StridedArgs &a = plan->launches[0];
    const size_t nops = info.ninputs + 1;
    const uint32_t V = (uint32_t)(16 / plan->elem_size);
    const uint32_t in = a.ndim - 1;
    if (a.size[in].divisor % V != 0 || a.stride[in][0] != 1) {
        return;
    }
    StridedArgs v = a;
    v.splat = 0;
    for (size_t k = 0; k < nops; ++k) {
        const int64_t s = a.stride[in][k];
        if (s == 0 && k > 0) {
            v.splat |= 1u << (k - 1);
            continue;
        }
        if (s != 1 || a.offset[k] % V != 0) {
            return;
        }
        for (uint32_t d = 0; d < in; ++d) {
            if (a.stride[d][k] % V != 0) {
                return;
            }
        }
        v.stride[in][k] = V;
    }
    v.size[in] = FastDiv(a.size[in].divisor / V);
    v.numel = a.numel / V;
    plan->has_vec = true;
    plan->vec = v;
    plan->grid_vec_strided = gridFor((v.numel + kUnroll / 2 - 1) / (kUnroll / 2), plan->block, h, occ.strided_vec);
}

// How far input k's offsets reach from its base over g's dims: the sum of (extent - 1 + past) x |stride|
// (past 1: each coordinate once one past its extent, as the gather kernel's carry leaves it for a moment).
uint64_t offsetReach(const GatherArgs &g, size_t k, uint64_t past) {
    uint64_t reach = 0;
    for (uint32_t d = 0; d < g.ndim; ++d) {
        reach += ((uint64_t)g.size[d].divisor - 1 + past) * (uint64_t)std::llabs(g.stride[d][k]);
    }
    return reach;
}

// The gather form's lane mapping (INFINI_ELEMENTWISE_LANE_GATHER) beside the vector one `g`: where a
// gathered input walks the output's rows with a stride other than 0 or +-1, its neighbours along its
// unit-stride dim lie more than kLaneMinApartBytes of output apart (or, INFINI_ELEMENTWISE_LANE_ODD_ROWS,
// the output's rows are of 8-byte elements, short and odd), and every input's offsets (the sum of its
// extents' reach either way) fit 31 bits.
void planLaneGather(const Info &info, const GatherArgs &g, Plan *plan) {
    if (!INFINI_ELEMENTWISE_LANE_GATHER) {
        return;
    }
    LaneGatherArgs a{};
    a.ndim = g.ndim;
    a.numel = g.numel;
    a.flat = g.flat;
    for (uint32_t d = 0; d < g.ndim; ++d) {
        a.size[d] = g.size[d];
    }
    bool scattered = false;
    for (size_t k = 0; k < info.ninputs; ++k) {
        if (offsetReach(g, k, 0) > (uint64_t)INT32_MAX) {
            return;
        }
        for (uint32_t d = 0; d < g.ndim; ++d) {
            a.stride[d][k] = (int32_t)g.stride[d][k];
        }
        if ((g.flat >> k) & 1u || std::llabs(g.stride[0][k]) <= 1) {
            continue;
        }
        // Output bytes between neighbours along this input's unit-stride dim (none: as far as can be).
        uint64_t apart = UINT64_MAX, inside = 1;
        for (uint32_t d = 1; d < g.ndim && apart == UINT64_MAX; ++d) {
            inside *= g.size[d - 1].divisor;
            if (std::llabs(g.stride[d][k]) == 1) {
                apart = inside * plan->elem_size;
            }
        }
        scattered = scattered || apart > (uint64_t)kLaneMinApartBytes;
    }
    const uint32_t row = g.size[0].divisor, vec = (uint32_t)(16 / plan->elem_size);
    const bool odd_rows = plan->elem_size == 8 && row % vec != 0 && row <= (uint32_t)INFINI_ELEMENTWISE_LANE_ODD_ROWS;
    if (!scattered && !odd_rows) {
        return;
    }
    for (size_t k = 0; k <= info.ninputs; ++k) {
        a.offset[k] = g.offset[k];
    }
    plan->has_lane = true;
    plan->lane = a;
    plan->grid_lane = chunks(info.numel, (uint64_t)plan->block * kLaneElems); // one chunk a block
}

// The gather form of a single strided launch that has no vector form: the
// output contiguous (its dims after simplification are one row-major block),
// at most kMaxDims dims, 32-bit indices.
void planGather(const Info &info, Plan *plan) {
    const SimpleLayout &L = info.layout;
    const size_t nd = L.ndim(), nops = info.ninputs + 1;
    if (plan->has_vec || plan->launches.size() != 1 || nd == 0 || nd > (size_t)kMaxDims ||
        info.numel > kMaxLaunchElems) {
        return;
    }
    if (!outputContiguous(L)) {
        return;
    }
    GatherArgs g{};
    g.ndim = (uint32_t)nd;
    g.numel = (uint32_t)info.numel;
    for (size_t k = 0; k < nops; ++k) {
        g.offset[k] = L.offset[k];
    }
    for (size_t k = 0; k < info.ninputs; ++k) {
        if (info.same_layout[k]) {
            g.flat |= 1u << k;
        }
    }
    for (size_t i = 0; i < nd; ++i) { // innermost first
        const size_t d = nd - 1 - i;
        g.size[i] = FastDiv((uint32_t)L.shape[d]);
        for (size_t k = 1; k < nops; ++k) {
            g.stride[i][k - 1] = L.strides[k][d];
        }
    }
    bool rows_along = true; // every gathered input along the output's rows (innermost stride 0 or 1)
    for (size_t k = 0; k < info.ninputs; ++k) {
        rows_along = rows_along && (((g.flat >> k) & 1u) || g.stride[0][k] == 0 || g.stride[0][k] == 1);
    }
    plan->gather_vec_bytes =
        INFINI_ELEMENTWISE_GATHER_WIDE_8B && plan->elem_size == 8 && rows_along ? kGatherWideVecBytes : kGatherVecBytes;
    const uint64_t per_vec = (uint64_t)plan->gather_vec_bytes / plan->elem_size;
    const uint64_t vectors = (info.numel + per_vec - 1) / per_vec;
    uint64_t span = 0; // the farthest a gathered input's offsets reach, carries included (32-bit: < 2^31)
    for (size_t k = 0; k < info.ninputs; ++k) {
        span = std::max(span, (g.flat >> k) & 1u ? 0 : offsetReach(g, k, 1));
    }
    plan->gather_off32 = gatherOff32(plan->elem_size) && span <= (uint64_t)INT32_MAX;
    plan->has_gather = true;
    plan->gather = g;
    plan->grid_gather = chunks(vectors, plan->block); // a vector a thread, one chunk a block
    planLaneGather(info, g, plan);
}

infiniStatus_t planStrided(const Info &info, const InfiniopHandle &h, const Occupancy &occ, Plan *plan) {
    const SimpleLayout &L = info.layout;
    const size_t nd = L.ndim(), nops = info.ninputs + 1;
    plan->path = Path::Strided;
    if (nd == 0) { // one element
        StridedArgs a{};
        a.ndim = 1;
        a.numel = 1;
        a.size[0] = FastDiv(1);
        for (size_t k = 0; k < nops; ++k) {
            a.offset[k] = L.offset[k];
        }
        plan->launches.push_back(a);
        plan->grids.push_back(1);
        return INFINI_STATUS_SUCCESS;
    }
    // Kernel dims [kd0, nd): as many innermost dims as fit kMaxDims and
    // 31-bit indexing; the dim before them may be cut into chunks; the dims
    // before that are enumerated here, one launch per index.
    size_t kd0 = nd;
    uint64_t prod = 1;
    while (kd0 > 0 && nd - kd0 < (size_t)kMaxDims && L.shape[kd0 - 1] <= kMaxLaunchElems / prod) {
        prod *= L.shape[--kd0];
    }
    const bool split = kd0 > 0 && nd - kd0 < (size_t)kMaxDims;
    const size_t hd = split ? kd0 - 1 : kd0; // host dims [0, hd)
    const uint64_t chunk = split ? kMaxLaunchElems / prod : 0;
    const size_t split_len = split ? L.shape[kd0 - 1] : 1;
    const size_t nchunks = split ? (split_len + chunk - 1) / chunk : 1;

    size_t nhost = 1;
    for (size_t d = 0; d < hd; ++d) {
        nhost *= L.shape[d];
        INFINI_REQUIRE(nhost * nchunks <= kMaxLaunches, INFINI_STATUS_NOT_IMPLEMENTED);
    }
    INFINI_REQUIRE(nhost * nchunks <= kMaxLaunches, INFINI_STATUS_NOT_IMPLEMENTED);

    std::vector<size_t> idx(hd, 0);
    for (size_t hcount = 0; hcount < nhost; ++hcount) {
        int64_t base[kMaxOperands] = {};
        for (size_t k = 0; k < nops; ++k) {
            base[k] = L.offset[k];
            for (size_t d = 0; d < hd; ++d) {
                base[k] += (int64_t)idx[d] * L.strides[k][d];
            }
        }
        for (size_t c = 0; c < nchunks; ++c) {
            StridedArgs a{};
            size_t kd = 0;
            uint64_t numel = 1;
            if (split) {
                uint64_t begin = c * chunk, len = std::min<uint64_t>(chunk, split_len - begin);
                a.size[kd] = FastDiv((uint32_t)len);
                for (size_t k = 0; k < nops; ++k) {
                    a.stride[kd][k] = L.strides[k][kd0 - 1];
                    a.offset[k] = base[k] + (int64_t)begin * L.strides[k][kd0 - 1];
                }
                numel *= len;
                ++kd;
            } else {
                for (size_t k = 0; k < nops; ++k) {
                    a.offset[k] = base[k];
                }
            }
            for (size_t d = kd0; d < nd; ++d, ++kd) {
                a.size[kd] = FastDiv((uint32_t)L.shape[d]);
                for (size_t k = 0; k < nops; ++k) {
                    a.stride[kd][k] = L.strides[k][d];
                }
                numel *= L.shape[d];
            }
            a.ndim = (uint32_t)kd;
            a.numel = (uint32_t)numel;
            plan->launches.push_back(a);
            plan->grids.push_back(gridFor((numel + kUnroll - 1) / kUnroll, plan->block, h, occ.strided));
        }
        for (size_t d = hd; d-- > 0;) { // odometer
            if (++idx[d] < L.shape[d]) {
                break;
            }
            idx[d] = 0;
        }
    }
    planStridedVec(info, h, occ, plan);
    planGather(info, plan);
    return INFINI_STATUS_SUCCESS;
}

} // namespace

infiniStatus_t makePlan(const Info &info, const InfiniopHandle &h, const Occupancy &occ, Plan *plan) {
    plan->nops = info.ninputs + 1;
    plan->elem_size = dtypeSize(info.dtype);
    plan->numel = info.numel;
    if (info.numel == 0) {
        plan->path = Path::Contiguous; // never launched
        return INFINI_STATUS_SUCCESS;
    }
    if (info.contiguous) {
        plan->path = Path::Contiguous;
        for (size_t k = 0; k < plan->nops; ++k) {
            plan->offset[k] = info.layout.offset[k];
        }
        // One chunk per block: a vector per thread, or kUnroll elements per
        // thread for unaligned pointers (see nvidia.cuh).
        const uint64_t vectors = std::max<uint64_t>(info.numel / (16 / plan->elem_size), 1);
        plan->block_vec = contiguousVecBlock(vectors, h.sm_count, plan->block);
        plan->grid_vec = chunks(vectors, plan->block_vec);
        plan->grid_scalar = chunks(info.numel, kUnroll * plan->block);
        plan->pdl = occ.pdl;
        return INFINI_STATUS_SUCCESS;
    }
    if (planTiled(info, h, occ, plan)) {
        return INFINI_STATUS_SUCCESS;
    }
    return planStrided(info, h, occ, plan);
}

infiniStatus_t NvidiaDescriptor::calculate(void *out, const void *const *inputs, void *stream) const {
    ScopedCudaDevice device(device_id);
    INFINI_TRY(device.status());
    return fn(plan, out, inputs, stream);
}

infiniStatus_t NvidiaDescriptor::calculateStaged(void *out, const void *const *inputs, unsigned staged,
                                                 void *stream) const {
    ScopedCudaDevice device(device_id);
    INFINI_TRY(device.status());
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    const void *in[kMaxInputs] = {};
    void *copies[kMaxInputs] = {};
    infiniStatus_t status = INFINI_STATUS_SUCCESS;
    for (size_t k = 0; k < info.ninputs && status == INFINI_STATUS_SUCCESS; ++k) {
        in[k] = inputs[k];
        if ((staged >> k) & 1u) {
            const ptrdiff_t lo = info.extent_lo[k + 1];
            const size_t bytes = (size_t)(info.extent_hi[k + 1] - lo);
            status = cudaStatus(cudaMallocAsync(&copies[k], bytes, s));
            if (status == INFINI_STATUS_SUCCESS) {
                status = cudaStatus(cudaMemcpyAsync(copies[k], static_cast<const char *>(inputs[k]) + lo, bytes,
                                                    cudaMemcpyDeviceToDevice, s));
                in[k] = reinterpret_cast<const void *>(reinterpret_cast<uintptr_t>(copies[k]) - lo);
            }
        }
    }
    if (status == INFINI_STATUS_SUCCESS) {
        status = fn(plan, out, in, stream);
    }
    for (void *p : copies) {
        if (p != nullptr) {
            const infiniStatus_t freed = cudaStatus(cudaFreeAsync(p, s));
            status = status == INFINI_STATUS_SUCCESS ? freed : status;
        }
    }
    return status;
}

} // namespace infini::elementwise::nvidia
