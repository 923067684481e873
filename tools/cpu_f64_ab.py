"""Session 28: LPNorm F64 on the CPU, min and median of 15 calls a shape, for an A/B of two builds
(INFINIOP_LIBRARY picks the library; run it once per library, interleaved, and compare). With
--save DIR the outputs go to DIR/TAG_shape_axis_p.npy for a bitwise comparison.

  PYTHONPATH=. python3 tools/cpu_f64_ab.py TAG [--save DIR]
"""
import sys
import time

import numpy as np

import infiniop_py as ip

CASES = [((4096, 4096), 1, 2), ((4096, 4096), 0, 2), ((8192, 1024), 0, 2), ((2048, 2048), 0, 2),
         ((2048, 2048), 1, 2), ((1024, 4096), 0, 1), ((3000, 1000), 0, 3)]


def main():
    tag = sys.argv[1]
    save = sys.argv[sys.argv.index("--save") + 1] if "--save" in sys.argv else None
    rng = np.random.default_rng(7)
    for shape, axis, p in CASES:
        x = rng.standard_normal(shape) * 3
        x[5, 7], x[-1, 0] = 1e300, 1e-300  # columns and rows that need the scaled sum
        y = np.empty_like(x)
        ts = []
        for _ in range(15):
            t = time.perf_counter()
            ip.lp_norm(x, axis=axis, p=p, out=y)
            ts.append(time.perf_counter() - t)
        ts.sort()
        if save:
            np.save(f"{save}/{tag}_{shape[0]}x{shape[1]}_{axis}_{p}.npy", y)
        print(f"{shape} axis {axis} p {p} {tag}: min {ts[0] * 1e3:.2f} ms, median {ts[7] * 1e3:.2f}", flush=True)


if __name__ == "__main__":
    main()
