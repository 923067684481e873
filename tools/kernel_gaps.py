"""Session 23: where the transposes' eager calls lose against graph replays (4097² F16: 26.7
against 26.1 µs a call with programmatic dependent launch). CUPTI's kernel records (through
torch.profiler) of 120 eager calls queued back to back and of the same calls replayed from CUDA
graphs of 20, for 4096² (tensor-copy tiles) and 4097² (odd word tiles). Prints, per case and mode,
medians over the steady calls: start-to-start interval (the time a call takes), kernel duration
(start to end, a PDL kernel's wait for its predecessor included) and overlap (the previous
kernel's end minus this one's start: > 0 when this one started early).

  PYTHONPATH=. python3 tools/kernel_gaps.py
"""
import json
import os
import statistics
import tempfile

import torch
from torch.profiler import ProfilerActivity, profile

import infiniop_py as ip
from eager_probe import transposes  # tools/, beside this script

CALLS = 120


def kernels(run):
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        run()
        torch.cuda.synchronize()
    path = os.path.join(tempfile.mkdtemp(), "trace.json")
    prof.export_chrome_trace(path)
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    ks = [e for e in events if e.get("cat") == "kernel"]
    return sorted(((float(e["ts"]), float(e["dur"]), e["name"]) for e in ks))


def summary(ks, skip=10):
    ks = [k for k in ks if "rearrange" in k[2] or "Tile" in k[2] or "tile" in k[2]][skip:]
    starts = [k[0] for k in ks]
    ends = [k[0] + k[1] for k in ks]
    interval = [b - a for a, b in zip(starts, starts[1:])]
    overlap = [e - s for e, s in zip(ends, starts[1:])]
    return (len(ks), statistics.median(interval), statistics.median([k[1] for k in ks]),
            statistics.median(overlap), min(overlap), max(overlap), ks[0][2][:60] if ks else "")


def main():
    print("device:", torch.cuda.get_device_name(0), "torch", torch.__version__)
    h = ip.Handle("nvidia", 0)
    stream = torch.cuda.Stream()
    for n in (4096, 4097):
        desc, ptrs, held = transposes(h, n)  # held: the buffers behind ptrs

        def eager():
            with torch.cuda.stream(stream):
                for i in range(CALLS):
                    d, s = ptrs[i % 3]
                    desc(d, s, stream=stream.cuda_stream)

        graph = torch.cuda.CUDAGraph()
        with torch.cuda.stream(stream):
            for i in range(3):  # warm-up before capture
                d, s = ptrs[i % 3]
                desc(d, s, stream=stream.cuda_stream)
        stream.synchronize()
        with torch.cuda.graph(graph, stream=stream):
            for i in range(21):
                d, s = ptrs[i % 3]
                desc(d, s, stream=stream.cuda_stream)

        def replays():
            with torch.cuda.stream(stream):
                for _ in range(CALLS // 20):
                    graph.replay()

        for mode, run in (("eager", eager), ("graph", replays), ("eager", eager), ("graph", replays)):
            run()
            torch.cuda.synchronize()
            cnt, interval, dur, overlap, omin, omax, name = summary(kernels(run))
            print(f"{n}² {mode:5s}: {cnt:3d} kernels | interval {interval:6.2f} µs | duration {dur:6.2f} | "
                  f"overlap med {overlap:6.2f} [{omin:6.2f} {omax:6.2f}] | {name}")


if __name__ == "__main__":
    main()
