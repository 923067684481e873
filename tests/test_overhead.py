"""Issue 11: the host-cost suite runs (CI, on the CPU) and checks every call's
result; its times are printed, never asserted. Also the package's version."""
import json
import os
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import infiniop_py as ip
from infiniop_py.ops._calculate import CALCULATE
from conftest import subprocess_pythonpath

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_overhead_suite_runs_and_checks_every_call(tmp_path):
    out = tmp_path / "overhead.json"
    env = dict(os.environ, PYTHONPATH=subprocess_pythonpath())
    r = subprocess.run([sys.executable, "-m", "infiniop_py", "bench", "--suite", "overhead", "--device", "cpu",
                        "--quick", "--json", str(out)], capture_output=True, text=True, env=env, cwd=ROOT,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "raw C call" in r.stdout and "NumPy" in r.stdout
    rows = json.loads(out.read_text())["rows"]
    assert {row["op"] for row in rows} == {"mul", "rearrange", "lp_norm", "random_sample"}
    for row in rows:
        assert row["ok"] is True, row
        assert row["ours_us"] > 0 and row["raw_us"] > 0 and row["base_us"] > 0


def test_version_matches_pyproject():
    text = open(os.path.join(ROOT, "pyproject.toml")).read()
    assert re.search(r'^version = "([^"]+)"', text, re.M).group(1) == ip.__version__


def test_every_descriptor_call_comes_from_the_table():
    for name in CALCULATE:
        cls = getattr(ip, name)
        assert cls._calculate_row is CALCULATE[name]
        assert cls.__call__.__doc__  # each keeps its own docstring


def test_batch_parameters_as_arrays_are_passed_without_a_copy():
    from infiniop_py.ops._calculate import param_array

    rv = np.array([0.1, 0.2], np.float32)
    assert param_array(rv, np.dtype(np.float32), 2) is rv
    filled = param_array(0.5, np.dtype(np.float32), 3)
    assert filled.tolist() == [0.5] * 3 and param_array(0.5, np.dtype(np.float32), 3) is filled
    assert param_array([1, 2], np.dtype(np.int32), 2).dtype == np.int32


def test_failed_batch_call_names_its_values_as_before():
    h = ip.Handle("cpu")
    rsb = ip.RandomSampleBatch(h, ip.TensorDescriptor((2,), None, np.int64), ip.TensorDescriptor((2, 8), None,
                                                                                               np.float32))
    out, x = np.empty(2, np.int64), np.random.default_rng(0).standard_normal((2, 8)).astype(np.float32)
    with pytest.raises(ip.BadParam, match=re.escape("random_val=[1.5, 0.5], topp=[0.8999999761581421, "
                                                    "0.8999999761581421], topk=[5, 5], temperature=[1.0, 1.0], "
                                                    "batch_size=2")):
        rsb(out, x, [1.5, 0.5], 0.9, 5, 1.0)
    with pytest.raises(ip.BadParam, match=r"; called with random_val=1\.5, topp=0\.9, topk=5, temperature=1\.0$"):
        ip.RandomSample(h, ip.TensorDescriptor((), None, np.int64),
                        ip.TensorDescriptor((8,), None, np.float32))(np.empty((), np.int64), x[0], 1.5, 0.9, 5, 1.0)


def test_functional_calls_take_fortran_and_strided_numpy_arrays():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((6, 4)).astype(np.float32)
    for view in (a.T, a[::2], a[:, ::-1]):
        out = np.full(view.shape, np.nan, np.float32)
        ip.mul(view, view, out=out)
        assert np.array_equal(out, view * view)
        got = ip.rearrange(view)
        assert np.array_equal(got, view)


def test_the_cache_follows_a_layout_changed_in_place():
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    out = np.empty((4, 4), np.float32)
    ip.mul(a, a, out=out)
    # Same objects, new layouts: a new descriptor. NumPy 2.5 deprecates setting
    # the shape (users' code that still does it is what this guards).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            a.shape, out.shape = (16,), (16,)
        except AttributeError:
            pytest.skip("this NumPy no longer lets an array's shape change in place")
    ip.mul(a, a, out=out)
    assert np.array_equal(out, np.arange(16, dtype=np.float32) ** 2)


def test_functional_output_must_be_writable():
    a = np.ones(4, np.float32)
    ro = np.empty(4, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ip.mul(a, a, out=ro)
    with pytest.raises(ValueError, match="read-only"):
        ip.Mul(ip.Handle("cpu"), *[ip.TensorDescriptor((4,), None, np.float32)] * 3)(ro, a, a)


def test_rearrange_descriptor_checks_every_new_layout():
    src = np.arange(12, dtype=np.float32).reshape(3, 4)
    dst = np.empty((3, 4), np.float32)
    op = ip.Rearrange(ip.Handle("cpu"), dst, src)
    op(dst, src)
    op(dst, src)  # an accepted layout: no second check
    with pytest.raises(ValueError, match="descriptor was made for"):
        op(dst, src.reshape(4, 3))
    with pytest.raises(ValueError, match="descriptor was made for"):
        op(dst, src.astype(np.float64))
    assert np.array_equal(dst, src)


def test_functional_calls_from_threads_agree():
    import concurrent.futures

    rng = np.random.default_rng(2)
    arrays = [rng.standard_normal((8, 8)).astype(np.float32) for _ in range(8)]

    def work(x):
        for _ in range(50):
            out = ip.mul(x, x)
            y = ip.lp_norm(x)
        return np.array_equal(out, x * x) and np.allclose(y, x / np.linalg.norm(x, axis=-1, keepdims=True),
                                                          rtol=1e-5, atol=1e-6)

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert all(pool.map(work, arrays))


def test_every_operator_module_registers_its_row_and_declarations():
    from infiniop_py._ffi import ffi, lib

    for name, (function, args) in CALCULATE.items():
        assert callable(getattr(lib, function)) and ffi.typeof(getattr(lib, function)).kind == "function", name
        assert all(kind in ("workspace", "out", "in", "float", "int", "float[]", "int[]", "batch") for _, kind in args)


def test_descriptor_calls_take_int_addresses_numpy_and_mixes():
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal((3, 5)).astype(np.float32) for _ in range(2))
    c = np.full((3, 5), np.nan, np.float32)
    op = ip.Mul(ip.Handle("cpu"), *[ip.TensorDescriptor.from_array(x) for x in (c, a, b)])
    op(c.ctypes.data, a.ctypes.data, b.ctypes.data)  # all ints: the uintptr_t binding
    assert np.array_equal(c, a * b)
    c.fill(np.nan)
    op(c, a.ctypes.data, b)  # a mix: every int cast to void *
    assert np.array_equal(c, a * b)
    with pytest.raises(ip.NullPointer):
        op(0, a, b)
    with pytest.raises(ip.NullPointer):
        op(0, 0, 0)


@pytest.mark.parametrize("rows", [6, 40])  # lists: cffi's conversion below 32 values, struct packing from 32
def test_batch_parameters_every_form_agree(rows):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((rows, 50)).astype(np.float32)
    want = np.argmax(x, axis=1)
    forms = [(0.0, 0.9, 5, 1.0), ([0.0] * rows, [0.9] * rows, [5] * rows, [1.0] * rows),
             (np.zeros(rows, np.float32), np.full(rows, 0.9, np.float32), np.full(rows, 5, np.int32),
              np.ones(rows, np.float32)),
             (np.zeros(rows), np.full(rows, 0.9), np.full(rows, 5), np.ones(rows)),  # converted
             (np.zeros(2 * rows, np.float32)[::2], 0.9, 5, 1.0),  # strided: copied
             ((0.0,) * rows, (0.9,) * rows, (5,) * rows, (1.0,) * rows),  # tuples: cffi fills the C arrays
             ([0] * rows, [np.float32(0.9)] * rows, [np.int64(5)] * rows, [1] * rows),  # numbers of other types
             ([0.0] * rows, [0.9] * rows, [5.0] * rows, [1.0] * rows),  # floats for int[]: as NumPy converts
             ([0.0] * rows, 0.9, [5] * rows, 1.0)]  # sequences beside scalars
    for params in forms:
        out = np.full(rows, -1, np.int64)
        ip.random_sample_batch(x, *params, out=out)
        assert np.array_equal(out, want), params
    with pytest.raises(ValueError, match="different lengths"):
        ip.random_sample_batch(x, np.zeros(rows, np.float32), np.zeros(rows - 1, np.float32), 5, 1.0)
    with pytest.raises(ip.BadParam):
        ip.random_sample_batch(x, np.zeros(rows - 1, np.float32), 0.9, 5, 1.0, out=np.empty(rows, np.int64))
    with pytest.raises(ValueError, match="different lengths"):
        ip.random_sample_batch(x, [0.0] * rows, [0.9] * (rows - 1), [5] * rows, [1.0] * rows)
    with pytest.raises(ip.BadParam):  # one length, not B
        ip.random_sample_batch(x, [0.0] * (rows - 1), [0.9] * (rows - 1), [5] * (rows - 1), [1.0] * (rows - 1),
                               out=np.empty(rows, np.int64))
    with pytest.raises(OverflowError):
        ip.random_sample_batch(x, [0.0] * rows, [0.9] * rows, [2 ** 40] * rows, [1.0] * rows)


def test_torch_cpu_tensors_take_the_torch_path():
    torch = pytest.importorskip("torch")
    a, b = torch.randn(4, 6), torch.randn(4, 6)
    c = torch.full((4, 6), float("nan"))
    assert ip.mul(a, b, out=c) is c and torch.equal(c, a * b)
    c2 = torch.full((6, 4), float("nan")).t()  # another layout, same shape: another descriptor
    ip.mul(a, b, out=c2)
    assert torch.equal(c2, a * b)


@pytest.mark.gpu
def test_torch_layout_changed_in_place_never_reuses_a_descriptor():
    torch = pytest.importorskip("torch")
    a = torch.randn(8, 16, device="cuda", dtype=torch.float16)
    b = torch.randn(8, 16, device="cuda", dtype=torch.float16)
    c = torch.empty(8, 16, device="cuda", dtype=torch.float16)
    ip.mul(a, b, out=c)
    torch.cuda.synchronize()
    assert torch.equal(c, a * b)
    a.t_(), b.t_()  # same objects, transposed in place
    c2 = torch.full((16, 8), float("nan"), device="cuda", dtype=torch.float16)
    ip.mul(a, b, out=c2)
    torch.cuda.synchronize()
    assert torch.equal(c2, a * b)
    c.resize_(16, 8)  # the output's own layout changed in place: a new descriptor
    c.fill_(float("nan"))
    ip.mul(a, b, out=c)
    torch.cuda.synchronize()
    assert torch.equal(c, a * b)
    x = torch.randn(4, 32, device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)
    ip.lp_norm(x, out=y)
    x.as_strided_((2, 32), (64, 1))  # fewer rows, other strides
    y2 = torch.full((2, 32), float("nan"), device="cuda")
    ip.lp_norm(x, out=y2)
    torch.cuda.synchronize()
    assert torch.allclose(y2, torch.nn.functional.normalize(x, dim=-1), rtol=1e-5, atol=1e-6)


@pytest.mark.gpu
def test_torch_mixed_with_device_array_and_descriptor_calls():
    torch = pytest.importorskip("torch")
    a = torch.randn(5, 7, device="cuda")
    b = ip.DeviceArray.from_numpy(np.random.default_rng(5).standard_normal((5, 7)).astype(np.float32))
    out = ip.mul(a, b)  # a torch tensor and a DeviceArray: the probe path
    torch.cuda.synchronize()
    assert np.array_equal(out.cpu().numpy(), a.cpu().numpy() * b.to_numpy())
    c = torch.full((5, 7), float("nan"), device="cuda")
    op = ip.Mul(ip.Handle("nvidia"), *[ip.TensorDescriptor.from_array(x) for x in (c, a, a)])
    op(c, a, b.ptr)  # torch, torch, int
    torch.cuda.synchronize()
    assert np.array_equal(c.cpu().numpy(), a.cpu().numpy() * b.to_numpy())
    with pytest.raises(ValueError, match="different devices"):
        ip.mul(a, torch.randn(5, 7), out=c)


def test_an_operator_is_one_module(tmp_path):
    """What ops/<op>.py holds is enough: its declarations and row, a class, a functional
    form (here a second elementwise module bound to Mul's C functions, in a subprocess
    so that the package's own table stays as it is)."""
    module = tmp_path / "twice.py"
    module.write_text('''
from infiniop_py.ops._base import OperatorDescriptor, call_slow, functional
from infiniop_py.ops._calculate import register

register("Twice", "infiniopMul", (("workspace", "workspace"), ("c", "out"), ("a", "in"), ("b", "in")), cdef="""
infiniStatus_t infiniopCreateMulDescriptor(infiniopHandle_t handle, struct InfiniopDescriptor **desc_ptr,
    infiniopTensorDescriptor_t c, infiniopTensorDescriptor_t a, infiniopTensorDescriptor_t b);
""")


class Twice(OperatorDescriptor):
    _create_name = "infiniopCreateMulDescriptor"
    _destroy_name = "infiniopDestroyMulDescriptor"
    _workspace_name = "infiniopGetMulWorkspaceSize"

    def __init__(self, handle, c, a, b):
        super().__init__(handle, {"c": c, "a": a, "b": b})


_run = functional("Twice", "twice")


def twice(a, out):
    key = _run(None, (), out, a, a)
    if key is not None:
        call_slow(_run, key, "twice", Twice, {"a": a, "out": out}, ("out", "a", "a"), None, (), out, a, a)
    return out
''')
    code = ("import numpy as np, twice; a = np.arange(6, dtype=np.float32); out = np.zeros(6, np.float32); "
            "twice.twice(a, out); twice.twice(a, out); assert np.array_equal(out, a * a), out; "
            "assert twice.Twice.__call__.__qualname__ == 'Twice.__call__'; print('ok')")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), subprocess_pythonpath()]))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


