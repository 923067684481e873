"""RandomSample: the exact definition of SPEC §4 against a float64 NumPy reference,
on the CPU and on NVIDIA, single and batch forms, every error status."""
import math

import numpy as np
import pytest

import infiniop_py as ip
from infiniop_py._ffi import ffi, lib
from conftest import DEVICES, poisoned, queue_dependent_chains, to_device, to_host

ISSUE_PARAMS = [(0.8, 0.8, 3, 0.5), (0.05, 0.9, 5, 1.0), (0.15, 0.85, 10, 2.0), (0.08, 0, 3, 0.5),
                (0.5, 0.9, 1, 1.0), (0.15, 0, 1, 2.0), (0.08, 0.8, 50, 1.0), (0.08, 1.0, 25, 1.0),
                (0.5, 1.0, 1, 1.0)]
ISSUE_VOCABS = [512, 4096, 16384, 32000, 151936]
INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
F32 = np.float32


# ---- the reference ----

def reference(logits, random_val, topp, topk, temperature, *, details=False):
    """Float64 reference of the definition (the parameters as the C ABI sees them,
    rounded to float32), with our rules for non-finite logits: NaN sorts below
    -inf; NaN and -inf weigh 0; a +inf maximum or no finite logit gives the argmax."""
    with np.errstate(invalid="ignore"):  # NaN patterns of ml_dtypes' bfloat16
        v = np.asarray(logits).astype(np.float64).reshape(-1)
    n = v.size
    nan = np.isnan(v)
    order = np.lexsort((np.arange(n), nan, -np.where(nan, -np.inf, v)))
    amax = int(order[0])
    r, p, temp = (float(F32(x)) for x in (random_val, topp, temperature))
    if r == 0 or p <= 0 or topk == 1 or temp <= 0 or not np.isfinite(v[amax]):
        return (amax, None) if details else amax
    K = n if topk <= 0 or topk >= n else int(topk)
    sv = v[order]
    with np.errstate(invalid="ignore", over="ignore"):
        w = np.where(np.isnan(sv) | (sv == -np.inf), 0.0, np.exp((sv - v[amax]) / temp))
    c = np.cumsum(w)
    t = r * min(min(p, 1.0) * c[-1], c[K - 1])
    i = min(int(np.searchsorted(c, t, side="left")), K - 1)
    return (int(order[i]), (order, c, t)) if details else int(order[i])


def assert_sample(got, logits, params, device, rel=None):
    """CPU (F64 weights) must equal the reference. NVIDIA computes weights in F32
    and sums them in F64: it may also give the neighbouring position when the
    threshold lies within `rel` (relative) of the boundary between them."""
    want, info = reference(logits, *params, details=True)
    if got == want:
        return
    if device == "nvidia" and info is not None:
        order, c, t = info
        where = np.flatnonzero(order == got)
        pw = int(np.flatnonzero(order == want)[0])
        if where.size and abs(int(where[0]) - pw) == 1:
            lo = min(int(where[0]), pw)
            if abs(c[lo] - t) <= (rel or 1e-5) * t:
                return
    raise AssertionError(f"params {params}: got index {got}, the reference says {want}")


def issue_logits(voc, dtype, rng):
    return (np.arange(voc)[rng.permutation(voc)] * 1e-4).astype(dtype)


def sample(logits, params, device, result_dtype=np.int32):
    """One sample through the functional API into a poisoned 0-d result."""
    x = to_device(logits, device)
    out, _ = poisoned((), result_dtype, device)
    ip.random_sample(x, *params, out=out)
    return int(to_host(out))


# ---- the issue's cases ----

