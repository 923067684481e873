"""RandomSample's argmax launch on NVIDIA (issue 12): every team size, long batches,
row layouts, ties across block boundaries and non-finite rows, against the rule of SPEC §4."""

import numpy as np
import pytest

import infiniop_py as ip
from conftest import poisoned, to_device, to_host
from test_random_sample import reference, sample


def argmax_rows(logits):
    """The argmax rule of every row (lowest index among equal maxima; NaN below -inf)."""
    rows = np.asarray(logits).reshape(-1, np.asarray(logits).shape[-1])
    with np.errstate(invalid="ignore"):
        v = rows.astype(np.float64)
    plain = ~np.isnan(v).any(axis=1) & np.isfinite(v).any(axis=1)
    got = np.argmax(v, axis=1)
    for b in np.flatnonzero(~plain):
        got[b] = reference(rows[b], 0.0, 1.0, 0, 1.0)
    return [int(g) for g in got]


def argmax_batch_on_gpu(logits, pad=0, rdtype=np.int64):
    """All-argmax batch call on NVIDIA with rows `pad` elements apart beyond n (misaligned
    rows for odd pads), into a poisoned result."""
    batch, n = logits.shape
    backing = np.zeros((batch, n + pad), logits.dtype)
    backing[:, :n] = logits
    x = to_device(backing, "nvidia").view((batch, n), (n + pad, 1))
    out, _ = poisoned((batch,), rdtype, "nvidia")
    ip.random_sample_batch(x, 0.0, 0.9, 50, 1.0, out=out)
    return [int(g) for g in to_host(out)]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float16, ip.bfloat16, np.float32, np.float64], ids=["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("batch,n", [(1, 4097), (1, 65537), (1, 151936), (1, 262147), (3, 151936), (8, 100003),
                                     (64, 151936), (300, 20011)])
def test_gpu_argmax_team_sizes(dtype, batch, n, rng):
    """Every team size the launch picks (1 to 16 blocks a row), odd n, rows 3 elements
    apart beyond n (16-byte loads start at different offsets in every row)."""
    logits = (rng.standard_normal((batch, n)) * 3).astype(dtype)
    assert argmax_batch_on_gpu(logits, pad=3) == argmax_rows(logits)
    if batch == 1:
        assert sample(logits[0], (0.0, 0.9, 50, 1.0), "nvidia") == argmax_rows(logits)[0]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=["f16", "f32", "f64"])