def test_sampling_descriptors_take_int_addresses():
    rng = np.random.default_rng(6)
    x = rng.standard_normal((4, 100)).astype(np.float32)
    h = ip.Handle("cpu")
    out = np.full(4, -1, np.int64)
    rsb = ip.RandomSampleBatch(h, ip.TensorDescriptor.from_array(out), ip.TensorDescriptor.from_array(x))
    rsb(out.ctypes.data, x.ctypes.data, np.zeros(4, np.float32), 0.9, 5, 1.0)  # ints and per-row arrays
    assert np.array_equal(out, np.argmax(x, 1))
    one = np.full((), -1, np.int64)
    rs = ip.RandomSample(h, ip.TensorDescriptor.from_array(one), ip.TensorDescriptor.from_array(x[1]))
    rs(one.ctypes.data, x[1].ctypes.data, 0.0, 0.9, 5, 1.0)
    assert int(one) == np.argmax(x[1])


_STAND_IN_TORCH = '''"""A stand-in for torch (CPU tensors over NumPy) for exercising the binding's torch branch."""
import numpy as np


class dtype:
    def __init__(self, name, np_dtype):
        self.name, self.np = name, np.dtype(np_dtype)

    def __repr__(self):
        return f"torch.{self.name}"


float32, float16, int64 = dtype("float32", np.float32), dtype("float16", np.float16), dtype("int64", np.int64)
_BY_NP = {d.np: d for d in (float32, float16, int64)}


class device:
    def __init__(self, type, index=None):
        self.type, self.index = type, index

    def __eq__(self, other):
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


class Size(tuple):
    pass


class Tensor:
    def __init__(self, arr, where="cpu", index=-1):
        self._a, self._where, self._index = arr, where, index

    def data_ptr(self):
        return self._a.__array_interface__["data"][0]

    @property
    def shape(self):
        return Size(self._a.shape)

    def stride(self):
        return tuple(s // self._a.itemsize for s in self._a.strides)

    @property
    def dtype(self):
        return _BY_NP[self._a.dtype]

    @property
    def device(self):
        return device(self._where, None if self._index < 0 else self._index)

    @property
    def is_cuda(self):
        return self._where == "cuda"

    @property
    def is_cpu(self):
        return self._where == "cpu"

    def get_device(self):
        return self._index

    def new_empty(self, shape, dtype=None):
        return Tensor(np.empty(shape, (dtype or self.dtype).np))

    def numpy(self):
        return self._a

    def t_(self):
        self._a = self._a.T
        return self


def tensor(arr):
    return Tensor(np.array(arr))
'''