@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, ip.bfloat16], ids=["f16", "bf16"])
@pytest.mark.parametrize("voc", ISSUE_VOCABS)
def test_issue_cases(device, dtype, voc, rng):
    logits = issue_logits(voc, dtype, rng)
    for params in ISSUE_PARAMS:
        assert_sample(sample(logits, params, device), logits, params, device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("batch,voc", [(4, 512), (8, 4096), (2, 16384)])
def test_issue_batch_cases(device, batch, voc, rng):
    pad = 3  # row stride voc + pad >= n
    backing = np.stack([issue_logits(voc + pad, np.float16, rng) for _ in range(batch)])
    logits = backing[:, :voc]
    params = [ISSUE_PARAMS[int(k)] for k in rng.integers(0, len(ISSUE_PARAMS), batch)]
    rv, tp, tk, tt = (list(col) for col in zip(*params))
    if device == "cpu":
        x = logits
    else:
        x = to_device(backing, device).view((batch, voc), (voc + pad, 1))
    out, _ = poisoned((batch,), np.int32, device)
    ip.random_sample_batch(x, rv, tp, tk, tt, out=out)
    got = to_host(out)
    for b in range(batch):
        assert_sample(int(got[b]), logits[b], params[b], device)
    # Without out: a NumPy array back.
    got2 = ip.random_sample_batch(x, rv, tp, tk, tt)
    assert isinstance(got2, np.ndarray) and list(got2) == list(got)


# ---- dtypes ----

@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("rdtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_index_dtypes(device, rdtype, rng):
    n = 120 if np.dtype(rdtype).itemsize == 1 else 300
    logits = rng.standard_normal(n).astype(np.float32)
    for params in [(0.7, 0.9, 20, 1.0), (0.0, 0.9, 20, 1.0)]:
        assert_sample(sample(logits, params, device, rdtype), logits, params, device)


@pytest.mark.parametrize("rdtype,n", [(np.int8, 129), (np.uint8, 257), (np.int16, 32769), (np.uint16, 65537)])
def test_index_dtype_too_small(rdtype, n):
    with pytest.raises(ip.BadTensorDtype):
        ip.RandomSample(ip.Handle("cpu"), ip.TensorDescriptor((), None, rdtype),
                        ip.TensorDescriptor((n,), None, np.float32))
    # The largest n that fits is fine.
    ip.RandomSample(ip.Handle("cpu"), ip.TensorDescriptor((), None, rdtype),
                    ip.TensorDescriptor((n - 1,), None, np.float32)).close()


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, ip.bfloat16, np.float32, np.float64],
                         ids=["f16", "bf16", "f32", "f64"])
def test_float_dtypes_random(device, dtype, rng):
    for n in (1, 7, 2048, 2049, 5000, 40000):
        logits = (rng.standard_normal(n) * rng.uniform(0.5, 4)).astype(dtype)
        for _ in range(4):
            params = (float(rng.uniform(0.001, 0.999)), float(rng.choice([rng.uniform(0.1, 1), 1.0])),
                      int(rng.choice([0, 5, 50, 3000, n])), float(rng.uniform(0.3, 2)))
            assert_sample(sample(logits, params, device), logits, params, device)


# ---- parameter edges ----

@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [100, 3000, 50000])
def test_parameter_edges(device, n, rng):
    logits = rng.standard_normal(n).astype(np.float32)
    cases = [(0.5, 0.9, 0, 1.0), (0.5, 0.9, -3, 1.0),        # topk <= 0: no limit
             (0.5, 0.9, n + 5, 1.0), (0.5, 1.0, 2 ** 31 - 1, 1.0),  # topk > n
             (0.5, 1.5, 10, 1.0), (0.5, 1e30, 0, 1.0),        # topp > 1 counts as 1
             (0.0, 0.9, 10, 1.0), (0.999999, 0.9, 10, 1.0),   # random_val at both ends
             (0.999999, 1.0, 0, 1.0), (1e-7, 1.0, 0, 1.0),
             (0.5, 0.9, 10, 0.0), (0.5, 0.9, 10, -1.0),        # temperature <= 0: argmax
             (0.5, -0.1, 10, 1.0), (0.5, 0.9, 1, 1.0),         # topp <= 0, topk == 1: argmax
             (0.5, 0.9, 10, 1e-30), (0.5, 0.9, 0, 1e30),       # extreme temperatures
             (0.5, 0.9, 2, 1.0), (0.3, 0.5, 2048, 0.7), (0.3, 0.5, 2049, 0.7)]
    for params in cases:
        assert_sample(sample(logits, params, device), logits, params, device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [16, 3000, 70000])
