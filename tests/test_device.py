"""Device memory and streams through cuda-python (GPU only), and array views."""
import numpy as np
import pytest

import infiniop_py as ip
from infiniop_py._arrays import as_view, empty_like
from infiniop_py._streams import stream_pointer


def test_numpy_views_are_zero_copy(rng):
    a = rng.standard_normal((6, 8)).astype(np.float32)[::2, 1::3]
    v = as_view(a)
    assert v.device == "cpu" and v.ptr == a.__array_interface__["data"][0]
    assert v.shape == (3, 3) and v.strides == (16, 3) and v.dtype == np.float32
    bf = np.ones((2, 3), ip.bfloat16)
    assert as_view(bf).dtype == ip.bfloat16
    with pytest.raises(ValueError, match="read-only"):
        ro = np.ones(3)
        ro.flags.writeable = False
        as_view(ro, writable=True)


def test_dlpack_round_trip_on_host_memory_frees_everything(rng):
    import gc

    from infiniop_py import _dlpack

    a = rng.standard_normal((3, 4)).astype(np.float32)

    class Exporter:
        def __dlpack__(self, stream=None, **kwargs):
            return _dlpack.export(a.ctypes.data, (4, 3), (1, 4), a.dtype, (_dlpack.KDL_CPU, 0), owner=a)

        def __dlpack_device__(self):
            return (_dlpack.KDL_CPU, 0)

    for _ in range(500):  # consumed by NumPy, by our reader, and never consumed
        assert np.array_equal(np.from_dlpack(Exporter()), a.T)
        info = _dlpack.read(Exporter())
        assert (info.ptr, info.shape, info.strides, info.dtype) == (a.ctypes.data, (4, 3), (1, 4), a.dtype)
        Exporter().__dlpack__()
    gc.collect()
    assert _dlpack._live == {}
    view = as_view(np.arange(6.0).reshape(2, 3)[:, ::2])
    assert view.strides == (3, 2)
    info = _dlpack.read(np.arange(6.0).reshape(2, 3)[:, ::2])
    assert info.strides == (3, 2) and info.device_type == _dlpack.KDL_CPU


def test_stream_pointer_forms():
    class ProtocolStream:
        def __cuda_stream__(self):
            return (0, 1234)

    class HandleStream:
        handle = 99

    assert stream_pointer(None) == 0
    assert stream_pointer(77) == 77
    assert stream_pointer(ProtocolStream()) == 1234
    assert stream_pointer(HandleStream()) == 99
    with pytest.raises(TypeError, match="__cuda_stream__"):
        stream_pointer("fast")


@pytest.mark.gpu
def test_device_array_round_trip(rng):
    for dtype in (np.float32, np.float16, ip.bfloat16, np.int64, np.uint8):
        host = (rng.standard_normal((5, 7)) * 10).astype(dtype)
        d = ip.DeviceArray.from_numpy(host)
        assert d.shape == (5, 7) and d.strides == (7, 1) and d.dtype == np.dtype(dtype)
        assert np.array_equal(d.to_numpy(), host)
        t = d.view((7, 5), (1, 7))  # a transposed view
        assert np.array_equal(t.to_numpy(), host.T)
        r = d.view((5,), (-7,), offset=28)  # the first column, backwards
        assert np.array_equal(r.to_numpy(), host[::-1, 0])
    with pytest.raises(ValueError):
        d.view((10, 10), (10, 1))
    scalar = ip.DeviceArray.from_numpy(np.array(7, np.int32))  # 0-d stays 0-d
    assert scalar.shape == () and scalar.to_numpy().shape == () and int(scalar.to_numpy()) == 7


@pytest.mark.gpu
def test_device_array_cuda_array_interface_and_dlpack(rng):
    host = rng.standard_normal((4, 3)).astype(np.float32)
    d = ip.DeviceArray.from_numpy(host)
    cai = d.__cuda_array_interface__
    assert cai["shape"] == (4, 3) and cai["strides"] == (12, 4) and cai["data"][0] == d.ptr
    v = as_view(d)
    assert v.device == "nvidia" and v.ptr == d.ptr
    # Both protocols read back through our own consumer.
    class OnlyDlpack:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None):
            return self.a.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    bf = ip.DeviceArray.from_numpy(host.astype(ip.bfloat16))
    v2 = as_view(OnlyDlpack(bf))
    assert (v2.ptr, v2.shape, v2.strides, v2.dtype, v2.device) == (bf.ptr, (4, 3), (3, 1), ip.bfloat16, "nvidia")


@pytest.mark.gpu
def test_torch_and_cupy_zero_copy(rng):
    torch = pytest.importorskip("torch")
    host = rng.standard_normal((3, 5)).astype(np.float32)
    t = torch.from_numpy(host).cuda()
    v = as_view(t)
    assert v.ptr == t.data_ptr() and v.device == "nvidia" and v.strides == (5, 1)
    tb = t.to(torch.bfloat16).t()
    vb = as_view(tb)  # torch's own accessors: CAI would call BF16 an anonymous "<V2"
    assert vb.dtype == ip.bfloat16 and vb.strides == (1, 5) and vb.ptr == tb.data_ptr()

    class NotTorch:  # the same tensor through the generic protocols only
        def __init__(self, x):
            self.x = x

        @property
        def __cuda_array_interface__(self):
            return self.x.__cuda_array_interface__

        def __dlpack__(self, stream=None):
            return self.x.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.x.__dlpack_device__()

    vg = as_view(NotTorch(tb))  # "<V2" from CAI: DLPack says BF16
    assert (vg.dtype, vg.strides, vg.ptr, vg.device) == (ip.bfloat16, (1, 5), tb.data_ptr(), "nvidia")
    vc = as_view(t.cpu())  # a CPU tensor is a CPU array
    assert vc.device == "cpu" and vc.dtype == np.float32
    d = ip.DeviceArray.from_numpy(host.astype(ip.bfloat16))
    back = torch.from_dlpack(d)
    assert back.dtype == torch.bfloat16 and back.data_ptr() == d.ptr
    assert np.array_equal(back.float().cpu().numpy(), host.astype(ip.bfloat16).astype(np.float32))
    out = empty_like(v, (2, 2))
    assert isinstance(out, torch.Tensor) and out.is_cuda
    cupy = pytest.importorskip("cupy")
    c = cupy.asarray(host)
    vc = as_view(c)
    assert vc.ptr == c.data.ptr and vc.device == "nvidia"
    assert cupy.asarray(ip.DeviceArray.from_numpy(host)).get().tolist() == host.tolist()


@pytest.mark.gpu
def test_streams_and_workspace_on_gpu():
    from cuda.core import Device

    dev = Device(0)
    dev.set_current()
    s = dev.create_stream()
    assert stream_pointer(s) == int(s.handle)
    w = ip.Workspace("nvidia", 4096, stream=s)
    assert w.ptr % 256 == 0 and w.size == 4096
    h = ip.Handle("nvidia", 0)
    assert (h.device, h.device_id) == ("nvidia", 0)
    assert ip.get_device() == ("cpu", 0)  # creating a handle restores the thread's device
    d = ip.DeviceArray.empty((1000,), "float32", stream=s)
    s.sync()
    assert d.size == 1000
