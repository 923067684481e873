#!/usr/bin/env python
"""Outside-consumer audit of libinfiniop.so / libinfinirt.so (CPU device; NVIDIA with AUDIT_DEVICE=nvidia) against
the contract (SPEC.md beside the checkout). ctypes only; prototypes written from SPEC.md,
not from this project's headers or Python package. Session 16 (notes/overhead.md): it found
interleaved non-overlapping outputs refused and LPNorm's huge-p rows; now 0 FAIL.

Usage:  python abi_audit.py              run every group (each in child processes,
                                         restarted past any crash)
        python abi_audit.py --group G    run one group in-process (debugging)
        python abi_audit.py -v           also print every PASS

Env: INFINIOP_LIBDIR (default: ../infiniop_py/_lib next to this file);
     AUDIT_RESULTS (default: abi_audit_results.json in the system's temporary directory;
     abi_audit_results_nvidia.json in NVIDIA mode).
     AUDIT_ISAS (default "avx512,avx2,baseline"): the whole suite is run once per CPU vector path, set
     through the project's INFINIOP_CPU_VECTOR knob (not part of SPEC.md; only used to reach all kernels).
     CPU mode only.
     AUDIT_DEVICE (default "cpu"): "nvidia" audits device type NVIDIA (1), device id 0 instead; see below.

NVIDIA mode (AUDIT_DEVICE=nvidia): the handle is created after infinirtSetDevice(NVIDIA, 0); all operator
data and workspaces live in GPU memory from infinirtMalloc, moved with infinirtMemcpy (H2D=1 / D2H=2) with
infinirtDeviceSynchronize around every transfer. Each calculation runs twice: on a stream from
infinirtStreamCreate (then infinirtStreamSynchronize) and on the NULL (default) stream (then
infinirtDeviceSynchronize). Guard pages are impossible there: each device buffer has DSLACK sentinel
bytes on both sides, is poisoned (0xFF, then 0x5A) and read back whole, so slack, layout gaps, unwritten
elements and modified inputs are all seen. After every test the device is synchronised: an error left
behind (a faulting kernel poisons the CUDA context) is a FAIL and the group's process is restarted at the
next test. The runtime group checks the NVIDIA runtime instead of the no-GPU rules; larger cases reach
the GPU fast paths. Exit status 2 (nothing audited) when infinirtGetDeviceCount(NVIDIA) finds no GPU.

Result kinds: PASS / FAIL (SPEC clearly says otherwise) / NOTE (SPEC ambiguous or
silent; the observed behaviour is recorded) / HARNESS (bug in this script).
Output buffers are guarded by PROT_NONE pages (reads/writes out of bounds crash,
which is reported as FAIL), slack bytes and layout gaps are checked to be
untouched, and outputs are poisoned (0xFF then 0x5A) before every call.
"""
import atexit
import ctypes as C
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
import traceback

import numpy as np

try:
    import ml_dtypes
    BF16 = np.dtype(ml_dtypes.bfloat16)
except Exception:  # pragma: no cover
    ml_dtypes = None
    BF16 = None

HERE = os.path.dirname(os.path.abspath(__file__))
LIBDIR = os.environ.get("INFINIOP_LIBDIR", os.path.join(HERE, "..", "infiniop_py", "_lib"))
AUDIT_DEVICE = os.environ.get("AUDIT_DEVICE", "cpu").strip().lower() or "cpu"
NV = AUDIT_DEVICE == "nvidia"
RESULTS = os.environ.get("AUDIT_RESULTS", os.path.join(
    tempfile.gettempdir(), "abi_audit_results_nvidia.json" if NV else "abi_audit_results.json"))

# --------------------------------------------------------------------------- enums (SPEC §1)
ST = dict(SUCCESS=0, INTERNAL_ERROR=1, NOT_IMPLEMENTED=2, BAD_PARAM=3, NULL_POINTER=4,
          DEVICE_TYPE_NOT_SUPPORTED=5, DEVICE_NOT_FOUND=6, DEVICE_NOT_INITIALIZED=7,
          DEVICE_ARCHITECTURE_NOT_SUPPORTED=8, BAD_TENSOR_DTYPE=10, BAD_TENSOR_SHAPE=11,
          BAD_TENSOR_STRIDES=12, INSUFFICIENT_WORKSPACE=13)
STN = {v: k for k, v in ST.items()}
globals().update(ST)

DEV = dict(CPU=0, NVIDIA=1, CAMBRICON=2, ASCEND=3, METAX=4, MOORE=5, ILUVATAR=6, KUNLUN=7,
           HYGON=8, QY=9, ALI=10, TYPE_COUNT=11)
DT = dict(INVALID=0, BYTE=1, BOOL=2, I8=3, I16=4, I32=5, I64=6, U8=7, U16=8, U32=9, U64=10,
          F8=11, F16=12, F32=13, F64=14, C16=15, C32=16, C64=17, C128=18, BF16=19)
DTN = {v: k for k, v in DT.items()}
ITEMSIZE = dict(BYTE=1, BOOL=1, I8=1, I16=2, I32=4, I64=8, U8=1, U16=2, U32=4, U64=8, F8=1,
                F16=2, F32=4, F64=8, C16=2, C32=4, C64=8, C128=16, BF16=2)
NP = dict(I8=np.int8, I16=np.int16, I32=np.int32, I64=np.int64, U8=np.uint8, U16=np.uint16,
          U32=np.uint32, U64=np.uint64, F16=np.float16, F32=np.float32, F64=np.float64)
NP = {k: np.dtype(v) for k, v in NP.items()}
if BF16 is not None:
    NP["BF16"] = BF16
RAW = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32), 8: np.dtype(np.uint64),
       16: np.dtype([("lo", "<u8"), ("hi", "<u8")])}
INT_DT = ["I8", "I16", "I32", "I64", "U8", "U16", "U32", "U64"]
FLT_DT = ["F16", "BF16", "F32", "F64"]
ALL_DT = [k for k in DT if k != "INVALID"]


def sname(s):
    return f"{STN.get(s, '?')}({s})"


def npdt(name):
    return NP[name] if name in NP else RAW[ITEMSIZE[name]]


def rawdt(name):
    return RAW[ITEMSIZE[name]]


# --------------------------------------------------------------------------- result reporting
VERBOSE = False
_cur_test = [None]
COUNTS = {"PASS": 0, "FAIL": 0, "NOTE": 0, "HARNESS": 0}


def emit(kind, name, detail=""):
    rec = {"kind": kind, "test": _cur_test[0], "name": name, "detail": str(detail)[:1500]}
    print("@@R " + json.dumps(rec), flush=True)


def ck(name, cond, detail=""):
    emit("PASS" if cond else "FAIL", name, "" if cond else detail)
    return bool(cond)


def note(name, detail):
    emit("NOTE", name, detail)


def st(name, got, expected, strict=True, spec=""):
    """Compare a status with the expected one (int or set of ints)."""
    exp = {expected} if isinstance(expected, int) else set(expected)
    if got in exp:
        emit("PASS", name)
        return True
    d = f"got {sname(got)}, expected {' or '.join(sname(e) for e in sorted(exp))}"
    if spec:
        d += f"; SPEC: {spec}"
    emit("FAIL" if strict else "NOTE", name, d)
    return False


# --------------------------------------------------------------------------- libraries / prototypes
vp, sz, ssz, ci, cf = C.c_void_p, C.c_size_t, C.c_ssize_t, C.c_int, C.c_float
RT_PROTOS = {
    "infinirtInit": [],
    "infinirtGetDeviceCount": [ci, vp],
    "infinirtSetDevice": [ci, ci],
    "infinirtGetDevice": [vp, vp],
    "infinirtDeviceSynchronize": [],
    "infinirtStreamCreate": [vp],
    "infinirtStreamDestroy": [vp],
    "infinirtStreamSynchronize": [vp],
    "infinirtEventCreate": [vp],
    "infinirtEventRecord": [vp, vp],
    "infinirtEventSynchronize": [vp],
    "infinirtEventElapsedTime": [vp, vp, vp],
    "infinirtEventDestroy": [vp],
    "infinirtMalloc": [vp, sz],
    "infinirtMallocHost": [vp, sz],
    "infinirtFree": [vp],
    "infinirtFreeHost": [vp],
    "infinirtMemcpy": [vp, vp, sz, ci],
    "infinirtMemcpyAsync": [vp, vp, sz, ci, vp],
    "infinirtMemset": [vp, ci, sz],
}
OP_PROTOS = {
    "infiniopCreateHandle": [vp],
    "infiniopDestroyHandle": [vp],
    "infiniopCreateTensorDescriptor": [vp, sz, vp, vp, ci],
    "infiniopDestroyTensorDescriptor": [vp],
    "infiniopGetDescriptorDeviceType": [vp, vp],
    "infiniopGetDescriptorDeviceId": [vp, vp],
    "infiniopCreateRearrangeDescriptor": [vp, vp, vp, vp],
    "infiniopRearrange": [vp, vp, vp, vp],
    "infiniopDestroyRearrangeDescriptor": [vp],
    "infiniopCreateMulDescriptor": [vp, vp, vp, vp, vp],
    "infiniopGetMulWorkspaceSize": [vp, vp],
    "infiniopMul": [vp, vp, sz, vp, vp, vp, vp],
    "infiniopDestroyMulDescriptor": [vp],
    "infiniopCreateLPNormDescriptor": [vp, vp, vp, vp, ci, ci, cf],
    "infiniopGetLPNormWorkspaceSize": [vp, vp],
    "infiniopLPNorm": [vp, vp, sz, vp, vp, vp],
    "infiniopDestroyLPNormDescriptor": [vp],
    "infiniopCreateRandomSampleDescriptor": [vp, vp, vp, vp],
    "infiniopGetRandomSampleWorkspaceSize": [vp, vp],
    "infiniopRandomSample": [vp, vp, sz, vp, vp, cf, cf, ci, cf, vp],
    "infiniopCreateRandomSampleBatchDescriptor": [vp, vp, vp, vp],
    "infiniopRandomSampleBatch": [vp, vp, sz, vp, vp, vp, vp, vp, vp, ci, vp],
    "infiniopDestroyRandomSampleDescriptor": [vp],
}


class _Lib:
    def __init__(self):
        self.rt = C.CDLL(os.path.join(LIBDIR, "libinfinirt.so"))
        self.op = C.CDLL(os.path.join(LIBDIR, "libinfiniop.so"))
        self.missing = []
        for lib, protos in ((self.rt, RT_PROTOS), (self.op, OP_PROTOS)):
            for n, a in protos.items():
                try:
                    f = getattr(lib, n)
                except AttributeError:
                    self.missing.append(n)
                    continue
                f.restype = ci
                f.argtypes = a
                setattr(self, n, f)


L = _Lib()

# --------------------------------------------------------------------------- guarded memory
libc = C.CDLL(None, use_errno=True)
libc.mmap.restype = vp
libc.mmap.argtypes = [vp, sz, ci, ci, ci, C.c_long]
libc.mprotect.argtypes = [vp, sz, ci]
libc.munmap.argtypes = [vp, sz]
PAGE = os.sysconf("SC_PAGE_SIZE")
SENT = 0xA5


def _mmap(n):
    p = libc.mmap(None, n, 3, 0x22, -1, 0)  # PROT_READ|WRITE, MAP_PRIVATE|MAP_ANONYMOUS
    if p in (None, C.c_void_p(-1).value):
        raise MemoryError("mmap")
    return p


_gp = _mmap(PAGE)
libc.mprotect(_gp, PAGE, 0)
GUARD_PTR = _gp  # PROT_NONE page: any access through it crashes