def test_ties(device, n, rng):
    # Few distinct values: long runs of equal logits, ordered by index.
    for levels in (1, 2, 5):
        logits = rng.integers(0, levels, n).astype(np.float16)
        for params in [(0.5, 1.0, 0, 1.0), (0.25, 1.0, 4, 1.0), (0.5, 0.5, 0, 1.0), (0.999999, 1.0, 0, 1.0),
                       (0.3, 0.9, 2500, 1.0), (0.0, 1.0, 0, 1.0), (0.7, 1.0, n // 2, 2.0)]:
            assert_sample(sample(logits, params, device), logits, params, device)
    # Exact threshold ties: equal weights of 1 make c_i integers and t = c_i exactly.
    logits = np.zeros(8, np.float32)
    for params in [(0.5, 1.0, 4, 1.0), (0.25, 1.0, 0, 1.0), (0.75, 0.5, 0, 3.0)]:
        assert sample(logits, params, device) == reference(logits, *params)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, ip.bfloat16, np.float32, np.float64],
                         ids=["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("n", [214, 5000, 70000])
def test_subnormal_temperatures(device, dtype, n, rng):
    # log2(e) / T overflows F32 below T ~ 4.2e-39: the maximum (tied at three
    # places) must still weigh 1 and the rest 0 (the GPU's vector sums gave NaN).
    logits = (rng.standard_normal(n) * 0.5).astype(dtype)
    top = np.asarray(logits).astype(np.float64).max() + 0.5
    logits[rng.choice(n, 3, replace=False)] = top
    for temp in (1.401298464324817e-45, 1e-40, 4e-39, 1e-38):
        for params in [(0.75, 0.5, 0, temp), (0.3, 0.9, 50, temp), (0.999999, 1.0, 0, temp), (0.5, 1.0, 3, temp)]:
            assert_sample(sample(logits, params, device), logits, params, device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [2, 5000])
def test_logits_near_the_f32_limit(device, n, rng):
    # 3e38 - (-3e38) overflows F32: with T = 1e38 the low logits weigh e^-6
    # each against the maximum's 1 (the GPU gave them 0, so never sampled them).
    logits = np.full(n, -3e38, np.float32)
    logits[n // 3] = 3e38
    p_max = 1.0 / (1.0 + (n - 1) * math.exp(-6.0))
    for random_val in (p_max / 2, p_max + (1 - p_max) / 3, 0.999999):
        params = (random_val, 1.0, 0, 1e38)
        got = sample(logits, params, device)
        assert_sample(got, logits, params, device)
        assert (got == n // 3) == (random_val < p_max)


@pytest.mark.parametrize("device", DEVICES)
def test_negative_zero_ties_positive_zero(device):
    logits = np.array([-1.0, -0.0, 0.0, -2.0], np.float32)
    assert sample(logits, (0.0, 1.0, 0, 1.0), device) == 1
    assert sample(logits, (0.4, 1.0, 2, 1.0), device) == 1
    assert sample(logits, (0.6, 1.0, 2, 1.0), device) == 2


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [10, 5000, 20000])
def test_nonfinite_logits(device, n, rng):
    base = rng.standard_normal(n).astype(np.float32)
    # -inf is never sampled, whatever the parameters.
    logits = base.copy()
    logits[rng.permutation(n)[: n // 2]] = -np.inf
    for rv in (0.001, 0.5, 0.999999):
        for params in [(rv, 1.0, 0, 1.0), (rv, 1.0, n, 5.0), (rv, 0.99, 0, 100.0)]:
            got = sample(logits, params, device)
            assert np.isfinite(logits[got])
            assert_sample(got, logits, params, device)
    # NaN sorts below -inf and is never sampled.
    logits = base.copy()
    logits[rng.permutation(n)[: n // 3]] = np.nan
    for params in [(0.5, 1.0, 0, 1.0), (0.999999, 1.0, 0, 50.0), (0.0, 1.0, 0, 1.0)]:
        got = sample(logits, params, device)
        assert not np.isnan(logits[got])
        assert_sample(got, logits, params, device)
    # A +inf maximum: the first +inf.
    logits = base.copy()
    logits[[3, 7]] = np.inf
    assert sample(logits, (0.5, 1.0, 0, 1.0), device) == 3
    # No finite logit: the first -inf; all NaN: 0.
    logits = np.full(n, -np.inf, np.float32)
    logits[[1, 4]] = np.nan
    assert sample(logits, (0.5, 1.0, 0, 1.0), device) == 0
    logits[0] = np.nan
    assert sample(logits, (0.5, 1.0, 0, 1.0), device) == 2
    assert sample(np.full(n, np.nan, np.float32), (0.5, 1.0, 0, 1.0), device) == 0


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("rdtype", [np.uint16, np.int32, np.int64], ids=["u16", "i32", "i64"])
def test_argmax_long_rows(device, rdtype, rng):
    # Rows long enough to be split across blocks on NVIDIA, every row an argmax.
    batch, n = 5, 40000
    logits = rng.standard_normal((batch, n)).astype(np.float16)
    logits[1, 17] = logits[1, 39999] = 99  # ties: the lower index
    logits[2, :] = -np.inf
    logits[3, 5:] = np.nan
    out, _ = poisoned((batch,), rdtype, device)
    params = [(0.0, 0.9, 50, 1.0), (0.5, 0.0, 0, 1.0), (0.5, 0.9, 1, 1.0), (0.3, 0.9, 50, 0.0), (0.0, 1.0, 0, 1.0)]
    rv, tp, tk, tt = (list(col) for col in zip(*params))
    ip.random_sample_batch(to_device(logits, device), rv, tp, tk, tt, out=out)
    got = to_host(out)
    assert [int(g) for g in got] == [reference(logits[b], *params[b]) for b in range(batch)]
    assert int(got[1]) == 17 and int(got[2]) == 0


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, ip.bfloat16], ids=["f16", "bf16"])
def test_argmax_any_bit_pattern(device, dtype, rng):
    # Random 16-bit patterns: NaNs of both signs, infinities, -0, subnormals.
    for n in (33, 1000, 20000):
        bits = rng.integers(0, 1 << 16, n, dtype=np.uint16)
        bits[rng.integers(0, n, 3)] = 0x8000  # -0
        logits = bits.view(dtype)
        for params in [(0.0, 1.0, 0, 1.0), (0.5, 1.0, 0, 1.0), (0.5, 0.9, 40, 1.0)]:
            assert_sample(sample(logits, params, device), logits, params, device)
    logits = np.array([0x8000, 0x0000, 0x8000], np.uint16).view(dtype)  # -0, +0, -0: all equal
    assert sample(logits, (0.0, 1.0, 0, 1.0), device) == 0


# ---- GPU against CPU ----

@pytest.mark.gpu
def test_gpu_matches_cpu_random(rng):
    for trial in range(150):
        n = int(rng.choice([rng.integers(1, 3000), rng.integers(3000, 200000)]))
        dtype = [np.float16, ip.bfloat16, np.float32, np.float64][trial % 4]
        logits = (rng.standard_normal(n) * rng.uniform(0.2, 8)).astype(dtype)
        if trial % 5 == 0:
            logits[rng.permutation(n)[: n // 4]] = -np.inf
        if trial % 7 == 0:
            logits = np.round(logits.astype(np.float32)).astype(dtype)
        params = (float(rng.choice([rng.uniform(0, 1), 0.999999])), float(rng.choice([rng.uniform(0, 1.2), 1.0])),
                  int(rng.choice([0, -1, 1, 2, rng.integers(1, n + 1), n + 1, 2048, 2049, 5000])),
                  float(rng.uniform(0.05, 3)))
        cpu = sample(logits, params, "cpu")
        gpu = sample(logits, params, "nvidia")
        assert cpu == reference(logits, *params)
        assert_sample(gpu, logits, params, "nvidia")


@pytest.mark.gpu
def test_gpu_batch_matches_cpu(rng):
    batch, n = 300, 1000  # more rows than one launch carries
    logits = rng.standard_normal((batch, n)).astype(np.float16)
    rv = rng.uniform(0, 1, batch).astype(np.float32)
    tp = rng.uniform(0.1, 1.1, batch).astype(np.float32)
    tk = rng.integers(-1, 200, batch).astype(np.int32)
    tt = rng.uniform(0.2, 2, batch).astype(np.float32)
    cpu = ip.random_sample_batch(logits, rv, tp, tk, tt)
    out, _ = poisoned((batch,), np.int64, "nvidia")
    ip.random_sample_batch(to_device(logits, "nvidia"), rv, tp, tk, tt, out=out)
    gpu = to_host(out)
    for b in range(batch):
        params = (rv[b], tp[b], int(tk[b]), tt[b])
        assert cpu[b] == reference(logits[b], *params)
        assert_sample(int(gpu[b]), logits[b], params, "nvidia")


@pytest.mark.gpu
@pytest.mark.parametrize("n", [4096, 4097, 131071, 131072, 151936, 262144])
def test_gpu_team_paths(n, rng):
    """Rows read by one block (n <= 4096) and by a team of blocks (longer rows, a
    cluster on sm_90; 16 blocks from n = 131072 on): small K, K beyond the candidate cap, top-p only, argmax,
    F16 and F32, and the same call twice gives the same index."""
    for dtype in (np.float16, np.float32):
        logits = (rng.standard_normal(n) * 3).astype(dtype)
        for params in [(0.5, 0.9, 50, 0.8), (0.9, 0.95, 3000, 1.0), (0.3, 0.9, 0, 0.8), (0.7, 1.0, n - 1, 2.0),
                       (0.0, 0.9, 50, 0.8), (0.999999, 0.5, 0, 0.3)]:
            got = sample(logits, params, "nvidia")
            assert_sample(got, logits, params, "nvidia")
            assert sample(logits, params, "nvidia") == got


@pytest.mark.gpu
@pytest.mark.parametrize("n", [5000, 151936])
def test_gpu_top_p_guesses(n, rng):
    """Top p over more than 2048 elements (K == n, or K > 2048 with topp < 1): the
    first guess from the vectors' maxima, the second from their weight bounds, and
    the exact way when both fall short (random_val near 1, high temperature, K < n
    with the nucleus past the guesses, heavy ties), F16 / BF16 / F32."""
    for dtype in (np.float16, ip.bfloat16, np.float32):
        for scale, levels in ((3.0, None), (1.0, None), (1.0, 7)):
            x = rng.standard_normal(n) * scale
            logits = (np.round(x * levels / 4) if levels else x).astype(dtype)
            for params in [(0.5, 0.9, 0, 0.8), (0.97, 0.9, 0, 0.8), (0.999999, 0.99, 0, 0.8), (0.4, 0.9, 0, 5.0),
                           (0.6, 1.0, 0, 0.8), (0.9, 0.95, 3000, 1.0), (0.99, 0.999, 2500, 0.7)]:
                assert_sample(sample(logits, params, "nvidia"), logits, params, "nvidia")


@pytest.mark.gpu
def test_gpu_team_batches(rng):
    """Batches of long rows: few rows (one small parameter block), more rows, rows
    mixing argmax and sampling, and all-argmax batches (the argmax launch)."""
    for batch in (3, 40):
        n = 20000
        logits = (rng.standard_normal((batch, n)) * 2).astype(ip.bfloat16)
        rv = rng.uniform(0, 1, batch).astype(np.float32)
        rv[::4] = 0  # argmax rows among sampled ones
        tp = rng.uniform(0.1, 1.1, batch).astype(np.float32)
        tk = rng.choice([0, 1, 20, 3000, n], batch).astype(np.int32)
        tt = rng.uniform(0.2, 2, batch).astype(np.float32)
        out, _ = poisoned((batch,), np.int64, "nvidia")
        ip.random_sample_batch(to_device(logits, "nvidia"), rv, tp, tk, tt, out=out)
        gpu = to_host(out)
        for b in range(batch):
            assert_sample(int(gpu[b]), logits[b], (rv[b], tp[b], int(tk[b]), tt[b]), "nvidia")
        out, _ = poisoned((batch,), np.int32, "nvidia")
        ip.random_sample_batch(to_device(logits, "nvidia"), np.zeros(batch, np.float32), tp, tk, tt, out=out)
        want = [reference(logits[b], 0.0, 1.0, 0, 1.0) for b in range(batch)]
        assert [int(g) for g in to_host(out)] == want


@pytest.mark.gpu
def test_gpu_wide_rows_past_one_launch(rng):
    """More rows than one sampling launch carries (1024), of a length that takes
    teams of 16 on sm_90 when a launch has few rows: the last launch (2 rows)
    must still run with a team its kernel instance was built for."""
    batch, n = 1026, 131072
    logits = rng.standard_normal((batch, n), dtype=np.float32).astype(np.float16)
    rv = rng.uniform(0, 1, batch).astype(np.float32)
    tp = np.full(batch, 0.9, np.float32)
    tk = rng.choice([0, 50], batch).astype(np.int32)
    tt = np.full(batch, 0.8, np.float32)
    out, _ = poisoned((batch,), np.int64, "nvidia")
    ip.random_sample_batch(to_device(logits, "nvidia"), rv, tp, tk, tt, out=out)
    gpu = to_host(out)
    assert ((gpu >= 0) & (gpu < n)).all(), "a row's result was not written"
    for b in [0, 1, 511, 1022, 1023, 1024, 1025, *rng.integers(0, batch, 4)]:
        assert_sample(int(gpu[b]), logits[b], (rv[b], tp[b], int(tk[b]), tt[b]), "nvidia")


@pytest.mark.gpu
def test_gpu_torch_inputs_and_stream():
    torch = pytest.importorskip("torch")
    x = torch.randn(151936, device="cuda", dtype=torch.bfloat16)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())  # x is written on the current stream
    with torch.cuda.stream(s):
        got = ip.random_sample(x, 0.3, 0.9, 50, 0.8, stream=s)
    assert_sample(got, x.float().cpu().numpy(), (0.3, 0.9, 50, 0.8), "nvidia")
    assert ip.random_sample(x, 0, 0.9, 50, 0.8) == int(torch.argmax(x.float()))


@pytest.mark.gpu
def test_gpu_graph_capture():
    torch = pytest.importorskip("torch")
    for rows, n in ((4, 32000), (4, 3000), (1, 151936)):
        x = torch.randn(rows, n, device="cuda", dtype=torch.float16)
        out = torch.full((rows,), -1, device="cuda", dtype=torch.int64)
        rv, tp, tk, tt = [0.2, 0.4, 0.6, 0.8][:rows], [0.9] * rows, [50, 0, 1, 20][:rows], [0.8] * rows
        for params in ((rv, tp, tk, tt), ([0.0] * rows, tp, tk, tt)):  # sampling, then the argmax launch
            s = torch.cuda.Stream()
            # x and out are written on the current stream: s (a non-blocking stream) must wait
            # for them, else the -1 fill may land after the first rows are written.
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):  # warm the descriptor and workspace caches (kept per stream) outside capture
                ip.random_sample_batch(x, *params, out=out, stream=s)
            torch.cuda.synchronize()
            expect = out.clone()
            out.fill_(-1)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.stream(s):
                with torch.cuda.graph(g, stream=s):
                    ip.random_sample_batch(x, *params, out=out, stream=s)
            for _ in range(3):  # replays start from the same state (no counters left behind)
                g.replay()
                torch.cuda.synchronize()
                assert out.tolist() == expect.tolist()
                out.fill_(-1)


@pytest.mark.gpu
def test_gpu_dependent_calls():
    """Eager calls launch with programmatic dependent launch on sm_90: each kernel
    must wait for the one before it. A chain without syncs on one stream: a Mul
    (PDL-aware too) writes the logits, RandomSample reads them, the next Mul
    overwrites them; single rows (teams of 16 and 8), argmax and a 64-row batch;
    eager, captured and replayed (conftest.queue_dependent_chains)."""
    rng = np.random.default_rng(61)
    cases = [(1, 151936, (0.5, 0.9, 50, 0.8)), (1, 151936, (0.0, 0.9, 50, 0.8)), (1, 32000, (0.3, 0.9, 0, 0.7)),
             (64, 32000, (0.7, 0.9, 50, 0.8)), (8, 151936, (0.0, 0.9, 50, 0.8))]
    # Full-shape ones: the contiguous Mul kernel, which itself launches with PDL and lets the next
    # grid (ours) start at its entry, so that a missing wait in ours would read unwritten logits.
    ones = {(rows, n): ip.DeviceArray.from_numpy(np.ones((rows, n), np.float16)) for rows, n, _ in cases}
    steps = []
    for rows, n, params in cases:
        for _ in range(2):
            src = (rng.standard_normal((rows, n)) * 3).astype(np.float16)
            want = ip.random_sample_batch(src, *[np.full(rows, v, dt) for v, dt in
                                                 zip(params, (np.float32, np.float32, np.int32, np.float32))])
            steps.append((ip.DeviceArray.from_numpy(src), params, want))
    logits = {(rows, n): ip.DeviceArray.from_numpy(np.full((rows, n), np.nan, np.float16)) for rows, n, _ in cases}
    results = [ip.DeviceArray.from_numpy(np.full(len(want), -1, np.int64)) for _, _, want in steps]

    def queue(s):
        for (src, params, want), res in zip(steps, results):
            rows, n = src.shape
            x = logits[(rows, n)]
            ip.mul(src, ones[(rows, n)], out=x, stream=s)  # the logits' writer (and the previous reader's overwriter)
            ip.random_sample_batch(x, *[np.full(rows, v, dt) for v, dt in
                                        zip(params, (np.float32, np.float32, np.int32, np.float32))], out=res, stream=s)

    def poison(s):
        for res in results:
            res.copy_from_numpy(np.full(res.shape, -1, np.int64), stream=s)

    def check(what, s):
        for k, ((src, params, want), res) in enumerate(zip(steps, results)):
            got = res.to_numpy(stream=s)
            assert np.array_equal(got, want), f"{what}: step {k} {src.shape} {params}: {got[:4]} != {want[:4]}"

    queue_dependent_chains(queue, poison, check)


# ---- statistics ----

@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("params", [(1.0, 0, 1.0), (0.8, 0, 0.7), (1.0, 5, 1.5)], ids=["full", "topp", "topk"])
def test_chi_square(device, params, rng):
    """100k uniform random_val: frequencies against the exact probabilities."""
    n, draws = 8, 100_000
    logits = rng.standard_normal(n).astype(np.float32)
    topp, topk, temp = params
    rv = rng.random(draws, dtype=np.float32)
    rv[rv == 0] = 0.5  # random_val == 0 means argmax
    x = np.broadcast_to(logits, (draws, n)).copy()
    got = ip.random_sample_batch(to_device(x, device), rv, topp, topk, temp)
    # Exact probability of position i: the share of [0, bound) where c_{i-1} < t <= c_i.
    order = np.lexsort((np.arange(n), -logits.astype(np.float64)))
    w = np.exp((logits[order].astype(np.float64) - logits.max()) / np.float64(F32(temp)))
    c = np.cumsum(w)
    K = n if topk <= 0 else min(topk, n)
    bound = min(min(float(F32(topp)), 1.0) * c[-1], c[K - 1])
    edges = np.minimum(np.concatenate([[0.0], c]), bound) / bound
    prob = np.diff(edges)
    counts = np.bincount(order.argsort()[np.asarray(got)], minlength=n)  # by position in the order
    assert counts[prob == 0].sum() == 0
    live = prob > 0
    expected = prob[live] * draws
    df = int(live.sum()) - 1
    if df == 0:  # the nucleus is one token (it happens for some draws of the logits): every sample is it
        assert counts[live].sum() == draws
        return
    chi2 = float(((counts[live] - expected) ** 2 / expected).sum())
    # Wilson-Hilferty: the 1 - 1e-6 quantile of chi-square(df).
    z = 4.753
    crit = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    assert chi2 < crit, f"chi2 {chi2:.1f} >= {crit:.1f} (df {df}); counts {counts}, expected {expected}"


# ---- errors, through the C ABI and through Python ----

def _td(shape, dtype, strides=None):
    return ip.TensorDescriptor(shape, strides, dtype)


@pytest.fixture
def cpu_handle():
    return ip.Handle("cpu")


def _create(handle, result, probs, batch=False):
    raw = ffi.new("infiniopRandomSampleDescriptor_t *")
    fn = lib.infiniopCreateRandomSampleBatchDescriptor if batch else lib.infiniopCreateRandomSampleDescriptor
    return fn(handle.ptr, raw, result.ptr, probs.ptr), raw[0]


OK, BAD_PARAM, NULL_POINTER, BAD_DTYPE, BAD_SHAPE, BAD_STRIDES, INSUFFICIENT = 0, 3, 4, 10, 11, 12, 13


@pytest.mark.parametrize("result,probs,batch,status", [
    (((), np.float32), ((10,), np.float32), False, BAD_DTYPE),      # result not an integer
    (((), np.int32), ((10,), np.int32), False, BAD_DTYPE),          # logits not a float
    (((), np.int8), ((200,), np.float16), False, BAD_DTYPE),        # index dtype too small
    (((1,), np.int32), ((10,), np.float32), False, BAD_SHAPE),      # result not 0-d
    (((), np.int32), ((2, 10), np.float32), False, BAD_SHAPE),      # probs not 1-d
    (((), np.int32), ((0,), np.float32), False, BAD_SHAPE),         # nothing to sample
    (((), np.int32), ((10,), np.float32, (2,)), False, BAD_STRIDES),  # column stride != 1
    (((2,), np.int32), ((2, 10), np.float32), True, OK),
    (((), np.int32), ((2, 10), np.float32), True, BAD_SHAPE),       # batch result not [B]
    (((3,), np.int32), ((2, 10), np.float32), True, BAD_SHAPE),     # B mismatch
    (((2,), np.int32), ((10,), np.float32), True, BAD_SHAPE),       # batch probs not 2-d
    (((2,), np.int32), ((2, 10), np.float32, (5, 1)), True, BAD_STRIDES),  # rows overlap
    (((2,), np.int32), ((2, 10), np.float32, (10, 2)), True, BAD_STRIDES),  # column stride
    (((2,), np.int32, (0,)), ((2, 10), np.float32), True, BAD_STRIDES),     # one result for two rows
    (((2,), np.float64), ((2, 10), np.float32), True, BAD_DTYPE),
])
def test_create_errors(cpu_handle, result, probs, batch, status):
    r = _td(result[0], result[1], result[2] if len(result) > 2 else None)
    p = _td(probs[0], probs[1], probs[2] if len(probs) > 2 else None)
    got, desc = _create(cpu_handle, r, p, batch)
    assert got == status
    if got == OK:
        assert lib.infiniopDestroyRandomSampleDescriptor(desc) == OK
    if status != OK:
        cls = RandomSampleBatchOrSingle(batch)
        with pytest.raises(ip.errors.error_for(status, "").__class__):
            cls(cpu_handle, r, p)


def RandomSampleBatchOrSingle(batch):
    return ip.RandomSampleBatch if batch else ip.RandomSample


def test_null_pointers(cpu_handle):
    r, p = _td((), np.int32), _td((10,), np.float32)
    raw = ffi.new("infiniopRandomSampleDescriptor_t *")
    assert lib.infiniopCreateRandomSampleDescriptor(ffi.NULL, raw, r.ptr, p.ptr) == NULL_POINTER
    assert lib.infiniopCreateRandomSampleDescriptor(cpu_handle.ptr, ffi.NULL, r.ptr, p.ptr) == NULL_POINTER
    assert lib.infiniopCreateRandomSampleDescriptor(cpu_handle.ptr, raw, ffi.NULL, p.ptr) == NULL_POINTER
    assert lib.infiniopCreateRandomSampleBatchDescriptor(cpu_handle.ptr, raw, r.ptr, ffi.NULL) == NULL_POINTER
    assert lib.infiniopGetRandomSampleWorkspaceSize(ffi.NULL, ffi.new("size_t *")) == NULL_POINTER
    assert lib.infiniopDestroyRandomSampleDescriptor(ffi.NULL) == NULL_POINTER
    assert lib.infiniopRandomSample(ffi.NULL, ffi.NULL, 0, ffi.NULL, ffi.NULL, 0.5, 1.0, 0, 1.0,
                                    ffi.NULL) == NULL_POINTER
    status, desc = _create(cpu_handle, r, p)
    assert status == OK
    size = ffi.new("size_t *")
    assert lib.infiniopGetRandomSampleWorkspaceSize(desc, ffi.NULL) == NULL_POINTER
    assert lib.infiniopGetRandomSampleWorkspaceSize(desc, size) == OK
    ws = np.empty(max(size[0], 1), np.uint8)
    x = np.ones(10, np.float32)
    out = np.empty((), np.int32)
    wsp = ffi.cast("void *", ws.ctypes.data)
    xp, op = ffi.cast("void *", x.ctypes.data), ffi.cast("void *", out.ctypes.data)
    assert lib.infiniopRandomSample(desc, wsp, size[0], ffi.NULL, xp, 0.5, 1.0, 0, 1.0, ffi.NULL) == NULL_POINTER
    assert lib.infiniopRandomSample(desc, wsp, size[0], op, ffi.NULL, 0.5, 1.0, 0, 1.0, ffi.NULL) == NULL_POINTER
    if size[0]:
        assert lib.infiniopRandomSample(desc, ffi.NULL, size[0], op, xp, 0.5, 1.0, 0, 1.0, ffi.NULL) == NULL_POINTER
        assert lib.infiniopRandomSample(desc, wsp, size[0] - 1, op, xp, 0.5, 1.0, 0, 1.0,
                                        ffi.NULL) == INSUFFICIENT
    assert lib.infiniopDestroyRandomSampleDescriptor(desc) == OK


@pytest.mark.parametrize("device", DEVICES)
def test_calculate_errors(device):
    handle = ip.Handle(device)
    n, batch = 64, 3
    x = to_device(np.random.default_rng(1).standard_normal((batch, n)).astype(np.float32), device)
    out = to_device(np.zeros(batch, np.int32), device)
    xs = to_device(np.random.default_rng(2).standard_normal(n).astype(np.float32), device)
    out1, _ = poisoned((), np.int32, device)  # (DeviceArray.from_numpy makes a 0-d array 1-d)
    single = ip.RandomSample(handle, out1, xs)
    batched = ip.RandomSampleBatch(handle, out, x)
    ws = ip.Workspace(device, max(single.workspace_size, batched.workspace_size, 1))
    wsp, wss = ffi.cast("void *", ws.ptr), ws.size
    xa, oa = ffi.cast("void *", ip._arrays.as_view(x).ptr), ffi.cast("void *", ip._arrays.as_view(out).ptr)
    xsa, o1a = ffi.cast("void *", ip._arrays.as_view(xs).ptr), ffi.cast("void *", ip._arrays.as_view(out1).ptr)
    call1 = lambda rv, tp, tk, tt: lib.infiniopRandomSample(single.ptr, wsp, wss, o1a, xsa, rv, tp, tk, tt, ffi.NULL)
    assert call1(0.5, 0.9, 5, 1.0) == OK
    for bad in [(1.0, 0.9, 5, 1.0), (-0.1, 0.9, 5, 1.0), (math.nan, 0.9, 5, 1.0), (1.5, 0.9, 5, 1.0),
                (0.5, math.nan, 5, 1.0), (0.5, 0.9, 5, math.nan)]:
        assert call1(*bad) == BAD_PARAM, bad
        with pytest.raises(ip.BadParam):
            single(out1, xs, *bad)
    rv = np.full(batch, 0.5, np.float32)
    tp = np.full(batch, 0.9, np.float32)
    tk = np.full(batch, 5, np.int32)
    tt = np.ones(batch, np.float32)
    fp = lambda a: ffi.cast("const float *", a.ctypes.data)
    ip_ = ffi.cast("const int *", tk.ctypes.data)
    callb = lambda bs, d=batched: lib.infiniopRandomSampleBatch(d.ptr, wsp, wss, oa, xa, fp(rv), fp(tp), ip_, fp(tt),
                                                                bs, ffi.NULL)
    assert callb(batch) == OK
    assert callb(batch - 1) == BAD_PARAM   # batch_size != B
    assert callb(-1) == BAD_PARAM
    assert callb(batch, single) == BAD_PARAM  # a single descriptor through the batch entry
    assert lib.infiniopRandomSample(batched.ptr, wsp, wss, o1a, xsa, 0.5, 0.9, 5, 1.0, ffi.NULL) == BAD_PARAM
    assert lib.infiniopRandomSampleBatch(batched.ptr, wsp, wss, oa, xa, ffi.NULL, fp(tp), ip_, fp(tt), batch,
                                         ffi.NULL) == NULL_POINTER
    rv[1] = 1.0
    assert callb(batch) == BAD_PARAM
    with pytest.raises(ip.BadParam):
        batched(out, x, rv, tp, tk, tt)
    with pytest.raises(ip.BadParam):
        batched(out, x, rv[:2], tp[:2], tk[:2], tt[:2])
    # Another operator's descriptor is refused; ours destroys both forms.
    single.close()
    batched.close()


def test_python_api_shapes():
    x = np.random.default_rng(3).standard_normal(50).astype(np.float32)
    got = ip.random_sample(x, 0.5, 0.9, 10, 1.0)
    assert isinstance(got, int) and got == reference(x, 0.5, 0.9, 10, 1.0)
    with pytest.raises(ValueError):
        ip.random_sample_batch(x, [0.5], 0.9, 10, 1.0)  # 1-d logits
    with pytest.raises(ValueError):
        ip.random_sample_batch(x.reshape(5, 10), [0.5, 0.2], [0.9, 0.9, 0.9], 10, 1.0)  # lengths differ
    out = ip.random_sample_batch(x.reshape(5, 10), 0.5, 0.9, 3, 1.0)
    assert [int(v) for v in out] == [reference(r, 0.5, 0.9, 3, 1.0) for r in x.reshape(5, 10)]
    with ip.RandomSample(ip.Handle("cpu"), np.empty((), np.int64), x) as desc:
        res = np.full((), -1, np.int64)
        desc(res, x, 0.5, 0.9, 10, 1.0)
        assert int(res) == got

