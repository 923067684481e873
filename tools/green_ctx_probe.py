"""Session 31: the library's calls on a stream of a CUDA green context that has fewer SMs than the device
(cuda.bindings' driver API), each case in a child process with a time limit, since a plan that needs
every block resident at once (LPNorm's Hold, a plain launch whose blocks wait for each other) would wait
forever there. Every case is checked against PyTorch on the primary context.

Usage: green_ctx_probe.py [--sms N] [--limit S] [--primary-only | --green-only] [CASE...]  (no CASE: every case; `info` prints what the
driver reports for the green context and its stream). The library: INFINIOP_LIBRARY, or the default build.
"""
import os
import subprocess
import sys
import time

M = 1 << 20
# name: (op, shape, dtype, what the library plans on the whole device)
CASES = {
    "lp_hold_bf16_32x1M": ("lp_norm", (32, M), "bfloat16", "Hold"),
    "lp_hold_f32_16x1M": ("lp_norm", (16, M), "float32", "Hold"),
    "lp_grid_f32_32x1M": ("lp_norm", (32, M), "float32", "Grid (cooperative)"),
    "lp_pipe_bf16_64x1.5M": ("lp_norm", (64, 3 * M // 2), "bfloat16", "Pipe (clusters)"),
    "lp_cluster_f32_128x512K": ("lp_norm", (128, M // 2), "float32", "Cluster"),
    "lp_split_f32_1x4M": ("lp_norm", (1, 4 * M), "float32", "Split"),
    "lp_rows_f16_4096x4096": ("lp_norm", (4096, 4096), "float16", "Stream / Rows"),
    "rearrange_f16_4096": ("rearrange", (4096, 4096), "float16", "tensor-copy tiles"),
    "rearrange_f16_4097": ("rearrange", (4097, 4097), "float16", "odd word tiles"),
    "mul_f16_4096": ("mul", (4096, 4096), "float16", "contiguous"),
    "sample_f32_128K": ("random_sample", (131072,), "float32", "teams (clusters)"),
    "argmax_bf16_128K": ("random_sample", (131072,), "bfloat16", "argmax teams"),
}


def ck(result, what):
    """cuda.bindings returns (CUresult, outputs...): the outputs, or an error naming the call."""
    from cuda.bindings import driver as cu

    err, rest = result[0], result[1:]
    if err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"{what}: {err.name}")
    return rest[0] if len(rest) == 1 else rest


def green_stream(sms: int):
    """A green context of at least `sms` SMs (the driver rounds up) and a stream of it."""
    from cuda.bindings import driver as cu

    ck(cu.cuInit(0), "cuInit")
    dev = ck(cu.cuDeviceGet(0), "cuDeviceGet")
    whole = ck(cu.cuDeviceGetDevResource(dev, cu.CUdevResourceType.CU_DEV_RESOURCE_TYPE_SM), "cuDeviceGetDevResource")
    groups, count, _rest = ck(cu.cuDevSmResourceSplitByCount(1, whole, 0, sms), "cuDevSmResourceSplitByCount")
    desc = ck(cu.cuDevResourceGenerateDesc([groups[0]], 1), "cuDevResourceGenerateDesc")
    green = ck(cu.cuGreenCtxCreate(desc, dev, cu.CUgreenCtxCreate_flags.CU_GREEN_CTX_DEFAULT_STREAM), "cuGreenCtxCreate")
    stream = ck(cu.cuGreenCtxStreamCreate(green, cu.CUstream_flags.CU_STREAM_NON_BLOCKING, 0), "cuGreenCtxStreamCreate")
    return whole.sm.smCount, groups[0].sm.smCount, green, stream


def info(sms: int) -> None:
    from cuda.bindings import driver as cu
    from cuda.bindings import runtime as rt

    import torch

    torch.zeros(1, device="cuda")  # the primary context, as a torch user has it
    device_sms, green_sms, green, stream = green_stream(sms)
    print(f"device SMs {device_sms}, green context SMs {green_sms}")
    for name in ("cuStreamGetCtx_v2",):
        try:
            ctx, gctx = ck(cu.cuStreamGetCtx_v2(stream), name)
            print(f"{name}(green stream): ctx {int(ctx):#x}, green ctx {int(gctx):#x} (ours {int(green):#x})")
            res = ck(cu.cuGreenCtxGetDevResource(gctx, cu.CUdevResourceType.CU_DEV_RESOURCE_TYPE_SM),
                     "cuGreenCtxGetDevResource")
            print(f"  cuGreenCtxGetDevResource: {res.sm.smCount} SMs")
            res = ck(cu.cuCtxGetDevResource(ctx, cu.CUdevResourceType.CU_DEV_RESOURCE_TYPE_SM), "cuCtxGetDevResource")
            print(f"  cuCtxGetDevResource(its ctx): {res.sm.smCount} SMs")
        except Exception as e:  # noqa: BLE001  (a probe: print what the driver said)
            print(f"{name}: {e}")
    try:
        ctx = ck(cu.cuStreamGetCtx(stream), "cuStreamGetCtx")
        res = ck(cu.cuCtxGetDevResource(ctx, cu.CUdevResourceType.CU_DEV_RESOURCE_TYPE_SM), "cuCtxGetDevResource")
        print(f"cuStreamGetCtx(green stream) {int(ctx):#x}: cuCtxGetDevResource {res.sm.smCount} SMs")
    except Exception as e:  # noqa: BLE001
        print(f"cuStreamGetCtx: {e}")
    try:
        aff = ck(cu.cuCtxGetExecAffinity(cu.CUexecAffinityType.CU_EXEC_AFFINITY_TYPE_SM_COUNT), "cuCtxGetExecAffinity")
        print(f"cuCtxGetExecAffinity(primary current): {aff.param.smCount.val} SMs")
    except Exception as e:  # noqa: BLE001
        print(f"cuCtxGetExecAffinity: {e}")
    gcu = ck(cu.cuCtxFromGreenCtx(green), "cuCtxFromGreenCtx")
    ck(cu.cuCtxSetCurrent(gcu), "cuCtxSetCurrent")
    err, n = rt.cudaDeviceGetAttribute(rt.cudaDeviceAttr.cudaDevAttrMultiProcessorCount, 0)
    print(f"green context current: cudaDevAttrMultiProcessorCount {n} ({err.name})")
    try:
        ctx, gctx = ck(cu.cuStreamGetCtx_v2(0), "cuStreamGetCtx_v2(NULL)")
        print(f"cuStreamGetCtx_v2(NULL stream, green current): ctx {int(ctx):#x}, green ctx {int(gctx):#x}")
        res = ck(cu.cuCtxGetDevResource(ctx, cu.CUdevResourceType.CU_DEV_RESOURCE_TYPE_SM), "cuCtxGetDevResource")
        print(f"  cuCtxGetDevResource(that ctx): {res.sm.smCount} SMs")
    except Exception as e:  # noqa: BLE001
        print(f"cuStreamGetCtx_v2(NULL): {e}")
    try:
        aff = ck(cu.cuCtxGetExecAffinity(cu.CUexecAffinityType.CU_EXEC_AFFINITY_TYPE_SM_COUNT), "cuCtxGetExecAffinity")
        print(f"cuCtxGetExecAffinity(green current): {aff.param.smCount.val} SMs")
    except Exception as e:  # noqa: BLE001
        print(f"cuCtxGetExecAffinity(green current): {e}")


def run_case(name: str, sms: int, current: bool) -> None:
    """One case on the green context's stream (`current`: with the green context current, as a
    runtime-API user of it would have it; else the primary context stays current)."""
    import torch
    from cuda.bindings import driver as cu

    import infiniop_py as ip

    op, shape, dtype, _plan = CASES[name]
    tdt = getattr(torch, dtype)
    torch.manual_seed(31)
    torch.zeros(1, device="cuda")  # the primary context first: torch's tensors live there
    primary = ck(cu.cuCtxGetCurrent(), "cuCtxGetCurrent")
    _dev, green_sms, green, stream = green_stream(sms)
    s = int(stream)

    def enter():  # the green context current for the library's call only (`current`), torch's own work outside it
        torch.cuda.synchronize()
        if current:
            ck(cu.cuCtxSetCurrent(ck(cu.cuCtxFromGreenCtx(green), "cuCtxFromGreenCtx")), "cuCtxSetCurrent")
        return time.perf_counter()

    def leave():
        ck(cu.cuStreamSynchronize(stream), "cuStreamSynchronize")
        ck(cu.cuCtxSetCurrent(primary), "cuCtxSetCurrent")
    if op == "lp_norm":
        x = torch.randn(shape, device="cuda", dtype=tdt)
        want = torch.nn.functional.normalize(x.double(), dim=-1)
        out = torch.full_like(x, float("nan"))
        t0 = enter()
        ip.lp_norm(x, axis=-1, p=2, out=out, stream=s)
        leave()
        err = (out.double() - want).abs().max().item()
        tol = {"bfloat16": 8e-3, "float16": 1e-3, "float32": 1e-6, "float64": 1e-12}[dtype] * max(
            want.abs().max().item(), 1e-30)
        ok = err <= tol
    elif op == "rearrange":
        x = torch.randn(shape, device="cuda", dtype=tdt)
        out = torch.full(shape[::-1], float("nan"), device="cuda", dtype=tdt).t()
        t0 = enter()
        ip.rearrange(x, out=out, stream=s)
        leave()
        ok = bool(torch.equal(out, x))
        err = 0.0 if ok else float("nan")
    elif op == "mul":
        a, b = torch.randn(shape, device="cuda", dtype=tdt), torch.randn(shape, device="cuda", dtype=tdt)
        want = (a.double() * b.double()).to(tdt)
        out = torch.full_like(a, float("nan"))
        t0 = enter()
        ip.mul(a, b, out=out, stream=s)
        leave()
        ok = bool(torch.equal(out, want))
        err = 0.0 if ok else float("nan")
    else:  # random_sample: argmax (topk 1) for BF16, top-k / top-p sampling for F32 (a valid index)
        logits = torch.randn(shape, device="cuda", dtype=tdt)
        out = torch.full((), -1, device="cuda", dtype=torch.int64)
        t0 = enter()
        if dtype == "bfloat16":
            ip.random_sample(logits, 0.5, 1.0, 1, 1.0, out=out, stream=s)
            leave()
            got = int(out.item())
            ok = got >= 0 and logits[got].item() == logits.max().item()
        else:
            ip.random_sample(logits, 0.37, 0.9, 50, 0.8, out=out, stream=s)
            leave()
            got = int(out.item())
            ok = got in set(torch.topk(logits, 50).indices.tolist())
        err = 0.0 if ok else float("nan")
    dt = time.perf_counter() - t0
    print(f"{name}: green {green_sms} SMs, {'green current' if current else 'primary current'}: "
          f"{'ok' if ok else 'WRONG'} (max err {err:.3g}), {dt * 1e3:.1f} ms to the stream's end")


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
                run_case(name, sms, current)
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