@pytest.mark.parametrize("n", [151936, 262144])
def test_gpu_argmax_ties_across_blocks(dtype, n, rng):
    """Equal maxima at the ends of the chunks of teams of 2 to 16 blocks (and -0/+0
    maxima): the lowest index wins, whichever block finds its tie first."""
    rows = []
    row = (rng.standard_normal(n) * 3).astype(dtype)
    for team in (2, 4, 8, 16):
        per = -(-n // team)
        for k in range(team // 2, team):
            row[min(k * per, n - 1)] = row[k * per - 1] = 50
    rows.append(row)
    row = np.full(n, -np.inf, dtype)  # ties of -0 and +0 on a row of -inf
    row[[n - 1, n // 2 + 1]] = -0.0
    row[n // 2 + 5] = 0.0
    rows.append(row)
    rows.append(np.full(n, 7, dtype))  # one value everywhere: index 0
    logits = np.stack(rows)
    want = argmax_rows(logits)
    assert want[1] == n // 2 + 1 and want[2] == 0
    for pad in (0, 1):
        assert argmax_batch_on_gpu(logits, pad=pad) == want
    for b in range(len(rows)):
        assert sample(logits[b], (0.0, 0.9, 50, 1.0), "nvidia") == want[b]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float16, ip.bfloat16, np.float32, np.float64], ids=["f16", "bf16", "f32", "f64"])
def test_gpu_argmax_non_finite_rows(dtype, rng):
    """NaN / inf rows read by teams: all NaN -> 0; -inf and NaN -> the first -inf; two
    +inf -> the first; NaN everywhere but one finite value late in the row."""
    n = 151936
    rows = [np.full(n, np.nan, dtype)]
    row = np.full(n, np.nan, dtype)
    row[[n - 7, n // 3 + 2]] = -np.inf
    rows.append(row)
    row = (rng.standard_normal(n)).astype(dtype)
    row[[n - 2, n // 2 + 3, n // 2 + 11]] = np.inf
    row[::97] = np.nan
    rows.append(row)
    row = np.full(n, np.nan, dtype)
    row[n - 3] = -5
    rows.append(row)
    logits = np.stack(rows)
    want = [0, n // 3 + 2, n // 2 + 3, n - 3]
    assert argmax_rows(logits) == want
    assert argmax_batch_on_gpu(logits, pad=5, rdtype=np.int32) == want
    for b in range(len(rows)):
        assert sample(logits[b], (0.0, 0.9, 50, 1.0), "nvidia") == want[b]


@pytest.mark.gpu
def test_gpu_argmax_many_rows(rng):
    """More rows than one grid dimension holds (65535): one launch, every row written."""
    batch, n = 70001, 37  # rows 74 bytes apart: every alignment of a row's start
    logits = (rng.standard_normal((batch, n)) * 3).astype(np.float16)
    assert argmax_batch_on_gpu(logits, rdtype=np.int32) == argmax_rows(logits)
    batch, n = 66000, 300
    logits = (rng.standard_normal((batch, n)) * 3).astype(np.float32)
    assert argmax_batch_on_gpu(logits, pad=1) == argmax_rows(logits)


@pytest.mark.gpu
def test_gpu_argmax_batch_graph_capture():
    """A long all-argmax batch (teams of blocks per row) captured in a CUDA graph:
    replays write the same indices as the eager call."""
    torch = pytest.importorskip("torch")
    for rows, n in ((64, 151936), (8, 151936), (1, 262144)):
        x = torch.randn(rows, n, device="cuda", dtype=torch.float16) * 3
        out = torch.full((rows,), -1, device="cuda", dtype=torch.int64)
        s = torch.cuda.Stream()  # torch's pool streams do not wait for the legacy stream
        s.wait_stream(torch.cuda.current_stream())  # x and the -1 fill are written there
        with torch.cuda.stream(s):
            ip.random_sample_batch(x, 0.0, 0.9, 50, 1.0, out=out, stream=s)
        torch.cuda.synchronize()
        want = argmax_rows(x.float().cpu().numpy())
        assert out.tolist() == want
        out.fill_(-1)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.stream(s):
            with torch.cuda.graph(g, stream=s):
                ip.random_sample_batch(x, 0.0, 0.9, 50, 1.0, out=out, stream=s)
        for _ in range(3):
            g.replay()
            torch.cuda.synchronize()
            assert out.tolist() == want
            out.fill_(-1)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=["f16", "f32", "f64"])
def test_gpu_argmax_short_rows(dtype, rng):
    """Rows shorter than a 16-byte vector or its alignment head, at every start offset."""
    for n in (1, 2, 3, 7, 9, 15, 17, 33):
        for pad in (0, 1, 3):
            logits = (rng.standard_normal((19, n)) * 3).astype(dtype)
            logits[rng.integers(0, 19, 4), rng.integers(0, n, 4)] = 40  # ties in some rows
            assert argmax_batch_on_gpu(logits, pad=pad, rdtype=np.int16) == argmax_rows(logits)
        assert sample(logits[0], (0.0, 0.9, 50, 1.0), "nvidia") == argmax_rows(logits)[0]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float16, ip.bfloat16, np.float32], ids=["f16", "bf16", "f32"])
def test_gpu_argmax_large_batch_boundaries(dtype, rng):
    """Large batches (64 x 151936 F16/BF16, 32 x 151936 F32): equal maxima on either side of
    every 16 KB boundary of a row (where any split of the row into chunks or pieces may fall),
    NaN-only and NaN-then--inf rows, -0/+0 maxima, the last element, and ties a few rows apart."""
    n = 151936
    esize = np.dtype(np.float32).itemsize if dtype is np.float32 else 2
    per = -(-n // -(-(n * esize) // 16384))  # rows cut into ~16 KB pieces, each a whole number of 16-byte vectors
    per = -(-per // (16 // esize)) * (16 // esize)
    batch = 64 if esize == 2 else 32
    logits = (rng.standard_normal((batch, n)) * 3).astype(dtype)
    edges = np.arange(per, n, per)
    logits[0, edges] = 40  # a tie at the first element of every piece but the first ...
    logits[0, edges - 1] = 40  # ... and at the last of every piece before: the first one wins
    logits[1] = np.nan
    logits[2, :] = np.nan
    logits[2, [n - 1, n // 3]] = -np.inf
    logits[3, :] = -np.inf
    logits[3, [edges[-1], edges[1]]] = -0.0
    logits[3, edges[4]] = 0.0
    logits[4, :] = 5  # one value everywhere: index 0
    logits[5, n - 1] = 60  # the last element of the last piece
    for b in range(6, batch, 7):  # ties across pieces a row apart in the queue order
        logits[b, edges[b % len(edges)]] = logits[b, edges[(b + 3) % len(edges)]] = 70
    want = argmax_rows(logits)
    assert want[0] == edges[0] - 1 and want[1] == 0 and want[2] == n // 3 and want[3] == edges[1]
    assert want[4] == 0 and want[5] == n - 1
    for pad in (0, 1):
        assert argmax_batch_on_gpu(logits, pad=pad) == want
