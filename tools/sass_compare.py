"""SASS of two builds' objects, per kernel: instruction counts and whether the instructions are
identical (text without addresses and encodings). For the verify scripts' A/B builds.

    python3 tools/sass_compare.py OBJ_A OBJ_B [REGEX]    (kernels whose mangled name matches REGEX)

$CUOBJDUMP names the cuobjdump to use (default: the one on PATH).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys


def kernels(obj: str) -> dict[str, list[str]]:
    """Per function of the object's SASS: its instructions without offsets and encodings."""
    sass = subprocess.run([os.environ.get("CUOBJDUMP", "cuobjdump"), "-sass", obj], capture_output=True,
                          text=True, check=True).stdout
    out: dict[str, list[str]] = {}
    name = None
    for line in sass.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            name = m.group(1)
            out[name] = []
        elif name and re.match(r"\s*/\*[0-9a-f]{4,}\*/", line):
            out[name].append(re.sub(r"/\*[0-9a-f]{4,}\*/|;\s*/\*.*", "", line).strip())
    return out


def main() -> int:
    a, b = kernels(sys.argv[1]), kernels(sys.argv[2])
    pattern = re.compile(sys.argv[3] if len(sys.argv) > 3 else ".")
    names = [k for k in sorted(a) if pattern.search(k)]
    for k in names:
        verdict = "identical" if a[k] == b.get(k) else "different" if k in b else "missing in B"
        print(f"{k}: A {len(a[k])} B {len(b.get(k, []))} instructions, {verdict}")
    if not names:
        print(f"no kernel matching {pattern.pattern} in {sys.argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
