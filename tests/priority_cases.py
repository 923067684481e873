"""LPNorm's Hold plan beside work on a stream of higher priority, one scenario a process
(test_stream_priority.py runs each in a child with a time limit; tools/hold_starve_probe.py prints them).

    python tests/priority_cases.py SCENARIO [--shape ROWSxLEN]

prints "SCENARIO: ok ..." or "SCENARIO: WRONG ..." and exits 0, or fails with the library's error.

The hazard (session 32): Hold's blocks wait for the records of the blocks sharing their row, so all of a
row's blocks must be resident at once; on one BF16 row of 4M every block waits for all the others. When
a Hold grid on a low-priority stream is partly resident (one SM busy elsewhere) and a grid that also needs
many SMs at once (another Hold grid, LPNorm's cooperative Grid, Pipe's clusters of 16) comes on a stream
of higher priority, the SM that frees goes to the later grid: each then waits for the other forever. A
"hog" kernel (one block with the most shared memory a block may have, so that no Hold block fits beside
it; PTX loaded through the driver, no compiler needed) holds one SM for HOG_MS while the scenario's calls
are queued. Every result is checked: LPNorm against float64 on fresh random inputs (outputs poisoned),
RandomSample's argmax exactly, the matmul against float32.
"""
import ctypes
import sys
import time

from green_context_cases import ck  # the driver calls' check (tests/, this script's directory)

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
# extern "C" __global__ void hog(unsigned long long ns): spins on %globaltimer for ns nanoseconds; its
# dynamic shared memory is only there to be held (written when ns == 0, never read).
HOG_PTX = r"""
.version 7.0
.target sm_75
.address_size 64
.extern .shared .align 16 .b8 held[];
.visible .entry hog(.param .u64 hog_param_0)
{
    .reg .pred %p<5>;
    .reg .b16 %rs<2>;
    .reg .b32 %r<2>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd2, [hog_param_0];
    mov.u64 %rd3, %globaltimer;
$L__spin:
    mov.u64 %rd4, %globaltimer;
    sub.s64 %rd5, %rd4, %rd3;
    setp.lt.u64 %p1, %rd5, %rd2;
    @%p1 bra $L__spin;
    mov.u32 %r1, %tid.x;
    setp.ne.s32 %p2, %r1, 0;
    setp.ne.s64 %p3, %rd2, 0;
    or.pred %p4, %p2, %p3;
    @%p4 bra $L__done;
    mov.u16 %rs1, 1;
    st.shared.u8 [held], %rs1;
$L__done:
    ret;
}
"""


def hog_launcher():
    """launch(stream_handle, ms): the hog on one SM, its block holding the most shared memory a block may
    have (in the current context: torch's primary one)."""
    import torch
    from cuda.bindings import driver as cu

    smem = torch.cuda.get_device_properties(torch.cuda.current_device()).shared_memory_per_block_optin
    module = ck(cu.cuModuleLoadData(HOG_PTX.encode() + b"\0"), "cuModuleLoadData (the hog's PTX)")
    func = ck(cu.cuModuleGetFunction(module, b"hog"), "cuModuleGetFunction")
    ck(cu.cuFuncSetAttribute(func, cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem),
       "cuFuncSetAttribute")

    def launch(stream: int, ms: int):
        ck(cu.cuLaunchKernel(func, 1, 1, 1, 1024, 1, 1, smem, cu.CUstream(stream),
                             ((ms * 1_000_000,), (ctypes.c_ulonglong,)), 0), "cuLaunchKernel (the hog)")
    launch.module = module  # (kept loaded while the launcher lives)
    return launch


def make_op(op: str, hold_shape):
    """(call(stream handle), check() -> None or what is wrong) for one of the scenarios' ops."""
    import torch

    import infiniop_py as ip

    def lp(shape, dtype, tol):
        x = torch.randn(shape, device="cuda", dtype=dtype) * 3
        out = torch.full_like(x, float("nan"))
        ip.lp_norm(x, axis=-1, out=out)  # descriptor, workspace and kernels ready before the hazard is set up
        out.fill_(float("nan"))
        want = torch.nn.functional.normalize(x.double(), dim=-1)

        def check():
            err = (out.double() - want).abs().max().item()  # NaN (an unwritten element) fails below
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
            ok = 0 <= got < logits.numel() and logits[got].item() == logits.max().item()
            return None if ok else f"index {got}"
        return (lambda s: ip.random_sample(logits, 0.5, 1.0, 1, 1.0, out=out, stream=s)), check
    if op != "matmul":
        raise ValueError(f"unknown op {op!r}")
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


def run_scenario(scenario: str, rows: int = 1, length: int = 4 << 20) -> bool:
    """The hog, then the scenario's calls each on its stream; prints a line, returns ok."""
    import torch

    torch.manual_seed(int(time.time_ns() % 1000003))
    lo_pri, hi_pri = torch.cuda.Stream.priority_range()
    if hi_pri >= lo_pri:
        raise RuntimeError(f"this device has one stream priority ({lo_pri}): the hazard cannot be set up")
    streams = {"low": torch.cuda.Stream(priority=lo_pri), "low2": torch.cuda.Stream(priority=lo_pri),
               "high": torch.cuda.Stream(priority=hi_pri)}
    hog_stream = torch.cuda.Stream(priority=lo_pri)
    calls = SCENARIOS[scenario]
    ops = [make_op(op, (rows, length)) for _, op in calls]
    hog = hog_launcher()
    torch.cuda.synchronize()
    t0 = time.time()
    hog(hog_stream.cuda_stream, HOG_MS)
    time.sleep(0.02)  # the hog resident before the other grids arrive
    for (name, _), (call, _) in zip(calls, ops):
        call(streams[name].cuda_stream)
        time.sleep(0.02)  # each grid placed (as far as it can be) before the next arrives
    torch.cuda.synchronize()
    took = time.time() - t0
    for (name, op), (_, check) in zip(calls, ops):
        wrong = check()
        if wrong:
            print(f"{scenario}: WRONG ({op} on the {name} stream: {wrong})", flush=True)
            return False
    print(f"{scenario}: ok in {took:.3f} s (hog {HOG_MS} ms; calls {calls}; priorities low {lo_pri}, "
          f"high {hi_pri})", flush=True)
    return True


if __name__ == "__main__":
    args = sys.argv[1:]
    rows, length = 1, 4 << 20
    if "--shape" in args:
        rows, length = (int(v) for v in args[args.index("--shape") + 1].lower().split("x"))
    run_scenario(args[0], rows, length)
