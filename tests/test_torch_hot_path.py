"""Issue 11: the functional calls' torch branch keys tensors by guards cheaper than
`.device` (`is_cuda` / `is_cpu`, and on a one-GPU process no `get_device()`): a
tensor on any other device, or a mix, must never hit a descriptor made for CPU or
CUDA tensors of the same layout (a wrong hit would pass a bad pointer to C): it
goes on to the general path and fails exactly as it does with an empty cache.

With real torch (CPU tensors, meta tensors): skipped where torch is absent (CI);
tests/test_overhead.py's stand-in torch covers the branch there, and the stand-in
tests below cover the CUDA guards without a GPU."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import infiniop_py as ip
from conftest import subprocess_pythonpath
from test_overhead import _STAND_IN_TORCH


def _in_new_thread(fn):
    """fn() on a new thread, whose descriptor cache is empty: (result, exception)."""
    got = {}

    def target():
        try:
            got["result"] = fn()
        except Exception as e:  # noqa: BLE001 (compared by the caller)
            got["error"] = e

    t = threading.Thread(target=target)
    t.start()
    t.join()
    return got.get("result"), got.get("error")


def _same_failure(fn):
    """fn() fails here (with this thread's cache filled) exactly as on a fresh thread."""
    with pytest.raises(Exception) as here:
        fn()
    _, fresh = _in_new_thread(fn)
    assert fresh is not None, "the uncached call did not fail"
    assert type(here.value) is type(fresh) and str(here.value) == str(fresh)


# ---- real torch (skipped without it) ----

def _torch():
    return pytest.importorskip("torch", reason="torch is not installed: the stand-in tests cover the branch")


def test_meta_tensors_after_cpu_tensors_of_the_same_layout_do_not_hit():
    torch = _torch()
    a, b = torch.randn(4, 6), torch.randn(4, 6)
    c = torch.full((4, 6), float("nan"))
    ip.mul(a, b, out=c)  # cached: CPU, this layout
    assert torch.equal(c, a * b)
    am, bm, cm = (torch.empty(4, 6, device="meta") for _ in range(3))
    _same_failure(lambda: ip.mul(am, bm, out=cm))
    _same_failure(lambda: ip.mul(a, bm, out=c))  # a mix: one meta input
    _same_failure(lambda: ip.mul(a, b, out=cm))  # a meta output
    _same_failure(lambda: ip.lp_norm(am, out=cm))
    _same_failure(lambda: ip.rearrange(am, out=cm))
    ip.mul(a, b, out=c)  # the CPU entry still serves CPU tensors
    assert torch.equal(c, a * b)


def test_rearrange_descriptor_refuses_meta_tensors_after_cpu_ones():
    """The Rearrange descriptor's torch branch remembers accepted layouts with an
    `is_cpu` / `is_cuda` flag instead of `.device`: a meta pair of an accepted layout
    is refused as a fresh descriptor refuses it."""
    torch = _torch()
    src = torch.randn(6, 4).t()
    dst = torch.full((4, 6), float("nan"))
    h = ip.Handle("cpu")
    re = ip.Rearrange(h, dst, src)
    re(dst, src)
    assert torch.equal(dst, src)
    dm, sm = torch.empty(4, 6, device="meta"), torch.empty(6, 4, device="meta").t()
    for pair in ((dm, sm), (dst, sm), (dm, src)):
        with pytest.raises(Exception) as cached:
            re(*pair)
        with pytest.raises(Exception) as fresh:
            ip.Rearrange(h, dst, src)(*pair)
        assert type(cached.value) is type(fresh.value) and str(cached.value) == str(fresh.value)


def test_torch_cpu_layout_changes_miss():
    torch = _torch()
    a, b = torch.randn(4, 6), torch.randn(4, 6)
    c = torch.empty(4, 6)
    ip.mul(a, b, out=c)
    a.t_(), b.t_()  # same objects, other layouts
    c2 = torch.full((6, 4), float("nan"))
    ip.mul(a, b, out=c2)
    assert torch.equal(c2, a * b)
    x = torch.randn(3, 50, dtype=torch.float64)
    y = torch.empty(3, 50, dtype=torch.float64)
    ip.lp_norm(x, out=y)
    x.resize_(50, 3), y.resize_(50, 3)
    x.copy_(torch.randn(50, 3, dtype=torch.float64))
    y.fill_(float("nan"))
    ip.lp_norm(x, out=y)
    assert torch.allclose(y, x / x.norm(dim=1, keepdim=True))
    xs = torch.randn(3, 50)
    ys = torch.empty(3, 50)
    ip.lp_norm(xs, out=ys)
    xs.data = torch.randn(3, 50, dtype=torch.float64)  # another dtype behind the same object
    ys.data = torch.full((3, 50), float("nan"), dtype=torch.float64)
    ip.lp_norm(xs, out=ys)
    assert torch.allclose(ys, xs / xs.norm(dim=1, keepdim=True))


def test_torch_branch_key_is_the_general_paths_key():
    """The torch branch and the general path (probe) key the same tensors alike, so a
    descriptor made through either serves both."""
    torch = _torch()
    import importlib

    run = importlib.import_module("infiniop_py.ops.mul")._run
    a, b, c = torch.randn(2, 3), torch.randn(2, 3), torch.empty(2, 3)
    key, _ = _in_new_thread(lambda: run(None, (), c, a, b))
    from infiniop_py._arrays import probe

    general = ("mul", (), -1) + probe(c, True)[1] + probe(a)[1] + probe(b)[1]
    assert key == general


# ---- the stand-in torch (runs everywhere) ----

_GUARDS = """
import importlib, threading
import numpy as np, infiniop_py as ip, torch
from infiniop_py.ops import _base, _calculate
run = importlib.import_module("infiniop_py.ops.mul")._run
T = torch.Tensor
buf = lambda: np.zeros((4, 6), np.float32)

def key_of(*tensors):
    return run(None, (), *tensors)  # a miss returns the key

# CUDA stand-ins (never reach C here: every call below misses)
g1 = [T(buf(), "cuda", 1) for _ in range(3)]
k1 = key_of(*g1)
assert k1[2] == 1, k1  # the device all are on
mixed = [T(buf(), "cuda", 1), T(buf(), "cuda", 0), T(buf(), "cuda", 1)]
_base.descriptor_cache()[k1] = "must not be used"
k_mixed = key_of(*mixed)  # different devices: the general path returns the key, no hit
assert k_mixed == k1
_calculate.note_gpu_count(1)  # one GPU: no get_device() per tensor, the same keys
assert key_of(*[T(buf(), "cuda", 0) for _ in range(3)])[2] == 0
_calculate.note_gpu_count(2)
del _base.descriptor_cache()[k1]

# a stand-in meta tensor after CPU tensors of its layout: the same failure as uncached
a, b, c = (T(np.ones((4, 6), np.float32)) for _ in range(3))
ip.mul(a, b, out=c)
m = [T(buf(), "meta") for _ in range(3)]
g0 = T(buf(), "cuda", 0)
for args in (m, [c, a, m[0]], [m[0], a, b], [c, a, g0], [g0, a, b]):  # (CPU and CUDA: "different devices")
    try:
        ip.mul(args[1], args[2], out=args[0])
        raise SystemExit("a meta tensor was accepted")
    except SystemExit:
        raise
    except Exception as e:
        here = (type(e), str(e))
    fresh = []
    def target():
        try:
            ip.mul(args[1], args[2], out=args[0])
        except Exception as e:
            fresh.append((type(e), str(e)))
    t = threading.Thread(target=target); t.start(); t.join()
    assert fresh == [here], (fresh, here)
src, dst = T(np.ones((6, 4), np.float32).T), T(buf())
re = ip.Rearrange(ip.Handle("cpu"), dst, src)
re(dst, src)
assert np.array_equal(dst.numpy(), src.numpy())
sm, dm = T(np.ones((6, 4), np.float32).T, "meta"), T(buf(), "meta")
for pair in ((dm, sm), (dst, sm)):
    errors = []
    for r in (re, ip.Rearrange(ip.Handle("cpu"), dst, src)):
        try:
            r(*pair)
            raise SystemExit("Rearrange accepted a meta tensor")
        except ValueError as e:
            errors.append(str(e))
    assert errors[0] == errors[1] and "descriptor was made for" in errors[0], errors
print("ok")
"""


def test_stand_in_guards_cuda_devices_and_other_devices(tmp_path):
    """The guards on a stand-in torch (CI has no torch and no GPU): CUDA tensors keyed by
    the device they share, a mix never hits, one GPU keys alike without get_device(), and
    a tensor of another device after CPU tensors fails as it does uncached."""
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text(_STAND_IN_TORCH)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), subprocess_pythonpath()]))
    r = subprocess.run([sys.executable, "-c", _GUARDS], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


def test_same_gpu():
    from infiniop_py.ops._calculate import same_gpu

    class On:
        def __init__(self, index):
            self.index = index

        def get_device(self):
            return self.index

    assert same_gpu(On(1), On(1), On(1)) == 1
    assert same_gpu(On(0), On(1)) is None
    assert same_gpu(On(1), On(1), On(0)) is None
    assert np.isscalar(same_gpu(On(0), On(0)))


@pytest.mark.gpu
def test_cuda_tensors_cpu_tensors_meta_tensors_and_mixes_of_one_layout():
    """On a GPU: CUDA, CPU and meta tensors of one layout each get their own descriptor
    or their own error; mixes fail as uncached; a one-GPU process keys CUDA tensors
    without get_device() (ONE_GPU) and still computes right."""
    torch = _torch()
    from infiniop_py.ops import _calculate

    def trio(device):
        g = torch.Generator().manual_seed(7)
        a, b = (torch.randn(16, 64, generator=g).to(device) for _ in range(2))
        return a, b, torch.full((16, 64), float("nan"), device=device)

    a, b, c = trio("cuda")
    ip.mul(a, b, out=c)
    torch.cuda.synchronize()
    assert torch.equal(c, a * b)
    if ip.device_count("nvidia") == 1:
        assert _calculate._one_gpu  # learnt when the first CUDA descriptor was made
    ah, bh, ch = trio("cpu")
    ip.mul(ah, bh, out=ch)  # the CPU layout after the CUDA one: its own descriptor
    assert torch.equal(ch, ah * bh)
    c.fill_(float("nan"))
    ip.mul(a, b, out=c)
    torch.cuda.synchronize()
    assert torch.equal(c, a * b)
    am, bm, cm = trio("meta")
    _same_failure(lambda: ip.mul(am, bm, out=cm))
    _same_failure(lambda: ip.mul(a, bh, out=c))  # CUDA and CPU
    _same_failure(lambda: ip.mul(ah, b, out=ch))
    _same_failure(lambda: ip.mul(a, b, out=ch))
    _same_failure(lambda: ip.mul(a, bm, out=c))  # CUDA and meta
    x = torch.randn(151, device="cuda")
    o = torch.full((), -1, dtype=torch.int64, device="cuda")
    ip.random_sample(x, 0.0, 0.9, 5, 1.0, out=o)
    torch.cuda.synchronize()
    assert int(o) == int(torch.argmax(x))
    _same_failure(lambda: ip.random_sample(x.cpu(), 0.0, 0.9, 5, 1.0, out=o))
    y = torch.full((16, 64), float("nan"), device="cuda")
    ip.lp_norm(a, out=y)
    torch.cuda.synchronize()
    assert torch.allclose(y, torch.nn.functional.normalize(a, dim=-1), rtol=1e-5, atol=1e-6)
    re = ip.Rearrange(ip.Handle("nvidia"), c, a.t().contiguous().t())
    src = torch.randn(64, 16, device="cuda").t()
    re(c, src)
    torch.cuda.synchronize()
    assert torch.equal(c, src)
    with pytest.raises(ValueError, match="descriptor was made for"):
        re(c, src.cpu())
    with pytest.raises(ValueError, match="descriptor was made for"):
        re(c.cpu(), src)
