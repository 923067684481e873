"""Host and device memory across create/destroy cycles (tests/test_reliability.py's leak test,
in chunks): resident memory and free device memory after every chunk of cycles, to tell a steady
leak from a one-time allocation. Session 16: the suite's run (shards in parallel on one GPU) saw
4.0 MiB less free device memory after 100000 cycles, the test alone 4.2 MiB more resident memory.

    python3 tools/leak_probe.py [chunks] [cycles a chunk] [device: nvidia | cpu]
    python3 tools/leak_probe.py ops [device] [cycles]     (each kind of descriptor alone)
"""
import sys

sys.path.insert(0, "tests")

import infiniop_py as ip  # noqa: E402
from infiniop_py._cuda import check_cu, driver  # noqa: E402
from test_reliability import _create_destroy_cycle, _rss_bytes  # noqa: E402


def main() -> int:
    chunks = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 50000
    device = sys.argv[3] if len(sys.argv) > 3 else "nvidia"
    handle = ip.Handle(device, 0)
    free = (lambda: check_cu(driver().cuMemGetInfo(), "cuMemGetInfo")[0]) if device == "nvidia" else (lambda: 0)
    for _ in range(2000):
        _create_destroy_cycle(handle.ptr)
    base, rss = free(), _rss_bytes()
    print(f"{device}, after warm-up: free {base / 2**20:.1f} MiB, resident {rss / 2**20:.1f} MiB", flush=True)
    for c in range(chunks):
        for i in range(per):
            _create_destroy_cycle(handle.ptr)
            if i % 100 == 0:
                ip.Handle(device, 0).close()
        now = free()
        print(f"after {(c + 1) * per} cycles: device lost {(base - now) / 2**20:.2f} MiB, resident grew "
              f"{(_rss_bytes() - rss) / 2**20:.2f} MiB", flush=True)
    return 0




def per_operator(device: str, cycles: int) -> None:
    """Resident memory growth over `cycles` creates/destroys of each kind of object alone."""
    from infiniop_py._ffi import ffi, lib

    handle = ip.Handle(device, 0)
    ptr = ffi.new("struct InfiniopDescriptor **")
    tptr = ffi.new("infiniopTensorDescriptor_t *")

    def tensor(shape, dtype):
        assert lib.infiniopCreateTensorDescriptor(tptr, len(shape), ffi.new("size_t[]", list(shape)) if shape
                                                  else ffi.NULL, ffi.NULL, dtype) == 0
        return tptr[0]

    t, h, logits, index = tensor((32, 48), 13), tensor((32, 48), 12), tensor((1000,), 13), tensor((), 5)
    kinds = {
        "rearrange": (lib.infiniopCreateRearrangeDescriptor, lib.infiniopDestroyRearrangeDescriptor, (t, t)),
        "mul": (lib.infiniopCreateMulDescriptor, lib.infiniopDestroyMulDescriptor, (h, h, h)),
        "lp_norm": (lib.infiniopCreateLPNormDescriptor, lib.infiniopDestroyLPNormDescriptor, (t, t, -1, 2, 1e-12)),
        "random_sample": (lib.infiniopCreateRandomSampleDescriptor, lib.infiniopDestroyRandomSampleDescriptor,
                          (index, logits)),
    }
    for name, (create, destroy, args) in kinds.items():
        for _ in range(2000):
            assert create(handle.ptr, ptr, *args) == 0 and destroy(ptr[0]) == 0
        rss = _rss_bytes()
        for _ in range(cycles):
            assert create(handle.ptr, ptr, *args) == 0 and destroy(ptr[0]) == 0
        print(f"{device} {name}: resident grew {(_rss_bytes() - rss) / 2**20:.2f} MiB over {cycles} cycles",
              flush=True)
    rss = _rss_bytes()
    for _ in range(cycles // 100):
        ip.Handle(device, 0).close()
    print(f"{device} handles: resident grew {(_rss_bytes() - rss) / 2**20:.2f} MiB over {cycles // 100} handles",
          flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "ops":
        per_operator(sys.argv[2] if len(sys.argv) > 2 else "nvidia", int(sys.argv[3]) if len(sys.argv) > 3 else 100000)
        sys.exit(0)
    sys.exit(main())
