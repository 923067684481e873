"""The ABI's Calculate calls as one table, and the descriptor call made from it.

Each row names the C function and its arguments after the descriptor (the
stream is always last). From a row, `make_call` writes the descriptor's
`__call__` once, at import (as namedtuple writes its classes, and pyvips its
operations from metadata): straight-line code with the cffi function, the casts
and the workspace lookup bound in advance, so that a successful call does only
what it must (no strings, no lists, no exception machinery). The message of a
failed call is built only then, from the same values, as before.

Argument kinds:
  workspace  (void *workspace, size_t workspace_size): the `workspace=` keyword,
             or this thread's cached workspace for the stream
  out, in    a data pointer: an array (NumPy, DeviceArray, torch, cupy...) or an int address
  float, int a scalar
  float[], int[]  B values: a sequence, a NumPy array (float32 / int32 arrays pass
             without a copy) or one scalar for every row; then `batch` (int) follows
"""
from __future__ import annotations

import linecache
import threading

import numpy as np

from .._arrays import pointer
from .._ffi import ffi
from .._streams import stream_pointer

CALCULATE = {
    "Rearrange": ("infiniopRearrange", (("dst", "out"), ("src", "in"))),
    "Mul": ("infiniopMul", (("workspace", "workspace"), ("c", "out"), ("a", "in"), ("b", "in"))),
    "LPNorm": ("infiniopLPNorm", (("workspace", "workspace"), ("y", "out"), ("x", "in"))),
    "RandomSample": ("infiniopRandomSample", (("workspace", "workspace"), ("result", "out"), ("probs", "in"),
                                              ("random_val", "float"), ("topp", "float"), ("topk", "int"),
                                              ("temperature", "float"))),
    "RandomSampleBatch": ("infiniopRandomSampleBatch", (
        ("workspace", "workspace"), ("result", "out"), ("probs", "in"), ("random_val", "float[]"),
        ("topp", "float[]"), ("topk", "int[]"), ("temperature", "float[]"), ("batch_size", "batch"))),
}

NULL = ffi.NULL
_VOID_P = ffi.typeof("void *")
_cast = ffi.cast
_from_buffer = ffi.from_buffer
_ARRAY_DTYPES = {"float[]": np.dtype(np.float32), "int[]": np.dtype(np.int32)}
_FLOAT_ARRAY, _INT_ARRAY = ffi.typeof("float[]"), ffi.typeof("int[]")


def floats(arr: np.ndarray):
    """A contiguous float32 array as the `const float *` a C call takes (no copy)."""
    return _from_buffer(_FLOAT_ARRAY, arr)


def ints(arr: np.ndarray):
    """A contiguous int32 array as a `const int *` (no copy)."""
    return _from_buffer(_INT_ARRAY, arr)


def stream_int(stream) -> int:
    """The handle of a stream argument as an int (0: the default stream)."""
    if stream is None:
        return 0
    return stream if type(stream) is int else stream_pointer(stream)


# ---- per-row parameters of the batch form ----

_local = threading.local()
_MAX_FILLED = 64


def param_array(value, dtype: np.dtype, batch: int) -> np.ndarray:
    """`value` as a contiguous 1-d array of `dtype`: a matching NumPy array as is,
    a scalar as B copies (kept per thread and reused: the C call only reads it)."""
    if type(value) is np.ndarray and (value.dtype is dtype or value.dtype == dtype) and value.ndim == 1 \
            and value.flags.c_contiguous:
        return value
    if isinstance(value, (int, float, np.number)):
        filled = getattr(_local, "filled", None)
        if filled is None:
            filled = _local.filled = {}
        key = (value, dtype, batch)
        arr = filled.get(key)
        if arr is None:
            if len(filled) >= _MAX_FILLED:
                filled.clear()
            arr = filled[key] = np.full(batch, value, dtype=dtype)
            arr.flags.writeable = False
        return arr
    if type(value) in (list, tuple):
        try:  # a flat sequence of numbers: one pass, no intermediate array (asarray costs twice as much)
            return np.fromiter(value, dtype, len(value))
        except (TypeError, ValueError):
            pass  # nested or odd elements: the general path below says what is wrong, as before
    arr = np.asarray(value, dtype=dtype)  # (np.ascontiguousarray would make a scalar 1-d)
    if arr.ndim == 0:
        arr = np.full(batch, arr, dtype=dtype)
    return np.ascontiguousarray(arr.reshape(-1))


def batch_size(rows: int, *params) -> int:
    """The parameter sequences' common length (the C call checks it against B), or B for scalars."""
    size = None
    for p in params:
        if type(p) is np.ndarray:
            n = len(p) if p.ndim else None
        elif isinstance(p, (int, float, np.number)):
            continue
        elif type(p) in (list, tuple):
            n = len(p)  # (np.ndim would convert the whole list to find out)
        else:
            n = len(p) if np.ndim(p) > 0 else None
        if n is not None and n != size:
            if size is not None:
                sizes = sorted({len(q) for q in params if np.ndim(q) > 0})
                raise ValueError(f"RandomSampleBatch: parameter sequences of different lengths {sizes}")
            size = n
    return rows if size is None else size


def describe_params(names, kinds, values) -> str:
    """'random_val=0.5, topp=0.9, ...' as the messages of failed calls show them
    (sequences as the lists that were passed to C)."""
    parts, batch = [], None
    for name, kind in zip(names, kinds):
        if kind == "batch":
            batch = values[name]
    for name, kind in zip(names, kinds):
        value = values[name]
        if kind in _ARRAY_DTYPES:
            value = param_array(value, _ARRAY_DTYPES[kind], batch).tolist()
            parts.append(f"{name}={value}")
        else:
            parts.append(f"{name}={value!r}")
    return ", ".join(parts)


