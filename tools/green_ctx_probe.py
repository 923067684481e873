"""Session 31: the library's calls on a stream of a CUDA green context that has fewer SMs than the device
(cuda.bindings' driver API; the cases of tests/green_context_cases.py), each case in a child process with
a time limit, since a plan that needs every block resident at once (LPNorm's Hold, a plain launch whose
blocks wait for each other) could wait forever there.

Usage: green_ctx_probe.py [--sms N] [--limit S] [--primary-only | --green-only] [CASE...]  (no CASE: every case; `info` prints what the
driver reports for the green context and its stream). The library: INFINIOP_LIBRARY, or the default build.
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from green_context_cases import CASES, ck, green_stream, run_case  # noqa: E402  (the test's cases)


def info(sms: int) -> None:
    from cuda.bindings import driver as cu
    from cuda.bindings import runtime as rt

    import torch

    sm = cu.CUdevResourceType.CU_DEV_RESOURCE_TYPE_SM

    def context_sms(ctx):
        return ck(cu.cuCtxGetDevResource(ctx, sm), "cuCtxGetDevResource").sm.smCount

    def affinity_sms():
        return ck(cu.cuCtxGetExecAffinity(cu.CUexecAffinityType.CU_EXEC_AFFINITY_TYPE_SM_COUNT),
                  "cuCtxGetExecAffinity").param.smCount.val

    def show(label, answer):  # a probe: what the driver said, its error included
        try:
            print(f"{label}: {answer()}")
        except Exception as e:  # noqa: BLE001
            print(f"{label}: {e}")

    def stream_contexts(s):
        ctx, gctx = ck(cu.cuStreamGetCtx_v2(s), "cuStreamGetCtx_v2")
        return (f"ctx {int(ctx):#x} ({context_sms(ctx)} SMs), green ctx {int(gctx):#x}"
                + (f" ({ck(cu.cuGreenCtxGetDevResource(gctx, sm), 'cuGreenCtxGetDevResource').sm.smCount} SMs)"
                   if int(gctx) else ""))

    def stream_context(s):
        ctx = ck(cu.cuStreamGetCtx(s), "cuStreamGetCtx")
        return f"ctx {int(ctx):#x} ({context_sms(ctx)} SMs)"

    torch.zeros(1, device="cuda")  # the primary context, as a torch user has it
    device_sms, green_sms, green, stream = green_stream(sms)
    print(f"device SMs {device_sms}, green context SMs {green_sms} (green ctx {int(green):#x})")
    show("cuStreamGetCtx_v2(green stream)", lambda: stream_contexts(stream))
    show("cuStreamGetCtx(green stream)", lambda: stream_context(stream))
    show("cuCtxGetExecAffinity(primary current), SMs", affinity_sms)
    ck(cu.cuCtxSetCurrent(ck(cu.cuCtxFromGreenCtx(green), "cuCtxFromGreenCtx")), "cuCtxSetCurrent")
    err, n = rt.cudaDeviceGetAttribute(rt.cudaDeviceAttr.cudaDevAttrMultiProcessorCount, 0)
    print(f"green context current: cudaDevAttrMultiProcessorCount {n} ({err.name})")
    show("cuStreamGetCtx_v2(NULL stream, green current)", lambda: stream_contexts(0))
    show("cuCtxGetExecAffinity(green current), SMs", affinity_sms)


def main(argv) -> int:
    sms, limit, names, mode = 16, 30, [], "both"
    it = iter(argv)
    for a in it:
        if a == "--sms":
            sms = int(next(it))
        elif a == "--limit":
            limit = int(next(it))
        elif a == "--child":
            name, current = next(it), next(it) == "1"
            if name == "info":
                info(sms)
            else:
                run_case(name, sms, current, kernels=True)
            return 0
        elif a in ("--primary-only", "--green-only"):
            mode = a[2:-5]
        else:
            names.append(a)
    names = names or ["info"] + list(CASES)
    for name in names:
        modes = [False] if name == "info" or mode == "primary" else [True] if mode == "green" else [False, True]
        for current in modes:
            what = f"{name} ({CASES[name][3]})" if name in CASES else name
            cmd = [sys.executable, __file__, "--sms", str(sms), "--child", name, "1" if current else "0"]
            t0 = time.time()
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
                body = (r.stdout + r.stderr).strip()
                tail = "\n".join(body.splitlines()[-12:])
                print(f"== {what}, {'green current' if current else 'primary current'}: rc {r.returncode}, "
                      f"{time.time() - t0:.1f} s\n{tail}", flush=True)
            except subprocess.TimeoutExpired:
                print(f"== {what}, {'green current' if current else 'primary current'}: "
                      f"NO ANSWER within {limit} s (killed)", flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())
    sys.exit(main(sys.argv[1:]))
