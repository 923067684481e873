"""The ABI's Calculate calls as one table, and the calls written from it.

Each operator module registers its row (`register`): the C function, its
arguments after the descriptor (the stream is always last) and the module's own
C declarations. From a row, this module writes, once at import (as namedtuple
writes its classes, and pyvips its operations from metadata):

- the descriptor's `__call__(<arrays>, <values>, *, [workspace=None,] stream=None)`, and
- the functional API's `run(stream, extra, <arrays>, <values>)`: the cached call
  (each array's address and layout read in a branch for NumPy arrays, one for torch
  tensors or one for anything else; one key, one dict lookup, the C call), returning
  None when it ran, or the cache key when no descriptor exists yet (the module's slow
  path makes it, and calls `run` again).

Straight-line code with the cffi functions and casts bound in advance, so that a
successful call does only what it must (no strings, no lists, no exception
machinery); the message of a failed call is built only then, from the same values.

Each Calculate is bound twice, from the same library: as declared (`void *` data
pointers: what NumPy's buffer gives, `ffi.from_buffer`), and with the data pointers
and the stream declared `uintptr_t` (what torch, cupy, DeviceArray and int addresses
give, passed without an `ffi.cast` each; pointers and pointer-sized integers travel
alike in every 64-bit C calling convention cffi supports).

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
import struct
import threading

import cffi
import numpy as np

from .. import _arrays
from .._arrays import CPU, NDARRAY, numpy_pointer, pointer, probe
from .._ffi import ffi, loaded
from .._streams import stream_pointer

CALCULATE: dict = {}  # class name -> (C function, ((argument, kind), ...)), filled by the operator modules

NULL = ffi.NULL
_VOID_P = ffi.typeof("void *")
_cast = ffi.cast
_from_buffer = ffi.from_buffer
_new = ffi.new
_ARRAY_DTYPES = {"float[]": np.dtype(np.float32), "int[]": np.dtype(np.int32)}
_FLOAT_ARRAY, _INT_ARRAY = ffi.typeof("float[]"), ffi.typeof("int[]")
_INT_TYPES = {"out": "uintptr_t", "in": "uintptr_t", "float": "float", "int": "int", "float[]": "const float *",
              "int[]": "const int *", "batch": "int"}

# The second binding of each Calculate: data pointers and stream as integers.
_int_ffi = cffi.FFI()
_int_lib = None


def register(cls_name: str, function: str, args, cdef: str = "") -> tuple:
    """An operator module's row: its C declarations (added to the one cffi
    binding), its Calculate function and argument kinds. Returns the row."""
    if cdef:
        ffi.cdef(cdef, override=True)
    args = tuple((name, kind) for name, kind in args)
    params = ["void *desc"]
    for name, kind in args:
        params += (["void *workspace", "size_t workspace_size"] if kind == "workspace"
                   else [f"{_INT_TYPES[kind]} {name}"])
    _int_ffi.cdef(f"int {function}({', '.join(params + ['uintptr_t stream'])});", override=True)
    row = CALCULATE[cls_name] = (function, args)
    return row


def int_function(function: str):
    """The Calculate `function` with integer data pointers and stream (same library, second binding)."""
    global _int_lib
    if _int_lib is None:
        _int_lib = _int_ffi.dlopen(str(loaded()[2]))
    return getattr(_int_lib, function)


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


_PACKERS: dict = {}


def _packer(dtype: np.dtype, n: int) -> struct.Struct:
    """struct.Struct for n values of `dtype` (float32 or int32), native order, made once."""
    key = (dtype.char, n)
    packer = _PACKERS.get(key)
    if packer is None:
        if len(_PACKERS) >= _MAX_FILLED:
            _PACKERS.clear()
        packer = _PACKERS[key] = struct.Struct(f"={n}{'f' if dtype.kind == 'f' else 'i'}")
    return packer


def batch_args(cache: dict, rows: int, kinds, *values):
    """[B, then each per-row value as the C array it becomes: `from_buffer` of a
    `kinds[i]` = (cffi array type, dtype) array]. Scalars for every row: one lookup
    in `cache` (their filled arrays, read-only, made once); anything else through
    param_array, or (flat lists / tuples of one length) cffi or struct. (Matching
    NumPy arrays are taken inline by the generated calls.)"""
    for v in values:
        if type(v) is not float and type(v) is not int:
            break
    else:
        key = (rows,) + values
        got = cache.get(key)
        if got is None:
            if len(cache) >= _MAX_FILLED:
                cache.clear()
            got = cache[key] = (rows,) + tuple(_from_buffer(t, param_array(v, d, rows))
                                               for (t, d), v in zip(kinds, values))
        return got
    if type(values[0]) is list or type(values[0]) is tuple:
        # Sequences of one length (a serving loop's per-request values): C arrays
        # filled by cffi (short ones) or packed by a cached struct.Struct into bytes
        # the C call reads (from 32 values: 256 rows 33 -> 25 µs for four lists),
        # either a fraction of a NumPy round trip's cost.
        n = len(values[0])
        try:
            arrays = []
            for (t, d), v in zip(kinds, values):
                if type(v) is not list and type(v) is not tuple or len(v) != n:
                    break
                arrays.append(_new(t, v) if n < 32 else _from_buffer(t, _packer(d, n).pack(*v)))
            else:
                return (n,) + tuple(arrays)
        except (struct.error, TypeError, OverflowError):
            pass  # elements cffi / struct do not take as they are (floats for int[], ...): as NumPy converts them
    batch = batch_size(rows, *values)
    return (batch,) + tuple(_from_buffer(t, param_array(v, d, batch)) for (t, d), v in zip(kinds, values))


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


# ---- the generated calls ----
#
# Both calls share their middle (values, workspace) and their end (the C call, the
# error); they differ in where the pointers and the descriptor come from.

_STREAM = "    si = 0 if stream is None else (stream if type(stream) is int else stream_pointer(stream))"


def _values(args, desc: str) -> list:
    """Lines converting the scalar and per-row arguments to what C takes."""
    lines = []
    for name, kind in args:
        if kind in ("float", "int"):
            py = "float" if kind == "float" else "int"
            lines.append(f"    {name}_v = {name} if type({name}) is {py} else {py}({name})")
    arrays = [(n, k[:-2].upper()) for n, k in args if k in _ARRAY_DTYPES]
    if arrays:
        names = ", ".join(n for n, _ in arrays)
        general = f"batch_size, {', '.join(f'{n}_v' for n, _ in arrays)} = " \
                  f"batch_args(BATCH_CACHE, {desc}.rows, ARRAY_KINDS, {names})"
        same = " and ".join(f"type({n}) is NDARRAY" for n, _ in arrays) + " and " + \
            " and ".join(f"{n}.dtype is {w}_DTYPE" for n, w in arrays) + \
            f" and len({arrays[0][0]}.shape) == 1 and {' == '.join(f'{n}.shape' for n, _ in arrays)}"
        lines += [f"    if {same}:  # NumPy arrays of the C types, one length: passed as they are",
                  "        try:"]
        lines += [f"            {n}_v = from_buffer({w}_ARRAY, {n})" for n, w in arrays]
        lines += ["        except ValueError:  # not contiguous", f"            {general}",
                  "        else:", f"            batch_size = len({arrays[0][0]})",
                  "    else:", f"        {general}"]
    return lines


def _c_call(args, desc: str, ptr: str, kinds: str, check: bool = True) -> list:
    """Lines of the C call through the binding that fits the pointers' kinds ("int",
    "cdata", or "any": decided at run time), and (with `check`) the error of a failed one."""
    pointers = [f"{n}_p" for n, k in args if k in ("out", "in")]
    values = []
    for name, kind in args:
        if kind == "workspace":
            values += ["ws", "ws_size"]
        elif kind in ("out", "in"):
            values.append(f"{name}_p")
        else:
            values.append("batch_size" if kind == "batch" else f"{name}_v")
    as_void = ", ".join(f"({v} if type({v}) is not int else cast(VOID_P, {v}))" if v in pointers else v
                        for v in values)
    int_call = f"{desc}._c_int({ptr}, {', '.join(values)}, si)"
    stream = "NULL if si == 0 else cast(VOID_P, si)"
    cast_call = f"{desc}._c_function({ptr}, {as_void}, {stream})"
    if kinds == "cdata":
        lines = [f"    status = {desc}._c_function({ptr}, {', '.join(values)}, {stream})"]
    else:
        lines = ["    try:", f"        status = {int_call}",
                 "    except (OverflowError, TypeError):  # not all ints, or beyond uintptr_t: as `void *` would",
                 f"        status = {cast_call}"]
        if kinds == "any":
            lines = [f"    if {' is '.join(f'type({p})' for p in pointers)} is int:"] + ["    " + x for x in lines] + \
                    ["    else:", f"        status = {cast_call}"]
    return lines + (_status_check(args, desc) if check else [])


def _status_check(args, desc: str) -> list:
    """Lines raising for a failed call, with its scalar values when it has some."""
    scalars = [n for n, k in args if k in ("float", "int", "batch") or k in _ARRAY_DTYPES]
    return ["    if status:",
            f"        {desc}._failed(status, {{{', '.join(f'{n!r}: {n}' for n in scalars)}}})" if scalars
            else f"        {desc}._failed(status, None)"]


def _numpy_address(name: str, writable: bool) -> list:
    """Lines setting `<name>_p` to a NumPy array's address as a cdata: its buffer when
    C-contiguous (and writable, for an output), else numpy_pointer (strided, or an error).
    Outputs are nearly always C-contiguous: theirs is asked for at once (NumPy refuses the
    writable buffer of a strided or read-only array; a try costs nothing until it raises).
    Inputs are often strided views (a transposed source), whose refusal would cost an
    exception per call: their flags are read first."""
    if not writable:
        return [f"        {name}_p = from_buffer({name}) if {name}.flags.c_contiguous else numpy_pointer({name})"]
    return ["        try:",
            f"            {name}_p = from_buffer({name}, require_writable=True)",
            "        except (ValueError, BufferError, TypeError):  # strided, or read-only: numpy_pointer decides",
            f"            {name}_p = numpy_pointer({name}, True)"]


def _source_call(args, check_layouts: bool) -> str:
    """The text of the descriptor's `__call__` for one row: a branch for NumPy arrays,
    one for torch tensors, one for anything else (ints, other arrays, mixes)."""
    params = [n for n, k in args if k not in ("workspace", "batch")]
    arrays = [(n, k == "out") for n, k in args if k in ("out", "in")]
    takes_workspace = any(k == "workspace" for _, k in args)
    lines = [f"def __call__(self, {', '.join(params)}, *, {'workspace=None, ' if takes_workspace else ''}stream=None):",
             "    desc = self._ptr",
             "    if desc is None:",
             "        desc = self.ptr  # raises: closed",
             _STREAM]

    def rest(kinds: str) -> list:  # after the pointers: values, workspace, the C call
        body = _values(args, "self")
        if takes_workspace:
            body += ["    if workspace is None and self.workspace_size == 0:",
                     "        ws, ws_size = NULL, 0",
                     "    else:",
                     "        ws, ws_size = self._workspace_args(workspace, si)"]
        return ["    " + line for line in body + _c_call(args, "self", "desc", kinds, check=False)]

    # With `check_layouts`, the class looks at each array's layout (Rearrange: only ints are
    # unchecked): `_accept(layouts, arrays)` once per new set of layouts, or `_pointer` each.
    def accepted(layouts: str) -> list:
        return [f"        layouts = ({layouts})",
                "        if layouts not in self._accepted:",
                f"            self._accept(layouts, {{{', '.join(f'{n!r}: {n}' for n, _ in arrays)}}})"] \
            if check_layouts else []

    lines.append(f"    if {' and '.join(f'type({n}) is NDARRAY' for n, _ in arrays)}:")
    for n, w in arrays:
        lines += _numpy_address(n, w)
    lines += accepted(", ".join(f"{n}.shape, {n}.strides, {n}.dtype" for n, _ in arrays))
    lines += rest("cdata")
    lines.append(f"    elif {' and '.join(f'type({n}) is TORCH' for n, _ in arrays)}:")
    if check_layouts:  # each tensor's flag: on the descriptor's kind of device (what _accept checks), without `.device`
        lines += ["        if self._on_gpu:"] + ["    " + x for x in accepted(", ".join(
            f"{n}.is_cuda, {n}.shape, {n}.stride(), {n}.dtype" for n, _ in arrays))]
        lines += ["        else:"] + ["    " + x for x in accepted(", ".join(
            f"{n}.is_cpu, {n}.shape, {n}.stride(), {n}.dtype" for n, _ in arrays))]
    lines += [f"        {n}_p = {n}.data_ptr()" for n, _ in arrays]
    lines += rest("int")
    lines.append("    else:")
    if check_layouts:
        lines += [f"        {n}_p = {n} if type({n}) is int else self._pointer({n!r}, {n}, {w})" for n, w in arrays]
    else:
        lines += [f"        {n}_p = pointer({n}, {w})" for n, w in arrays]
    lines += rest("any")
    lines += _status_check(args, "self")
    return "\n".join(lines) + "\n"


def _source_run(args) -> str:
    """The text of the functional API's `run(stream, extra, ...)` for one row: a
    branch for NumPy arrays (the CPU's case), one for torch tensors, one for
    anything else (probe), then the cached descriptor and the call. `extra`
    (the Create parameters, a tuple) is part of the key."""
    arrays = [(n, k == "out") for n, k in args if k in ("out", "in")]
    names = [n for n, _ in arrays]
    params = [n for n, k in args if k not in ("workspace", "batch")]
    first = names[0]
    lines = [f"def run(stream, extra, {', '.join(params)}):", _STREAM]
    # NumPy: the buffer protocol gives the address (C-contiguous, writable where it must be)
    lines.append(f"    if {' and '.join(f'type({n}) is NDARRAY' for n in names)}:")
    for n, w in arrays:
        lines += _numpy_address(n, w)
    layouts = ", ".join(f"{n}.shape, {n}.strides, {n}.dtype" for n in names)
    lines += _lookup(f"(OP, extra, CPU, {layouts})")
    lines += ["    " + line for line in _tail(args, "cdata")]
    # torch tensors: data_ptr() is the address, the place (CPU, or the CUDA device all of
    # them are on) comes from guards cheaper than `.device` (same_gpu, note_gpu_count); any other
    # device or a mix goes on to the general branch below. The key is the one that
    # branch makes of the same tensors.
    others = names[1:]
    lines += [f"    if {' and '.join(f'type({n}) is TORCH' for n in names)}:",
              f"        if {first}.is_cuda:",
              f"            if {' and '.join(f'{n}.is_cuda' for n in others)}:",
              f"                place = 0 if ONE_GPU else same_gpu({', '.join(names)})",
              "            else:",
              "                place = None",
              f"        elif {' and '.join(f'{n}.is_cpu' for n in names)}:",
              "            place = CPU",
              "        else:",
              "            place = None",
              "        if place is not None:"]
    layouts = ", ".join(f"{n}.shape, {n}.stride(), {n}.dtype" for n in names)
    lines += ["    " + line for line in _lookup(f"(OP, extra, place, {layouts})")]
    lines += [f"            {n}_p = {n}.data_ptr()" for n in names]
    lines += ["        " + line for line in _tail(args, "int")]
    # anything else: probe each array (address, layout key, place)
    lines += [f"    {n}_p, {n}_l, {n}_d = probe({n}, {w})" for n, w in arrays]
    lines.append(f"    key = (OP, extra, {first}_d) + {' + '.join(f'{n}_l' for n in names)}")
    lines.append("    desc = getattr(local, 'descriptors', EMPTY).get(key)")
    different = " or ".join(f"{n}_d != {first}_d" for n in names[1:])
    lines += [f"    if desc is None{' or ' + different if different else ''}:",
              "        return key  # (arrays on different devices: the slow path says so)"]
    lines += _tail(args, "any")
    return "\n".join(lines) + "\n"


def _lookup(key: str) -> list:
    """Lines of a branch's cache lookup: this thread's descriptor for `key`, or return the key."""
    return [f"        key = {key}",
            "        try:",
            "            desc = local.descriptors[key]",
            "        except (AttributeError, KeyError):  # the thread's first call, or a new layout",
            "            return key"]


def _tail(args, kinds: str) -> list:
    """The functional call after the lookup: values, this thread's workspace, the C call."""
    lines = _values(args, "desc")
    if any(k == "workspace" for _, k in args):  # (the descriptor is this thread's: it remembers its workspace)
        lines += ["    if desc.workspace_size == 0:",
                  "        ws, ws_size = NULL, 0",
                  "    else:",
                  "        memo = desc._workspace_memo",
                  "        if memo[0] == si and memo[1] == WORKSPACES_MADE[0]:",
                  "            ws, ws_size = memo[2], memo[3]",
                  "        else:",
                  "            ws, ws_size = desc._remember_workspace(si)"]
    lines += _c_call(args, "desc", "desc._ptr", kinds)
    lines.append("    return None")
    return lines


_NAMESPACES = []  # every generated function's globals: TORCH is set in each when torch is first seen
_one_gpu = False


def same_gpu(*tensors):
    """The CUDA device that all `tensors` (CUDA torch tensors) are on, or None."""
    place = tensors[0].get_device()
    for t in tensors[1:]:
        if t.get_device() != place:
            return None
    return place


def note_gpu_count(count: int) -> None:
    """Told the number of CUDA devices this process sees (fixed once the driver has
    started: CUDA_VISIBLE_DEVICES is read then): with one, every CUDA tensor is on device
    0, and the torch branch keys CUDA tensors without asking each its device (ONE_GPU)."""
    global _one_gpu
    _one_gpu = count == 1
    for namespace in _NAMESPACES:
        namespace["ONE_GPU"] = _one_gpu


def _on_torch(tensor_type) -> None:
    for namespace in _NAMESPACES:
        namespace["TORCH"] = tensor_type


_arrays.on_torch(_on_torch)


def _exec(source: str, filename: str, name: str, args, **extra):
    """Run generated source (registered with linecache, so that tracebacks show its
    lines) and return the function it defines."""
    namespace = {"NULL": NULL, "VOID_P": _VOID_P, "cast": _cast, "from_buffer": _from_buffer,
                 "numpy_pointer": numpy_pointer, "stream_pointer": stream_pointer, "pointer": pointer,
                 "probe": probe, "batch_args": batch_args, "NDARRAY": NDARRAY, "CPU": CPU,
                 "ONE_GPU": _one_gpu, "same_gpu": same_gpu,
                 "TORCH": _arrays.torch_type(), "FLOAT_DTYPE": _ARRAY_DTYPES["float[]"],
                 "INT_DTYPE": _ARRAY_DTYPES["int[]"], "FLOAT_ARRAY": _FLOAT_ARRAY, "INT_ARRAY": _INT_ARRAY, **extra}
    _NAMESPACES.append(namespace)
    # the per-row arguments' (cffi array type, dtype), and the cache of filled ones
    namespace["ARRAY_KINDS"] = tuple((_FLOAT_ARRAY if k == "float[]" else _INT_ARRAY, _ARRAY_DTYPES[k])
                                     for _, k in args if k in _ARRAY_DTYPES)
    namespace["BATCH_CACHE"] = {}
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


def make_call(cls_name: str, check_layouts: bool = False):
    """`__call__` for the descriptor class named `cls_name`, written from its row;
    with `check_layouts`, arrays go through the class's `_pointer(name, array, writable)`."""
    args = CALCULATE[cls_name][1]
    call = _exec(_source_call(args, check_layouts), f"<{cls_name}.__call__ from ops/_calculate.py>", "__call__", args)
    call.__qualname__ = f"{cls_name}.__call__"
    return call


def make_run(cls_name: str, op: str, local, workspaces_made):
    """The functional API's cached call for the class named `cls_name` (keys start
    with `op`; `local.descriptors` is the per-thread cache; `workspaces_made[0]`
    counts the workspaces made, so that a remembered one is known current)."""
    args = CALCULATE[cls_name][1]
    return _exec(_source_run(args), f"<{cls_name} run from ops/_calculate.py>", "run", args, OP=op, local=local,
                 EMPTY={}, WORKSPACES_MADE=workspaces_made)


__all__ = ["CALCULATE", "register", "make_call", "make_run", "int_function", "stream_int", "param_array",
           "note_gpu_count", "same_gpu",
           "batch_size", "batch_args", "describe_params"]