# ---- the generated descriptor call ----

def _source(cls_name: str, function: str, args, check_layouts: bool = False) -> str:
    """The text of `__call__` for one table row."""
    pointers = [n for n, k in args if k in ("out", "in")]
    scalars = [(n, k) for n, k in args if k in ("float", "int")]
    arrays = [(n, k) for n, k in args if k in _ARRAY_DTYPES]
    params = [n for n, k in args if k not in ("workspace", "batch")]
    lines = [f"def __call__(self, {', '.join(params)}, *, "
             f"{'workspace=None, ' if any(k == 'workspace' for _, k in args) else ''}stream=None):"]
    lines += ["    desc = self._ptr",
              "    if desc is None:",
              "        desc = self.ptr  # raises: closed",
              "    if stream is None:",
              "        s, si = NULL, 0",
              "    else:",
              "        si = stream if type(stream) is int else stream_pointer(stream)",
              "        s = cast(VOID_P, si)"]
    for name in pointers:
        writable = any(n == name and k == "out" for n, k in args)
        if check_layouts:  # the class looks at each array (Rearrange checks its layout)
            lines.append(f"    {name}_p = cast(VOID_P, {name}) if type({name}) is int else "
                         f"self._pointer({name!r}, {name}, {writable})")
        else:
            lines.append(f"    {name}_p = pointer({name}, {writable})")
    for name, kind in scalars:
        py = "float" if kind == "float" else "int"
        lines.append(f"    {name}_v = {name} if type({name}) is {py} else {py}({name})")
    if arrays:
        lines.append(f"    batch_size = batch_size_of(self.rows, {', '.join(n for n, _ in arrays)})")
        for name, kind in arrays:
            lines.append(f"    {name}_a = param_array({name}, {kind[:-2].upper()}_DTYPE, batch_size)")
            lines.append(f"    {name}_v = from_buffer({kind[:-2].upper()}_ARRAY, {name}_a)")
    call = []
    for name, kind in args:
        if kind == "workspace":
            lines += ["    if workspace is None and self.workspace_size == 0:",
                      "        ws, ws_size = NULL, 0",
                      "    else:",
                      "        ws, ws_size = self._workspace_args(workspace, si)"]
            call += ["ws", "ws_size"]
        elif kind in ("out", "in"):
            call.append(f"{name}_p")
        elif kind == "batch":
            call.append("batch_size")
        else:
            call.append(f"{name}_v")
    lines.append(f"    status = self._c_function(desc, {', '.join(call + ['s'])})")
    lines.append("    if status:")
    if scalars or arrays:
        values = ", ".join(f"{n!r}: {n}" for n, k in args if k in ("float", "int", "batch") or k in _ARRAY_DTYPES)
        lines.append(f"        self._failed(status, {{{values}}})")
    else:
        lines.append("        self._failed(status, None)")
    return "\n".join(lines) + "\n"


def _source_raw(args) -> str:
    """The text of `_raw(stream, ...)`: the functional API's call, with C-ready
    pointers and values, the workspace (this thread's, for the stream) and the stream added."""
    names = [n for n, k in args if k != "workspace"]
    takes_workspace = any(k == "workspace" for _, k in args)
    lines = [f"def _raw(self, stream, {', '.join(names)}):",
             "    if stream is None:",
             "        s, si = NULL, 0",
             "    else:",
             "        si = stream if type(stream) is int else stream_pointer(stream)",
             "        s = cast(VOID_P, si)"]
    values = ", ".join(names + ["s"])
    if takes_workspace:
        lines += ["    if self.workspace_size == 0:",
                  f"        return self._c_function(self._ptr, NULL, 0, {values})",
                  "    ws = workspace_for(self.handle.device, self.handle.device_id, self.workspace_size, si)",
                  f"    return self._c_function(self._ptr, ws.cdata, ws.size, {values})"]
    else:
        lines.append(f"    return self._c_function(self._ptr, {values})")
    return "\n".join(lines) + "\n"


def _exec(source: str, filename: str, namespace: dict) -> None:
    """Run generated source, registered with linecache so that tracebacks show its lines."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)


def make_raw(cls_name: str, workspace_for):
    """`_raw(stream, *C-ready arguments) -> status` for the class named `cls_name`, from its row."""
    namespace = {"NULL": NULL, "VOID_P": _VOID_P, "cast": _cast, "stream_pointer": stream_pointer,
                 "workspace_for": workspace_for}
    _exec(_source_raw(CALCULATE[cls_name][1]), f"<{cls_name}._raw from ops/_calculate.py>", namespace)
    return namespace["_raw"]


def make_call(cls_name: str, check_layouts: bool = False):
    """`__call__` for the descriptor class named `cls_name`, written from its table row;
    with `check_layouts`, arrays go through the class's `_pointer(name, array, writable)`."""
    function, args = CALCULATE[cls_name]
    namespace = {"NULL": NULL, "VOID_P": _VOID_P, "cast": _cast, "from_buffer": _from_buffer,
                 "stream_pointer": stream_pointer, "pointer": pointer, "param_array": param_array,
                 "batch_size_of": batch_size,
                 "FLOAT_DTYPE": _ARRAY_DTYPES["float[]"], "INT_DTYPE": _ARRAY_DTYPES["int[]"],
                 "FLOAT_ARRAY": _FLOAT_ARRAY, "INT_ARRAY": _INT_ARRAY}
    _exec(_source(cls_name, function, args, check_layouts), f"<{cls_name}.__call__ from ops/_calculate.py>",
          namespace)
    call = namespace["__call__"]
    call.__qualname__ = f"{cls_name}.__call__"
    return call


__all__ = ["CALCULATE", "make_call", "make_raw", "stream_int", "param_array", "batch_size", "describe_params",
           "floats", "ints"]
