"""In-process CPU time of match() on the review's adversarial logs, for one or more source trees.

usage: python benchmarks/explain_inproc.py SRC [SRC ...]

Each SRC is imported in its own child process (best of 3 runs of `match()` per case, CPU seconds of that process
only), which is steadier on a shared machine than timing whole CLI runs. To compare with main:
`git archive main | tar -x -C /tmp/main` and pass /tmp/main/src.
"""

from __future__ import annotations

import subprocess
import sys

CHILD = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from tilefit.kb.repository import load_kb
from tilefit.match.matcher import match
kb = load_kb()
cases = {
    "oor_lines 1000": (
        "OutOfResources: out of resource: shared memory, Required: 262144, Hardware limit: 232448.\n" * 1000
    ),
    "oor_distinct 2000": "".join(
        f"OutOfResources: out of resource: shared memory, Required: {200000 + i}, Hardware limit: 101376.\n"
        for i in range(2000)),
    "vmem_scan 40000": "CompileTimeScopedVmemOom " * 40000,
}
match("warm up", kb)
for name, text in cases.items():
    match(text[:1000], kb)
    runs = []
    for _ in range(3):
        start = time.process_time()
        match(text, kb)
        runs.append(time.process_time() - start)
    print(f"{sys.argv[1]}  {name}: {min(runs):.3f} s")
"""


def main(argv: list[str]) -> int:
    for src in argv:
        subprocess.run([sys.executable, "-c", CHILD, src], check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
