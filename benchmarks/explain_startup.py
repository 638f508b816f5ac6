"""Start-up of `tilefit explain` on a one-line log, for one or more source trees, interleaved.

usage: python benchmarks/explain_startup.py SRC [SRC ...] [--runs 20]

Each SRC is put on PYTHONPATH of a child `python -m tilefit explain LOG`; the runs alternate between the trees
so that a changing machine load affects them alike. Prints the median wall and CPU (user+sys of the child)
seconds per tree. To compare with main: `git archive main | tar -x -C /tmp/main` and pass /tmp/main/src.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINE = (
    "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 262144, "
    "Hardware limit: 232448.\n"
)


def _run(src: str, log: Path) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=src)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "tilefit", "explain", str(log)], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("srcs", nargs="+")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "one.log"
        log.write_text(LINE, encoding="utf-8")
        for src in args.srcs:  # warm the YAML copies and the OS cache
            _run(src, log)
        times: dict[str, list[tuple[float, float]]] = {src: [] for src in args.srcs}
        for _ in range(args.runs):
            for src in args.srcs:
                times[src].append(_run(src, log))
    for src, runs in times.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"{src}: wall {wall:.3f} s, cpu {cpu:.3f} s (median of {len(runs)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
