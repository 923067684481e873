"""Can two of LPNorm's Hold grids on two streams wait for each other forever (session 32)?

Hold is a plain launch of one block an SM whose blocks wait for the records of the blocks sharing their
row; on one row over every block (1x4M BF16), every block waits for all the others. The hazard: grid A is
partly resident (one SM busy elsewhere), then a grid B of higher stream priority arrives. The SM that frees
goes to B's first block (the higher priority), A's resident blocks wait for A's last block, B's block
waits for B's others: neither can finish. tools/two_grids_probe.py (a matmul taking SMs first) never
caught it, since the SMs there free many at a time.

Here a "hog" kernel (one block with the most shared memory a block may have, so no Hold block fits beside
it) holds one SM for HOG_MS, then the scenario's Hold calls are queued while it runs, each a fresh random
input checked against float64. Each scenario runs in a child process with a time limit:

    python tools/hold_starve_probe.py [--limit S] [--shape ROWSxLEN] [SCENARIO...]

SCENARIOs: alone (one Hold call behind the hog), same (two streams of equal priority), prio (low-priority
stream first, then a high-priority one: the hazard), rev (high first, then low); grid, pipe, team, matmul:
the Hold call on the low-priority stream, then LPNorm's Grid (cooperative) or Pipe (clusters),
RandomSample's argmax teams (clusters) or a cuBLAS matmul on the high-priority one. The library:
INFINIOP_LIBRARY, or the default build.
"""
import os
import subprocess
import sys
import time

HOG_MS = 300
# scenario: the calls queued behind the hog, in order, as (stream, op)
SCENARIOS = {
    "alone": [("low", "hold")],
    "same": [("low", "hold"), ("low2", "hold")],
    "prio": [("low", "hold"), ("high", "hold")],
    "rev": [("high", "hold"), ("low", "hold")],
    "grid": [("low", "hold"), ("high", "grid")],  # LPNorm's Grid plan: a cooperative launch
    "pipe": [("low", "hold"), ("high", "pipe")],  # LPNorm's Pipe plan: clusters of 16
    "team": [("low", "hold"), ("high", "team")],  # RandomSample's argmax teams: clusters
    "matmul": [("low", "hold"), ("high", "matmul")],  # cuBLAS
}
HOG_SRC = r"""
extern "C" __global__ void hog(unsigned long long ns) {
    extern __shared__ unsigned char held[];
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
    if (threadIdx.x == 0 && ns == 0) held[0] = 1;  // (the shared memory is used, never read)
}
"""


def make_op(op: str, hold_shape):
    """(call(stream), check() -> error or None) for one of the scenarios' ops on fresh random inputs."""
    import torch

    import infiniop_py as ip

    def lp(shape, dtype, tol):
        x = torch.randn(shape, device="cuda", dtype=dtype)
        out = torch.full_like(x, float("nan"))
        want = torch.nn.functional.normalize(x.double(), dim=-1)
        ip.lp_norm(x, axis=-1, out=out)  # descriptor and workspace made before the hazard is set up
        out.fill_(float("nan"))

        def check():
            err = (out.double() - want).abs().max().item()
            return None if err <= tol * want.abs().max().item() else f"max err {err:.3g}"
        return (lambda s: ip.lp_norm(x, axis=-1, out=out, stream=s)), check

    if op == "hold":
        return lp(hold_shape, torch.bfloat16, 8e-3)
    if op == "grid":
        return lp((32, 1 << 20), torch.float32, 1e-6)
    if op == "pipe":
        return lp((64, 3 << 19), torch.bfloat16, 8e-3)
    if op == "team":
        logits = torch.randn(1 << 17, device="cuda", dtype=torch.bfloat16)
        out = torch.full((), -1, device="cuda", dtype=torch.int64)
        ip.random_sample(logits, 0.5, 1.0, 1, 1.0, out=out)
        out.fill_(-1)

        def check():
            got = int(out.item())
            return None if 0 <= got < logits.numel() and logits[got].item() == logits.max().item() else f"index {got}"
        return (lambda s: ip.random_sample(logits, 0.5, 1.0, 1, 1.0, out=out, stream=s)), check
    assert op == "matmul"
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    want = (a.float() @ a.float()).double()
    c = torch.full_like(a, float("nan"))

    def call(s):
        with torch.cuda.stream(torch.cuda.ExternalStream(s)):
            torch.matmul(a, a, out=c)

    def check():
        err = (c.double() - want).abs().max().item()
        return None if err <= 2e-2 * want.abs().max().item() else f"max err {err:.3g}"
    return call, check


def child(scenario: str, rows: int, length: int) -> None:
    import cupy
    import torch

    lo_pri, hi_pri = torch.cuda.Stream.priority_range()
    streams = {
        "low": torch.cuda.Stream(priority=lo_pri),
        "low2": torch.cuda.Stream(priority=lo_pri),
        "high": torch.cuda.Stream(priority=hi_pri),
    }
    hog_stream = torch.cuda.Stream(priority=lo_pri)
    smem = torch.cuda.get_device_properties(0).shared_memory_per_block_optin
    hog = cupy.RawKernel(HOG_SRC, "hog")
    hog.max_dynamic_shared_size_bytes = smem
    calls = SCENARIOS[scenario]
    ops = [make_op(op, (rows, length)) for _, op in calls]
    torch.cuda.synchronize()
    t0 = time.time()
    with cupy.cuda.ExternalStream(hog_stream.cuda_stream):
        hog((1,), (1024,), (cupy.uint64(HOG_MS * 1_000_000),), shared_mem=smem)
    time.sleep(0.02)  # the hog is resident before the other grids arrive
    for (name, _), (call, _) in zip(calls, ops):
        call(streams[name].cuda_stream)
        time.sleep(0.02)  # each grid placed (as far as it can be) before the next arrives
    torch.cuda.synchronize()
    took = time.time() - t0
    for (name, op), (_, check) in zip(calls, ops):
        err = check()
        if err:
            print(f"{scenario}: WRONG ({op} on {name}: {err})", flush=True)
            return
    print(f"{scenario}: ok in {took:.3f} s (hog {HOG_MS} ms; calls {calls}, priorities low {lo_pri} high {hi_pri})",
          flush=True)


def main(argv) -> int:
    limit, rows, length, names = 20, 1, 4 << 20, []
    it = iter(argv)
    child_of = None
    for a in it:
        if a == "--limit":
            limit = int(next(it))
        elif a == "--shape":
            rows, length = (int(v) for v in next(it).lower().split("x"))
        elif a == "--child":
            child_of = next(it)
        else:
            names.append(a)
    if child_of:
        child(child_of, rows, length)
        return 0
    for name in names or list(SCENARIOS):
        cmd = [sys.executable, os.path.abspath(__file__), "--child", name, "--shape", f"{rows}x{length}"]
        t0 = time.time()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
            print(f"== {name} ({rows}x{length}): rc {r.returncode}, {time.time() - t0:.1f} s\n"
                  f"{(r.stdout + r.stderr).strip()[-2000:]}", flush=True)
        except subprocess.TimeoutExpired:
            print(f"== {name} ({rows}x{length}): NO ANSWER within {limit} s (killed)", flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())
    sys.exit(main(sys.argv[1:]))
