"""Can LPNorm's Hold grid wait forever beside work on a stream of higher priority (session 32)? Each
scenario of tests/priority_cases.py (the hazard is described there) in a child process with a time limit:

    python tools/hold_starve_probe.py [--limit S] [--shape ROWSxLEN] [SCENARIO...]   (default: all, 20 s)

The library: INFINIOP_LIBRARY, or the default build. (Session 32's calls 2-3 ran this probe's first form,
commit c65da72, with the hog compiled by cupy; tests/priority_cases.py loads it as PTX through the driver.)
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(os.path.dirname(HERE), "tests", "priority_cases.py")
sys.path.insert(0, os.path.dirname(CASES))
from priority_cases import SCENARIOS  # noqa: E402


def main(argv) -> int:
    limit, shape, names = 20, "1x4194304", []
    it = iter(argv)
    for a in it:
        if a == "--limit":
            limit = int(next(it))
        elif a == "--shape":
            shape = next(it)
        else:
            names.append(a)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.dirname(HERE), env.get("PYTHONPATH")) if p)
    for name in names or list(SCENARIOS):
        t0 = time.time()
        try:
            r = subprocess.run([sys.executable, CASES, name, "--shape", shape], capture_output=True, text=True,
                               timeout=limit, env=env)
            print(f"== {name} ({shape}): rc {r.returncode}, {time.time() - t0:.1f} s\n"
                  f"{(r.stdout + r.stderr).strip()[-2000:]}", flush=True)
        except subprocess.TimeoutExpired:
            print(f"== {name} ({shape}): NO ANSWER within {limit} s (killed)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