def test_the_torch_branch_with_a_stand_in_torch(tmp_path):
    """The functional calls' torch branch (keys with torch devices, data_ptr(), the integer
    binding) on a stand-in torch module of CPU tensors over NumPy, in a subprocess: CI has no
    torch, and the GPU machine's tests cover real CUDA tensors. The first torch tensor seen
    switches `run` to its branch within the call (two descriptors made, one call)."""
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text(_STAND_IN_TORCH)
    code = """
import numpy as np, infiniop_py as ip, torch
rng = np.random.default_rng(0)
a, b = (torch.tensor(rng.standard_normal((4, 6)).astype(np.float32)) for _ in range(2))
c = torch.tensor(np.full((4, 6), np.nan, np.float32))
for _ in range(2):
    assert ip.mul(a, b, out=c) is c and np.array_equal(c.numpy(), a.numpy() * b.numpy())
a.t_(), b.t_()  # same objects, new layouts
c2 = torch.tensor(np.full((6, 4), np.nan, np.float32))
ip.mul(a, b, out=c2)
assert np.array_equal(c2.numpy(), a.numpy() * b.numpy())
x = torch.tensor(rng.standard_normal((3, 50)).astype(np.float32))
o = torch.tensor(np.full(3, -1, np.int64))
for params in ((np.zeros(3, np.float32), 0.9, 5, 1.0), (0.0, 0.9, 5, 1.0)):
    o.numpy().fill(-1)
    ip.random_sample_batch(x, *params, out=o)
    assert np.array_equal(o.numpy(), np.argmax(x.numpy(), 1))
y = torch.tensor(np.full((3, 50), np.nan, np.float32))
ip.lp_norm(x, out=y)
assert np.allclose(y.numpy(), x.numpy() / np.linalg.norm(x.numpy(), axis=1, keepdims=True), rtol=1e-5)
op = ip.Mul(ip.Handle("cpu"), *[ip.TensorDescriptor.from_array(t) for t in (c2, a, b)])
c2.numpy().fill(np.nan)
op(c2, a, b.data_ptr())  # a tensor and an int: the integer binding
assert np.array_equal(c2.numpy(), a.numpy() * b.numpy())
c2.numpy().fill(np.nan)
op(c2, a, b)  # all tensors: the descriptor call's torch branch
assert np.array_equal(c2.numpy(), a.numpy() * b.numpy())
re = ip.Rearrange(ip.Handle("cpu"), c2, a)  # a contiguous copy of the transposed a
for _ in range(2):
    c2.numpy().fill(np.nan)
    re(c2, a)
    assert np.array_equal(c2.numpy(), a.numpy())
try:
    re(c2, c2)  # src of another layout: refused, as for any array
    raise SystemExit("accepted a layout the descriptor was not made for")
except ValueError as e:
    assert "descriptor was made for" in str(e)
print("ok")
"""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), subprocess_pythonpath()]))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr
