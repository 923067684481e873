"""Session 20 (not yet run): do 132 SMs each writing its own contiguous range (LPNorm Hold's phase B:
a block stores its 508 KB piece from start to end) write DRAM slower than the same bytes written
grid-stride (a fill: every SM within a small window at any moment)? And the same for reads (Hold's
phase A). One or four blocks an SM of 512 threads, 16-byte accesses; 64 MiB (Hold's
32x1M BF16 output) and 1 GiB; events around 20 launches back to back, median of 5 rounds.
Kernels compiled at run time with cupy (NVRTC).

  python3 tools/dram_streams.py
"""
import statistics

import cupy as cp

SRC = r"""
extern "C" __global__ void write_ranges(uint4 *p, unsigned long long n, int strided) {
    const unsigned long long per = (n + gridDim.x - 1) / gridDim.x;
    const uint4 v = make_uint4(blockIdx.x, 1u, 2u, 3u);
    if (strided) {  // grid-stride: every block within one window
        for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
             i += (unsigned long long)gridDim.x * blockDim.x) {
            __stcs(p + i, v);
        }
    } else {        // block b: packs [b * per, (b + 1) * per) from start to end
        const unsigned long long lo = blockIdx.x * per, hi = min(n, lo + per);
        for (unsigned long long i = lo + threadIdx.x; i < hi; i += blockDim.x) {
            __stcs(p + i, v);
        }
    }
}
extern "C" __global__ void read_ranges(const uint4 *p, unsigned long long n, int strided, unsigned *sink) {
    const unsigned long long per = (n + gridDim.x - 1) / gridDim.x;
    unsigned acc = 0;
    unsigned long long lo = strided ? (unsigned long long)blockIdx.x * blockDim.x : blockIdx.x * per;
    const unsigned long long hi = strided ? n : min(n, lo + per);
    const unsigned long long step = strided ? (unsigned long long)gridDim.x * blockDim.x : blockDim.x;
    lo += threadIdx.x;
    #pragma unroll 8
    for (unsigned long long i = lo; i < hi; i += step) {
        const uint4 v = __ldcs(p + i);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u) *sink = acc;
}
"""


def timed(fn, reps=20, rounds=5):
    for _ in range(3):
        fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(rounds):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        for _ in range(reps):
            fn()
        b.record()
        b.synchronize()
        times.append(cp.cuda.get_elapsed_time(a, b) / reps * 1e-3)
    return statistics.median(times)


def main():
    mod = cp.RawModule(code=SRC)
    write, read = mod.get_function("write_ranges"), mod.get_function("read_ranges")
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    print("device:", cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), sms, "SMs")
    sink = cp.zeros(1, dtype=cp.uint32)
    for size in (64 << 20, 1 << 30):
        buf = cp.zeros(size // 4, dtype=cp.uint32)
        n = cp.uint64(size // 16)
        for bps in (1, 4):  # blocks an SM: Hold's one, or a fill's occupancy
            g = (sms * bps,)
            for name, fn in (
                    ("write, own ranges", lambda: write(g, (512,), (buf, n, cp.int32(0)))),
                    ("write, grid-stride", lambda: write(g, (512,), (buf, n, cp.int32(1)))),
                    ("read, own ranges", lambda: read(g, (512,), (buf, n, cp.int32(0), sink))),
                    ("read, grid-stride", lambda: read(g, (512,), (buf, n, cp.int32(1), sink)))):
                t = timed(fn)
                print(f"{size >> 20:5d} MiB  {bps} block(s) an SM  {name:20s} {t * 1e6:8.1f} µs  "
                      f"{size / t / 1e9:6.0f} GB/s")


if __name__ == "__main__":
    main()
