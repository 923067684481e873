"""The library's calls on a stream of a CUDA green context with fewer SMs than the device, one case a
process (test_green_context.py runs each in a child with a time limit, since a plan that needs every block
resident at once could wait forever there; tools/green_ctx_probe.py prints the driver's view).

    python tests/green_context_cases.py CASE [--sms N] [--green-current] [--kernels]

prints "CASE: ok ..." or "CASE: WRONG ..." and exits 0, or fails with the library's error. Inputs are fresh
random tensors (torch, on the primary context), outputs poisoned with NaN / -1 before the call, results
checked against a float64 reference (LPNorm), exact products (Mul), the input (Rearrange), the top-k set
or the argmax (RandomSample).
"""
import sys
import time

M = 1 << 20
# name: (op, shape, dtype, the plan the library takes on the whole device)
CASES = {
    "lp_hold_bf16_32x1M": ("lp_norm", (32, M), "bfloat16", "Hold"),
    "lp_hold_bf16_1x4M": ("lp_norm", (1, 4 * M), "bfloat16", "Hold, one row over every block"),
    "lp_hold_f32_16x1M": ("lp_norm", (16, M), "float32", "Hold"),
    "lp_hold_dram_f64_4x4M": ("lp_norm", (4, 4 * M), "float64", "Hold beyond its L2 budget"),
    "lp_grid_f32_32x1M": ("lp_norm", (32, M), "float32", "Grid (cooperative)"),
    "lp_pipe_bf16_64x1.5M": ("lp_norm", (64, 3 * M // 2), "bfloat16", "Pipe (clusters)"),
    "lp_cluster_f32_128x512K": ("lp_norm", (128, M // 2), "float32", "Cluster"),
    "lp_split_f32_1x4M": ("lp_norm", (1, 4 * M), "float32", "Split"),
    "lp_rows_f16_4096x4096": ("lp_norm", (4096, 4096), "float16", "Stream / Rows"),
    "rearrange_f16_4096": ("rearrange", (4096, 4096), "float16", "tensor-copy tiles"),
    "rearrange_f16_4097": ("rearrange", (4097, 4097), "float16", "odd word tiles"),
    "mul_f16_4096": ("mul", (4096, 4096), "float16", "contiguous"),
    "sample_f32_128K": ("random_sample", (131072,), "float32", "sampling teams (clusters)"),
    "argmax_bf16_128K": ("random_sample", (131072,), "bfloat16", "argmax teams (clusters)"),
    "argmax_batch_f16_4x128K": ("random_sample_batch", (4, 131072), "float16", "argmax teams, 4 rows"),
}
# relative to the row's largest |y| (float64 reference)
LP_TOLERANCE = {"bfloat16": 8e-3, "float16": 1e-3, "float32": 1e-6, "float64": 1e-12}


def ck(result, what):
    """cuda.bindings returns (CUresult, outputs...): the outputs, or an error naming the call."""
    from cuda.bindings import driver as cu

    err, rest = result[0], result[1:]
    if err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"{what}: {err.name}")
    return rest[0] if len(rest) == 1 else rest


def green_stream(sms: int):
    """(device SMs, the green context's SMs, the green context, a stream of it): a green context of at
    least `sms` SMs (the driver rounds up to its granularity)."""
    from cuda.bindings import driver as cu

    ck(cu.cuInit(0), "cuInit")
    dev = ck(cu.cuDeviceGet(0), "cuDeviceGet")
    whole = ck(cu.cuDeviceGetDevResource(dev, cu.CUdevResourceType.CU_DEV_RESOURCE_TYPE_SM), "cuDeviceGetDevResource")
    groups, _count, _rest = ck(cu.cuDevSmResourceSplitByCount(1, whole, 0, sms), "cuDevSmResourceSplitByCount")
    desc = ck(cu.cuDevResourceGenerateDesc([groups[0]], 1), "cuDevResourceGenerateDesc")
    green = ck(cu.cuGreenCtxCreate(desc, dev, cu.CUgreenCtxCreate_flags.CU_GREEN_CTX_DEFAULT_STREAM), "cuGreenCtxCreate")
    stream = ck(cu.cuGreenCtxStreamCreate(green, cu.CUstream_flags.CU_STREAM_NON_BLOCKING, 0), "cuGreenCtxStreamCreate")
    return whole.sm.smCount, groups[0].sm.smCount, green, stream


def run_case(name: str, sms: int = 16, current: bool = False, kernels: bool = False) -> bool:
    """One case on the green context's stream (`current`: the green context current during the call, as a
    runtime-API user of it has it; else the primary context stays current; `kernels`: name the kernels the
    call launched). Prints a line, returns ok."""
    import torch
    from cuda.bindings import driver as cu

    import infiniop_py as ip

    op, shape, dtype, _plan = CASES[name]
    tdt = getattr(torch, dtype)
    torch.manual_seed(int(time.time_ns() % 1000003))
    torch.zeros(1, device="cuda")  # the primary context first: torch's tensors live there
    primary = ck(cu.cuCtxGetCurrent(), "cuCtxGetCurrent")
    device_sms, green_sms, green, stream = green_stream(sms)
    if green_sms >= device_sms:
        raise RuntimeError(f"the green context has {green_sms} of {device_sms} SMs: not fewer")
    s = int(stream)

    def enter():
        torch.cuda.synchronize()
        if current:
            ck(cu.cuCtxSetCurrent(ck(cu.cuCtxFromGreenCtx(green), "cuCtxFromGreenCtx")), "cuCtxSetCurrent")

    def leave():
        ck(cu.cuStreamSynchronize(stream), "cuStreamSynchronize")
        ck(cu.cuCtxSetCurrent(primary), "cuCtxSetCurrent")

    # Each op: inputs, a poisoned output, the call on the green stream, and a check returning (ok, detail).
    if op == "lp_norm":
        x = torch.randn(shape, device="cuda", dtype=tdt) * 3
        out = torch.full_like(x, float("nan"))

        def call():
            ip.lp_norm(x, axis=-1, p=2, out=out, stream=s)

        def check():
            want = torch.nn.functional.normalize(x.double(), dim=-1)
            err = (out.double() - want).abs().max().item()  # NaN (an unwritten element) fails below
            return err <= LP_TOLERANCE[dtype] * want.abs().max().item(), f"max err {err:.3g}"
    elif op == "rearrange":
        x = torch.randn(shape, device="cuda", dtype=tdt)
        out = torch.full(shape[::-1], float("nan"), device="cuda", dtype=tdt).t()

        def call():
            ip.rearrange(x, out=out, stream=s)

        def check():
            return bool(torch.equal(out, x)), ""
    elif op == "mul":
        a, b = torch.randn(shape, device="cuda", dtype=tdt), torch.randn(shape, device="cuda", dtype=tdt)
        out = torch.full_like(a, float("nan"))

        def call():
            ip.mul(a, b, out=out, stream=s)

        def check():  # F16 products are exact in float64: rounded once
            return bool(torch.equal(out, (a.double() * b.double()).to(tdt))), ""
    elif op == "random_sample":
        logits = torch.randn(shape, device="cuda", dtype=tdt)
        out = torch.full((), -1, device="cuda", dtype=torch.int64)
        argmax = dtype != "float32"

        def call():
            if argmax:
                ip.random_sample(logits, 0.5, 1.0, 1, 1.0, out=out, stream=s)
            else:
                ip.random_sample(logits, 0.37, 0.9, 50, 0.8, out=out, stream=s)

        def check():
            got = int(out.item())
            if argmax:
                return 0 <= got < shape[0] and logits[got].item() == logits.max().item(), f"index {got}"
            return got in set(torch.topk(logits.float(), 50).indices.tolist()), f"index {got}"
    else:  # random_sample_batch, argmax rows
        rows = shape[0]
        logits = torch.randn(shape, device="cuda", dtype=tdt)
        out = torch.full((rows,), -1, device="cuda", dtype=torch.int64)

        def call():
            ip.random_sample_batch(logits, [0.5] * rows, [1.0] * rows, [1] * rows, [1.0] * rows, out=out, stream=s)

        def check():
            got = out.tolist()
            return all(0 <= g < shape[1] and logits[r, g].item() == logits[r].max().item()
                       for r, g in enumerate(got)), f"indices {got}"
    enter()
    if kernels:  # which kernels the call launched (CUPTI through torch.profiler): the plan taken
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            call()
            leave()
        names = [e.name for e in prof.events() if e.device_type.name == "CUDA"]
        detail_kernels = " [" + ", ".join(n.replace("(anonymous namespace)::", "").split("<")[0].split("(")[0]
                                          .split("::")[-1] for n in names) + "]"
    else:
        call()
        leave()
        detail_kernels = ""
    ok, detail = check()
    detail += detail_kernels
    print(f"{name}: {'ok' if ok else 'WRONG'} on a green context of {green_sms} of {device_sms} SMs, "
          f"{'green context current' if current else 'primary context current'} {detail}", flush=True)
    return ok


if __name__ == "__main__":
    args = sys.argv[1:]
    sms = int(args[args.index("--sms") + 1]) if "--sms" in args else 16
    run_case(args[0], sms, "--green-current" in args, "--kernels" in args)
