#!/usr/bin/env bash
# Where the warps of our kernels wait, for the cases below their goals (issues 12, 13): ncu's
# warp-state sampling of one launch per case (the 4th call: caches, code and clocks warm), from
# the repository root on the GPU machine after `source .gpu/setup.sh` and a build:
#     bash tools/ncu_stalls.sh [case ...]        (default: every case of tools/ncu_cases.py; ~10 s each)
# Writes $OUT/ncu_stalls.txt (every raw metric of the sections) and prints, per case, the kernel,
# its duration and the largest stall reasons in cycles per issued instruction. The session-6
# finding this checks for: the sampling kernel's warps spent 45% of their time on "no instruction"
# (instruction fetch).
set -u
OUT=${OUT:-/tmp}
export PYTHONPATH="$PWD:${PYTHONPATH:-}"
cases=("$@")
[ ${#cases[@]} -eq 0 ] && read -r -a cases <<<"$(python3 tools/ncu_cases.py list)"
for c in "${cases[@]}"; do
    echo "=== $c" >>"$OUT/ncu_stalls.txt"
    timeout 120 ncu --clock-control none --kernel-name-base demangled -k regex:infini --launch-skip 3 --launch-count 1 \
        --section WarpStateStats --section SpeedOfLight --section LaunchStats --page raw \
        python3 tools/ncu_cases.py "$c" >>"$OUT/ncu_stalls.txt" 2>&1
    echo "=== $c rc $?" >>"$OUT/ncu_stalls.txt"
done
python3 - "$OUT/ncu_stalls.txt" <<'PY'
import re, sys
case, rows = None, {}
for line in open(sys.argv[1]):
    m = re.match(r"=== (\S+)$", line.strip())
    if m:
        case = m.group(1); rows[case] = {"stalls": {}}; continue
    if case is None:
        continue
    f = line.split()
    if len(f) >= 3 and f[0].startswith("smsp__average_warps_issue_stalled_") and f[0].endswith("_per_issue_active.ratio"):
        rows[case]["stalls"][f[0][len("smsp__average_warps_issue_stalled_"):-len("_per_issue_active.ratio")]] = float(f[-1].replace(",", ""))
    elif len(f) >= 3 and f[0] == "gpu__time_duration.sum":
        rows[case]["us"] = f[-2] + " " + f[-1]
    elif re.match(r"\s+\S+.*\(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)", line) and "kernel" not in rows[case]:
        rows[case]["kernel"] = line.strip()[:100]
for case, r in rows.items():
    top = sorted(r["stalls"].items(), key=lambda kv: -kv[1])[:5]
    total = sum(r["stalls"].values())
    print(f"{case}: {r.get('us', '?')}, stall cycles per issue {total:.1f}: "
          + ", ".join(f"{k} {v:.1f}" for k, v in top))
    print(f"    {r.get('kernel', '?')}")
PY
