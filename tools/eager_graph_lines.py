"""Session 48: behind_sweep.py case lines timed eager (the sweep's measure) and as CUDA-graph replays
(the kernels' own time, host and launch out), ours and PyTorch's, with the kernels our call launched:
whether a short call behind PyTorch loses on the device or on the host. Mul and Rearrange lines (their
bench modules have graph rows); others are timed eager only.
    PYTHONPATH=.:tools python3 tools/eager_graph_lines.py FILE [N]    (the first N lines of FILE)"""
import sys

from behind_sweep import case_of, run_case
from infiniop_py.bench import bench_mul, harness
from split_eager import kernels


def rearrange_graph_row(case):
    """bench_rearrange's graph note as a row: both libraries' calls replayed from CUDA graphs."""
    ours, theirs, sets = case._graph

    def graph_us(make_call):
        return harness.time_cuda_graph([lambda _s, k=k: make_call(k, True)() for k in range(sets)], per_graph=16)

    return harness.Row("rearrange", case.name, graph_us(ours), graph_us(theirs), case.bytes_moved,
                       harness.copy_roofline_gbps(), True, "graph replays (checked eager)")


GRAPH_ROWS = {"mul": bench_mul.graph_row, "rearrange": rearrange_graph_row}


def main(path, count):
    descs = [line.split(": ours ")[0].strip() for line in open(path) if line.strip()][:count]
    for desc in descs:
        case = case_of(desc)
        if case is None:
            print(f"{desc}: not understood", flush=True)
            continue
        eager = run_case(case)
        graph_row = GRAPH_ROWS.get(case.op)
        g = graph_row(case) if graph_row and eager.ok else None
        graph = f"graph {g.ours_us:.2f} us (torch {g.torch_us:.2f}), ok {g.ok}" if g else "graph -"
        print(f"{desc}: eager {eager.ours_us:.2f} us (torch {eager.torch_us or float('nan'):.2f}), {graph}, "
              f"ok {eager.ok} [{kernels(case)}]", flush=True)
        del case
        harness.torch().cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 30)