class GBuf:
    """nbytes of memory with PROT_NONE pages on both sides; data flush against one guard."""

    def __init__(self, nbytes, flush="end"):
        self.n = nbytes
        npg = max(1, -(-nbytes // PAGE))
        self.total = (npg + 2) * PAGE
        self.base = _mmap(self.total)
        libc.mprotect(self.base, PAGE, 0)
        libc.mprotect(self.base + (npg + 1) * PAGE, PAGE, 0)
        self.lo = self.base + PAGE
        self.hi = self.base + (npg + 1) * PAGE
        self.region = np.ctypeslib.as_array((C.c_uint8 * (self.hi - self.lo)).from_address(self.lo))
        self.region[:] = SENT
        self.ptr = self.hi - nbytes if flush == "end" else self.lo
        o = self.ptr - self.lo
        self.mem = self.region[o:o + nbytes]

    def slack_ok(self):
        o = self.ptr - self.lo
        return bool((self.region[:o] == SENT).all() and (self.region[o + self.n:] == SENT).all())

    def sync(self):
        """(DevBuf interface) host memory is the memory itself: nothing to read back"""

    def push(self):
        """(DevBuf interface) host memory is the memory itself: nothing to write out"""


# --------------------------------------------------------------------------- device memory (NVIDIA mode)
MEMCPY_H2H, MEMCPY_H2D, MEMCPY_D2H, MEMCPY_D2D = 0, 1, 2, 3   # infinirtMemcpyKind_t (SPEC §2)
DSLACK = 256   # sentinel bytes on each side of a device buffer
DALIGN = 256   # flush="end": the data ends on a multiple of this from the allocation's (aligned) start
STICKY_RC = 86  # a child's exit status: device left in an error state, FAIL already reported
_POISON_AMBIGUOUS = [""]  # set by a test whose input SPEC does not rule on: a device error after it is a NOTE


class RtError(Exception):
    """an infinirt call needed by the harness failed (reported as FAIL: it is the library's runtime)"""


def rt_check(what, status):
    if status != SUCCESS:
        raise RtError(f"{what} -> {sname(status)}")


class on_nvidia:
    """the calling thread's current device is (NVIDIA, 0) inside; the previous one is restored after"""

    def __enter__(self):
        d, i = ci(-1), ci(-1)
        self.saved = (d.value, i.value) if L.infinirtGetDevice(C.byref(d), C.byref(i)) == SUCCESS else None
        rt_check("infinirtSetDevice(NVIDIA, 0)", L.infinirtSetDevice(DEV["NVIDIA"], 0))
        return self

    def __exit__(self, *exc):
        if self.saved is not None and self.saved != (DEV["NVIDIA"], 0):
            L.infinirtSetDevice(*self.saved)
        return False


def ensure_device():
    """NVIDIA mode: make (NVIDIA, 0) the calling thread's current device (SPEC §2: per thread)"""
    if NV:
        rt_check("infinirtSetDevice(NVIDIA, 0)", L.infinirtSetDevice(DEV["NVIDIA"], 0))


_SHUTDOWN = [False]
atexit.register(lambda: _SHUTDOWN.__setitem__(0, True))


class DevBuf:
    """nbytes of GPU memory (infinirtMalloc) with DSLACK sentinel bytes on both sides, and a host mirror.
    Same interface as GBuf: .ptr (device address of the data), .mem (host mirror of the data bytes),
    .n, slack_ok(). Protocol: change .mem then push() (whole allocation H2D); sync() (whole allocation D2H)
    before reading .mem. Both synchronise the whole device around the copy."""

    def __init__(self, nbytes, flush="end"):
        self.base = None
        self.n = nbytes
        pad = (-nbytes) % DALIGN if flush == "end" else 0
        self.lo = DSLACK + pad            # offset of the data inside the allocation
        self.total = self.lo + nbytes + DSLACK
        self.host = np.full(self.total, SENT, np.uint8)
        self.mem = self.host[self.lo:self.lo + nbytes]
        p = vp()
        with on_nvidia():
            rt_check(f"infinirtMalloc({self.total})", L.infinirtMalloc(C.byref(p), self.total))
        if not p.value:
            raise RtError(f"infinirtMalloc({self.total}) returned SUCCESS and NULL")
        self.base = p.value
        self.ptr = self.base + self.lo
        self.push()

    def push(self):
        with on_nvidia():
            rt_check("infinirtDeviceSynchronize", L.infinirtDeviceSynchronize())
            rt_check(f"infinirtMemcpy H2D {self.total} B",
                     L.infinirtMemcpy(self.base, self.host.ctypes.data, self.total, MEMCPY_H2D))
            rt_check("infinirtDeviceSynchronize", L.infinirtDeviceSynchronize())

    def sync(self):
        with on_nvidia():
            rt_check("infinirtDeviceSynchronize", L.infinirtDeviceSynchronize())
            rt_check(f"infinirtMemcpy D2H {self.total} B",
                     L.infinirtMemcpy(self.host.ctypes.data, self.base, self.total, MEMCPY_D2H))
            rt_check("infinirtDeviceSynchronize", L.infinirtDeviceSynchronize())

    def slack_ok(self):
        self.sync()
        return bool((self.host[:self.lo] == SENT).all() and (self.host[self.lo + self.n:] == SENT).all())

    def free(self):
        if self.base and not _SHUTDOWN[0]:
            try:
                with on_nvidia():
                    L.infinirtDeviceSynchronize()
                    L.infinirtFree(self.base)
            except Exception:
                pass
        self.base = None

    def __del__(self):
        self.free()


def mkbuf(nbytes, flush="end"):
    """a guarded buffer for the audited device: GBuf (host, guard pages) or DevBuf (GPU, slack)"""
    return DevBuf(nbytes, flush) if NV else GBuf(nbytes, flush)


def dense_layout(shape, strides):
    """True when the elements exactly tile [0, numel) (a permutation of row-major, positive strides)"""
    acc = 1
    for s_, d in sorted((s_, d) for d, s_ in zip(shape, strides) if d != 1):
        if s_ != acc:
            return False
        acc *= d
    return True


_STREAM = [None]


def nv_stream():
    """this process's stream from infinirtStreamCreate (main thread), created on first use"""
    if _STREAM[0] is None:
        s = vp()
        with on_nvidia():
            rt_check("infinirtStreamCreate", L.infinirtStreamCreate(C.byref(s)))
        _STREAM[0] = s
    return _STREAM[0]


def contig(shape):
    s, acc = [], 1
    for d in reversed(shape):
        s.append(acc)
        acc *= d
    return tuple(reversed(s))


class TBuf:
    """A strided tensor in a guarded buffer (strides in elements, may be <0 or 0)."""

    def __init__(self, shape, strides, dt, flush="end", empty_ptr="guard"):
        self.shape = tuple(shape)
        self.strides = tuple(contig(shape) if strides is None else strides)
        if len(self.shape) > 64:  # numpy limit: size-1 dims do not change the element set
            keep = [k for k, d in enumerate(self.shape) if d != 1]
            self.shape = tuple(self.shape[k] for k in keep)
            self.strides = tuple(self.strides[k] for k in keep)
        self.dt = np.dtype(dt)
        isz = self.dt.itemsize
        self.numel = int(np.prod(self.shape, dtype=object)) if self.shape else 1
        if self.numel == 0:
            self.buf = None
            self.arr = np.empty(self.shape, self.dt)
            self.ptr = None if empty_ptr == "null" else GUARD_PTR
            return
        mn = sum(s * (d - 1) for d, s in zip(self.shape, self.strides) if s < 0)
        mx = sum(s * (d - 1) for d, s in zip(self.shape, self.strides) if s > 0)
        ext = (mx - mn + 1) * isz
        self.buf = mkbuf(ext, flush)
        self.off = -mn * isz
        self.ptr = self.buf.ptr + self.off
        self.arr = np.ndarray(self.shape, self.dt, buffer=self.buf.mem, offset=self.off,
                              strides=tuple(s * isz for s in self.strides))
        if dense_layout(self.shape, self.strides):  # every byte belongs to an element (same mask, faster)
            self.mask = np.ones(ext, bool)
            return
        o = np.full(self.shape, self.off, dtype=np.int64)
        for ax, (d, s) in enumerate(zip(self.shape, self.strides)):
            sh = [1] * len(self.shape)
            sh[ax] = d
            o = o + (np.arange(d, dtype=np.int64) * s * isz).reshape(sh)
        mask = np.zeros(ext, bool)
        for k in range(isz):
            mask[o.ravel() + k] = True
        self.mask = mask

    def fill_bytes(self, b):
        if self.buf is not None:
            self.buf.mem[:] = b
            self.buf.push()

    def snapshot(self):
        if self.buf is None:
            return None
        self.buf.sync()
        return self.buf.mem.copy()

    def gaps_ok(self, snap):
        """bytes not belonging to an element are unchanged and slack is untouched"""
        if self.buf is None:
            return True
        self.buf.sync()
        return bool((self.buf.mem[~self.mask] == snap[~self.mask]).all() and self.buf.slack_ok())

    def set(self, values):
        if self.buf is not None:
            self.arr[...] = values
            self.buf.push()

    def get(self):
        if self.buf is not None:
            self.buf.sync()
        return np.array(self.arr, copy=True)


def perm_strides(shape, perm):
    """strides of a dense tensor whose memory order is axes perm[0] (outermost) .. perm[-1]"""
    st_ = [0] * len(shape)
    acc = 1
    for ax in reversed(perm):
        st_[ax] = acc
        acc *= shape[ax]
    return tuple(st_)


def rng(seed):
    return np.random.default_rng(seed)


def rand_bytes(r, shape, dtname):
    dt = rawdt(dtname)
    b = r.integers(0, 256, size=tuple(shape) + (dt.itemsize,), dtype=np.uint8)
    return np.ascontiguousarray(b).view(dt).reshape(shape)


# --------------------------------------------------------------------------- descriptors
def mk_td(shape, strides, dtype, shape_null=False):
    nd = len(shape)
    sh = None if shape_null else (sz * max(nd, 1))(*shape)
    stp = None if strides is None else (ssz * max(nd, 1))(*strides)
    d = vp()
    dtv = DT[dtype] if isinstance(dtype, str) else dtype
    s = L.infiniopCreateTensorDescriptor(C.byref(d), nd, sh, stp, dtv)
    return s, d


def td(shape, strides, dtype):
    s, d = mk_td(shape, strides, dtype)
    if s != SUCCESS:
        raise RuntimeError(f"tensor descriptor {shape} {strides} {dtype}: {sname(s)}")
    return d


def destroy_td(*ds):
    for d in ds:
        if d is not None and d.value:
            L.infiniopDestroyTensorDescriptor(d)


_H = [None]


def handle():
    if _H[0] is None:
        ensure_device()  # NVIDIA mode: 'binds the thread's current device'
        h = vp()
        s = L.infiniopCreateHandle(C.byref(h))
        assert s == SUCCESS, sname(s)
        _H[0] = h
    return _H[0]


CREATE = {"rearrange": "infiniopCreateRearrangeDescriptor", "mul": "infiniopCreateMulDescriptor",
          "lpnorm": "infiniopCreateLPNormDescriptor", "rs": "infiniopCreateRandomSampleDescriptor",
          "rsb": "infiniopCreateRandomSampleBatchDescriptor"}


def create_op(kind, *tds, params=(), h=None):
    """(status, descriptor) of kind's Create on handle h (default: this process's handle())"""
    d = vp()
    s = getattr(L, CREATE[kind])(handle() if h is None else h, C.byref(d), *tds, *params)
    return s, d


DESTROY = {"rearrange": "infiniopDestroyRearrangeDescriptor", "mul": "infiniopDestroyMulDescriptor",
           "lpnorm": "infiniopDestroyLPNormDescriptor", "rs": "infiniopDestroyRandomSampleDescriptor",
           "rsb": "infiniopDestroyRandomSampleDescriptor"}
WSFN = {"mul": "infiniopGetMulWorkspaceSize", "lpnorm": "infiniopGetLPNormWorkspaceSize",
        "rs": "infiniopGetRandomSampleWorkspaceSize", "rsb": "infiniopGetRandomSampleWorkspaceSize"}


def destroy_op(kind, d):
    return getattr(L, DESTROY[kind])(d)


def create_from_layouts(kind, layouts, params=(), h=None):
    """layouts: list of (shape, strides, dtype). Tensor descriptors are destroyed right after
    Create (SPEC: the caller may destroy them right after)."""
    tds = [td(*l) for l in layouts]
    s, d = create_op(kind, *tds, params=params, h=h)
    destroy_td(*tds)
    return s, d


def small_descriptors():
    """every descriptor kind: (kind, layouts, Create's parameters), small enough for any device"""
    return (("rearrange", [((4,), None, "F32")] * 2, ()),
            ("mul", [((3,), None, "F32")] * 3, ()),
            ("lpnorm", [((3,), None, "F32")] * 2, (ci(0), ci(2), cf(1e-12))),
            ("rs", [((), None, "I64"), ((5,), None, "F32")], ()),
            ("rsb", [((2,), None, "I64"), ((2, 5), None, "F32")], ()))


def check_descriptor_devices(h, kinds, made, device, extra=None):
    """each of `kinds` (small_descriptors' form), created on handle h, reports (device, 0) through the
    base-struct queries; extra(kind, descriptor) adds checks"""
    for kind, layouts, params in kinds:
        r, dd = create_from_layouts(kind, layouts, params, h=h)
        if st(f"create {kind} {made}", r, SUCCESS):
            dev, did = ci(-7), ci(-7)
            r1 = L.infiniopGetDescriptorDeviceType(dd, C.byref(dev))
            r2 = L.infiniopGetDescriptorDeviceId(dd, C.byref(did))
            ck(f"{kind} descriptor reports ({device},0)", r1 == 0 and r2 == 0 and
               (dev.value, did.value) == (DEV[device], 0), f"{sname(r1)} {sname(r2)} {(dev.value, did.value)}")
            if extra is not None:
                extra(kind, dd)
            destroy_op(kind, dd)


def ws_size(kind, d):
    n = sz(12345678)
    s = getattr(L, WSFN[kind])(d, C.byref(n))
    if s != SUCCESS:
        raise RuntimeError(f"workspace size {kind}: {sname(s)}")
    return n.value


def workspace(n):
    """guarded workspace of exactly n bytes (pointer = NULL-free guard page when n==0)"""
    if NV:  # device memory with sentinel slack; n == 0 still gets a (0-byte) non-NULL device pointer
        g = DevBuf(n, "end")
        g.mem[:] = 0x77
        g.push()
        return g, g.ptr
    if n == 0:
        return None, GUARD_PTR
    g = GBuf(n, "end")
    g.mem[:] = 0x77
    return g, g.ptr


# --------------------------------------------------------------------------- numerics helpers
def rne(x, p, emin, emax):
    """correctly rounded (RNE) float64 -> binary format with p-bit significand"""
    x = np.asarray(x, np.float64)
    out = x.copy()
    fin = np.isfinite(x) & (x != 0)
    if fin.any():
        xf = x[fin]
        _, e = np.frexp(xf)
        ue = np.maximum(e - 1, emin) - (p - 1)
        y = np.ldexp(np.rint(np.ldexp(xf, -ue)), ue)
        maxv = (2 - 2.0 ** (1 - p)) * 2.0 ** emax
        big = np.abs(y) > maxv
        y[big] = np.copysign(np.inf, y[big])
        out[fin] = y
    return out


def round_to(x64, dtn):
    if dtn == "F64":
        return np.asarray(x64, np.float64)
    if dtn == "F32":
        return np.asarray(x64, np.float64).astype(np.float32)
    if dtn == "F16":
        return rne(x64, 11, -14, 15).astype(np.float16)
    if dtn == "BF16":
        return rne(x64, 8, -126, 127).astype(BF16)
    raise ValueError(dtn)


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(RAW[a.dtype.itemsize])


def same_float_bits(got, ref):
    """bitwise equal, any NaN matching any NaN"""
    g64 = got.astype(np.float64)
    r64 = ref.astype(np.float64)
    eq = bits(got) == bits(ref)
    nan = np.isnan(g64) & np.isnan(r64)
    return eq | nan


def fmt_bad(got, ref, okmask, maxn=4):
    idx = np.argwhere(~okmask)[:maxn]
    return "; ".join(f"at {tuple(int(v) for v in i)}: got {got[tuple(i)]!r} ref {ref[tuple(i)]!r}" for i in idx) + \
        f" ({int((~okmask).sum())}/{okmask.size} bad)"


# =========================================================================== tests
TESTS = []


def test(group, only=None):
    """register a test; only="cpu" / "nvidia": registered in that AUDIT_DEVICE mode alone"""
    def deco(fn):
        if only is None or only == AUDIT_DEVICE:
            TESTS.append((group, fn.__name__, fn))
        return fn
    return deco


# --------------------------------------------------------------------------- group: symbols
@test("symbols")
def t_exports():
    for n in RT_PROTOS:
        ck(f"libinfinirt exports {n}", hasattr(L.rt, n) and n not in L.missing)
    for n in OP_PROTOS:
        ck(f"libinfiniop exports {n}", n not in L.missing)
    for libname, spec in (("libinfiniop.so", set(OP_PROTOS)), ("libinfinirt.so", set(RT_PROTOS))):
        try:
            out = subprocess.run(["nm", "-D", "--defined-only", os.path.join(LIBDIR, libname)],
                                 capture_output=True, text=True, check=True).stdout
        except Exception as e:
            note(f"nm on {libname}", f"could not run nm: {e}")
            continue
        syms = [l.split()[-1] for l in out.splitlines() if len(l.split()) >= 3]
        mangled = [s for s in syms if s.startswith("_Z")]
        ck(f"{libname}: no C++ (mangled) symbols exported ('everything else is hidden')", not mangled,
           f"exported: {mangled[:10]}")
        extra = sorted(set(syms) - spec - {"_init", "_fini", "_edata", "_end", "__bss_start"})
        if extra:
            note(f"{libname}: exported symbols not named in SPEC.md", ", ".join(extra))


# --------------------------------------------------------------------------- group: runtime
@test("runtime")
def t_rt_initial_device():
    # before infinirtInit: per-thread current device starts (CPU,0)
    d, i = ci(-7), ci(-7)
    s = L.infinirtGetDevice(C.byref(d), C.byref(i))
    st("GetDevice before Init -> SUCCESS", s, SUCCESS)
    ck("initial current device is (CPU,0)", (d.value, i.value) == (0, 0), f"got {(d.value, i.value)}")
    st("infinirtInit -> SUCCESS", L.infinirtInit(), SUCCESS)
    st("infinirtInit twice -> SUCCESS", L.infinirtInit(), SUCCESS, strict=False)


@test("runtime", only="cpu")
def t_rt_device_count():
    L.infinirtInit()
    c = ci(-7)
    st("GetDeviceCount(CPU)", L.infinirtGetDeviceCount(DEV["CPU"], C.byref(c)), SUCCESS)
    ck("CPU device count >= 1", c.value >= 1, f"count={c.value}")
    note("CPU device count value", f"{c.value}")
    cpu_count = c.value
    c = ci(-7)
    s = L.infinirtGetDeviceCount(DEV["NVIDIA"], C.byref(c))
    st("GetDeviceCount(NVIDIA) with no GPU -> SUCCESS", s, SUCCESS,
       spec="'infinirtGetDeviceCount(NVIDIA)` reports 0 and returns SUCCESS'")
    ck("GetDeviceCount(NVIDIA) reports 0 without a GPU", c.value == 0, f"count={c.value}")
    for name in ["CAMBRICON", "ASCEND", "METAX", "MOORE", "ILUVATAR", "KUNLUN", "HYGON", "QY", "ALI"]:
        c = ci(-7)
        st(f"GetDeviceCount({name}) -> DEVICE_TYPE_NOT_SUPPORTED",
           L.infinirtGetDeviceCount(DEV[name], C.byref(c)), DEVICE_TYPE_NOT_SUPPORTED,
           spec="'every other value gets DEVICE_TYPE_NOT_SUPPORTED'")
    for v in (11, 12, 1000, -1):
        c = ci(-7)
        s = L.infinirtGetDeviceCount(v, C.byref(c))
        st(f"GetDeviceCount(out-of-enum {v}) -> DEVICE_TYPE_NOT_SUPPORTED", s,
           DEVICE_TYPE_NOT_SUPPORTED, strict=False)
    st("GetDeviceCount(CPU, NULL) -> NULL_POINTER", L.infinirtGetDeviceCount(0, None), NULL_POINTER,
       strict=False)
    return cpu_count


@test("runtime", only="cpu")
def t_rt_set_device():
    L.infinirtInit()
    st("SetDevice(CPU,0)", L.infinirtSetDevice(0, 0), SUCCESS)
    st("SetDevice(NVIDIA,0) without GPU -> DEVICE_NOT_FOUND", L.infinirtSetDevice(1, 0), DEVICE_NOT_FOUND,
       spec="'infinirtSetDevice(NVIDIA, 0)` returns DEVICE_NOT_FOUND'")
    d, i = ci(-7), ci(-7)
    L.infinirtGetDevice(C.byref(d), C.byref(i))
    ck("failed SetDevice(NVIDIA) leaves current device (CPU,0)", (d.value, i.value) == (0, 0),
       f"got {(d.value, i.value)}")
    c = ci(0)
    L.infinirtGetDeviceCount(0, C.byref(c))
    s = L.infinirtSetDevice(0, c.value)
    st(f"SetDevice(CPU,{c.value}) (id == count) -> DEVICE_NOT_FOUND", s, DEVICE_NOT_FOUND, strict=False)
    s = L.infinirtSetDevice(0, -1)
    st("SetDevice(CPU,-1) -> DEVICE_NOT_FOUND/BAD_PARAM", s, {DEVICE_NOT_FOUND, BAD_PARAM}, strict=False)
    for name in ["CAMBRICON", "ASCEND", "ALI"]:
        st(f"SetDevice({name},0) -> DEVICE_TYPE_NOT_SUPPORTED", L.infinirtSetDevice(DEV[name], 0),
           DEVICE_TYPE_NOT_SUPPORTED, spec="'every other value gets DEVICE_TYPE_NOT_SUPPORTED'")
    st("SetDevice(TYPE_COUNT,0) -> DEVICE_TYPE_NOT_SUPPORTED", L.infinirtSetDevice(11, 0),
       DEVICE_TYPE_NOT_SUPPORTED, strict=False)
    L.infinirtGetDevice(C.byref(d), C.byref(i))
    ck("current device still (CPU,0) after failed SetDevice calls", (d.value, i.value) == (0, 0),
       f"got {(d.value, i.value)}")
    st("GetDevice(NULL, &id) -> NULL_POINTER", L.infinirtGetDevice(None, C.byref(i)), NULL_POINTER,
       strict=False)
    st("GetDevice(&dev, NULL) -> NULL_POINTER", L.infinirtGetDevice(C.byref(d), None), NULL_POINTER,
       strict=False)
    # new thread starts at (CPU,0)
    res = {}

    def th():
        a, b = ci(-7), ci(-7)
        res["s"] = L.infinirtGetDevice(C.byref(a), C.byref(b))
        res["v"] = (a.value, b.value)
    t = threading.Thread(target=th)
    t.start()
    t.join()
    ck("new thread's current device is (CPU,0)", res.get("s") == 0 and res.get("v") == (0, 0), str(res))
    st("DeviceSynchronize", L.infinirtDeviceSynchronize(), SUCCESS)


@test("runtime", only="cpu")
def t_rt_streams_events():
    L.infinirtInit()
    s = vp()
    st("StreamCreate", L.infinirtStreamCreate(C.byref(s)), SUCCESS)
    note("StreamCreate on CPU yields", f"stream={s.value!r}")
    st("StreamSynchronize(created)", L.infinirtStreamSynchronize(s), SUCCESS)
    st("StreamSynchronize(NULL) (default stream)", L.infinirtStreamSynchronize(None), SUCCESS, strict=False)
    st("StreamCreate(NULL) -> NULL_POINTER", L.infinirtStreamCreate(None), NULL_POINTER, strict=False)
    e1, e2 = vp(), vp()
    r1 = L.infinirtEventCreate(C.byref(e1))
    r2 = L.infinirtEventCreate(C.byref(e2))
    st("EventCreate", r1, SUCCESS)
    st("EventCreate (2nd)", r2, SUCCESS)
    st("EventCreate(NULL) -> NULL_POINTER", L.infinirtEventCreate(None), NULL_POINTER, strict=False)
    if r1 == 0 and r2 == 0:
        st("EventRecord(e1, stream)", L.infinirtEventRecord(e1, s), SUCCESS)
        x = 0
        for k in range(200000):
            x += k
        st("EventRecord(e2, NULL stream)", L.infinirtEventRecord(e2, None), SUCCESS)
        st("EventSynchronize(e2)", L.infinirtEventSynchronize(e2), SUCCESS)
        ms = cf(-1.0)
        r = L.infinirtEventElapsedTime(C.byref(ms), e1, e2)
        st("EventElapsedTime", r, SUCCESS)
        ck("EventElapsedTime >= 0 and finite", r != 0 or (math.isfinite(ms.value) and ms.value >= 0),
           f"ms={ms.value}")
        note("EventElapsedTime value for ~10ms of Python work", f"{ms.value} ms (status {sname(r)})")
        st("EventElapsedTime(NULL ms) -> NULL_POINTER", L.infinirtEventElapsedTime(None, e1, e2),
           NULL_POINTER, strict=False)
        st("EventDestroy(e1)", L.infinirtEventDestroy(e1), SUCCESS)
        st("EventDestroy(e2)", L.infinirtEventDestroy(e2), SUCCESS)
    st("StreamDestroy", L.infinirtStreamDestroy(s), SUCCESS)


@test("runtime", only="cpu")
def t_rt_memory():
    L.infinirtInit()
    for fn, fr in (("infinirtMalloc", "infinirtFree"), ("infinirtMallocHost", "infinirtFreeHost")):
        p = vp()
        r = getattr(L, fn)(C.byref(p), 4096)
        st(f"{fn}(&p, 4096)", r, SUCCESS)
        ck(f"{fn} returns non-NULL", bool(p.value))
        if r == 0 and p.value:
            buf = np.ctypeslib.as_array((C.c_uint8 * 4096).from_address(p.value))
            buf[:] = 3  # must be host-accessible on CPU
            ck(f"{fn} memory usable from host", (buf == 3).all())
            st(f"{fr}(p)", getattr(L, fr)(p), SUCCESS)
        st(f"{fn}(NULL, 16) -> NULL_POINTER", getattr(L, fn)(None, 16), NULL_POINTER, strict=False)
        p0 = vp(1234)
        r = getattr(L, fn)(C.byref(p0), 0)
        note(f"{fn}(&p, 0)", f"status {sname(r)}, p={p0.value!r}")
        if r == 0 and p0.value and p0.value != 1234:
            getattr(L, fr)(p0)
        note(f"{fr}(NULL)", f"status {sname(getattr(L, fr)(None))}")
        ph = vp()
        r = getattr(L, fn)(C.byref(ph), (1 << 62))
        st(f"{fn}(&p, 2^62) fails cleanly", r, set(range(1, 14)), strict=True,
           spec="'No input crashes the process'")
        note(f"{fn}(&p, 2^62) status", sname(r))
        if r == 0 and ph.value:
            getattr(L, fr)(ph)


@test("runtime", only="cpu")
def t_rt_memcpy_memset():
    L.infinirtInit()
    r = rng(1)
    s = vp()
    L.infinirtStreamCreate(C.byref(s))
    for kind in range(4):
        src = r.integers(0, 256, 1000, dtype=np.uint8)
        dst = np.zeros(1000, np.uint8)
        st(f"Memcpy kind={kind} on CPU", L.infinirtMemcpy(dst.ctypes.data, src.ctypes.data, 1000, kind), SUCCESS)
        ck(f"Memcpy kind={kind} copies", (dst == src).all())
        dst[:] = 0
        rr = L.infinirtMemcpyAsync(dst.ctypes.data, src.ctypes.data, 1000, kind, s)
        L.infinirtStreamSynchronize(s)
        st(f"MemcpyAsync kind={kind}", rr, SUCCESS)
        ck(f"MemcpyAsync kind={kind} copies (after StreamSynchronize)", (dst == src).all())
    dst = np.zeros(8, np.uint8)
    for bad in (4, -1, 99):
        st(f"Memcpy kind={bad} -> BAD_PARAM", L.infinirtMemcpy(dst.ctypes.data, dst.ctypes.data, 8, bad),
           BAD_PARAM, strict=False)
    st("Memcpy(NULL dst, 8) -> NULL_POINTER", L.infinirtMemcpy(None, dst.ctypes.data, 8, 0), NULL_POINTER,
       strict=False)
    st("Memcpy(dst, NULL src, 8) -> NULL_POINTER", L.infinirtMemcpy(dst.ctypes.data, None, 8, 0),
       NULL_POINTER, strict=False)
    note("Memcpy(NULL, NULL, 0)", sname(L.infinirtMemcpy(None, None, 0, 0)))
    m = np.zeros(100, np.uint8)
    st("Memset", L.infinirtMemset(m.ctypes.data, 0x3C, 64), SUCCESS)
    ck("Memset sets count bytes to value, leaves the rest", (m[:64] == 0x3C).all() and (m[64:] == 0).all())
    L.infinirtMemset(m.ctypes.data, 0x1FF, 10)
    ck("Memset value 0x1FF -> byte 0xFF (memset semantics)", (m[:10] == 0xFF).all(), f"{m[:10]}")
    st("Memset(NULL, 0, 8) -> NULL_POINTER", L.infinirtMemset(None, 0, 8), NULL_POINTER, strict=False)
    L.infinirtStreamDestroy(s)


# --------------------------------------------------------------------------- group: handle & tensor descriptors
@test("handle", only="cpu")
def t_handle():
    # deliberately without infinirtInit first
    h = vp()
    st("CreateHandle (no infinirtInit called)", L.infiniopCreateHandle(C.byref(h)), SUCCESS)
    ck("CreateHandle returns non-NULL", bool(h.value))
    st("CreateHandle(NULL) -> NULL_POINTER", L.infiniopCreateHandle(None), NULL_POINTER,
       spec="'Every entry point checks its pointers (NULL_POINTER)'")
    st("DestroyHandle(h)", L.infiniopDestroyHandle(h), SUCCESS)
    st("DestroyHandle(NULL) -> NULL_POINTER", L.infiniopDestroyHandle(None), NULL_POINTER,
       spec="'Every entry point checks its pointers (NULL_POINTER)'")
    # after a failed SetDevice(NVIDIA) the handle still binds CPU
    L.infinirtSetDevice(1, 0)
    h2 = vp()
    st("CreateHandle after failed SetDevice(NVIDIA)", L.infiniopCreateHandle(C.byref(h2)), SUCCESS)
    a = td((4,), None, "F32")
    d = vp()
    r = L.infiniopCreateRearrangeDescriptor(h2, C.byref(d), a, a)
    st("Create op descriptor from it", r, SUCCESS)
    dev, did = ci(-7), ci(-7)
    st("GetDescriptorDeviceType", L.infiniopGetDescriptorDeviceType(d, C.byref(dev)), SUCCESS)
    st("GetDescriptorDeviceId", L.infiniopGetDescriptorDeviceId(d, C.byref(did)), SUCCESS)
    ck("descriptor device is (CPU,0)", (dev.value, did.value) == (0, 0), f"{(dev.value, did.value)}")
    st("GetDescriptorDeviceType(NULL, &d) -> NULL_POINTER",
       L.infiniopGetDescriptorDeviceType(None, C.byref(dev)), NULL_POINTER)
    st("GetDescriptorDeviceType(desc, NULL) -> NULL_POINTER", L.infiniopGetDescriptorDeviceType(d, None),
       NULL_POINTER)
    st("GetDescriptorDeviceId(NULL, &i) -> NULL_POINTER", L.infiniopGetDescriptorDeviceId(None, C.byref(did)),
       NULL_POINTER)
    st("GetDescriptorDeviceId(desc, NULL) -> NULL_POINTER", L.infiniopGetDescriptorDeviceId(d, None),
       NULL_POINTER)
    L.infiniopDestroyRearrangeDescriptor(d)
    # every op descriptor kind answers the base-struct queries
    destroy_td(a)
    check_descriptor_devices(h2, small_descriptors()[1:], "for device query", "CPU")
    L.infiniopDestroyHandle(h2)


@test("handle", only="cpu")
def t_handle_lifetime():
    """(ambiguous) op descriptor used after its handle was destroyed"""
    h = vp()
    L.infiniopCreateHandle(C.byref(h))
    a = td((8,), None, "F32")
    d = vp()
    L.infiniopCreateMulDescriptor(h, C.byref(d), a, a, a)
    destroy_td(a)
    L.infiniopDestroyHandle(h)
    x = np.arange(8, dtype=np.float32)
    y = np.full(8, np.nan, np.float32)
    r = L.infiniopMul(d, None, 0, y.ctypes.data, x.ctypes.data, x.ctypes.data, None)
    note("Mul with a descriptor whose handle was already destroyed",
         f"status {sname(r)}, correct={bool((y == x * x).all())}")
    L.infiniopDestroyMulDescriptor(d)


@test("tensor")
def t_tensor_desc_basic():
    for dn in ALL_DT:
        s, d = mk_td((2, 3), None, dn)
        st(f"TensorDescriptor dtype {dn} (valid enum) -> SUCCESS", s, SUCCESS)
        destroy_td(d)
    for v in (0, 20, 21, -1, 255, 1 << 20):
        s, d = mk_td((2, 3), None, v)
        st(f"TensorDescriptor dtype value {v} -> BAD_TENSOR_DTYPE", s, BAD_TENSOR_DTYPE,
           spec="'Every entry point checks its pointers (NULL_POINTER), dtypes, ...'")
        if s == 0:
            destroy_td(d)
    cases = [((2, 3), (3, 1)), ((2, 3), (1, 2)), ((2, 3), None), ((2, 3), (-3, -1)), ((2, 3), (0, 1)),
             ((2, 3), (0, 0)), ((4,), (-1,)), ((0,), None), ((0, 5), None), ((5, 0), (1, 1)), ((3, 0, 2), (-7, 0, 5)),
             ((1, 1, 1), (0, 0, 0)), ((2, 2), (1, 1)), ((7,) * 16, None), ((1,) * 40 + (2,) * 20, None)]
    for shape, strides in cases:
        s, d = mk_td(shape, strides, "F32")
        st(f"TensorDescriptor shape={shape if len(shape) < 10 else f'ndim{len(shape)}'} strides={strides}",
           s, SUCCESS, spec="'Strides are in elements, may be negative or zero; strides == NULL means row-major'")
        destroy_td(d)
    s, d = mk_td((), None, "F32")
    st("TensorDescriptor ndim=0 (scalar), shape non-NULL dummy", s, SUCCESS)
    destroy_td(d)
    s, d = mk_td((), None, "F32", shape_null=True)
    st("TensorDescriptor ndim=0 with shape=NULL, strides=NULL", s, SUCCESS, strict=False)
    destroy_td(d)
    st("CreateTensorDescriptor(NULL desc_ptr) -> NULL_POINTER",
       L.infiniopCreateTensorDescriptor(None, 1, (sz * 1)(4), None, DT["F32"]), NULL_POINTER)
    s, d = mk_td((3,), None, "F32", shape_null=True)
    st("CreateTensorDescriptor(ndim=2, shape=NULL) -> NULL_POINTER", s, NULL_POINTER)
    if s == 0:
        destroy_td(d)
    st("DestroyTensorDescriptor(NULL) -> NULL_POINTER", L.infiniopDestroyTensorDescriptor(None), NULL_POINTER)


def _overflow_case(name, shape, strides, dtype):
    """SPEC: 'Sizes whose byte extent overflows 64 bits are BAD_TENSOR_SHAPE.' Accept the refusal at
    tensor-descriptor creation or at every operator Create that uses it."""
    s, d = mk_td(shape, strides, dtype)
    if strides is not None and s in (BAD_TENSOR_SHAPE, BAD_TENSOR_STRIDES):
        # 'Sizes whose byte extent overflows' - when only the strides make the extent overflow, SPEC
        # is ambiguous between BAD_TENSOR_SHAPE and BAD_TENSOR_STRIDES
        (emit("PASS", f"overflow {name}: refused") if s == BAD_TENSOR_SHAPE else
         note(f"overflow {name}: refused at CreateTensorDescriptor", f"{sname(s)} (SPEC names BAD_TENSOR_SHAPE "
              f"for byte-extent overflow; here the strides cause it)"))
        return
    if s == BAD_TENSOR_SHAPE:
        emit("PASS", f"overflow {name}: CreateTensorDescriptor -> BAD_TENSOR_SHAPE")
        return
    if s != SUCCESS:
        emit("FAIL", f"overflow {name}: CreateTensorDescriptor",
             f"got {sname(s)}; SPEC: 'Sizes whose byte extent overflows 64 bits are BAD_TENSOR_SHAPE'")
        return
    note(f"overflow {name}", "CreateTensorDescriptor accepted it; checking operator Create")
    o = vp()
    r = L.infiniopCreateRearrangeDescriptor(handle(), C.byref(o), d, d)
    st(f"overflow {name}: Rearrange Create -> BAD_TENSOR_SHAPE", r, BAD_TENSOR_SHAPE,
       spec="'Sizes whose byte extent overflows 64 bits are BAD_TENSOR_SHAPE'")
    if r == 0:
        L.infiniopDestroyRearrangeDescriptor(o)
    if dtype in FLT_DT:
        r = L.infiniopCreateMulDescriptor(handle(), C.byref(o), d, d, d)
        st(f"overflow {name}: Mul Create -> BAD_TENSOR_SHAPE", r, BAD_TENSOR_SHAPE)
        if r == 0:
            L.infiniopDestroyMulDescriptor(o)
        r = L.infiniopCreateLPNormDescriptor(handle(), C.byref(o), d, d, 0, 2, cf(1e-12))
        st(f"overflow {name}: LPNorm Create -> BAD_TENSOR_SHAPE", r, BAD_TENSOR_SHAPE)
        if r == 0:
            L.infiniopDestroyLPNormDescriptor(o)
    destroy_td(d)


@test("tensor")
def t_tensor_overflow():
    _overflow_case("numel 2^64 (shape [2^61, 8] F32)", (1 << 61, 8), None, "F32")
    _overflow_case("bytes 2^64 (shape [2^62] F32)", (1 << 62,), None, "F32")
    _overflow_case("bytes 2^66 (shape [2^63] F64)", (1 << 63,), None, "F64")
    _overflow_case("shape [2^64-1] F32", ((1 << 64) - 1,), None, "F32")
    _overflow_case("stride extent (shape [3], stride [2^62] F32)", (3,), (1 << 62,), "F32")
    _overflow_case("negative stride extent (shape [2], stride [-2^62] F64)", (2,), (-(1 << 62),), "F64")
    _overflow_case("shape [2^32, 2^32] U8", (1 << 32, 1 << 32), None, "U8")
    # ambiguous ones: zero-size with huge other dims
    s, d = mk_td((0, (1 << 64) - 1), None, "F32")
    note("shape [0, 2^64-1] F32 (no elements, huge dim)", f"CreateTensorDescriptor -> {sname(s)}")
    if s == 0:
        destroy_td(d)
    s, d = mk_td((1 << 60,), None, "U8")
    note("shape [2^60] U8 (fits 64 bits)", f"CreateTensorDescriptor -> {sname(s)}")
    if s == 0:
        destroy_td(d)


# --------------------------------------------------------------------------- generic op runners
def call_status(kind, d, ws_ptr, ws_n, outs, ins, extra=(), stream=None):
    if kind == "rearrange":
        return L.infiniopRearrange(d, outs[0], ins[0], stream)
    if kind == "mul":
        return L.infiniopMul(d, ws_ptr, ws_n, outs[0], ins[0], ins[1], stream)
    if kind == "lpnorm":
        return L.infiniopLPNorm(d, ws_ptr, ws_n, outs[0], ins[0], stream)
    if kind == "rs":
        return L.infiniopRandomSample(d, ws_ptr, ws_n, outs[0], ins[0], *extra, stream)
    if kind == "rsb":
        return L.infiniopRandomSampleBatch(d, ws_ptr, ws_n, outs[0], ins[0], *extra, stream)
    raise ValueError(kind)


def run_op(tag, kind, d, outs, ins, extra=(), inplace=False, check_ws=True):
    """Runs the op twice (outputs poisoned 0xFF, then 0x5A); checks gaps/slack of outputs and that
    inputs are unmodified. Returns (ok, result arrays from run 1, from run 2)."""
    n = ws_size(kind, d) if kind != "rearrange" else 0
    results = []
    for run, poison in enumerate((0xFF, 0x5A)):
        # NVIDIA mode: run 1 on a stream from infinirtStreamCreate, run 2 on the NULL (default) stream
        stream = nv_stream() if NV and run == 0 else None
        where = (" (created stream)" if stream is not None else " (NULL stream)") if NV else ""
        if not inplace:
            for o in outs:
                o.fill_bytes(poison)
        osnap = [o.snapshot() for o in outs]
        isnap = [i.snapshot() for i in ins]
        g, wp = workspace(n)
        r = call_status(kind, d, wp, n, [o.ptr for o in outs], [i.ptr for i in ins], extra, stream=stream)
        if r != SUCCESS:
            emit("FAIL", f"{tag}: calculate", f"status {sname(r)}{where}")
            return False, None, None
        if NV:
            with on_nvidia():
                rs_ = L.infinirtStreamSynchronize(stream) if stream is not None else L.infinirtDeviceSynchronize()
            if rs_ != SUCCESS:
                emit("FAIL", f"{tag}: synchronize after calculate{where}",
                     f"{'infinirtStreamSynchronize' if stream is not None else 'infinirtDeviceSynchronize'} -> "
                     f"{sname(rs_)} (the calculation failed on the device)")
                return False, None, None
        ok = True
        if not inplace:
            for k, (o, s) in enumerate(zip(outs, osnap)):
                if not o.gaps_ok(s):
                    emit("FAIL", f"{tag}: output {k} bytes outside its elements modified (gaps/slack){where}",
                         "library wrote outside the output tensor's elements")
                    ok = False
            for k, (i, s) in enumerate(zip(ins, isnap)):
                if i.buf is not None:
                    i.buf.sync()
                if i.buf is not None and not (i.buf.mem == s).all():
                    emit("FAIL", f"{tag}: input {k} modified by the call{where}", "")
                    ok = False
        if g is not None and not g.slack_ok():
            emit("FAIL", f"{tag}: workspace overrun{where}", "")
            ok = False
        results.append([o.get() for o in outs])
        if inplace:
            break
    if NV and not inplace:
        for k, o in enumerate(outs):
            nw = never_written(results[0][k], results[1][k])
            if nw:
                emit("FAIL", f"{tag}: output {k}: {nw} element(s) never written",
                     "still 0xFF.. after the first call and 0x5A.. after the second (the poison bytes)")
    return True, results[0], results[-1]


def never_written(a1, a2):
    """elements whose bytes are all 0xFF in run 1 and all 0x5A in run 2 (each run's poison)"""
    isz = a1.dtype.itemsize
    if a1.size == 0:
        return 0
    b1 = np.ascontiguousarray(a1).reshape(-1).view(np.uint8).reshape(-1, isz)
    b2 = np.ascontiguousarray(a2).reshape(-1).view(np.uint8).reshape(-1, isz)
    return int(((b1 == 0xFF).all(axis=1) & (b2 == 0x5A).all(axis=1)).sum())


def ws_checks(tag, kind, d, outs, ins, extra=()):
    """Get*WorkspaceSize semantics: NULL out-pointer, smaller workspace -> INSUFFICIENT_WORKSPACE,
    NULL workspace with a non-zero size."""
    f = getattr(L, WSFN[kind])
    st(f"{tag}: GetWorkspaceSize(desc, NULL) -> NULL_POINTER", f(d, None), NULL_POINTER)
    st(f"{tag}: GetWorkspaceSize(NULL, &n) -> NULL_POINTER", f(None, C.byref(sz())), NULL_POINTER)
    n = ws_size(kind, d)
    n2 = ws_size(kind, d)
    ck(f"{tag}: GetWorkspaceSize is stable", n == n2, f"{n} vs {n2}")
    if n > 0:
        g, wp = workspace(n)
        r = call_status(kind, d, wp, n - 1, [o.ptr for o in outs], [i.ptr for i in ins], extra)
        st(f"{tag}: workspace_size = min-1 ({n - 1}) -> INSUFFICIENT_WORKSPACE", r, INSUFFICIENT_WORKSPACE,
           spec="'Calculate with a smaller workspace_size returns INSUFFICIENT_WORKSPACE'")
        r = call_status(kind, d, wp, 0, [o.ptr for o in outs], [i.ptr for i in ins], extra)
        st(f"{tag}: workspace_size = 0 -> INSUFFICIENT_WORKSPACE", r, INSUFFICIENT_WORKSPACE)
        r = call_status(kind, d, None, n, [o.ptr for o in outs], [i.ptr for i in ins], extra)
        st(f"{tag}: workspace NULL with size {n} -> NULL_POINTER", r, NULL_POINTER, strict=False)
    else:
        note(f"{tag}: minimum workspace", "0 bytes (INSUFFICIENT_WORKSPACE cannot be exercised)")
        r = call_status(kind, d, None, 0, [o.ptr for o in outs], [i.ptr for i in ins], extra)
        st(f"{tag}: workspace NULL, size 0 when minimum is 0 -> SUCCESS", r, SUCCESS)
    # a larger-than-needed workspace is fine
    g, wp = workspace(n + 4096)
    r = call_status(kind, d, wp, n + 4096, [o.ptr for o in outs], [i.ptr for i in ins], extra)
    st(f"{tag}: workspace larger than minimum -> SUCCESS", r, SUCCESS)
    # misaligned workspace pointer (SPEC states no alignment requirement); NVIDIA: group nv_misaligned
    if n > 0 and not NV:
        g = GBuf(n + 1, "end")
        r = call_status(kind, d, g.ptr + 1, n, [o.ptr for o in outs], [i.ptr for i in ins], extra)
        st(f"{tag}: misaligned (odd) workspace pointer", r, SUCCESS, strict=False)
    return n


# --------------------------------------------------------------------------- group: rearrange
# ---- the streams a consumer passes to Calculate (both modes' runtime checks)
_CPU_STREAM = [None]


def consumer_streams():
    """(name, stream, SPEC's word on it) triples that the runtime checks call Calculate with. NVIDIA: a
    stream from infinirtStreamCreate and the NULL stream (nv_streams). CPU: a garbage pointer (SPEC: the
    stream is ignored on CPU) and a stream from infinirtStreamCreate (this process's, created on first use)."""
    if NV:
        return tuple((sn, stream, "") for sn, stream in nv_streams())
    if _CPU_STREAM[0] is None:
        s = vp()
        rt_check("infinirtStreamCreate", L.infinirtStreamCreate(C.byref(s)))
        _CPU_STREAM[0] = s
    return (("garbage stream pointer", vp(0xBAD0), "'stream ... is ignored on CPU'"),
            ("infinirt stream", _CPU_STREAM[0], ""))


def on_each_stream(tag, call, poison, check, shown=lambda: ""):
    """call(stream) on each of consumer_streams() after poison(); on NVIDIA the stream is synchronised;
    then check() (a bool) must hold, shown() (what was computed) reported when it does not."""
    for sn, stream, spec in consumer_streams():
        poison()
        st(f"{tag} on the {sn}", call(stream), SUCCESS, spec=spec)
        if NV:
            st(f"{tag}: synchronize ({sn})", nv_wait(stream), SUCCESS)
        ok = check()
        ck(f"{tag} on the {sn}: result", ok, "" if ok else shown())


def empty_calls(tag, call, spec=""):
    """Calculate on empty tensors: call(data_ptr, stream) with NULL data pointers succeeds on each of
    consumer_streams() (synchronised on NVIDIA); on the CPU also with PROT_NONE pointers, which any
    access would crash on."""
    for sn, stream, _ in consumer_streams():
        st(f"{tag}: NULL data pointers ({sn}) -> SUCCESS", call(None, stream), SUCCESS, spec=spec)
        if NV:
            st(f"{tag}: synchronize ({sn})", nv_wait(stream), SUCCESS)
    if not NV:
        st(f"{tag}: PROT_NONE data pointers -> SUCCESS (no access)", call(GUARD_PTR, None), SUCCESS)


def rearrange_case(tag, dtn, shape, dst_strides, src_strides, seed=0, flush="end"):
    r = rng(seed)
    dt = rawdt(dtn)
    s, d = create_from_layouts("rearrange", [(shape, dst_strides, dtn), (shape, src_strides, dtn)])
    if not st(f"{tag}: Create", s, SUCCESS):
        return
    src = TBuf(shape, src_strides, dt, flush=flush)
    dst = TBuf(shape, dst_strides, dt, flush=flush)
    src.set(rand_bytes(r, src.shape, dtn))
    want = src.get()
    ok, r1, r2 = run_op(tag, "rearrange", d, [dst], [src])
    if ok:
        for rr in (r1, r2):
            good = rr[0] == want
            if not ck(f"{tag}: dst == src bitwise", good.all(), fmt_bad(rr[0], want, good)):
                break
    destroy_op("rearrange", d)


@test("rearrange")
def t_rearrange_all_dtypes():
    for dn in ALL_DT:
        rearrange_case(f"rearrange {dn} transpose (4,5)", dn, (4, 5), (1, 4), None, seed=DT[dn])
        rearrange_case(f"rearrange {dn} contiguous 1-d 37", dn, (37,), None, None, seed=DT[dn] + 100)


@test("rearrange")
def t_rearrange_layouts():
    R = rearrange_case
    R("rearrange F32 src negative strides", "F32", (3, 4), None, (-4, -1))
    R("rearrange F32 src negative strides (flush start)", "F32", (3, 4), None, (-4, -1), flush="start")
    R("rearrange F32 dst negative strides", "F32", (3, 4), (-1, -3), None)
    R("rearrange F32 dst negative strides (flush start)", "F32", (3, 4), (-1, -3), None, flush="start")
    R("rearrange F32 src zero stride (broadcast row)", "F32", (5, 6), None, (0, 1))
    R("rearrange F32 src all-zero strides", "F32", (3, 4, 2), None, (0, 0, 0))
    R("rearrange F16 src broadcast + negative", "F16", (4, 3, 5), (1, 20, 4), (0, -5, 1))
    R("rearrange F64 dst with gaps", "F64", (3, 4), (10, 2), (1, 3))
    R("rearrange U8 3-d permute", "U8", (2, 3, 4), (1, 2, 6), None)
    R("rearrange I16 interleaved non-overlapping dst strides (2,3)", "I16", (3, 2), (2, 3), None)
    R("rearrange F32 dst zero stride on size-1 dim", "F32", (1, 5), (0, 1), None)
    R("rearrange F32 size-1 dims with odd strides", "F32", (1, 4, 1), (99, 1, -7), (5, 2, 0))
    R("rearrange F32 scalar (ndim 0)", "F32", (), (), ())
    R("rearrange C128 scalar", "C128", (), (), ())
    R("rearrange BF16 large transpose 67x129", "BF16", (67, 129), (1, 67), None)
    R("rearrange F32 large 3-d permute 33x17x65", "F32", (33, 17, 65), (1, 33 * 65, 33), None)
    R("rearrange I8 large 1-d 100003", "I8", (100003,), None, None)
    R("rearrange U64 large reversed 1-d 10007", "U64", (10007,), None, (-1,))
    R("rearrange C64 4-d mixed", "C64", (3, 1, 4, 5), (1, 0, 15, 3), (20, 7, -5, 1))


@test("rearrange")
def t_rearrange_many_dims():
    # 12 non-mergeable dimensions (permuted strides), 16 dims, and 24 dims with gaps
    shape = (2,) * 12
    perm = [3, 7, 1, 11, 5, 0, 9, 2, 10, 4, 8, 6]
    cs = contig(shape)
    rearrange_case("rearrange F32 ndim 12 permuted (no 5+5 limit)", "F32", shape, tuple(cs[p] for p in perm), None)
    shape = (2, 3) * 8
    cs = contig(shape)
    perm = [3, 14, 0, 9, 6, 1, 12, 15, 4, 7, 10, 2, 13, 5, 8, 11]
    rearrange_case("rearrange U16 ndim 16 permuted dst, negated src", "U16", shape, perm_strides(shape, perm),
                   tuple(-s for s in cs))
    shape = tuple([1, 2, 1, 1, 1] * 20)
    perm = list(rng(4).permutation(100))
    sst = tuple(s if d > 1 else int(rng(d).integers(-50, 50)) for s, d in zip(perm_strides(shape, perm), shape))
    rearrange_case("rearrange F32 ndim 100 (20 non-trivial dims, permuted; odd strides on size-1 dims)", "F32",
                   shape, sst, tuple(-s for s in contig(shape)))
    shape = (2,) * 24
    st_ = tuple(2 ** (k + 1) for k in range(24))[::-1]
    rearrange_case("rearrange U8 ndim 24 with gaps (dst stride 2x)", "U8", shape, st_, None)


@test("rearrange")
def t_rearrange_empty_and_null():
    for shape in ((0,), (3, 0), (0, 4, 5)):
        s, d = create_from_layouts("rearrange", [(shape, None, "F32"), (shape, None, "F32")])
        if st(f"rearrange empty {shape}: Create", s, SUCCESS):
            empty_calls(f"rearrange empty {shape}", lambda p, stream: L.infiniopRearrange(d, p, p, stream),
                        spec="'Scalars and empty tensors work' + task: null data pointers on empty tensors")
            destroy_op("rearrange", d)
    s, d = create_from_layouts("rearrange", [((0, 3), (1, 0), "F32"), ((0, 3), None, "F32")])
    st("rearrange empty dst with stride pattern that would alias if non-empty ([0,3] strides [1,0])", s,
       SUCCESS, strict=False)
    if s == 0:
        destroy_op("rearrange", d)
    s, d = create_from_layouts("rearrange", [((4,), None, "F32"), ((4,), None, "F32")])
    A, B = TBuf((4,), None, np.float32), TBuf((4,), None, np.float32)
    B.set(np.arange(4))
    st("rearrange NULL dst (non-empty) -> NULL_POINTER", L.infiniopRearrange(d, None, B.ptr, None), NULL_POINTER)
    st("rearrange NULL src (non-empty) -> NULL_POINTER", L.infiniopRearrange(d, A.ptr, None, None), NULL_POINTER)
    st("rearrange NULL descriptor -> NULL_POINTER", L.infiniopRearrange(None, A.ptr, B.ptr, None), NULL_POINTER)
    on_each_stream("rearrange (4,) F32", lambda stream: L.infiniopRearrange(d, A.ptr, B.ptr, stream),
                   lambda: A.fill_bytes(0xFF), lambda: (A.get() == np.arange(4)).all(), lambda: f"{A.get()}")
    destroy_op("rearrange", d)
    st("DestroyRearrangeDescriptor(NULL) -> NULL_POINTER", L.infiniopDestroyRearrangeDescriptor(None), NULL_POINTER)
    if not NV:  # misaligned host pointers (no alignment stated in SPEC); t_nv_misaligned_rearrange on NVIDIA
        s, d = create_from_layouts("rearrange", [((33,), None, "F64"), ((33,), (-1,), "F64")])
        g1, g2 = GBuf(33 * 8 + 1), GBuf(33 * 8 + 1)
        src = np.ndarray((33,), "<f8", buffer=g2.mem, offset=1)
        src[:] = np.arange(33)
        r = L.infiniopRearrange(d, g1.ptr + 1, g2.ptr + 1 + 32 * 8, None)
        dst = np.ndarray((33,), "<f8", buffer=g1.mem, offset=1)
        st("rearrange misaligned F64 pointers", r, SUCCESS, strict=False)
        if r == 0:
            ck("rearrange misaligned F64 pointers: correct", (dst == np.arange(33)[::-1]).all())
        destroy_op("rearrange", d)


@test("rearrange")
def t_rearrange_errors():
    h = handle()
    a = td((2, 3), None, "F32")
    b = td((2, 3), None, "F16")
    c = td((3, 2), None, "F32")
    e = td((2, 3, 1), None, "F32")
    f = td((6,), None, "F32")
    o = vp()
    R = L.infiniopCreateRearrangeDescriptor
    st("rearrange dtype mismatch -> BAD_TENSOR_DTYPE", R(h, C.byref(o), a, b), BAD_TENSOR_DTYPE,
       spec="'Same dtype (any, copied by size) and same shape.'")
    st("rearrange shape mismatch (2,3) vs (3,2) -> BAD_TENSOR_SHAPE", R(h, C.byref(o), a, c), BAD_TENSOR_SHAPE)
    st("rearrange ndim mismatch (2,3) vs (2,3,1) -> BAD_TENSOR_SHAPE", R(h, C.byref(o), a, e), BAD_TENSOR_SHAPE)
    st("rearrange same numel different shape (2,3) vs (6,) -> BAD_TENSOR_SHAPE", R(h, C.byref(o), a, f),
       BAD_TENSOR_SHAPE)
    g = td((2, 3), None, "F64")
    i = td((2, 3), None, "U64")
    st("rearrange same itemsize different dtype (F64 vs U64) -> BAD_TENSOR_DTYPE", R(h, C.byref(o), g, i),
       BAD_TENSOR_DTYPE)
    st("rearrange NULL handle -> NULL_POINTER", R(None, C.byref(o), a, a), NULL_POINTER)
    st("rearrange NULL desc_ptr -> NULL_POINTER", R(h, None, a, a), NULL_POINTER)
    st("rearrange NULL dst desc -> NULL_POINTER", R(h, C.byref(o), None, a), NULL_POINTER)
    st("rearrange NULL src desc -> NULL_POINTER", R(h, C.byref(o), a, None), NULL_POINTER)
    for shape, strides in (((4,), (0,)), ((2, 2), (1, 1)), ((3, 3), (2, 1)), ((2, 3), (1, 0)),
                           ((2, 2, 2), (4, 2, 2)), ((3, 2), (-1, 1)), ((4, 2), (1, 3))):
        dd = td(shape, strides, "F32")
        ss = td(shape, None, "F32")
        r = R(h, C.byref(o), dd, ss)
        st(f"rearrange dst {shape} strides {strides} (aliasing) -> BAD_TENSOR_STRIDES", r, BAD_TENSOR_STRIDES,
           spec="'dst must not have two elements at one address (BAD_TENSOR_STRIDES)'")
        if r == 0:
            L.infiniopDestroyRearrangeDescriptor(o)
        destroy_td(dd, ss)
    # non-aliasing but irregular dst layouts must be accepted (checked numerically elsewhere too)
    for shape, strides in (((3, 2), (2, 3)), ((2, 3), (-3, 1)), ((2, 2), (-1, 2)), ((3, 3), (5, 2)),
                           ((4, 3), (3, 4)), ((1, 4), (0, 1)), ((4, 1, 3), (3, 0, 1))):
        dd = td(shape, strides, "F32")
        ss = td(shape, None, "F32")
        r = R(h, C.byref(o), dd, ss)
        st(f"rearrange dst {shape} strides {strides} (no two elements alias) -> SUCCESS", r, SUCCESS,
           spec="'dst must not have two elements at one address' / 'with any layouts'")
        if r == 0:
            L.infiniopDestroyRearrangeDescriptor(o)
        destroy_td(dd, ss)
    destroy_td(a, b, c, e, f, g, i)


@test("rearrange")
def t_rearrange_irregular_numeric():
    rearrange_case("rearrange F32 dst (3,3) strides (5,2) non-aliasing", "F32", (3, 3), (5, 2), None)
    rearrange_case("rearrange F32 dst (4,3) strides (3,4) non-aliasing", "F32", (4, 3), (3, 4), None)
    rearrange_case("rearrange F32 dst (4,1,3) strides (3,0,1)", "F32", (4, 1, 3), (3, 0, 1), None)


# --------------------------------------------------------------------------- group: mul
def mul_ref(a, b, dtn):
    if dtn in INT_DT:
        return (a.astype(np.uint64) * b.astype(np.uint64)).astype(NP[dtn])
    return round_to(a.astype(np.float64) * b.astype(np.float64), dtn)


def gen_vals(r, shape, dtn, specials=True):
    if dtn in INT_DT:
        info = np.iinfo(NP[dtn])
        return r.integers(info.min, info.max, size=shape, endpoint=True, dtype=NP[dtn])
    x = r.standard_normal(shape) * np.exp(r.uniform(-3, 3, shape))
    v = round_to(x, dtn)
    if specials and v.size >= 8:
        if dtn == "F16":
            sp = [0.0, -0.0, np.inf, -np.inf, np.nan, 65504.0, 6e-8, -3e-5, 300.0, 1e-3]
        elif dtn == "BF16":
            sp = [0.0, -0.0, np.inf, -np.inf, np.nan, 3e38, 1e-38, -2e-39, 1e20, 1e-20]
        elif dtn == "F32":
            sp = [0.0, -0.0, np.inf, -np.inf, np.nan, 3e38, 1e-38, -1e-45, 1e20, 1e-25]
        else:
            sp = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e308, 1e-308, -5e-324, 1e160, 1e-170]
        flat = v.reshape(-1)
        k = min(len(sp), flat.size // 4 + 1)
        pos = r.choice(flat.size, size=k, replace=False)
        flat[pos] = round_to(np.array(sp[:k]), dtn)
    return v


def bshape(shape, out_nd):
    if len(shape) > out_nd:  # extra leading dims (all 1): drop them
        return tuple(shape)[len(shape) - out_nd:]
    return (1,) * (out_nd - len(shape)) + tuple(shape)


def mul_case(tag, dtn, c_shape, c_str, a_shape, a_str, b_shape, b_str, seed=0, inplace=None, flush="end"):
    r = rng(seed)
    dt = NP[dtn]
    s, d = create_from_layouts("mul", [(c_shape, c_str, dtn), (a_shape, a_str, dtn), (b_shape, b_str, dtn)])
    if not st(f"{tag}: Create", s, SUCCESS):
        return
    A = TBuf(a_shape, a_str, dt, flush=flush)
    B = TBuf(b_shape, b_str, dt, flush=flush)
    A.set(gen_vals(r, a_shape, dtn))
    B.set(gen_vals(r, b_shape, dtn))
    av, bv = A.get(), B.get()
    ref = mul_ref(np.broadcast_to(av.reshape(bshape(a_shape, len(c_shape))), c_shape),
                  np.broadcast_to(bv.reshape(bshape(b_shape, len(c_shape))), c_shape), dtn)
    if inplace == "a":
        Cb, ins = A, [A, B]
    elif inplace == "b":
        Cb, ins = B, [A, B]
    elif inplace == "ab":
        B = A
        bv = av
        ref = mul_ref(av, av, dtn)
        Cb, ins = A, [A, A]
    else:
        Cb, ins = TBuf(c_shape, c_str, dt, flush=flush), [A, B]
    ok, r1, r2 = run_op(tag, "mul", d, [Cb], ins, inplace=inplace is not None)
    if ok:
        for rr in (r1, r2):
            got = rr[0]
            good = (got == ref) if dtn in INT_DT else same_float_bits(got, ref)
            if not ck(f"{tag}: result exact (bitwise, NaN~NaN)", good.all(), fmt_bad(got, ref, good)):
                break
    destroy_op("mul", d)


@test("mul")
def t_mul_dtypes():
    for dn in FLT_DT + INT_DT:
        mul_case(f"mul {dn} contiguous (7,13)", dn, (7, 13), None, (7, 13), None, (7, 13), None, seed=DT[dn])
        mul_case(f"mul {dn} long 1-d 10007 (vector tails)", dn, (10007,), None, (10007,), None, (10007,), None,
                 seed=DT[dn] + 50)
        mul_case(f"mul {dn} zero-stride broadcast", dn, (5, 6), None, (5, 6), (0, 1), (5, 6), (1, 0), seed=DT[dn] + 7)
        mul_case(f"mul {dn} numpy broadcasting (4,1,5)x(3,1)->(4,3,5)", dn, (4, 3, 5), None, (4, 1, 5), None,
                 (3, 1), None, seed=DT[dn] + 9)
        mul_case(f"mul {dn} negative/transposed strides", dn, (6, 5), (1, 6), (6, 5), (-5, -1), (6, 5), (1, 6),
                 seed=DT[dn] + 11)
        mul_case(f"mul {dn} in-place c is a", dn, (9, 4), None, (9, 4), None, (9, 4), None, inplace="a",
                 seed=DT[dn] + 13)


@test("mul")
def t_mul_layouts():
    M = mul_case
    M("mul F32 0-d a broadcast to (3,4)", "F32", (3, 4), None, (), (), (3, 4), None)
    M("mul F32 all 0-d", "F32", (), (), (), (), (), ())
    M("mul F64 0-d via (1,1) shapes", "F64", (2, 3), None, (1, 1), None, (1,), None)
    M("mul F16 in-place c is b", "F16", (8, 8), None, (8, 8), None, (8, 8), None, inplace="b")
    M("mul BF16 in-place c is b, a broadcast", "BF16", (8, 8), None, (8,), None, (8, 8), None, inplace="b")
    M("mul F32 in-place a is b is c (square)", "F32", (5, 7), None, (5, 7), None, (5, 7), None, inplace="ab")
    M("mul F32 in-place on strided/negative layout", "F32", (4, 6), (-12, 2), (4, 6), (-12, 2), (4, 6), (1, 4),
      inplace="a")
    M("mul F32 c with gaps", "F32", (4, 5), (11, 2), (4, 5), None, (4, 5), None)
    M("mul F32 c negative strides", "F32", (4, 5), (-5, -1), (4, 5), None, (4, 5), None)
    M("mul F32 c negative strides (flush start)", "F32", (4, 5), (-5, -1), (4, 5), (-1, -4), (4, 5), None,
      flush="start")
    M("mul F32 c interleaved non-overlapping (3,2) strides (2,3)", "F32", (3, 2), (2, 3), (3, 2), None, (3, 2), None)
    M("mul F32 c zero stride on size-1 dim", "F32", (1, 6), (0, 1), (1, 6), None, (1, 6), None)
    M("mul F32 ndim 8 broadcasting", "F32", (2, 3, 1, 2, 3, 2, 1, 3), None, (3, 1, 2, 1, 2, 1, 3), None,
      (2, 1, 1, 2, 3, 1, 1, 1), None)
    M("mul I32 ndim 12 permuted c", "I32", (2,) * 12, tuple(contig((2,) * 12)[::-1]), (2,) * 12, None, (2,), None)
    M("mul U8 3-d broadcast both", "U8", (3, 4, 5), None, (3, 1, 5), None, (1, 4, 1), None)
    M("mul F16 large broadcast (129, 257)", "F16", (129, 257), None, (257,), None, (129, 1), None)
    M("mul F64 size-1 dims with odd strides", "F64", (1, 5, 1), (17, 1, 3), (1, 5, 1), (4, -1, 0), (1, 1, 1),
      (9, 9, 9))


@test("mul")
def t_mul_specials_f16_bf16_rounding():
    # products needing exact rounding: random normals over a wide exponent range, plus ties
    for dn in ("F16", "BF16"):
        r = rng(77 + DT[dn])
        n = 20000
        a = round_to(r.uniform(1, 2, n) * 2.0 ** r.integers(-20, 10, n), dn)
        b = round_to(r.uniform(1, 2, n) * 2.0 ** r.integers(-20, 10, n), dn)
        s, d = create_from_layouts("mul", [((n,), None, dn)] * 3)
        A, B, Cb = TBuf((n,), None, NP[dn]), TBuf((n,), None, NP[dn]), TBuf((n,), None, NP[dn])
        A.set(a)
        B.set(b)
        ok, r1, _ = run_op(f"mul {dn} rounding", "mul", d, [Cb], [A, B])
        if ok:
            ref = mul_ref(a, b, dn)
            good = same_float_bits(r1[0], ref)
            ck(f"mul {dn}: 20000 products rounded once (RNE) from the exact product, incl. subnormal/overflow",
               good.all(), fmt_bad(r1[0], ref, good))
        destroy_op("mul", d)


@test("mul")
def t_mul_errors():
    h = handle()
    o = vp()
    M = L.infiniopCreateMulDescriptor

    def tri(cl, al, bl):
        ts = [td(*l) for l in (cl, al, bl)]
        r = M(h, C.byref(o), *ts)
        if r == 0:
            L.infiniopDestroyMulDescriptor(o)
        destroy_td(*ts)
        return r
    f32 = lambda s, strd=None: (s, strd, "F32")
    for dn in ("BYTE", "BOOL", "F8", "C16", "C32", "C64", "C128"):
        l = ((4,), None, dn)
        st(f"mul dtype {dn} -> BAD_TENSOR_DTYPE", tri(l, l, l), BAD_TENSOR_DTYPE,
           spec="'dtypes all equal, one of F16, BF16, F32, F64 (ours: also I8..I64, U8..U64)'")
    st("mul dtype mismatch c F32, a F16 -> BAD_TENSOR_DTYPE", tri(f32((4,)), ((4,), None, "F16"), f32((4,))),
       BAD_TENSOR_DTYPE)
    st("mul dtype mismatch b I32 -> BAD_TENSOR_DTYPE", tri(f32((4,)), f32((4,)), ((4,), None, "I32")),
       BAD_TENSOR_DTYPE)
    st("mul dtype mismatch I32 vs U32 -> BAD_TENSOR_DTYPE",
       tri(((4,), None, "I32"), ((4,), None, "U32"), ((4,), None, "I32")), BAD_TENSOR_DTYPE)
    st("mul shape a (3,) vs c (4,) -> BAD_TENSOR_SHAPE", tri(f32((4,)), f32((3,)), f32((4,))), BAD_TENSOR_SHAPE)
    st("mul a larger than c (a (2,4), c (4,)) -> BAD_TENSOR_SHAPE", tri(f32((4,)), f32((2, 4)), f32((4,))),
       BAD_TENSOR_SHAPE, spec="'broadcastable to c by NumPy's rules'")
    st("mul c would need broadcasting (c (1,4), a (3,4)) -> BAD_TENSOR_SHAPE",
       tri(f32((1, 4)), f32((3, 4)), f32((1, 4))), BAD_TENSOR_SHAPE)
    st("mul b (2,1,4) vs c (3,4) (extra leading dim !=1) -> BAD_TENSOR_SHAPE",
       tri(f32((3, 4)), f32((3, 4)), f32((2, 1, 4))), BAD_TENSOR_SHAPE)
    st("mul b (1,1,3,4) vs c (3,4) (extra leading 1s)", tri(f32((3, 4)), f32((3, 4)), f32((1, 1, 3, 4))),
       {SUCCESS, BAD_TENSOR_SHAPE}, strict=False)
    r = tri(f32((3, 4)), f32((3, 4)), f32((1, 1, 3, 4)))
    note("mul b (1,1,3,4) with c (3,4): more dims than c, all leading 1s (np.broadcast_to refuses this; "
         "SPEC: 'broadcastable to c by NumPy's rules')", sname(r))
    if r == 0:
        mul_case("mul F32 b (1,1,3,4) strided -> c (3,4) (accepted extension)", "F32", (3, 4), None, (3, 4), None,
                 (1, 1, 3, 4), (7, 0, 4, 1))
    st("mul c zero stride (4,) stride (0,) -> BAD_TENSOR_STRIDES", tri(f32((4,), (0,)), f32((4,)), f32((4,))),
       BAD_TENSOR_STRIDES, spec="'c has no zero strides or overlaps'")
    st("mul c overlap (3,3) strides (2,1) -> BAD_TENSOR_STRIDES",
       tri(f32((3, 3), (2, 1)), f32((3, 3)), f32((3, 3))), BAD_TENSOR_STRIDES)
    st("mul c overlap (2,2) strides (1,1) -> BAD_TENSOR_STRIDES",
       tri(f32((2, 2), (1, 1)), f32((2, 2)), f32((2, 2))), BAD_TENSOR_STRIDES)
    st("mul c overlap (4,2) strides (1,3) -> BAD_TENSOR_STRIDES",
       tri(f32((4, 2), (1, 3)), f32((4, 2)), f32((4, 2))), BAD_TENSOR_STRIDES)
    r = tri(f32((1, 4), (0, 1)), f32((1, 4)), f32((1, 4)))
    note("mul c with zero stride on a size-1 dim ('c has no zero strides' vs no aliasing)", sname(r))
    st("mul c (3,2) strides (2,3) (no aliasing) -> SUCCESS", tri(f32((3, 2), (2, 3)), f32((3, 2)), f32((3, 2))),
       SUCCESS)
    a = td((4,), None, "F32")
    st("mul NULL handle -> NULL_POINTER", M(None, C.byref(o), a, a, a), NULL_POINTER)
    st("mul NULL desc_ptr -> NULL_POINTER", M(h, None, a, a, a), NULL_POINTER)
    st("mul NULL c desc -> NULL_POINTER", M(h, C.byref(o), None, a, a), NULL_POINTER)
    st("mul NULL a desc -> NULL_POINTER", M(h, C.byref(o), a, None, a), NULL_POINTER)
    st("mul NULL b desc -> NULL_POINTER", M(h, C.byref(o), a, a, None), NULL_POINTER)
    destroy_td(a)
    st("DestroyMulDescriptor(NULL) -> NULL_POINTER", L.infiniopDestroyMulDescriptor(None), NULL_POINTER)


@test("mul")
def t_mul_runtime_checks():
    n = 1000
    s, d = create_from_layouts("mul", [((n,), None, "F32")] * 3)
    A, B, Cb = TBuf((n,), None, np.float32), TBuf((n,), None, np.float32), TBuf((n,), None, np.float32)
    A.set(np.arange(n))
    B.set(2)
    ws_checks("mul F32 (1000,)", "mul", d, [Cb], [A, B])
    wsn = ws_size("mul", d)
    g, wp = workspace(wsn)
    st("mul NULL c ptr (non-empty) -> NULL_POINTER", L.infiniopMul(d, wp, wsn, None, A.ptr, B.ptr, None),
       NULL_POINTER)
    st("mul NULL a ptr -> NULL_POINTER", L.infiniopMul(d, wp, wsn, Cb.ptr, None, B.ptr, None), NULL_POINTER)
    st("mul NULL b ptr -> NULL_POINTER", L.infiniopMul(d, wp, wsn, Cb.ptr, A.ptr, None, None), NULL_POINTER)
    st("mul NULL descriptor -> NULL_POINTER", L.infiniopMul(None, wp, wsn, Cb.ptr, A.ptr, B.ptr, None),
       NULL_POINTER)
    on_each_stream("mul F32 (1000,)", lambda stream: L.infiniopMul(d, wp, wsn, Cb.ptr, A.ptr, B.ptr, stream),
                   lambda: Cb.fill_bytes(0xFF), lambda: (Cb.get() == np.arange(n) * 2).all())
    destroy_op("mul", d)
    for shape in ((0,), (4, 0), (0, 3, 2)):
        s, d = create_from_layouts("mul", [(shape, None, "F32")] * 3)
        if st(f"mul empty {shape}: Create", s, SUCCESS):
            wsn = ws_size("mul", d)
            g, wp = workspace(wsn)
            empty_calls(f"mul empty {shape}", lambda p, stream: L.infiniopMul(d, wp, wsn, p, p, p, stream))
            destroy_op("mul", d)
    s, d = create_from_layouts("mul", [((0, 3), None, "F32"), ((1, 3), None, "F32"), ((3,), None, "F32")])
    st("mul empty c with non-empty broadcast operands (0,3)<-(1,3),(3,)", s, SUCCESS)
    if s == 0:
        destroy_op("mul", d)
    if NV:
        mul_partial_overlap_nv()
    else:
        mul_misaligned_cpu()


def mul_misaligned_cpu():
    """misaligned host data pointers (t_nv_misaligned_mul is NVIDIA's)"""
    s, d = create_from_layouts("mul", [((37,), None, "F32")] * 3)
    wsn = ws_size("mul", d)
    g, wp = workspace(wsn)
    gs = [GBuf(37 * 4 + 1) for _ in range(3)]
    arrs = [np.ndarray((37,), "<f4", buffer=gg.mem, offset=1) for gg in gs]
    arrs[1][:] = np.arange(37)
    arrs[2][:] = 3
    r = L.infiniopMul(d, wp, wsn, gs[0].ptr + 1, gs[1].ptr + 1, gs[2].ptr + 1, None)
    st("mul misaligned F32 data pointers", r, SUCCESS, strict=False)
    if r == 0:
        ck("mul misaligned result", (arrs[0] == np.arange(37) * 3).all())
    destroy_op("mul", d)


def mul_partial_overlap_nv():
    """c overlapping a with an offset of one element: SPEC defines in-place only with the same layout"""
    n = 100003
    s, d = create_from_layouts("mul", [((n,), None, "F32")] * 3)
    G = DevBuf((n + 1) * 4, "start")
    av = rng(3).standard_normal(n + 1).astype(np.float32)
    G.mem[:] = av.view(np.uint8)
    G.push()
    B = TBuf((n,), None, np.float32)
    B.set(2)
    wsn = ws_size("mul", d)
    g, wp = workspace(wsn)
    r = L.infiniopMul(d, wp, wsn, G.ptr + 4, G.ptr, B.ptr, None)
    dsync()
    G.sync()
    got = G.mem.view(np.float32)[1:]
    note("mul F32 c = a shifted by one element (partial overlap; SPEC defines in-place only for the same layout)",
         f"status {sname(r)}; c == 2 * original a: {bool((got == av[:-1] * 2).all())}")
    destroy_op("mul", d)


# --------------------------------------------------------------------------- group: lpnorm
def lp_ref(x, axis, p, eps):
    """torch.nn.functional.normalize semantics in float64, with SPEC's all-zero-row rule"""
    x = x.astype(np.float64)
    ax = np.abs(x)
    with np.errstate(all="ignore"):
        m = ax.max(axis=axis, keepdims=True) if x.shape[axis] > 0 else np.zeros_like(ax.sum(axis, keepdims=True))
        safe = np.where((m > 0) & np.isfinite(m), m, 1.0)
        root = (np.sum((ax / safe) ** p, axis=axis, keepdims=True)) ** (1.0 / p)
        norm = safe * root
        norm = np.where(np.isinf(m), np.inf, norm)
        norm = np.where(np.isnan(ax).any(axis=axis, keepdims=True), np.nan, norm)
        norm = np.where(m == 0, 0.0, norm)
        denom = np.where(np.isnan(norm), np.nan, np.maximum(norm, eps))
        # x / norm as (x / m) / root where the norm decides: exact even when the norm itself is a
        # deep subnormal (m * root rounded to a few bits there)
        scaled = (m > 0) & np.isfinite(m) & ~np.isnan(norm) & (norm >= eps)
        y = np.where(scaled, (x / safe) / root, x / denom)
    zero_row = np.broadcast_to(m == 0, x.shape)
    y = np.where(zero_row, x * 0.0, y)  # SPEC: an all-zero row gives zeros, never NaN
    return y


TOL = {"F16": (2 * 2.0 ** -11, 2 * 2.0 ** -24), "BF16": (2 * 2.0 ** -8, 2.0 ** -132),
       "F32": (2e-5, 1e-44), "F64": (1e-12, 1e-320)}


def close(got, ref, dtn):
    rt, at = TOL[dtn]
    g = got.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(ref)
    same_inf = np.isinf(g) & np.isinf(ref) & (np.sign(g) == np.sign(ref))
    with np.errstate(all="ignore"):
        ok = np.abs(g - ref) <= at + rt * np.abs(ref)
    return ok | both_nan | same_inf


def lp_case(tag, dtn, shape, x_str, y_str, axis, p, eps, seed=0, values=None, inplace=False, flush="end"):
    r = rng(seed)
    dt = NP[dtn]
    s, d = create_from_layouts("lpnorm", [(shape, y_str, dtn), (shape, x_str, dtn)],
                               params=(ci(axis), ci(p), cf(eps)))
    if not st(f"{tag}: Create", s, SUCCESS):
        return
    X = TBuf(shape, x_str, dt, flush=flush)
    if values is None:
        values = r.standard_normal(shape)
    X.set(round_to(np.asarray(values, np.float64), dtn))
    xv = X.get()
    ref = lp_ref(xv, axis, p, float(np.float32(eps)))
    Y = X if inplace else TBuf(shape, y_str, dt, flush=flush)
    ok, r1, r2 = run_op(tag, "lpnorm", d, [Y], [X], inplace=inplace)
    if ok:
        for rr in (r1, r2):
            good = close(rr[0], ref, dtn)
            if not ck(f"{tag}: matches float64 torch-normalize reference", good.all(), fmt_bad(rr[0], ref, good)):
                break
    destroy_op("lpnorm", d)
    return r1[0] if ok else None


@test("lpnorm")
def t_lp_dtypes_axes():
    for dn in FLT_DT:
        for p in (1, 2, 3, 7):
            for axis in (-1, 0, 1, 2, -3):
                lp_case(f"lpnorm {dn} (3,5,7) axis={axis} p={p}", dn, (3, 5, 7), None, None, axis, p, 1e-12,
                        seed=DT[dn] * 100 + p * 10 + axis)
        lp_case(f"lpnorm {dn} long rows (4,4099) p=2", dn, (4, 4099), None, None, -1, 2, 1e-12, seed=5)
        lp_case(f"lpnorm {dn} long column axis 0 (3001,3) p=2", dn, (3001, 3), None, None, 0, 2, 1e-12, seed=6)
        lp_case(f"lpnorm {dn} long rows p=1 (2,5000) positive", dn, (2, 5000), None, None, 1, 1, 1e-12,
                values=rng(9).uniform(0.5, 1.5, (2, 5000)))


@test("lpnorm")
def t_lp_strides_inplace():
    LC = lp_case
    LC("lpnorm F32 x transposed, y contiguous, axis 1", "F32", (6, 5), (1, 6), None, 1, 2, 1e-12)
    LC("lpnorm F32 x negative strides, y gaps, axis 0", "F32", (6, 5), (-5, -1), (12, 2), 0, 2, 1e-12)
    LC("lpnorm F32 x negative strides (flush start)", "F32", (6, 5), (-5, -1), (-1, -6), 0, 3, 1e-12, flush="start")
    LC("lpnorm F16 x zero-stride broadcast along axis", "F16", (4, 6), (1, 0), None, 1, 2, 1e-12)
    LC("lpnorm BF16 4-d permuted axis 2", "BF16", (2, 3, 4, 5), (1, 2, 6 * 5, 6), None, 2, 2, 1e-12)
    LC("lpnorm F64 size-1 axis", "F64", (4, 1, 3), None, None, 1, 2, 1e-12)
    LC("lpnorm F32 in-place (y is x)", "F32", (5, 9), None, None, -1, 2, 1e-12, inplace=True)
    LC("lpnorm F16 in-place strided axis 0", "F16", (7, 4), (1, 7), (1, 7), 0, 3, 1e-12, inplace=True)
    LC("lpnorm F32 ndim 8 axis 5", "F32", (2, 2, 3, 2, 1, 4, 2, 2), None, None, 5, 2, 1e-12)
    LC("lpnorm F32 ndim 1", "F32", (17,), None, None, 0, 2, 1e-12)


@test("lpnorm")
def t_lp_eps_and_range():
    r = rng(3)
    LC = lp_case
    LC("lpnorm F32 eps above norm (eps=10)", "F32", (4, 6), None, None, 1, 2, 10.0)
    LC("lpnorm F32 eps=0", "F32", (4, 6), None, None, 1, 2, 0.0)
    LC("lpnorm F32 eps=inf -> zeros", "F32", (4, 6), None, None, 1, 2, float("inf"))
    for dn, big, tiny in (("F32", 1e30, 1e-30), ("F64", 1e200, 1e-200), ("F16", 6e4, 1e-7),
                          ("BF16", 1e37, 1e-37)):
        for p in (2, 4, 9):
            LC(f"lpnorm {dn} huge values ~{big:g} p={p}", dn, (3, 64), None, None, -1, p, 0.0,
               values=r.uniform(0.3, 1.0, (3, 64)) * big * np.sign(r.standard_normal((3, 64))))
            LC(f"lpnorm {dn} tiny values ~{tiny:g} p={p}", dn, (3, 64), None, None, -1, p, 0.0,
               values=r.uniform(0.3, 1.0, (3, 64)) * tiny * np.sign(r.standard_normal((3, 64))))
    # subnormal-magnitude rows (eps = 0 so the norm itself matters); reciprocal of max may overflow
    for dn, tiny in (("F32", 1e-40), ("F32", 3e-44), ("BF16", 1e-40), ("BF16", 2e-41), ("F64", 1e-310),
                     ("F64", 2e-322), ("F16", 3e-7), ("F16", 6e-8)):
        for p in (1, 2, 3):
            v = np.round(r.uniform(-1, 1, (3, 16)) * 4) * tiny
            v[:, 0] = 4 * tiny
            # the reference divides by m, then by the root, so that a norm that is itself a deep
            # subnormal costs no precision: the library's factors keep it too (math.h)
            LC(f"lpnorm {dn} subnormal values ~{tiny:g} p={p} eps=0", dn, (3, 16), None, None, -1, p, 0.0, values=v)
    for dn in FLT_DT:
        # rows whose max |x| is m, for several m in [100, 200) (all representable in dn)
        cand = np.unique(round_to(np.linspace(100, 200, 4001), dn).astype(np.float64))
        ms = cand[:: max(1, len(cand) // 64)][:64]
        v = rng(17).uniform(-0.9, 0.9, (len(ms), 33)) * ms[:, None]
        v[:, 5] = ms * np.where(np.arange(len(ms)) % 2, -1, 1)
        for p in (1000, 1 << 30, 1800000000, (1 << 31) - 1):
            LC(f"lpnorm {dn} p={p} rows with max|x| in [100,200) (norm ~ max|x|)", dn, (len(ms), 33), None, None, 1, p,
               1e-12, values=v)
    # all-zero row: zeros, never NaN (also with eps = 0)
    for dn in FLT_DT:
        for eps in (1e-12, 0.0):
            v = r.standard_normal((3, 8))
            v[1] = 0
            v[2, ::2] = -0.0
            v[2, 1::2] = 0.0
            got = LC(f"lpnorm {dn} all-zero rows eps={eps}", dn, (3, 8), None, None, 1, 2, eps, values=v)
            if got is not None:
                ck(f"lpnorm {dn} all-zero rows eps={eps}: zeros, no NaN",
                   (got[1:].astype(np.float64) == 0).all(), f"{got[1:]}")


@test("lpnorm")
def t_lp_nonfinite():
    for dn in FLT_DT:
        v = np.array([[np.inf, 1.0, -2.0, 0.0], [np.nan, 1.0, 2.0, 3.0], [-np.inf, np.inf, 1.0, 0.0],
                      [1.0, 2.0, 3.0, 4.0]])
        lp_case(f"lpnorm {dn} rows with inf/nan follow torch.normalize (inf row -> finite/inf = 0, inf/inf = NaN)",
                dn, (4, 4), None, None, 1, 2, 1e-12, values=v)


@test("lpnorm")
def t_lp_errors():
    h = handle()
    o = vp()
    P = L.infiniopCreateLPNormDescriptor

    def mk(yl, xl, axis=-1, p=2, eps=1e-12):
        ts = [td(*l) for l in (yl, xl)]
        r = P(h, C.byref(o), ts[0], ts[1], axis, p, cf(eps))
        if r == 0:
            L.infiniopDestroyLPNormDescriptor(o)
        destroy_td(*ts)
        return r
    f = lambda s, dn="F32", strd=None: (s, strd, dn)
    for dn in ("I8", "I32", "U8", "I64", "BYTE", "BOOL", "F8", "C64", "C128"):
        st(f"lpnorm dtype {dn} -> BAD_TENSOR_DTYPE", mk(f((3, 4), dn), f((3, 4), dn)), BAD_TENSOR_DTYPE,
           spec="'dtypes F16, BF16, F32 (ours: F64)'")
    st("lpnorm y F16 vs x F32 -> BAD_TENSOR_DTYPE", mk(f((3, 4), "F16"), f((3, 4))), BAD_TENSOR_DTYPE)
    st("lpnorm shape mismatch -> BAD_TENSOR_SHAPE", mk(f((3, 4)), f((4, 3))), BAD_TENSOR_SHAPE)
    st("lpnorm ndim mismatch -> BAD_TENSOR_SHAPE", mk(f((3, 4)), f((3, 4, 1))), BAD_TENSOR_SHAPE)
    for axis in (2, 3, -3, -100, 1 << 30, -(1 << 31)):
        st(f"lpnorm axis {axis} for ndim 2 -> BAD_PARAM", mk(f((3, 4)), f((3, 4)), axis=axis), BAD_PARAM,
           spec="'`axis` in [-ndim, ndim)'")
    for axis in (-2, -1, 0, 1):
        st(f"lpnorm axis {axis} for ndim 2 -> SUCCESS", mk(f((3, 4)), f((3, 4)), axis=axis), SUCCESS)
    for p in (0, -1, -(1 << 31)):
        st(f"lpnorm p={p} -> BAD_PARAM", mk(f((3, 4)), f((3, 4)), p=p), BAD_PARAM, spec="'`p >= 1`'")
    st("lpnorm p=1 -> SUCCESS", mk(f((3, 4)), f((3, 4)), p=1), SUCCESS)
    st("lpnorm p=1000 -> SUCCESS", mk(f((3, 4)), f((3, 4)), p=1000), SUCCESS)
    for eps in (-1e-12, -1.0, float("-inf"), float("nan")):
        st(f"lpnorm eps={eps} -> BAD_PARAM", mk(f((3, 4)), f((3, 4)), eps=eps), BAD_PARAM, spec="'`eps >= 0`'")
    st("lpnorm eps=-0.0 -> SUCCESS (-0 >= 0)", mk(f((3, 4)), f((3, 4)), eps=-0.0), SUCCESS)
    st("lpnorm eps=0 -> SUCCESS", mk(f((3, 4)), f((3, 4)), eps=0.0), SUCCESS)
    for axis in (0, -1):
        r = mk(f(()), f(()), axis=axis)
        note(f"lpnorm 0-d tensor, axis={axis} ([-ndim, ndim) is empty; torch accepts dim 0/-1 on 0-d)", sname(r))
    r = mk(f((4,), strd=(0,)), f((4,)), axis=0)
    note("lpnorm y with zero stride (aliasing output; SPEC silent)", sname(r))
    r = mk(f((3, 3), strd=(2, 1)), f((3, 3)), axis=1)
    note("lpnorm y with overlapping strides (3,3)/(2,1) (SPEC silent)", sname(r))
    a = td((3, 4), None, "F32")
    st("lpnorm NULL handle -> NULL_POINTER", P(None, C.byref(o), a, a, 0, 2, cf(0)), NULL_POINTER)
    st("lpnorm NULL desc_ptr -> NULL_POINTER", P(h, None, a, a, 0, 2, cf(0)), NULL_POINTER)
    st("lpnorm NULL y desc -> NULL_POINTER", P(h, C.byref(o), None, a, 0, 2, cf(0)), NULL_POINTER)
    st("lpnorm NULL x desc -> NULL_POINTER", P(h, C.byref(o), a, None, 0, 2, cf(0)), NULL_POINTER)
    destroy_td(a)
    st("DestroyLPNormDescriptor(NULL) -> NULL_POINTER", L.infiniopDestroyLPNormDescriptor(None), NULL_POINTER)


@test("lpnorm")
def t_lp_runtime_checks():
    shape = (8, 300)
    s, d = create_from_layouts("lpnorm", [(shape, None, "F32")] * 2, params=(ci(-1), ci(2), cf(1e-12)))
    X, Y = TBuf(shape, None, np.float32), TBuf(shape, None, np.float32)
    X.set(rng(1).standard_normal(shape))
    ws_checks("lpnorm F32 (8,300)", "lpnorm", d, [Y], [X])
    n = ws_size("lpnorm", d)
    g, wp = workspace(n)
    st("lpnorm NULL y ptr -> NULL_POINTER", L.infiniopLPNorm(d, wp, n, None, X.ptr, None), NULL_POINTER)
    st("lpnorm NULL x ptr -> NULL_POINTER", L.infiniopLPNorm(d, wp, n, Y.ptr, None, None), NULL_POINTER)
    st("lpnorm NULL descriptor -> NULL_POINTER", L.infiniopLPNorm(None, wp, n, Y.ptr, X.ptr, None), NULL_POINTER)
    ref = lp_ref(X.get(), -1, 2, float(np.float32(1e-12)))
    on_each_stream("lpnorm F32 (8,300)", lambda stream: L.infiniopLPNorm(d, wp, n, Y.ptr, X.ptr, stream),
                   lambda: Y.fill_bytes(0xFF), lambda: close(Y.get(), ref, "F32").all())
    destroy_op("lpnorm", d)
    for shape, axis in (((0,), 0), ((0, 5), 1), ((5, 0), 1), ((5, 0), 0), ((2, 0, 3), -1)):
        s, d = create_from_layouts("lpnorm", [(shape, None, "F32")] * 2, params=(ci(axis), ci(2), cf(1e-12)))
        if st(f"lpnorm empty {shape} axis {axis}: Create", s, SUCCESS, spec="empty tensors / null pointers"):
            n = ws_size("lpnorm", d)
            g, wp = workspace(n)
            empty_calls(f"lpnorm empty {shape} axis {axis}",
                        lambda p, stream: L.infiniopLPNorm(d, wp, n, p, p, stream))
            destroy_op("lpnorm", d)


# --------------------------------------------------------------------------- group: random sample
def f32(x):
    return float(np.float32(x))


def rs_ref(v, rv, topp, topk, temp, delta=1e-5):
    """returns the set of acceptable indices (exact case: a single one)."""
    v = np.asarray(v, np.float64)
    n = v.size
    rv, topp, temp = f32(rv), f32(topp), f32(temp)
    if rv == 0 or topp <= 0 or topk == 1 or temp <= 0:
        return {int(np.argmax(v))}, "argmax"
    if np.isnan(v).any():
        order = np.array(sorted(range(n), key=lambda i: (-v[i], i)))
    else:  # the same order (descending value, then ascending index), without a Python sort
        order = np.lexsort((np.arange(n), -v))
    vs = v[order]
    with np.errstate(all="ignore"):
        w = np.exp((vs - vs[0]) / temp)
    c = np.cumsum(w)
    K = n if topk <= 0 else min(topk, n)
    tp = min(topp, 1.0)
    t = rv * min(tp * c[-1], c[K - 1])
    lo, hi = t * (1 - delta), t * (1 + delta)
    prev = np.concatenate(([-np.inf], c[:K - 1]))
    acc = set(int(order[i]) for i in np.nonzero((c[:K] >= lo) & (prev < hi))[0])
    exact = int(np.argmax(c >= t)) if (c >= t).any() else K - 1
    exact = min(exact, K - 1)
    acc.add(int(order[exact]))
    if (c[:K] < lo).all():
        acc.add(int(order[K - 1]))
    return acc, "sample"


def rs_run(dtn_p, idx_dt, logits, params, tag, expect=None, result_check=True):
    n = logits.size
    s, d = create_from_layouts("rs", [((), None, idx_dt), ((n,), None, dtn_p)])
    if not st(f"{tag}: Create", s, SUCCESS):
        return None
    P = TBuf((n,), None, NP[dtn_p])
    P.set(logits)
    Rb = TBuf((), None, NP[idx_dt])
    rv, tp, tk, te = params
    extra = (cf(rv), cf(tp), ci(tk), cf(te))
    ok, r1, r2 = run_op(tag, "rs", d, [Rb], [P], extra=extra)
    got = None
    if ok:
        got1, got2 = int(r1[0]), int(r2[0])
        ck(f"{tag}: deterministic (two runs agree)", got1 == got2, f"{got1} vs {got2}")
        got = got1
        if result_check:
            acc, how = rs_ref(P.get(), rv, tp, tk, te) if expect is None else ({expect}, "given")
            ck(f"{tag}: index per SPEC rule ({how})", got in acc, f"got {got}, expected one of {sorted(acc)[:8]}")
    destroy_op("rs", d)
    return got


@test("rs")
def t_rs_rules():
    r = rng(11)
    for dn in FLT_DT:
        n = 50
        lg = round_to(r.standard_normal(n) * 2, dn).astype(np.float64)
        lg[r.choice(n, 3, replace=False)] = lg.max()  # ties at the max
        amax = int(np.argmax(lg))
        RS = lambda tag, params, **kw: rs_run(dn, "I64", round_to(lg, dn), params, f"rs {dn} {tag}", **kw)
        RS("random_val=0 -> argmax (lowest tied index)", (0.0, 0.9, 10, 1.0), expect=amax)
        RS("topp=0 -> argmax", (0.7, 0.0, 10, 1.0), expect=amax)
        RS("topp<0 -> argmax", (0.7, -0.5, 10, 1.0), expect=amax)
        RS("topk=1 -> argmax", (0.7, 0.9, 1, 1.0), expect=amax)
        RS("temperature=0 -> argmax", (0.7, 0.9, 10, 0.0), expect=amax)
        RS("temperature<0 -> argmax", (0.7, 0.9, 10, -2.0), expect=amax)
        for rv in (0.05, 0.3, 0.62, 0.97, 0.999999):
            for tp, tk, te in ((0.9, 10, 1.0), (1.0, 0, 1.0), (5.0, -3, 0.7), (0.5, 1000, 2.0), (0.2, 3, 0.3),
                               (1.0, 50, 1.0), (1.0, 51, 10.0)):
                RS(f"sample rv={rv} topp={tp} topk={tk} T={te}", (rv, tp, tk, te))


@test("rs")
def t_rs_exact_small():
    # equal logits: order by index; c_i = i+1, t = r*min(topp*n, K)
    n = 10
    lg = np.zeros(n)
    for dn in FLT_DT:
        rs_run(dn, "I32", round_to(lg, dn), (0.55, 1.0, 0, 1.0), f"rs {dn} all-equal rv=.55 -> 5", expect=5)
        rs_run(dn, "I32", round_to(lg, dn), (0.55, 0.5, 0, 1.0), f"rs {dn} all-equal rv=.55 topp=.5 -> t=2.75 -> 2",
               expect=2)
        rs_run(dn, "I32", round_to(lg, dn), (0.99, 1.0, 4, 1.0), f"rs {dn} all-equal rv=.99 topk=4 -> 3", expect=3)
        rs_run(dn, "I32", round_to(lg, dn), (0.99, 7.0, 20, 1.0),
               f"rs {dn} all-equal topp>1 counts as 1, topk>n -> K=n -> 9", expect=9)
    lg = np.array([1.0, 5.0, 3.0, 4.0, 2.0])
    # topk=3, rv close to 1 -> third largest (index 2)
    rs_run("F32", "I64", lg, (0.9999, 1.0, 3, 1.0), "rs F32 topk=3 rv~1 -> third largest", expect=2)
    rs_run("F32", "I64", lg, (0.9999, 1.0, 2, 1.0), "rs F32 topk=2 rv~1 -> second largest", expect=3)
    rs_run("F32", "I64", lg, (0.9999, 1.0, 5, 1e-3), "rs F32 tiny temperature -> argmax", expect=1)
    rs_run("F32", "I64", lg, (0.9999, 1.0, 0, 1e6), "rs F32 huge temperature rv~1 -> last in order (index 0)",
           expect=0)
    # -inf logits get zero weight
    lg = np.array([-np.inf, 0.0, -np.inf, 0.0, -np.inf])
    rs_run("F32", "I64", lg, (0.9, 1.0, 0, 1.0), "rs F32 -inf logits, rv .9 -> index 3", expect=3)
    rs_run("F32", "I64", lg, (0.4, 1.0, 0, 1.0), "rs F32 -inf logits, rv .4 -> index 1", expect=1)
    # 1-element
    rs_run("F32", "I64", np.array([3.0]), (0.5, 0.9, 0, 1.0), "rs n=1", expect=0)
    # F16 logits whose differences overflow F16 but not F32: w_i = exp((v_i - v_0)/T) is mathematical
    lg = np.array([60000.0, -60000.0, 30000.0, -65504.0, 0.0])
    for rv in (0.1, 0.45, 0.7, 0.9, 0.99):
        rs_run("F16", "I64", lg, (rv, 1.0, 0, 1e5), f"rs F16 logits +-6e4, T=1e5, rv={rv}")
    # extreme: differences overflow F32 (BF16/F32 logits ~ +-3e38); SPEC formula is mathematical
    for dn in ("BF16", "F32"):
        lg = round_to(np.array([3e38, -3e38, 1e38, -1e38]), dn).astype(np.float64)
        for rv in (0.3, 0.95, 0.999):
            acc, _ = rs_ref(lg, rv, 1.0, 0, 1e38)
            got = rs_run(dn, "I64", round_to(lg, dn), (rv, 1.0, 0, 1e38),
                         f"rs {dn} logits +-3e38 T=1e38 rv={rv}", result_check=False)
            if got is not None:
                (emit("PASS", f"rs {dn} logits +-3e38 T=1e38 rv={rv}: SPEC formula") if got in acc else
                 note(f"rs {dn} logits +-3e38 T=1e38 rv={rv}: (v_i - v_0) overflows F32",
                      f"got {got}, exact formula gives {sorted(acc)}"))
    # the largest index must fit narrow result dtypes
    for idx, n in (("U8", 256), ("I8", 128), ("I16", 32768), ("U16", 65536)):
        lg = np.zeros(n)
        lg[-1] = 5.0
        rs_run("F32", idx, lg, (0.0, 1.0, 0, 1.0), f"rs result {idx} n={n}: argmax at index {n - 1}", expect=n - 1)


@test("rs")
def t_rs_index_dtypes():
    r = rng(5)
    lg = r.standard_normal(100)
    for idx in INT_DT:
        for dn in FLT_DT:
            rs_run(dn, idx, round_to(lg, dn), (0.0, 1.0, 0, 1.0), f"rs probs {dn} result {idx} argmax",
                   expect=int(np.argmax(round_to(lg, dn).astype(np.float64))))
            rs_run(dn, idx, round_to(lg, dn), (0.42, 0.8, 40, 0.8), f"rs probs {dn} result {idx} sample")


@test("rs")
def t_rs_large():
    r = rng(8)
    for dn in FLT_DT:
        for n in (32000, 151936):
            lg = round_to(r.standard_normal(n) * 3, dn)
            for params in ((0.0, 1.0, 0, 1.0), (0.37, 0.9, 50, 0.8), (0.81, 1.0, 0, 1.0), (0.93, 0.95, 0, 1.3)):
                acc, how = rs_ref(lg.astype(np.float64), *params, delta=3e-4)
                got = rs_run(dn, "I64", lg, params, f"rs {dn} n={n} params={params}", result_check=False)
                if got is not None:
                    ck(f"rs {dn} n={n} params={params}: index per SPEC rule ({how}, F32 accumulation tolerance)",
                       got in acc, f"got {got}, acceptable {sorted(acc)[:8]}")


@test("rs")
def t_rs_odd_params():
    lg = np.array([0.5, 2.0, 1.0, -1.0, 2.0, 0.0])
    for tag, params in (("random_val=1.0", (1.0, 1.0, 0, 1.0)), ("random_val=-0.5", (-0.5, 1.0, 0, 1.0)),
                        ("random_val=NaN", (float("nan"), 1.0, 0, 1.0)), ("random_val=2", (2.0, 1.0, 0, 1.0)),
                        ("topp=NaN", (0.5, float("nan"), 0, 1.0)), ("temperature=NaN", (0.5, 1.0, 0, float("nan"))),
                        ("temperature=inf", (0.5, 1.0, 0, float("inf"))),
                        ("topk=INT_MIN", (0.5, 1.0, -(1 << 31), 1.0))):
        s, d = create_from_layouts("rs", [((), None, "I64"), ((6,), None, "F32")])
        n = ws_size("rs", d)
        g, wp = workspace(n)
        P = TBuf((6,), None, np.float32)
        P.set(lg)
        R = TBuf((), None, np.int64)
        R.fill_bytes(0xFF)
        rr = L.infiniopRandomSample(d, wp, n, R.ptr, P.ptr, cf(params[0]), cf(params[1]), ci(params[2]),
                                    cf(params[3]), None)
        note(f"rs {tag} (SPEC: deterministic only for random_val in [0,1); no rule for NaN)",
             f"status {sname(rr)}, result {int(R.get()) if rr == 0 else '-'}")
        if rr == 0:
            ck(f"rs {tag}: returned index in range [0,n)", 0 <= int(R.get()) < 6, f"{int(R.get())}")
        if tag in ("temperature=inf", "topk=INT_MIN"):
            # SPEC rule 2 applies literally (temperature > 0; topk <= 0 means K = n)
            acc, how = rs_ref(lg, *params)
            ck(f"rs {tag}: SPEC rule 2 applies literally", rr == 0 and int(R.get()) in acc,
               f"status {sname(rr)}, got {int(R.get()) if rr == 0 else '-'}, expected {sorted(acc)}")
        destroy_op("rs", d)
    for tag, lgv in (("all -inf", [-np.inf] * 4), ("NaN logit", [0.0, np.nan, 1.0, 0.5]),
                     ("+inf logit", [0.0, np.inf, 1.0, np.inf])):
        for params in ((0.0, 1.0, 0, 1.0), (0.5, 1.0, 0, 1.0)):
            s, d = create_from_layouts("rs", [((), None, "I64"), ((4,), None, "F32")])
            n = ws_size("rs", d)
            g, wp = workspace(n)
            P = TBuf((4,), None, np.float32)
            P.set(lgv)
            R = TBuf((), None, np.int64)
            R.fill_bytes(0xFF)
            rr = L.infiniopRandomSample(d, wp, n, R.ptr, P.ptr, *(cf(params[0]), cf(params[1]), ci(params[2]),
                                                                 cf(params[3])), None)
            note(f"rs logits {tag} rv={params[0]} (SPEC silent)",
                 f"status {sname(rr)}, result {int(R.get()) if rr == 0 else '-'}")
            if rr == 0:
                ck(f"rs logits {tag} rv={params[0]}: index in range", 0 <= int(R.get()) < 4, f"{int(R.get())}")
            destroy_op("rs", d)


@test("rs")
def t_rs_errors():
    h = handle()
    o = vp()
    CR = L.infiniopCreateRandomSampleDescriptor

    def mk(rl, pl, fn=CR):
        ts = [td(*l) for l in (rl, pl)]
        r = fn(h, C.byref(o), *ts)
        if r == 0:
            L.infiniopDestroyRandomSampleDescriptor(o)
        destroy_td(*ts)
        return r
    for idx in INT_DT:
        st(f"rs result dtype {idx} -> SUCCESS", mk(((), None, idx), ((10,), None, "F32")), SUCCESS)
    for dn in ("F32", "F16", "F64", "BF16", "BOOL", "BYTE", "F8", "C64"):
        st(f"rs result dtype {dn} -> BAD_TENSOR_DTYPE", mk(((), None, dn), ((10,), None, "F32")), BAD_TENSOR_DTYPE,
           spec="'`result`: 0-d, any integer dtype (I8..I64, U8..U64)'")
    for dn in INT_DT + ["BOOL", "BYTE", "F8", "C64"]:
        st(f"rs probs dtype {dn} -> BAD_TENSOR_DTYPE", mk(((), None, "I64"), ((10,), None, dn)), BAD_TENSOR_DTYPE,
           spec="'`probs`: ... dtype F16, BF16, F32, F64'")
    st("rs result 1-d (1,) -> BAD_TENSOR_SHAPE", mk(((1,), None, "I64"), ((10,), None, "F32")), BAD_TENSOR_SHAPE,
       spec="'`result`: 0-d'")
    st("rs probs 2-d (1,10) -> BAD_TENSOR_SHAPE", mk(((), None, "I64"), ((1, 10), None, "F32")), BAD_TENSOR_SHAPE,
       spec="'`probs`: 1-d of length n'")
    st("rs probs 0-d -> BAD_TENSOR_SHAPE", mk(((), None, "I64"), ((), None, "F32")), BAD_TENSOR_SHAPE)
    st("rs probs stride 2 -> BAD_TENSOR_STRIDES", mk(((), None, "I64"), ((10,), (2,), "F32")), BAD_TENSOR_STRIDES,
       spec="'`probs`: 1-d of length n, stride 1'")
    st("rs probs stride -1 -> BAD_TENSOR_STRIDES", mk(((), None, "I64"), ((10,), (-1,), "F32")),
       BAD_TENSOR_STRIDES)
    st("rs probs stride 0 -> BAD_TENSOR_STRIDES", mk(((), None, "I64"), ((10,), (0,), "F32")), BAD_TENSOR_STRIDES)
    r = mk(((), None, "I64"), ((1,), (5,), "F32"))
    note("rs probs n=1 with stride 5 (stride irrelevant for one element)", sname(r))
    r = mk(((), None, "I64"), ((0,), None, "F32"))
    note("rs probs n=0 (no index to return; SPEC silent)", sname(r))
    r = mk(((), None, "I8"), ((1000,), None, "F32"))
    note("rs result I8 with n=1000 (indices up to 999 do not fit; SPEC says 'any integer dtype')", sname(r))
    r = mk(((), None, "U8"), ((256,), None, "F32"))
    note("rs result U8 with n=256 (max index 255 fits)", sname(r))
    a, b = td((), None, "I64"), td((5,), None, "F32")
    st("rs NULL handle -> NULL_POINTER", CR(None, C.byref(o), a, b), NULL_POINTER)
    st("rs NULL desc_ptr -> NULL_POINTER", CR(h, None, a, b), NULL_POINTER)
    st("rs NULL result desc -> NULL_POINTER", CR(h, C.byref(o), None, b), NULL_POINTER)
    st("rs NULL probs desc -> NULL_POINTER", CR(h, C.byref(o), a, None), NULL_POINTER)
    destroy_td(a, b)
    st("DestroyRandomSampleDescriptor(NULL) -> NULL_POINTER", L.infiniopDestroyRandomSampleDescriptor(None),
       NULL_POINTER)


@test("rs")
def t_rs_runtime_checks():
    n = 1000
    lg = rng(2).standard_normal(n).astype(np.float32)
    s, d = create_from_layouts("rs", [((), None, "I64"), ((n,), None, "F32")])
    P = TBuf((n,), None, np.float32)
    P.set(lg)
    R = TBuf((), None, np.int64)
    extra = (cf(0.5), cf(0.9), ci(20), cf(1.0))
    ws_checks("rs F32 n=1000", "rs", d, [R], [P], extra)
    extra0 = (cf(0.0), cf(0.9), ci(20), cf(1.0))
    ws_checks("rs F32 n=1000 argmax path", "rs", d, [R], [P], extra0)
    m = ws_size("rs", d)
    g, wp = workspace(m)
    st("rs NULL result ptr -> NULL_POINTER", L.infiniopRandomSample(d, wp, m, None, P.ptr, *extra, None), NULL_POINTER)
    st("rs NULL probs ptr -> NULL_POINTER", L.infiniopRandomSample(d, wp, m, R.ptr, None, *extra, None), NULL_POINTER)
    st("rs NULL descriptor -> NULL_POINTER", L.infiniopRandomSample(None, wp, m, R.ptr, P.ptr, *extra, None),
       NULL_POINTER)
    on_each_stream("rs F32 n=1000 argmax",
                   lambda stream: L.infiniopRandomSample(d, wp, m, R.ptr, P.ptr, *extra0, stream),
                   lambda: R.fill_bytes(0xFF), lambda: int(R.get()) == int(np.argmax(lg)), lambda: f"{int(R.get())}")
    # the batch entry point on a single descriptor (SPEC silent)
    rv, tp, tk, te = (C.c_float * 1)(0.5), (C.c_float * 1)(0.9), (C.c_int * 1)(20), (C.c_float * 1)(1.0)
    r = L.infiniopRandomSampleBatch(d, wp, m, R.ptr, P.ptr, rv, tp, tk, te, 1, None)
    if NV:
        dsync()
    note(f"RandomSampleBatch called with a non-batch descriptor{' (NVIDIA)' if NV else ''}", sname(r))
    destroy_op("rs", d)


# ---- batch
def rsb_case(tag, dtn, idx, B, n, row_stride, params, res_stride=None, seed=0, delta=1e-4, flush="end"):
    r = rng(seed)
    s, d = create_from_layouts("rsb", [((B,), None if res_stride is None else (res_stride,), idx),
                                       ((B, n), (row_stride, 1), dtn)])
    if not st(f"{tag}: Create", s, SUCCESS):
        return
    P = TBuf((B, n), (row_stride, 1), NP[dtn], flush=flush)
    if P.buf is not None:
        P.buf.mem[:] = 0x7F if NP[dtn].itemsize == 1 else 0xFF  # padding between rows = NaN/garbage
    lg = round_to(r.standard_normal((B, n)) * 2, dtn)
    P.set(lg)
    R = TBuf((B,), None if res_stride is None else (res_stride,), NP[idx], flush=flush)
    rv = (C.c_float * B)(*[p[0] for p in params])
    tp = (C.c_float * B)(*[p[1] for p in params])
    tk = (C.c_int * B)(*[p[2] for p in params])
    te = (C.c_float * B)(*[p[3] for p in params])
    ok, r1, r2 = run_op(tag, "rsb", d, [R], [P], extra=(rv, tp, tk, te, ci(B)))
    if ok:
        ck(f"{tag}: deterministic", (r1[0] == r2[0]).all(), f"{r1[0]} vs {r2[0]}")
        for b in range(B):
            acc, how = rs_ref(lg[b].astype(np.float64), *params[b], delta=delta)
            if not ck(f"{tag}: row {b} uses its own parameters ({how})", int(r1[0][b]) in acc,
                      f"row {b} params {params[b]}: got {int(r1[0][b])}, expected {sorted(acc)[:6]}"):
                break
    destroy_op("rsb", d)
    return d


@test("rs_batch")
def t_rsb_numeric():
    prm = [(0.0, 0.9, 10, 1.0), (0.3, 0.9, 10, 1.0), (0.8, 1.0, 0, 0.7), (0.5, 0.0, 5, 1.0), (0.99, 0.5, 3, 2.0),
           (0.6, 1.0, 1, 1.0), (0.25, 3.0, -1, 1.5), (0.7, 0.8, 100, -1.0)]
    for dn in FLT_DT:
        for idx in ("I32", "I64", "U16", "U8"):
            rsb_case(f"rsb {dn} result {idx} B=8 n=64 contiguous", dn, idx, 8, 64, 64, prm, seed=DT[dn] + DT[idx])
        rsb_case(f"rsb {dn} B=8 n=50 row stride 77 (padding poisoned)", dn, "I64", 8, 50, 77, prm, seed=3)
        rsb_case(f"rsb {dn} B=3 n=5000", dn, "I64", 3, 5000, 5003, prm[1:4], seed=4)
    rsb_case("rsb F32 B=1", "F32", "I64", 1, 10, 10, prm[1:2])
    s, d = create_from_layouts("rsb", [((4,), (2,), "I64"), ((4, 10), None, "F32")])
    note("rsb result [B] with stride 2 (SPEC only says 'result is [B]')", sname(s))
    if s == 0:
        destroy_op("rsb", d)
        rsb_case("rsb F32 result stride 2", "F32", "I64", 4, 10, 10, prm[:4], res_stride=2)
    s, d = create_from_layouts("rsb", [((0,), None, "I64"), ((0, 10), None, "F32")])
    note("rsb B=0", sname(s))
    if s == 0:
        n = ws_size("rsb", d)
        g, wp = workspace(n)
        r = L.infiniopRandomSampleBatch(d, wp, n, None, None, None, None, None, None, 0, None)
        note("rsb B=0 calculate with NULL pointers", sname(r))
        destroy_op("rsb", d)


@test("rs_batch")
def t_rsb_errors():
    h = handle()
    o = vp()
    CB = L.infiniopCreateRandomSampleBatchDescriptor

    def mk(rl, pl):
        ts = [td(*l) for l in (rl, pl)]
        r = CB(h, C.byref(o), *ts)
        if r == 0:
            L.infiniopDestroyRandomSampleDescriptor(o)
        destroy_td(*ts)
        return r
    st("rsb probs row stride 9 < n=10 -> BAD_TENSOR_STRIDES", mk(((4,), None, "I64"), ((4, 10), (9, 1), "F32")),
       BAD_TENSOR_STRIDES, spec="'`probs` is [B, n] (row stride >= n, column stride 1)'")
    st("rsb probs row stride 0 -> BAD_TENSOR_STRIDES", mk(((4,), None, "I64"), ((4, 10), (0, 1), "F32")),
       BAD_TENSOR_STRIDES)
    st("rsb probs row stride -10 -> BAD_TENSOR_STRIDES", mk(((4,), None, "I64"), ((4, 10), (-10, 1), "F32")),
       BAD_TENSOR_STRIDES)
    st("rsb probs column stride 2 -> BAD_TENSOR_STRIDES", mk(((4,), None, "I64"), ((4, 10), (20, 2), "F32")),
       BAD_TENSOR_STRIDES)
    st("rsb probs transposed (1,4) -> BAD_TENSOR_STRIDES", mk(((4,), None, "I64"), ((4, 10), (1, 4), "F32")),
       BAD_TENSOR_STRIDES)
    st("rsb probs row stride 1000 >= n -> SUCCESS", mk(((4,), None, "I64"), ((4, 10), (1000, 1), "F32")), SUCCESS)
    st("rsb result B mismatch (3 vs 4) -> BAD_TENSOR_SHAPE", mk(((3,), None, "I64"), ((4, 10), None, "F32")),
       BAD_TENSOR_SHAPE)
    st("rsb result 0-d -> BAD_TENSOR_SHAPE", mk(((), None, "I64"), ((4, 10), None, "F32")), BAD_TENSOR_SHAPE,
       spec="'`result` is [B]'")
    st("rsb result 2-d (4,1) -> BAD_TENSOR_SHAPE", mk(((4, 1), None, "I64"), ((4, 10), None, "F32")),
       BAD_TENSOR_SHAPE)
    st("rsb probs 1-d -> BAD_TENSOR_SHAPE", mk(((4,), None, "I64"), ((10,), None, "F32")), BAD_TENSOR_SHAPE,
       spec="'`probs` is [B, n]'")
    st("rsb probs 3-d -> BAD_TENSOR_SHAPE", mk(((4,), None, "I64"), ((4, 1, 10), None, "F32")), BAD_TENSOR_SHAPE)
    st("rsb result F32 -> BAD_TENSOR_DTYPE", mk(((4,), None, "F32"), ((4, 10), None, "F32")), BAD_TENSOR_DTYPE)
    st("rsb probs I32 -> BAD_TENSOR_DTYPE", mk(((4,), None, "I64"), ((4, 10), None, "I32")), BAD_TENSOR_DTYPE)
    a, b = td((4,), None, "I64"), td((4, 10), None, "F32")
    st("rsb NULL handle -> NULL_POINTER", CB(None, C.byref(o), a, b), NULL_POINTER)
    st("rsb NULL desc_ptr -> NULL_POINTER", CB(h, None, a, b), NULL_POINTER)
    st("rsb NULL result desc -> NULL_POINTER", CB(h, C.byref(o), None, b), NULL_POINTER)
    st("rsb NULL probs desc -> NULL_POINTER", CB(h, C.byref(o), a, None), NULL_POINTER)
    r = CB(h, C.byref(o), a, b)
    destroy_td(a, b)
    d = o
    B, n = 4, 10
    P = TBuf((B, n), None, np.float32)
    P.set(rng(1).standard_normal((B, n)))
    R = TBuf((B,), None, np.int64)
    rv, tp = (C.c_float * B)(0.1, 0.2, 0.3, 0.4), (C.c_float * B)(0.9, 0.9, 0.9, 0.9)
    tk, te = (C.c_int * B)(5, 5, 5, 5), (C.c_float * B)(1, 1, 1, 1)
    extra = (rv, tp, tk, te, ci(B))
    ws_checks("rsb F32 (4,10)", "rsb", d, [R], [P], extra)
    m = ws_size("rsb", d)
    g, wp = workspace(m)
    RB = L.infiniopRandomSampleBatch
    for bs in (3, 5, 0, -1):
        st(f"rsb batch_size={bs} != B=4 -> BAD_PARAM", RB(d, wp, m, R.ptr, P.ptr, rv, tp, tk, te, bs, None),
           BAD_PARAM, spec="'host arrays of length `batch_size == B`'")
    for k, nm in enumerate(("random_val", "topp", "topk", "temperature")):
        arrs = [rv, tp, tk, te]
        arrs[k] = None
        st(f"rsb NULL {nm} array -> NULL_POINTER", RB(d, wp, m, R.ptr, P.ptr, *arrs, B, None), NULL_POINTER)
    st("rsb NULL result ptr -> NULL_POINTER", RB(d, wp, m, None, P.ptr, rv, tp, tk, te, B, None), NULL_POINTER)
    st("rsb NULL probs ptr -> NULL_POINTER", RB(d, wp, m, R.ptr, None, rv, tp, tk, te, B, None), NULL_POINTER)
    st("rsb NULL descriptor -> NULL_POINTER", RB(None, wp, m, R.ptr, P.ptr, rv, tp, tk, te, B, None), NULL_POINTER)
    r = L.infiniopRandomSample(d, wp, m, R.ptr, P.ptr, cf(0.5), cf(0.9), ci(5), cf(1.0), None)
    note("RandomSample (single) called with a batch descriptor", sname(r))
    destroy_op("rsb", d)


# --------------------------------------------------------------------------- group: threads (one descriptor, many threads)
@test("threads")
def t_threads():
    """one descriptor per operator, used by 8 threads at once, each with its own buffers (NVIDIA: its own
    stream too, synchronised after every iteration's four calls)"""
    nthr, iters = 8, (20 if NV else 100)
    shape = (64, 129)
    s, dm = create_from_layouts("mul", [(shape, None, "F32")] * 3)
    s2, dl = create_from_layouts("lpnorm", [(shape, None, "F32")] * 2, params=(ci(1), ci(2), cf(1e-12)))
    s3, dr = create_from_layouts("rs", [((), None, "I64"), ((5000,), None, "F32")])
    s4, dre = create_from_layouts("rearrange", [(shape, (1, 64), "F32"), (shape, None, "F32")])
    if not st("threads: Create the four descriptors", max(s, s2, s3, s4), SUCCESS):
        return
    wm, wl, wr = ws_size("mul", dm), ws_size("lpnorm", dl), ws_size("rs", dr)
    errors = []

    def worker(k):
        stream = vp()  # CPU: NULL, the default stream
        try:
            if NV:
                rt_check("infinirtSetDevice(NVIDIA, 0) in a worker thread", L.infinirtSetDevice(DEV["NVIDIA"], 0))
                rt_check("infinirtStreamCreate in a worker thread", L.infinirtStreamCreate(C.byref(stream)))
            r = rng(100 + k)
            a = r.standard_normal(shape).astype(np.float32)
            b = r.standard_normal(shape).astype(np.float32)
            lg = r.standard_normal(5000).astype(np.float32)
            A, Bb, LG = TBuf(shape, None, np.float32), TBuf(shape, None, np.float32), TBuf((5000,), None, np.float32)
            A.set(a)
            Bb.set(b)
            LG.set(lg)
            Cc, Y = TBuf(shape, None, np.float32), TBuf(shape, None, np.float32)
            T, RES = TBuf(shape, (1, 64), np.float32), TBuf((), None, np.int64)
            (g1, w1), (g2, w2), (g3, w3) = workspace(wm), workspace(wl), workspace(wr)
            ref_l = lp_ref(a, 1, 2, float(np.float32(1e-12)))
            am = int(np.argmax(lg))
            for it in range(iters):
                for o in (Cc, Y, T, RES):
                    o.fill_bytes(0xFF)  # NaN / -1: an element left unwritten fails
                e = [L.infiniopMul(dm, w1, wm, Cc.ptr, A.ptr, Bb.ptr, stream),
                     L.infiniopLPNorm(dl, w2, wl, Y.ptr, A.ptr, stream),
                     L.infiniopRandomSample(dr, w3, wr, RES.ptr, LG.ptr, cf(0.0), cf(0.9), ci(5), cf(1.0), stream),
                     L.infiniopRearrange(dre, T.ptr, A.ptr, stream)]
                if any(e):
                    errors.append(f"thread {k} iter {it}: statuses {e}")
                    return
                sy = L.infinirtStreamSynchronize(stream) if NV else SUCCESS
                if sy:
                    errors.append(f"thread {k} iter {it}: StreamSynchronize {sname(sy)}")
                    return
                if not (Cc.get() == a * b).all():
                    errors.append(f"thread {k} iter {it}: mul wrong")
                    return
                if not close(Y.get(), ref_l, "F32").all():
                    errors.append(f"thread {k} iter {it}: lpnorm wrong")
                    return
                if int(RES.get()) != am:
                    errors.append(f"thread {k} iter {it}: random sample wrong")
                    return
                if not (T.get() == a).all():
                    errors.append(f"thread {k} iter {it}: rearrange wrong")
                    return
        except Exception as ex:
            errors.append(f"thread {k}: {ex!r}")
        finally:
            if stream.value:
                L.infinirtStreamDestroy(stream)
    ths = [threading.Thread(target=worker, args=(k,)) for k in range(nthr)]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    ck(f"one descriptor per op used by {nthr} threads x {iters} iterations with distinct buffers"
       + (", each thread with its own stream and device buffers" if NV else ""), not errors, "; ".join(errors[:4]))
    destroy_op("mul", dm)
    destroy_op("lpnorm", dl)
    destroy_op("rs", dr)
    destroy_op("rearrange", dre)


# --------------------------------------------------------------------------- group: leaks (RSS based)
def rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE // 1024


class _MI2(C.Structure):
    _fields_ = [(f, C.c_size_t) for f in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                                          "uordblks", "fordblks", "keepcost")]


try:
    libc.mallinfo2.restype = _MI2
except AttributeError:  # pragma: no cover
    libc.mallinfo2 = None


def heap_bytes():
    return libc.mallinfo2().uordblks + libc.mallinfo2().hblkhd if libc.mallinfo2 else 0


def leak_loop(tag, fn, n):
    for _ in range(n // 5):
        fn()
    h0 = heap_bytes()
    for _ in range(n):
        fn()
    h1 = heap_bytes()
    ck(f"leak: {tag} x{n} (malloc in-use bytes grew {h1 - h0})", h1 - h0 < 8 * n // 10 + 65536,
       f"glibc mallinfo2 in-use bytes {h0} -> {h1} over {n} iterations (~{(h1 - h0) / n:.1f} B/iter); "
       f"SPEC: 'No input ... leaks'")
    r0 = rss_kb()
    for _ in range(n):
        fn()
    r1 = rss_kb()
    for _ in range(n):
        fn()
    r2 = rss_kb()
    grow = r2 - r1
    ck(f"leak: {tag} x{n} (RSS growth on 2nd batch {grow} kB)", grow < 2048,
       f"RSS {r0} -> {r1} -> {r2} kB; SPEC: 'No input ... leaks'")


def create_destroy(h, o, create, destroy, *args):
    """a create call that destroys what it made (for the leak loops)"""
    def g():
        if create(h, C.byref(o), *args) == 0:
            destroy(o)
    return g


def stream_event_cycle():
    s_, e_ = vp(), vp()
    L.infinirtStreamCreate(C.byref(s_))
    L.infinirtEventCreate(C.byref(e_))
    L.infinirtEventDestroy(e_)
    L.infinirtStreamDestroy(s_)


def handle_cycle():
    hh = vp()
    L.infiniopCreateHandle(C.byref(hh))
    L.infiniopDestroyHandle(hh)


def tensor_descriptor_cycle():
    s, d = mk_td((3, 4, 5, 6), (1, -3, 0, 60), "F32")
    L.infiniopDestroyTensorDescriptor(d)


def descriptor_leak_cases(h, n):
    """(tag, create/destroy loop, whether it succeeds) for every operator's descriptor, RandomSample's over n
    logits, and the descriptors to destroy after the loops (both leak tests)"""
    a4 = td((8, 16, 3, 5), None, "F32")
    p4 = td((8, 16, 3, 5), (1, 8, 128, 384), "F32")
    bad = td((8, 16, 3, 4), None, "F32")
    f16 = td((8, 16, 3, 5), None, "F16")
    ri, pr = td((), None, "I64"), td((n,), None, "F32")
    rb, pb = td((4,), None, "I64"), td((4, n), None, "F32")
    pbad = td((1000,), (2,), "F32")
    o = vp()

    def mk(create, destroy, *args):
        return create_destroy(h, o, create, destroy, *args)
    cases = [
        ("rearrange create/destroy", mk(L.infiniopCreateRearrangeDescriptor, L.infiniopDestroyRearrangeDescriptor,
                                        p4, a4), True),
        ("rearrange create error path", mk(L.infiniopCreateRearrangeDescriptor, L.infiniopDestroyRearrangeDescriptor,
                                           a4, bad), False),
        ("mul create/destroy", mk(L.infiniopCreateMulDescriptor, L.infiniopDestroyMulDescriptor, a4, p4, a4), True),
        ("mul create error path (dtype)", mk(L.infiniopCreateMulDescriptor, L.infiniopDestroyMulDescriptor,
                                             a4, f16, a4), False),
        ("lpnorm create/destroy", mk(L.infiniopCreateLPNormDescriptor, L.infiniopDestroyLPNormDescriptor,
                                     a4, p4, 1, 2, cf(1e-6)), True),
        ("lpnorm create error path (axis)", mk(L.infiniopCreateLPNormDescriptor, L.infiniopDestroyLPNormDescriptor,
                                               a4, p4, 9, 2, cf(1e-6)), False),
        (f"random sample create/destroy (n={n})", mk(L.infiniopCreateRandomSampleDescriptor,
                                                     L.infiniopDestroyRandomSampleDescriptor, ri, pr), True),
        ("random sample create error path", mk(L.infiniopCreateRandomSampleDescriptor,
                                               L.infiniopDestroyRandomSampleDescriptor, ri, pbad), False),
        (f"random sample batch create/destroy (4 x {n})", mk(L.infiniopCreateRandomSampleBatchDescriptor,
                                                             L.infiniopDestroyRandomSampleDescriptor, rb, pb), True),
    ]
    return cases, (a4, p4, bad, f16, ri, pr, rb, pb, pbad)


@test("leaks")
def t_leaks():
    """the host heap (glibc's in-use bytes, then RSS) over create/destroy and calculate loops; NVIDIA: device
    memory in use as well (dev_leak_loop), and RandomSample's descriptors over a vocabulary's logits"""
    h = handle()
    on = " (NVIDIA)" if NV else ""
    leak_loop("tensor descriptor create/destroy", tensor_descriptor_cycle, 20000)
    leak_loop("handle create/destroy" + on, handle_cycle, 5000 if NV else 20000)
    if NV:
        dev_leak_loop("handle create/destroy" + on, handle_cycle, 2000)
    cases, tds = descriptor_leak_cases(h, 151936 if NV else 1000)
    if NV:
        big = td((32, 1 << 20), None, "BF16")
        tds = (*tds, big)
        cases.append(("lpnorm create/destroy (32 x 1M BF16)",
                      create_destroy(h, vp(), L.infiniopCreateLPNormDescriptor, L.infiniopDestroyLPNormDescriptor, big,
                                     big, 1, 2, cf(1e-6)), True))
    for tag, fn, ok_path in cases:
        leak_loop(tag, fn, (2000 if NV else 5000) if ok_path else 20000)
        if NV and ok_path:
            dev_leak_loop(tag, fn, 2000)
    # a calculate loop (NVIDIA: on a created stream)
    shape = (8, 16, 3, 5)
    s, d = create_from_layouts("mul", [(shape, None, "F32")] * 3)
    X = TBuf(shape, None, np.float32)
    X.set(1)
    wsn = ws_size("mul", d)
    g, wp = workspace(wsn)
    stream = nv_stream() if NV else None
    leak_loop("mul calculate" + (" (NVIDIA, created stream)" if NV else ""),
              lambda: L.infiniopMul(d, wp, wsn, X.ptr, X.ptr, X.ptr, stream), 20000)
    if NV:
        st("mul calculate loop: StreamSynchronize", nv_wait(stream), SUCCESS)
    destroy_op("mul", d)
    leak_loop("runtime stream/event create/destroy" + on, stream_event_cycle, 5000 if NV else 20000)
    if NV:
        dev_leak_loop("runtime stream/event create/destroy" + on, stream_event_cycle, 2000)

        def mf():
            p = vp()
            if L.infinirtMalloc(C.byref(p), 4096) == 0:
                L.infinirtFree(p)
        dev_leak_loop("infinirtMalloc/Free 4096 B", mf, 5000, limit=2 << 20)
    destroy_td(*tds)


# =========================================================================== NVIDIA mode (AUDIT_DEVICE=nvidia)
# Registered only in NVIDIA mode. The shared tests above run there too, on device buffers (DevBuf), and
# the operators' runtime checks on NVIDIA's streams (consumer_streams); these replace the CPU-only ones
# (the no-GPU runtime rules, host pointers) and add larger cases for the GPU's fast paths.
def dsync():
    with on_nvidia():
        return L.infinirtDeviceSynchronize()


def to_dev(host, nbytes):
    """H2D copy of a host array's first nbytes into a fresh DevBuf (flush start); returns the DevBuf"""
    g = DevBuf(nbytes, "start")
    g.mem[:] = np.ascontiguousarray(host).reshape(-1).view(np.uint8)[:nbytes]
    g.push()
    return g


@test("runtime", only="nvidia")
def t_rt_nv_device_count():
    st("infinirtInit -> SUCCESS", L.infinirtInit(), SUCCESS)
    c = ci(-7)
    st("GetDeviceCount(NVIDIA) -> SUCCESS", L.infinirtGetDeviceCount(DEV["NVIDIA"], C.byref(c)), SUCCESS)
    ck("GetDeviceCount(NVIDIA) >= 1 on a machine with a GPU", c.value >= 1, f"count={c.value}")
    note("NVIDIA device count value", f"{c.value}")
    c = ci(-7)
    st("GetDeviceCount(CPU) -> SUCCESS", L.infinirtGetDeviceCount(DEV["CPU"], C.byref(c)), SUCCESS)
    ck("CPU device count >= 1", c.value >= 1, f"count={c.value}")
    for name in ["CAMBRICON", "ASCEND", "METAX", "MOORE", "ILUVATAR", "KUNLUN", "HYGON", "QY", "ALI"]:
        c = ci(-7)
        st(f"GetDeviceCount({name}) -> DEVICE_TYPE_NOT_SUPPORTED",
           L.infinirtGetDeviceCount(DEV[name], C.byref(c)), DEVICE_TYPE_NOT_SUPPORTED,
           spec="'every other value gets DEVICE_TYPE_NOT_SUPPORTED'")
    st("GetDeviceCount(NVIDIA, NULL) -> NULL_POINTER", L.infinirtGetDeviceCount(DEV["NVIDIA"], None),
       NULL_POINTER, strict=False)


@test("runtime", only="nvidia")
def t_rt_nv_set_device():
    L.infinirtInit()
    n = ci(0)
    L.infinirtGetDeviceCount(DEV["NVIDIA"], C.byref(n))
    d, i = ci(-7), ci(-7)
    st("SetDevice(NVIDIA,0) -> SUCCESS", L.infinirtSetDevice(DEV["NVIDIA"], 0), SUCCESS)
    st("GetDevice -> SUCCESS", L.infinirtGetDevice(C.byref(d), C.byref(i)), SUCCESS)
    ck("current device is (NVIDIA,0) after SetDevice(NVIDIA,0)", (d.value, i.value) == (1, 0),
       f"got {(d.value, i.value)}")
    st("DeviceSynchronize with (NVIDIA,0) current", L.infinirtDeviceSynchronize(), SUCCESS)
    st(f"SetDevice(NVIDIA,{n.value}) (id == count) -> DEVICE_NOT_FOUND", L.infinirtSetDevice(DEV["NVIDIA"], n.value),
       DEVICE_NOT_FOUND, strict=False)
    st("SetDevice(NVIDIA,-1) -> DEVICE_NOT_FOUND/BAD_PARAM", L.infinirtSetDevice(DEV["NVIDIA"], -1),
       {DEVICE_NOT_FOUND, BAD_PARAM}, strict=False)
    st("SetDevice(ASCEND,0) -> DEVICE_TYPE_NOT_SUPPORTED", L.infinirtSetDevice(DEV["ASCEND"], 0),
       DEVICE_TYPE_NOT_SUPPORTED)
    L.infinirtGetDevice(C.byref(d), C.byref(i))
    ck("failed SetDevice calls leave the current device (NVIDIA,0)", (d.value, i.value) == (1, 0),
       f"got {(d.value, i.value)}")
    res = {}

    def th():
        a, b = ci(-7), ci(-7)
        res["s0"] = L.infinirtGetDevice(C.byref(a), C.byref(b))
        res["v0"] = (a.value, b.value)
        res["s1"] = L.infinirtSetDevice(DEV["NVIDIA"], 0)
        L.infinirtGetDevice(C.byref(a), C.byref(b))
        res["v1"] = (a.value, b.value)
        res["s2"] = L.infinirtSetDevice(DEV["CPU"], 0)
    t = threading.Thread(target=th)
    t.start()
    t.join()
    ck("a new thread starts at (CPU,0) while the main thread is on (NVIDIA,0) ('per calling thread')",
       res.get("s0") == 0 and res.get("v0") == (0, 0), str(res))
    ck("SetDevice(NVIDIA,0) works in another thread", res.get("s1") == 0 and res.get("v1") == (1, 0), str(res))
    L.infinirtGetDevice(C.byref(d), C.byref(i))
    ck("another thread's SetDevice(CPU,0) leaves this thread on (NVIDIA,0)", (d.value, i.value) == (1, 0),
       f"got {(d.value, i.value)}")
    st("SetDevice(CPU,0) -> SUCCESS", L.infinirtSetDevice(DEV["CPU"], 0), SUCCESS)
    L.infinirtGetDevice(C.byref(d), C.byref(i))
    ck("current device is (CPU,0) after SetDevice(CPU,0)", (d.value, i.value) == (0, 0), f"got {(d.value, i.value)}")
    for k in range(n.value):
        st(f"SetDevice(NVIDIA,{k}) -> SUCCESS", L.infinirtSetDevice(DEV["NVIDIA"], k), SUCCESS)
    st("SetDevice(NVIDIA,0) again -> SUCCESS", L.infinirtSetDevice(DEV["NVIDIA"], 0), SUCCESS)


@test("runtime", only="nvidia")
def t_rt_nv_memory():
    L.infinirtInit()
    ensure_device()
    r = rng(1)
    p = vp()
    s = L.infinirtMalloc(C.byref(p), 4096)
    st("Malloc(&p, 4096) on NVIDIA -> SUCCESS", s, SUCCESS)
    ck("Malloc returns non-NULL", bool(p.value))
    if s == 0 and p.value:
        src = r.integers(0, 256, 4096, dtype=np.uint8)
        back = np.zeros(4096, np.uint8)
        r1 = L.infinirtMemcpy(p, src.ctypes.data, 4096, MEMCPY_H2D)
        L.infinirtDeviceSynchronize()
        r2 = L.infinirtMemcpy(back.ctypes.data, p, 4096, MEMCPY_D2H)
        ck("Malloc'd memory keeps data (Memcpy H2D then D2H)", r1 == 0 and r2 == 0 and (back == src).all(),
           f"H2D {sname(r1)}, D2H {sname(r2)}")
        st("Free(p) -> SUCCESS", L.infinirtFree(p), SUCCESS)
    st("Malloc(NULL, 16) -> NULL_POINTER", L.infinirtMalloc(None, 16), NULL_POINTER, strict=False)
    p0 = vp(1234)
    s = L.infinirtMalloc(C.byref(p0), 0)
    note("Malloc(&p, 0) on NVIDIA", f"status {sname(s)}, p={p0.value!r}")
    if s == 0 and p0.value and p0.value != 1234:
        L.infinirtFree(p0)
    note("Free(NULL) on NVIDIA", f"status {sname(L.infinirtFree(None))}")
    big = 1 << 30
    pb = vp()
    s = L.infinirtMalloc(C.byref(pb), big)
    st("Malloc(&p, 1 GiB) on NVIDIA -> SUCCESS", s, SUCCESS)
    if s == 0 and pb.value:
        src = r.integers(0, 256, 4096, dtype=np.uint8)
        ok = True
        for off in (0, big // 2 + 123, big - 4096):
            back = np.zeros(4096, np.uint8)
            r1 = L.infinirtMemcpy(pb.value + off, src.ctypes.data, 4096, MEMCPY_H2D)
            L.infinirtDeviceSynchronize()
            r2 = L.infinirtMemcpy(back.ctypes.data, pb.value + off, 4096, MEMCPY_D2H)
            ok = ok and r1 == 0 and r2 == 0 and bool((back == src).all())
        ck("1 GiB allocation usable at its start, middle and end", ok)
        st("Free(1 GiB) -> SUCCESS", L.infinirtFree(pb), SUCCESS)
    ph = vp()
    s = L.infinirtMalloc(C.byref(ph), 1 << 62)
    st("Malloc(&p, 2^62) on NVIDIA fails cleanly", s, set(range(1, 14)), spec="'No input crashes the process'")
    note("Malloc(&p, 2^62) on NVIDIA status", sname(s))
    if s == 0 and ph.value:
        L.infinirtFree(ph)
    # pinned host memory
    nb = 1 << 20
    q = vp()
    s = L.infinirtMallocHost(C.byref(q), nb)
    st("MallocHost(&p, 1 MiB) with (NVIDIA,0) current -> SUCCESS", s, SUCCESS)
    ck("MallocHost returns non-NULL", bool(q.value))
    if s == 0 and q.value:
        hb = np.ctypeslib.as_array((C.c_uint8 * nb).from_address(q.value))
        pat = r.integers(0, 256, nb, dtype=np.uint8)
        hb[:] = pat
        ck("MallocHost memory usable from host", (hb == pat).all())
        dp = vp()
        s1 = L.infinirtMalloc(C.byref(dp), nb)
        if s1 == 0:
            r1 = L.infinirtMemcpy(dp, q, nb, MEMCPY_H2D)
            L.infinirtDeviceSynchronize()
            hb[:] = 0
            r2 = L.infinirtMemcpy(q, dp, nb, MEMCPY_D2H)
            ck("MallocHost memory as Memcpy H2D source and D2H destination", r1 == 0 and r2 == 0 and
               (hb == pat).all(), f"H2D {sname(r1)}, D2H {sname(r2)}")
            L.infinirtFree(dp)
        del hb
        st("FreeHost(p) -> SUCCESS", L.infinirtFreeHost(q), SUCCESS)
    st("MallocHost(NULL, 16) -> NULL_POINTER", L.infinirtMallocHost(None, 16), NULL_POINTER, strict=False)
    p0 = vp(1234)
    s = L.infinirtMallocHost(C.byref(p0), 0)
    note("MallocHost(&p, 0) on NVIDIA", f"status {sname(s)}, p={p0.value!r}")
    if s == 0 and p0.value and p0.value != 1234:
        L.infinirtFreeHost(p0)
    note("FreeHost(NULL) on NVIDIA", f"status {sname(L.infinirtFreeHost(None))}")
    ph = vp()
    s = L.infinirtMallocHost(C.byref(ph), 1 << 62)
    st("MallocHost(&p, 2^62) on NVIDIA fails cleanly", s, set(range(1, 14)), spec="'No input crashes the process'")
    if s == 0 and ph.value:
        L.infinirtFreeHost(ph)


@test("runtime", only="nvidia")
def t_rt_nv_memcpy_memset():
    L.infinirtInit()
    ensure_device()
    r = rng(2)
    stream = vp()
    rt_check("infinirtStreamCreate", L.infinirtStreamCreate(C.byref(stream)))
    for nb in (1000, 10_000_019):
        src = r.integers(0, 256, nb, dtype=np.uint8)
        A, B = DevBuf(nb, "start"), DevBuf(nb, "end")
        s1 = L.infinirtMemcpy(A.ptr, src.ctypes.data, nb, MEMCPY_H2D)
        L.infinirtDeviceSynchronize()
        s2 = L.infinirtMemcpy(B.ptr, A.ptr, nb, MEMCPY_D2D)
        L.infinirtDeviceSynchronize()
        dst = np.zeros(nb, np.uint8)
        s3 = L.infinirtMemcpy(dst.ctypes.data, B.ptr, nb, MEMCPY_D2H)
        st(f"Memcpy H2D {nb} B", s1, SUCCESS)
        st(f"Memcpy D2D {nb} B", s2, SUCCESS)
        st(f"Memcpy D2H {nb} B", s3, SUCCESS)
        ck(f"Memcpy H2D -> D2D -> D2H round trip {nb} B", (dst == src).all())
        ck(f"Memcpy writes exactly size bytes ({nb} B; device slack untouched)", A.slack_ok() and B.slack_ok())
        dst2 = np.zeros(nb, np.uint8)
        st(f"Memcpy H2H {nb} B with (NVIDIA,0) current", L.infinirtMemcpy(dst2.ctypes.data, src.ctypes.data, nb,
                                                                          MEMCPY_H2H), SUCCESS)
        ck(f"Memcpy H2H {nb} B copies", (dst2 == src).all())
        # MemcpyAsync on a created stream, pinned host memory
        hs, hd = vp(), vp()
        if L.infinirtMallocHost(C.byref(hs), nb) == 0 and L.infinirtMallocHost(C.byref(hd), nb) == 0:
            hsa = np.ctypeslib.as_array((C.c_uint8 * nb).from_address(hs.value))
            hda = np.ctypeslib.as_array((C.c_uint8 * nb).from_address(hd.value))
            src2 = r.integers(0, 256, nb, dtype=np.uint8)
            hsa[:] = src2
            hda[:] = 0
            a1 = L.infinirtMemcpyAsync(A.ptr, hs, nb, MEMCPY_H2D, stream)
            a2 = L.infinirtMemcpyAsync(B.ptr, A.ptr, nb, MEMCPY_D2D, stream)
            a3 = L.infinirtMemcpyAsync(hd, B.ptr, nb, MEMCPY_D2H, stream)
            a4 = L.infinirtStreamSynchronize(stream)
            ck(f"MemcpyAsync H2D/D2D/D2H {nb} B on a created stream + StreamSynchronize -> SUCCESS",
               max(a1, a2, a3, a4) == 0 and min(a1, a2, a3, a4) == 0,
               f"statuses {sname(a1)} {sname(a2)} {sname(a3)} {sname(a4)}")
            ck(f"MemcpyAsync round trip on a created stream ({nb} B, pinned host memory)", (hda == src2).all())
            hda[:] = 0
            a5 = L.infinirtMemcpyAsync(hd, hs, nb, MEMCPY_H2H, stream)
            L.infinirtStreamSynchronize(stream)
            st(f"MemcpyAsync H2H {nb} B on a created stream", a5, SUCCESS)
            ck(f"MemcpyAsync H2H {nb} B copies", (hda == src2).all())
            # NULL (default) stream, pageable host memory
            dst3 = np.zeros(nb, np.uint8)
            b1 = L.infinirtMemcpyAsync(A.ptr, src.ctypes.data, nb, MEMCPY_H2D, None)
            b2 = L.infinirtMemcpyAsync(B.ptr, A.ptr, nb, MEMCPY_D2D, None)
            b3 = L.infinirtMemcpyAsync(dst3.ctypes.data, B.ptr, nb, MEMCPY_D2H, None)
            b4 = L.infinirtDeviceSynchronize()
            ck(f"MemcpyAsync H2D/D2D/D2H {nb} B on the NULL stream (pageable host memory) -> SUCCESS",
               (b1, b2, b3, b4) == (0, 0, 0, 0), f"statuses {sname(b1)} {sname(b2)} {sname(b3)} {sname(b4)}")
            ck(f"MemcpyAsync round trip on the NULL stream ({nb} B)", (dst3 == src).all())
            del hsa, hda
        else:
            emit("FAIL", f"MallocHost({nb}) for the MemcpyAsync checks", "failed")
        if hs.value:
            L.infinirtFreeHost(hs)
        if hd.value:
            L.infinirtFreeHost(hd)
    A = DevBuf(64, "start")
    src = np.arange(64, dtype=np.uint8)
    note("Memcpy(dev, host, 0, H2D) (size 0)", sname(L.infinirtMemcpy(A.ptr, src.ctypes.data, 0, MEMCPY_H2D)))
    for bad in (4, -1, 99):
        st(f"Memcpy D2D-pointers kind={bad} -> BAD_PARAM", L.infinirtMemcpy(A.ptr, A.ptr + 32, 8, bad), BAD_PARAM,
           strict=False)
    L.infinirtDeviceSynchronize()
    st("Memcpy(NULL dst, host, 8, H2D) -> NULL_POINTER", L.infinirtMemcpy(None, src.ctypes.data, 8, MEMCPY_H2D),
       NULL_POINTER, strict=False)
    st("Memcpy(dev, NULL src, 8, D2D) -> NULL_POINTER", L.infinirtMemcpy(A.ptr, None, 8, MEMCPY_D2D),
       NULL_POINTER, strict=False)
    # Memset on device memory
    M = DevBuf(100, "start")
    M.mem[:] = 0
    M.push()
    s = L.infinirtMemset(M.ptr, 0x3C, 64)
    st("Memset on device memory (64 of 100 bytes)", s, SUCCESS)
    M.sync()
    ck("Memset on device sets count bytes to value, leaves the rest (and the slack)",
       (M.mem[:64] == 0x3C).all() and (M.mem[64:] == 0).all() and M.slack_ok(), f"{M.mem[:8]} {M.mem[60:68]}")
    L.infinirtMemset(M.ptr, 0x1FF, 10)
    M.sync()
    ck("Memset on device value 0x1FF -> byte 0xFF", (M.mem[:10] == 0xFF).all(), f"{M.mem[:10]}")
    st("Memset(NULL, 0, 8) -> NULL_POINTER", L.infinirtMemset(None, 0, 8), NULL_POINTER, strict=False)
    L.infinirtStreamDestroy(stream)


@test("runtime", only="nvidia")
def t_rt_nv_streams_events():
    L.infinirtInit()
    ensure_device()
    s = vp()
    st("StreamCreate on NVIDIA", L.infinirtStreamCreate(C.byref(s)), SUCCESS)
    ck("StreamCreate on NVIDIA returns a non-NULL stream", bool(s.value), f"stream={s.value!r}")
    st("StreamSynchronize(created)", L.infinirtStreamSynchronize(s), SUCCESS)
    st("StreamSynchronize(NULL) (default stream)", L.infinirtStreamSynchronize(None), SUCCESS, strict=False)
    st("StreamCreate(NULL) -> NULL_POINTER", L.infinirtStreamCreate(None), NULL_POINTER, strict=False)
    more = [vp() for _ in range(4)]
    ok = all(L.infinirtStreamCreate(C.byref(x)) == 0 for x in more)
    ck("4 more streams: distinct handles", ok and len({x.value for x in more + [s]}) == 5)
    ck("4 more streams destroyed", all(L.infinirtStreamDestroy(x) == 0 for x in more if x.value))
    e1, e2, e3, e4 = vp(), vp(), vp(), vp()
    rs_ = [L.infinirtEventCreate(C.byref(e)) for e in (e1, e2, e3, e4)]
    ck("EventCreate x4 on NVIDIA -> SUCCESS", rs_ == [0, 0, 0, 0], str([sname(x) for x in rs_]))
    st("EventCreate(NULL) -> NULL_POINTER", L.infinirtEventCreate(None), NULL_POINTER, strict=False)
    nb = 256 << 20
    a, b = vp(), vp()
    if rs_ == [0, 0, 0, 0] and L.infinirtMalloc(C.byref(a), nb) == 0 and L.infinirtMalloc(C.byref(b), nb) == 0:
        fill = np.full(nb, 0x5C, np.uint8)
        zero = np.zeros(nb, np.uint8)
        rt_check("infinirtMemcpy H2D 256 MiB", L.infinirtMemcpy(a, fill.ctypes.data, nb, MEMCPY_H2D))
        L.infinirtDeviceSynchronize()
        st("EventRecord(e1, created stream)", L.infinirtEventRecord(e1, s), SUCCESS)
        cs = [L.infinirtMemcpyAsync(b, a, nb, MEMCPY_D2D, s) for _ in range(4)]
        ck("MemcpyAsync D2D 4 x 256 MiB on the stream -> SUCCESS", cs == [0, 0, 0, 0], str([sname(x) for x in cs]))
        st("EventRecord(e2, created stream)", L.infinirtEventRecord(e2, s), SUCCESS)
        st("EventSynchronize(e2)", L.infinirtEventSynchronize(e2), SUCCESS)
        ms = cf(-1.0)
        r = L.infinirtEventElapsedTime(C.byref(ms), e1, e2)
        st("EventElapsedTime(e1, e2)", r, SUCCESS)
        ck("EventElapsedTime > 0 and finite for 1 GiB of device copies", r != 0 or (math.isfinite(ms.value) and
                                                                                   ms.value > 0), f"ms={ms.value}")
        note("EventElapsedTime for 4 x 256 MiB D2D copies", f"{ms.value:.4f} ms (status {sname(r)})")
        # EventSynchronize must wait for the work recorded before the event
        h = vp()
        if L.infinirtMallocHost(C.byref(h), 4096) == 0:
            ha = np.ctypeslib.as_array((C.c_uint8 * 4096).from_address(h.value))
            ha[:] = 0
            rt_check("infinirtMemcpy H2D 256 MiB", L.infinirtMemcpy(b, zero.ctypes.data, nb, MEMCPY_H2D))
            L.infinirtDeviceSynchronize()
            L.infinirtMemcpyAsync(b, a, nb, MEMCPY_D2D, s)
            L.infinirtMemcpyAsync(h, b.value + nb - 4096, 4096, MEMCPY_D2H, s)
            L.infinirtEventRecord(e3, s)
            st("EventSynchronize(e3) after D2D + D2H on the stream", L.infinirtEventSynchronize(e3), SUCCESS)
            ck("EventSynchronize waited for the work recorded before it", (ha == 0x5C).all(), f"{ha[:8]}")
            del ha
            L.infinirtFreeHost(h)
        st("EventRecord(e4, NULL stream)", L.infinirtEventRecord(e4, None), SUCCESS)
        st("EventSynchronize(e4)", L.infinirtEventSynchronize(e4), SUCCESS)
        ms = cf(-1.0)
        r = L.infinirtEventElapsedTime(C.byref(ms), e3, e4)
        st("EventElapsedTime(e3 on the stream, e4 on the NULL stream)", r, SUCCESS, strict=False)
        ck("EventElapsedTime(e3, e4) >= 0", r != 0 or ms.value >= 0, f"ms={ms.value}")
        st("EventElapsedTime(NULL ms) -> NULL_POINTER", L.infinirtEventElapsedTime(None, e1, e2), NULL_POINTER,
           strict=False)
    else:
        emit("FAIL", "events / 256 MiB device buffers for the event checks", "EventCreate or Malloc failed")
    for x in (a, b):
        if x.value:
            L.infinirtFree(x)
    for k, e in enumerate((e1, e2, e3, e4)):
        if e.value:
            st(f"EventDestroy(e{k + 1})", L.infinirtEventDestroy(e), SUCCESS)
    st("StreamDestroy", L.infinirtStreamDestroy(s), SUCCESS)


# ---- handle
@test("handle", only="nvidia")
def t_handle_nv():
    ensure_device()
    h = vp()
    st("CreateHandle with (NVIDIA,0) current", L.infiniopCreateHandle(C.byref(h)), SUCCESS)
    ck("CreateHandle returns non-NULL", bool(h.value))
    st("CreateHandle(NULL) -> NULL_POINTER", L.infiniopCreateHandle(None), NULL_POINTER)

    def null_queries(kind, dd):
        if kind == "rearrange":
            st("GetDescriptorDeviceType(desc, NULL) -> NULL_POINTER", L.infiniopGetDescriptorDeviceType(dd, None),
               NULL_POINTER)
            st("GetDescriptorDeviceId(desc, NULL) -> NULL_POINTER", L.infiniopGetDescriptorDeviceId(dd, None),
               NULL_POINTER)
    check_descriptor_devices(h, small_descriptors(), "on the NVIDIA handle", "NVIDIA", extra=null_queries)
    # the handle binds the device current when it was created
    st("SetDevice(CPU,0)", L.infinirtSetDevice(DEV["CPU"], 0), SUCCESS)
    hc = vp()
    st("CreateHandle with (CPU,0) current (same process)", L.infiniopCreateHandle(C.byref(hc)), SUCCESS)
    a = td((4,), None, "F32")
    d1, d2 = vp(), vp()
    r1 = L.infiniopCreateRearrangeDescriptor(h, C.byref(d1), a, a)
    r2 = L.infiniopCreateRearrangeDescriptor(hc, C.byref(d2), a, a)
    destroy_td(a)
    dev, did = ci(-7), ci(-7)
    if st("create from the NVIDIA handle while the thread is on CPU", r1, SUCCESS):
        L.infiniopGetDescriptorDeviceType(d1, C.byref(dev))
        L.infiniopGetDescriptorDeviceId(d1, C.byref(did))
        ck("... its descriptor still reports (NVIDIA,0) ('binds the thread's current device' at CreateHandle)",
           (dev.value, did.value) == (1, 0), f"{(dev.value, did.value)}")
        L.infiniopDestroyRearrangeDescriptor(d1)
    if st("create from the CPU handle", r2, SUCCESS):
        L.infiniopGetDescriptorDeviceType(d2, C.byref(dev))
        L.infiniopGetDescriptorDeviceId(d2, C.byref(did))
        ck("... its descriptor reports (CPU,0)", (dev.value, did.value) == (0, 0), f"{(dev.value, did.value)}")
        L.infiniopDestroyRearrangeDescriptor(d2)
    if hc.value:
        L.infiniopDestroyHandle(hc)
    ensure_device()
    st("DestroyHandle(NVIDIA handle)", L.infiniopDestroyHandle(h), SUCCESS)
    st("DestroyHandle(NULL) -> NULL_POINTER", L.infiniopDestroyHandle(None), NULL_POINTER)


@test("handle", only="nvidia")
def t_handle_nv_calc_on_cpu_thread():
    """(ambiguous) a calculation on an NVIDIA descriptor while the calling thread's current device is CPU"""
    s, d = create_from_layouts("mul", [((1000,), None, "F32")] * 3)
    if not st("mul F32 (1000,) on NVIDIA: Create", s, SUCCESS):
        return
    A, Cb = TBuf((1000,), None, np.float32), TBuf((1000,), None, np.float32)
    A.set(np.arange(1000))
    Cb.fill_bytes(0xFF)
    n = ws_size("mul", d)
    g, wp = workspace(n)
    L.infinirtSetDevice(DEV["CPU"], 0)
    r = L.infiniopMul(d, wp, n, Cb.ptr, A.ptr, A.ptr, None)
    ensure_device()
    L.infinirtDeviceSynchronize()
    note("Mul on an NVIDIA descriptor called while the thread's current device is (CPU,0)",
         f"status {sname(r)}, correct={bool((Cb.get() == np.arange(1000.0) ** 2).all())}")
    destroy_op("mul", d)


@test("handle", only="nvidia")
def t_handle_lifetime_nv():
    """(ambiguous) op descriptor used after its handle was destroyed"""
    ensure_device()
    h = vp()
    L.infiniopCreateHandle(C.byref(h))
    a = td((8,), None, "F32")
    d = vp()
    r = L.infiniopCreateMulDescriptor(h, C.byref(d), a, a, a)
    destroy_td(a)
    if r != 0:
        emit("FAIL", "mul create on a fresh NVIDIA handle", sname(r))
        return
    n = ws_size("mul", d)
    L.infiniopDestroyHandle(h)
    X, Y = TBuf((8,), None, np.float32), TBuf((8,), None, np.float32)
    X.set(np.arange(8))
    Y.fill_bytes(0xFF)
    g, wp = workspace(n)
    r = L.infiniopMul(d, wp, n, Y.ptr, X.ptr, X.ptr, None)
    dsync()
    note("Mul with a descriptor whose handle was already destroyed (NVIDIA)",
         f"status {sname(r)}, correct={bool((Y.get() == np.arange(8.0) ** 2).all())}")
    L.infiniopDestroyMulDescriptor(d)


# ---- the streams of NVIDIA mode's runtime checks (consumer_streams)
def nv_streams():
    return (("created stream", nv_stream()), ("NULL stream", None))


def nv_wait(stream):
    with on_nvidia():
        return L.infinirtStreamSynchronize(stream) if stream is not None else L.infinirtDeviceSynchronize()


# ---- larger cases: the GPU's fast paths
@test("rearrange", only="nvidia")
def t_rearrange_large_nv():
    R = rearrange_case
    R("rearrange F16 transpose 1031x1029 (dst column-major)", "F16", (1031, 1029), (1, 1031), None, seed=1)
    R("rearrange F16 transpose 1031x1029 (src column-major, aligned)", "F16", (1031, 1029), None, (1, 1031), seed=2,
      flush="start")
    R("rearrange I8 transpose 1031x1029", "I8", (1031, 1029), (1, 1031), None, seed=3)
    R("rearrange C64 transpose 777x555", "C64", (777, 555), (1, 777), None, seed=4)
    R("rearrange F16 transpose 4096x4096", "F16", (4096, 4096), (1, 4096), None, seed=5, flush="start")
    R("rearrange F32 4096x4096 row-major copy", "F32", (4096, 4096), None, None, seed=6, flush="start")
    R("rearrange F16 4096x4096 src rows reversed (negative stride)", "F16", (4096, 4096), None, (-4096, 1), seed=7)
    R("rearrange BF16 3-d permute (96,128,64) dst memory order (2,0,1)", "BF16", (96, 128, 64),
      perm_strides((96, 128, 64), (2, 0, 1)), None, seed=8)
    R("rearrange F64 transpose (1000,513) with dst gaps (strides (1,1003))", "F64", (1000, 513), (1, 1003), None,
      seed=9)
    R("rearrange F32 interleaved non-overlapping dst (500,2) strides (2,1001)", "F32", (500, 2), (2, 1001), None,
      seed=10)
    R("rearrange F16 interleaved non-overlapping dst (300,2) strides (2,601), src strides (-1,300)", "F16",
      (300, 2), (2, 601), (-1, 300), seed=11)
    R("rearrange U8 broadcast src (1000,1000) strides (0,1)", "U8", (1000, 1000), None, (0, 1), seed=12)
    R("rearrange F32 broadcast + negative src (64,33,65) strides (0,-65,1)", "F32", (64, 33, 65), None, (0, -65, 1),
      seed=13)


@test("mul", only="nvidia")
def t_mul_large_nv():
    N = 9_000_011
    for dn in ("F16", "BF16", "F32"):
        mul_case(f"mul {dn} contiguous {N} (256-byte aligned pointers)", dn, (N,), None, (N,), None, (N,), None,
                 seed=DT[dn] + 300, flush="start")
    mul_case(f"mul F16 contiguous {N} (pointers 2 bytes off 16-byte alignment)", "F16", (N,), None, (N,), None,
             (N,), None, seed=301)
    mul_case(f"mul BF16 in-place c is a, contiguous {N}", "BF16", (N,), None, (N,), None, (N,), None, inplace="a",
             seed=302, flush="start")
    mul_case("mul F16 (4096,4096) * (4096,) row broadcast", "F16", (4096, 4096), None, (4096, 4096), None, (4096,),
             None, seed=303, flush="start")
    mul_case("mul BF16 (4096,1) * (1,4096) outer product", "BF16", (4096, 4096), None, (4096, 1), None, (1, 4096),
             None, seed=304, flush="start")
    mul_case("mul F32 (2048,4097) c transposed, a negative strides", "F32", (2048, 4097), (1, 2048), (2048, 4097),
             (-4097, -1), (2048, 4097), None, seed=305)
    mul_case("mul F64 contiguous 3000017", "F64", (3000017,), None, (3000017,), None, (3000017,), None, seed=306)
    mul_case("mul I32 contiguous 3000017 (wrap-around)", "I32", (3000017,), None, (3000017,), None, (3000017,), None,
             seed=307)
    mul_case("mul U8 contiguous 3000017 (wrap-around)", "U8", (3000017,), None, (3000017,), None, (3000017,), None,
             seed=308)
    mul_case("mul F16 c interleaved non-overlapping (2048,2) strides (2,4097)", "F16", (2048, 2), (2, 4097),
             (2048, 2), None, (2048, 2), None, seed=309)


@test("lpnorm", only="nvidia")
def t_lp_large_nv():
    M = 1 << 20
    r = rng(21)
    LC = lp_case
    LC(f"lpnorm BF16 (32, {M}) axis -1 p=2 (long rows)", "BF16", (32, M), None, None, -1, 2, 1e-12, seed=1,
       flush="start")
    LC("lpnorm F16 (4096,4096) axis 1 p=2", "F16", (4096, 4096), None, None, 1, 2, 1e-12, seed=2, flush="start")
    LC("lpnorm F16 (4096,4096) axis 0 p=2 (column reductions)", "F16", (4096, 4096), None, None, 0, 2, 1e-12, seed=3,
       flush="start")
    LC(f"lpnorm F16 (3, {M - 40}) axis -1 p=2 (few long rows)", "F16", (3, M - 40), None, None, -1, 2, 1e-12, seed=4)
    LC(f"lpnorm F32 (8, {M}) axis 1 p=1", "F32", (8, M), None, None, 1, 1, 1e-12, seed=5, flush="start")
    LC(f"lpnorm BF16 (4, {M}) axis 1 p=3", "BF16", (4, M), None, None, 1, 3, 1e-12, seed=6)
    LC(f"lpnorm F16 (2, {M}) p=1000 (huge p)", "F16", (2, M), None, None, 1, 1000, 1e-12, seed=7)
    LC(f"lpnorm BF16 (2, {M}) p=2^31-1 (huge p)", "BF16", (2, M), None, None, 1, (1 << 31) - 1, 1e-12, seed=8)
    LC("lpnorm F32 (2048, 4097) x transposed, axis 1", "F32", (2048, 4097), (1, 2048), None, 1, 2, 1e-12, seed=9)
    LC("lpnorm F16 (16, 65536) huge values ~6e4 p=2 eps=0", "F16", (16, 65536), None, None, 1, 2, 0.0,
       values=r.uniform(0.3, 1.0, (16, 65536)) * 6e4 * np.sign(r.standard_normal((16, 65536))))
    LC("lpnorm BF16 (16, 65536) tiny values ~1e-37 p=2 eps=0", "BF16", (16, 65536), None, None, 1, 2, 0.0,
       values=r.uniform(0.3, 1.0, (16, 65536)) * 1e-37 * np.sign(r.standard_normal((16, 65536))))
    v = r.standard_normal((4, M))
    v[1] = 0
    v[3, 12345] = np.inf
    got = LC(f"lpnorm F16 (4, {M}) with an all-zero row and an inf row, eps=0", "F16", (4, M), None, None, 1, 2, 0.0,
             values=v)
    if got is not None:
        ck(f"lpnorm F16 (4, {M}) all-zero row -> zeros, no NaN", (got[1].astype(np.float64) == 0).all())
    LC(f"lpnorm F32 in-place (32, {M // 4})", "F32", (32, M // 4), None, None, -1, 2, 1e-12, seed=10, inplace=True)


def _rs_large_check(dn, lg, params, tag, delta=3e-4):
    acc, how = rs_ref(lg.astype(np.float64), *params, delta=delta)
    got = rs_run(dn, "I64", lg, params, tag, result_check=False)
    if got is not None:
        ck(f"{tag}: index per SPEC rule ({how}, F32 accumulation tolerance)", got in acc,
           f"got {got}, acceptable {sorted(acc)[:8]}")


@test("rs", only="nvidia")
def t_rs_large_nv():
    n = 151936
    r = rng(31)
    for dn in ("F16", "BF16", "F32"):
        lg = np.zeros(n)
        lg[[100, 77777, 150000, n - 1]] = 5.0
        rs_run(dn, "I64", round_to(lg, dn), (0.0, 1.0, 0, 1.0), f"rs {dn} n={n} tied maxima -> lowest index 100",
               expect=100)
        lg = round_to(r.standard_normal(n) * 3, dn).astype(np.float64)
        lg[n - 1] = float(round_to(np.array([lg.max() + 1.0]), dn)[0])
        rs_run(dn, "I64", round_to(lg, dn), (0.6, 0.9, 1, 1.0), f"rs {dn} n={n} topk=1 -> argmax at the last index",
               expect=n - 1)
        rs_run(dn, "I32", round_to(lg, dn), (0.0, 0.9, 50, 1.0), f"rs {dn} n={n} random_val=0 -> argmax (I32 result)",
               expect=n - 1)
        lg = round_to(r.standard_normal(n) * 3, dn)
        for params in ((0.999, 1.0, 0, 1.0), (0.5, 1.0, n, 2.0), (0.73, 0.95, 1000, 0.6), (0.21, 0.5, 0, 0.1),
                       (0.88, 0.8, 20, 1.5), (0.45, 1.0, 0, 20.0)):
            _rs_large_check(dn, lg, params, f"rs {dn} n={n} params={params}")


@test("rs_batch", only="nvidia")
def t_rsb_large_nv():
    n, B = 151936, 64
    rr = rng(64)
    prm = []
    for b in range(B):
        if b % 8 == 0:
            prm.append((0.0, 0.9, 50, 1.0))
        elif b % 8 == 1:
            prm.append((float(np.round(rr.uniform(0.05, 0.95), 4)), 0.9, 1, 1.0))
        else:
            prm.append((float(np.round(rr.uniform(0.02, 0.98), 4)), float(rr.choice([0.5, 0.8, 0.9, 0.95, 1.0])),
                        int(rr.choice([0, 20, 50, 1000, n])), float(rr.choice([0.6, 0.8, 1.0, 1.5]))))
    for dn in ("F16", "BF16", "F32"):
        rsb_case(f"rsb {dn} B={B} n={n}", dn, "I64", B, n, n, prm, seed=DT[dn] + 400, delta=3e-4, flush="start")
    rsb_case(f"rsb F16 B=8 n={n} row stride {n + 64} (padding poisoned), I32 result", "F16", "I32", 8, n, n + 64,
             prm[:8], seed=401, delta=3e-4)


# ---- workspaces of larger descriptors (INSUFFICIENT_WORKSPACE where one is needed)
@test("mul", only="nvidia")
def t_mul_workspace_nv():
    for tag, layouts in (("mul F16 contiguous 9000011", [((9000011,), None, "F16")] * 3),
                         ("mul BF16 (4096,4096) * (4096,)", [((4096, 4096), None, "BF16"), ((4096, 4096), None, "BF16"),
                                                            ((4096,), None, "BF16")]),
                         ("mul F32 (64,33,65) strided", [((64, 33, 65), (1, 64 * 65, 64), "F32"),
                                                         ((64, 33, 65), (0, -65, 1), "F32"),
                                                         ((64, 33, 65), None, "F32")])):
        s, d = create_from_layouts("mul", layouts)
        if not st(f"{tag}: Create", s, SUCCESS):
            continue
        bufs = [TBuf(l[0], l[1], NP[l[2]]) for l in layouts]
        for b in bufs[1:]:
            b.set(1)
        n = ws_checks(tag, "mul", d, bufs[:1], bufs[1:])
        note(f"{tag}: workspace bytes", str(n))
        destroy_op("mul", d)


@test("lpnorm", only="nvidia")
def t_lp_workspace_nv():
    M = 1 << 20
    for dn, shape, axis in (("BF16", (32, M), -1), ("F16", (3, M - 40), -1), ("F16", (4096, 4096), 0),
                            ("F16", (4096, 4096), 1), ("F32", (2048, 4097), 0)):
        tag = f"lpnorm {dn} {shape} axis {axis}"
        s, d = create_from_layouts("lpnorm", [(shape, None, dn)] * 2, params=(ci(axis), ci(2), cf(1e-12)))
        if not st(f"{tag}: Create", s, SUCCESS):
            continue
        X, Y = TBuf(shape, None, NP[dn]), TBuf(shape, None, NP[dn])
        X.set(1)
        n = ws_checks(tag, "lpnorm", d, [Y], [X])
        note(f"{tag}: workspace bytes", str(n))
        destroy_op("lpnorm", d)


@test("rs", only="nvidia")
def t_rs_workspace_nv():
    n = 151936
    for dn in ("F16", "BF16", "F32"):
        tag = f"rs {dn} n={n}"
        s, d = create_from_layouts("rs", [((), None, "I64"), ((n,), None, dn)])
        if not st(f"{tag}: Create", s, SUCCESS):
            continue
        P, R = TBuf((n,), None, NP[dn]), TBuf((), None, np.int64)
        P.set(round_to(rng(5).standard_normal(n), dn))
        m = ws_checks(f"{tag} sample", "rs", d, [R], [P], (cf(0.5), cf(0.9), ci(0), cf(1.0)))
        ws_checks(f"{tag} argmax", "rs", d, [R], [P], (cf(0.0), cf(0.9), ci(0), cf(1.0)))
        note(f"{tag}: workspace bytes", str(m))
        destroy_op("rs", d)


@test("rs_batch", only="nvidia")
def t_rsb_workspace_nv():
    B, n = 64, 151936
    tag = f"rsb F16 B={B} n={n}"
    s, d = create_from_layouts("rsb", [((B,), None, "I64"), ((B, n), None, "F16")])
    if not st(f"{tag}: Create", s, SUCCESS):
        return
    P, R = TBuf((B, n), None, np.float16), TBuf((B,), None, np.int64)
    P.set(round_to(rng(6).standard_normal((B, n)), "F16"))
    rv, tp = (C.c_float * B)(*([0.5] * B)), (C.c_float * B)(*([0.9] * B))
    tk, te = (C.c_int * B)(*([0] * B)), (C.c_float * B)(*([1.0] * B))
    m = ws_checks(tag, "rsb", d, [R], [P], (rv, tp, tk, te, ci(B)))
    note(f"{tag}: workspace bytes", str(m))
    destroy_op("rsb", d)


# ---- leaks: host heap (as on CPU) and GPU memory (driver's cuMemGetInfo, outside SPEC, measurement only)
_CUMEMINFO = []


def gpu_used_bytes():
    """bytes of GPU memory in use on the device (whole device), or None when it cannot be measured"""
    try:
        if not _CUMEMINFO:
            f = C.CDLL("libcuda.so.1").cuMemGetInfo_v2
            f.restype = ci
            f.argtypes = [C.POINTER(sz), C.POINTER(sz)]
            _CUMEMINFO.append(f)
        fr, tot = sz(0), sz(0)
        with on_nvidia():
            L.infinirtDeviceSynchronize()
            r = _CUMEMINFO[0](C.byref(fr), C.byref(tot))
        return None if r != 0 else tot.value - fr.value
    except Exception:
        return None


_MEMPROBE = []


def gpu_measure_ok():
    """positive control, once: an extra 64 MiB infinirtMalloc must show up in gpu_used_bytes()"""
    if not _MEMPROBE:
        ok = False
        u0 = gpu_used_bytes()
        p = vp()
        with on_nvidia():
            if u0 is not None and L.infinirtMalloc(C.byref(p), 64 << 20) == SUCCESS and p.value:
                u1 = gpu_used_bytes()
                L.infinirtFree(p)
                ok = u1 is not None and u1 - u0 >= 64 << 20
        _MEMPROBE.append(ok)
    return _MEMPROBE[0]


def dev_leak_loop(tag, fn, n, limit=4 << 20):
    if not gpu_measure_ok():
        note(f"leak (GPU memory): {tag}", "cuMemGetInfo unavailable or blind to a 64 MiB infinirtMalloc: not measured")
        return
    for _ in range(n // 5):
        fn()
    u0 = gpu_used_bytes()
    if u0 is None:
        note(f"leak (GPU memory): {tag}", "cuMemGetInfo unavailable: not measured")
        return
    for _ in range(n):
        fn()
    u1 = gpu_used_bytes()
    ck(f"leak (GPU memory): {tag} x{n} (device memory in use grew {u1 - u0} B)", u1 - u0 <= limit,
       f"in use {u0} -> {u1} B over {n} iterations (~{(u1 - u0) / n:.0f} B/iter); SPEC: 'No input ... leaks'")


# ---- pointer alignment: a fault here poisons the CUDA context, so these run last, each test on its own
class OffBuf:
    """a contiguous array placed `off` bytes after a 256-byte aligned device address (DevBuf)"""

    def __init__(self, arr, off):
        arr = np.array(arr, order="C")  # (np.ascontiguousarray would turn a 0-d array into 1-d)
        self.dt, self.shape, self.off = arr.dtype, arr.shape, off
        self.g = DevBuf(arr.nbytes + off, "start")
        self.g.mem[off:] = arr.reshape(-1).view(np.uint8)
        self.g.push()
        self.ptr = self.g.ptr + off

    def get(self):
        self.g.sync()
        return np.frombuffer(self.g.mem[self.off:].tobytes(), self.dt).reshape(self.shape)

    def outside_ok(self):
        return self.g.slack_ok() and bool((self.g.mem[:self.off] == SENT).all())


def _nv_call_and_read(tag, fn, outs, strict=True):
    """run fn(stream) on the created stream, synchronise; returns True when it succeeded"""
    stream = nv_stream()
    r = fn(stream)
    if not st(f"{tag}: calculate", r, SUCCESS, strict=strict):
        return False
    if not st(f"{tag}: StreamSynchronize", nv_wait(stream), SUCCESS, strict=strict):
        return False
    for k, o in enumerate(outs):
        ck(f"{tag}: output {k}: bytes before/after it untouched", o.outside_ok())
    return True


@test("nv_misaligned", only="nvidia")
def t_nv_element_offsets():
    """pointers aligned to their element but not to 16 bytes, differently for each operand"""
    r = rng(41)
    n = 100003
    for dn in ("F16", "BF16"):
        s, d = create_from_layouts("mul", [((n,), None, dn)] * 3)
        if st(f"mul {dn} {n}: Create", s, SUCCESS):
            av, bv = gen_vals(r, (n,), dn), gen_vals(r, (n,), dn)
            A, B, Cc = OffBuf(av, 2), OffBuf(bv, 4), OffBuf(np.zeros(n, NP[dn]), 6)
            m = ws_size("mul", d)
            g, wp = workspace(m)
            tag = f"mul {dn} {n}: a, b, c at +2, +4, +6 bytes from 256-byte alignment"
            if _nv_call_and_read(tag, lambda stream: L.infiniopMul(d, wp, m, Cc.ptr, A.ptr, B.ptr, stream), [Cc]):
                ref = mul_ref(av, bv, dn)
                good = same_float_bits(Cc.get(), ref)
                ck(f"{tag}: result exact", good.all(), fmt_bad(Cc.get(), ref, good))
            destroy_op("mul", d)
    shape = (7, 4099)
    s, d = create_from_layouts("lpnorm", [(shape, None, "F16")] * 2, params=(ci(-1), ci(2), cf(1e-12)))
    if st("lpnorm F16 (7,4099): Create", s, SUCCESS):
        xv = round_to(r.standard_normal(shape), "F16")
        X, Y = OffBuf(xv, 2), OffBuf(np.zeros(shape, np.float16), 6)
        m = ws_size("lpnorm", d)
        g, wp = workspace(m)
        tag = "lpnorm F16 (7,4099): x, y at +2, +6 bytes"
        if _nv_call_and_read(tag, lambda stream: L.infiniopLPNorm(d, wp, m, Y.ptr, X.ptr, stream), [Y]):
            ref = lp_ref(xv, -1, 2, float(np.float32(1e-12)))
            good = close(Y.get(), ref, "F16")
            ck(f"{tag}: result", good.all(), fmt_bad(Y.get(), ref, good))
        destroy_op("lpnorm", d)
    shape = (1031, 1029)
    s, d = create_from_layouts("rearrange", [(shape, (1, 1031), "F16"), (shape, None, "F16")])
    if st("rearrange F16 transpose 1031x1029: Create", s, SUCCESS):
        sv = rand_bytes(r, shape, "F16")
        S_, D_ = OffBuf(sv, 2), OffBuf(np.zeros(shape[::-1], np.uint16), 4)
        tag = "rearrange F16 transpose 1031x1029: src, dst at +2, +4 bytes"
        if _nv_call_and_read(tag, lambda stream: L.infiniopRearrange(d, D_.ptr, S_.ptr, stream), [D_]):
            ck(f"{tag}: result", (D_.get() == sv.T).all())
        destroy_op("rearrange", d)
    nn = 151936
    s, d = create_from_layouts("rs", [((), None, "I64"), ((nn,), None, "F16")])
    if st(f"rs F16 n={nn}: Create", s, SUCCESS):
        lg = round_to(r.standard_normal(nn), "F16")
        P, R = OffBuf(lg, 2), OffBuf(np.zeros((), np.int64), 8)
        m = ws_size("rs", d)
        g, wp = workspace(m)
        tag = f"rs F16 n={nn}: probs at +2 bytes, argmax"
        if _nv_call_and_read(tag, lambda stream: L.infiniopRandomSample(d, wp, m, R.ptr, P.ptr, cf(0.0), cf(1.0),
                                                                          ci(0), cf(1.0), stream), [R]):
            ck(f"{tag}: result", int(R.get()) == int(np.argmax(lg.astype(np.float64))), f"{int(R.get())}")
        destroy_op("rs", d)


@test("nv_misaligned", only="nvidia")
def t_nv_misaligned_rearrange():
    _POISON_AMBIGUOUS[0] = "pointers 1 byte off alignment: SPEC states no alignment rule"
    s, d = create_from_layouts("rearrange", [((33,), None, "F64"), ((33,), (-1,), "F64")])
    S_, D_ = OffBuf(np.arange(33, dtype=np.float64), 1), OffBuf(np.zeros(33), 1)
    tag = "rearrange F64 33 elements, pointers 1 byte off alignment (SPEC states no alignment rule)"
    if _nv_call_and_read(tag, lambda stream: L.infiniopRearrange(d, D_.ptr, S_.ptr + 32 * 8, stream), [D_],
                         strict=False):
        ck(f"{tag}: correct", (D_.get() == np.arange(33)[::-1]).all(), f"{D_.get()[:4]}")
    destroy_op("rearrange", d)


@test("nv_misaligned", only="nvidia")
def t_nv_misaligned_mul():
    _POISON_AMBIGUOUS[0] = "pointers 1 byte off alignment: SPEC states no alignment rule"
    s, d = create_from_layouts("mul", [((37,), None, "F32")] * 3)
    m = ws_size("mul", d)
    g, wp = workspace(m)
    A, B, Cc = OffBuf(np.arange(37, dtype=np.float32), 1), OffBuf(np.full(37, 3, np.float32), 1), \
        OffBuf(np.zeros(37, np.float32), 1)
    tag = "mul F32 37 elements, pointers 1 byte off alignment (SPEC states no alignment rule)"
    if _nv_call_and_read(tag, lambda stream: L.infiniopMul(d, wp, m, Cc.ptr, A.ptr, B.ptr, stream), [Cc],
                         strict=False):
        ck(f"{tag}: correct", (Cc.get() == np.arange(37) * 3).all())
    destroy_op("mul", d)


@test("nv_misaligned", only="nvidia")
def t_nv_misaligned_workspace():
    _POISON_AMBIGUOUS[0] = "pointers 1 byte off alignment: SPEC states no alignment rule"
    cases = [("mul F16 9000011", "mul", [((9000011,), None, "F16")] * 3, (), ()),
             ("lpnorm BF16 (32, 1M)", "lpnorm", [((32, 1 << 20), None, "BF16")] * 2, (ci(-1), ci(2), cf(1e-12)), ()),
             ("rs F32 n=151936", "rs", [((), None, "I64"), ((151936,), None, "F32")], (),
              (cf(0.5), cf(0.9), ci(0), cf(1.0)))]
    for tag, kind, layouts, params, extra in cases:
        s, d = create_from_layouts(kind, layouts, params=params)
        if not st(f"{tag}: Create", s, SUCCESS):
            continue
        n = ws_size(kind, d)
        if n == 0:
            note(f"{tag}: workspace pointer 1 byte off alignment", "minimum workspace is 0: not exercised")
            destroy_op(kind, d)
            continue
        bufs = [TBuf(l[0], l[1], NP[l[2]]) for l in layouts]
        for b in bufs[1:]:
            b.set(1)
        g = DevBuf(n + 1, "start")
        stream = nv_stream()
        r = call_status(kind, d, g.ptr + 1, n, [bufs[0].ptr], [b.ptr for b in bufs[1:]], extra, stream=stream)
        st(f"{tag}: workspace pointer 1 byte off alignment", r, SUCCESS, strict=False)
        if r == 0:
            st(f"{tag}: workspace pointer 1 byte off alignment: StreamSynchronize", nv_wait(stream), SUCCESS,
               strict=False)
        destroy_op(kind, d)


# =========================================================================== driver
GROUPS = ["symbols", "runtime", "handle", "tensor", "rearrange", "mul", "lpnorm", "rs", "rs_batch", "threads",
          "leaks"] + (["nv_misaligned"] if NV else [])


def run_group_inproc(group, start):
    tests = [t for t in TESTS if t[0] == group]
    for k in range(start, len(tests)):
        _, name, fn = tests[k]
        _cur_test[0] = name
        _POISON_AMBIGUOUS[0] = ""
        print(f"@@BEGIN {k} {name}", flush=True)
        try:
            fn()
        except RtError as e:  # an infinirt call the harness relies on failed: the library's runtime
            emit("FAIL", f"{name}: runtime call failed", f"{e}\n{traceback.format_exc()[-800:]}")
        except Exception:
            emit("HARNESS", f"{name}: python exception", traceback.format_exc()[-1200:])
        if NV:
            why = nv_health()
            if why:
                emit("NOTE" if _POISON_AMBIGUOUS[0] else "FAIL", f"{name}: device left in an error state after the "
                     f"test (the CUDA context is unusable for the rest of the process)",
                     why + (f"; {_POISON_AMBIGUOUS[0]}" if _POISON_AMBIGUOUS[0] else ""))
                print(f"@@END {k}", flush=True)
                os._exit(STICKY_RC)  # a fresh process for the next test (a CUDA error can poison the context)
        print(f"@@END {k}", flush=True)


def nv_health():
    """NVIDIA mode: '' when the device still works after a test, else what failed"""
    try:
        with on_nvidia():
            r = L.infinirtDeviceSynchronize()
            if r != SUCCESS:
                return f"infinirtDeviceSynchronize -> {sname(r)}"
            p = vp()
            r = L.infinirtMalloc(C.byref(p), 256)
            if r != SUCCESS or not p.value:
                return f"infinirtMalloc(256) -> {sname(r)}"
            b = np.zeros(256, np.uint8)
            r = L.infinirtMemcpy(p, b.ctypes.data, 256, MEMCPY_H2D)
            r2 = L.infinirtDeviceSynchronize()
            L.infinirtFree(p)
            if r != SUCCESS or r2 != SUCCESS:
                return f"infinirtMemcpy H2D 256 B -> {sname(r)}, then infinirtDeviceSynchronize -> {sname(r2)}"
    except Exception as e:
        return f"{e!r}"
    return ""


def vector_path():
    """(not in SPEC) the project's infiniopGetCpuVectorPath, only for labelling the run"""
    try:
        f = L.op.infiniopGetCpuVectorPath
        f.restype = C.c_char_p
        f.argtypes = []
        return f().decode()
    except Exception:
        return "unknown"


def run_all(verbose):
    if NV:
        return run_all_nvidia(verbose)
    isas = [x for x in os.environ.get("AUDIT_ISAS", "avx512,avx2,baseline").split(",") if x]
    results = []
    t0 = time.time()
    for isa in isas:
        env = dict(os.environ, INFINIOP_CPU_VECTOR=isa)
        got = subprocess.run([sys.executable, os.path.abspath(__file__), "--vector-path"], capture_output=True,
                             text=True, env=env).stdout.strip()
        print(f"running all groups with INFINIOP_CPU_VECTOR={isa} (library reports vector path {got!r})", flush=True)
        res = run_all_once(env)
        for r in res:
            r["isa"] = got
        results.extend(res)
    return report(results, verbose, t0)


def run_all_nvidia(verbose):
    """AUDIT_DEVICE=nvidia: one run of every group on (NVIDIA, 0); exit status 2 when there is no GPU"""
    t0 = time.time()
    c = ci(0)
    if "infinirtGetDeviceCount" in L.missing:
        print("AUDIT_DEVICE=nvidia: libinfinirt.so does not export infinirtGetDeviceCount; cannot look for an "
              "NVIDIA GPU; nothing audited", flush=True)
        return 2
    s = L.infinirtGetDeviceCount(DEV["NVIDIA"], C.byref(c))
    if s != SUCCESS or c.value < 1:
        print(f"AUDIT_DEVICE=nvidia: no NVIDIA GPU present (infinirtGetDeviceCount(NVIDIA) -> {sname(s)}, count "
              f"{c.value}; no GPU or driver, or a library built without NVIDIA support); nothing audited", flush=True)
        return 2
    print(f"running all groups on device NVIDIA, device id 0 (infinirtGetDeviceCount(NVIDIA) = {c.value})",
          flush=True)
    res = run_all_once(dict(os.environ))
    for r in res:
        r["isa"] = "nvidia"
    return report(res, verbose, t0)


def run_all_once(env):
    results = []
    for group in GROUPS:
        ntests = len([t for t in TESTS if t[0] == group])
        start = 0
        while start < ntests:
            try:
                p = subprocess.run([sys.executable, os.path.abspath(__file__), "--group", group, "--start", str(start)],
                                   capture_output=True, text=True, timeout=900, env=env)
                out, rc = p.stdout, p.returncode
                err = p.stderr
            except subprocess.TimeoutExpired as e:
                out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
                rc, err = "timeout", ""
            last_begin, last_end = None, None
            for line in out.splitlines():
                if line.startswith("@@R "):
                    rec = json.loads(line[4:])
                    rec["group"] = group
                    results.append(rec)
                elif line.startswith("@@BEGIN "):
                    last_begin = (int(line.split()[1]), line.split()[2])
                elif line.startswith("@@END "):
                    last_end = int(line.split()[1])
            if rc == 0:
                break
            if rc == STICKY_RC and last_begin is not None and last_end == last_begin[0]:
                start = last_begin[0] + 1  # NVIDIA mode: FAIL already reported; next test in a fresh process
                continue
            if last_begin is None:
                results.append({"kind": "HARNESS", "group": group, "test": None, "name": "group did not start",
                                "detail": f"rc={rc} stderr={err[-800:]}"})
                break
            if last_end == last_begin[0]:
                results.append({"kind": "HARNESS", "group": group, "test": None, "name": "exited between tests",
                                "detail": f"rc={rc} {err[-800:]}"})
                start = last_begin[0] + 1
                continue
            last_check = next((r["name"] for r in reversed(results) if r.get("test") == last_begin[1]), None)
            results.append({"kind": "FAIL", "group": group, "test": last_begin[1],
                            "name": f"{last_begin[1]}: PROCESS CRASHED / HUNG",
                            "detail": f"rc={rc} (negative = signal) after check {last_check!r}; "
                                      f"SPEC: 'No input crashes the process'. stderr tail: {err[-400:]}"})
            start = last_begin[0] + 1
    return results


def report(results, verbose, t0):
    cnt = {}
    per_isa = {}
    for r in results:
        cnt[r["kind"]] = cnt.get(r["kind"], 0) + 1
        pi = per_isa.setdefault(r["isa"], {})
        pi[r["kind"]] = pi.get(r["kind"], 0) + 1
    with open(RESULTS, "w") as f:
        json.dump(results, f, indent=1)
    for kind in ("FAIL", "HARNESS", "NOTE") + (("PASS",) if verbose else ()):
        merged = {}
        for r in results:
            if r["kind"] == kind:
                key = (r["group"], r["test"], r["name"], r["detail"])
                merged.setdefault(key, []).append(r["isa"])
        if not merged:
            continue
        print(f"\n===== {kind} ({len(merged)} distinct) =====")
        for (g, t, n, d), isas in merged.items():
            print(f"[{g}/{t}] {n}   <{','.join(isas)}>" + (f"\n      {d}" if d else ""))
    for isa, pi in per_isa.items():
        print(f"{'device' if NV else 'vector path'} {isa}: " +
              ", ".join(f"{k}={pi.get(k, 0)}" for k in ("PASS", "FAIL", "NOTE", "HARNESS")))
    print(f"\nSUMMARY ({time.time() - t0:.1f}s, {'device NVIDIA 0' if NV else 'all vector paths'}): " + ", ".join(
        f"{k}={cnt.get(k, 0)}" for k in ("PASS", "FAIL", "NOTE", "HARNESS")))
    print(f"library dir: {os.path.abspath(LIBDIR)}; results in {RESULTS}")
    return 1 if cnt.get("FAIL") or cnt.get("HARNESS") else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if AUDIT_DEVICE not in ("cpu", "nvidia"):
        print(f"AUDIT_DEVICE={AUDIT_DEVICE!r}: expected 'cpu' (default) or 'nvidia'", flush=True)
        sys.exit(2)
    if "--vector-path" in args:
        print(vector_path())
        sys.exit(0)
    if "--group" in args:
        g = args[args.index("--group") + 1]
        s = int(args[args.index("--start") + 1]) if "--start" in args else 0
        run_group_inproc(g, s)
        sys.exit(0)
    sys.exit(run_all("-v" in args))
