"""Stream arguments -> the integer a C `void *stream` wants."""
from __future__ import annotations


def stream_pointer(stream) -> int:
    """None (the default stream), an int handle, or any object speaking
    `__cuda_stream__` (cuda.core, torch, cupy...) or holding a `.handle` /
    `.cuda_stream` / `.ptr` attribute."""
    if stream is None:
        return 0
    if isinstance(stream, int):
        return stream
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:
        value = protocol() if callable(protocol) else protocol
        return int(value[1])  # (version, handle)
    for attr in ("handle", "cuda_stream", "ptr"):
        value = getattr(stream, attr, None)
        if value is not None:
            return int(value)
    raise TypeError(f"cannot use {type(stream).__name__} as a CUDA stream: "
                    "pass None, an int handle, or an object with __cuda_stream__")
