"""CPU seconds of `tilefit check`'s sizing of SGLang tables, in this process (one worker, no result cache).

    PYTHONPATH=<checkout>/src python benchmarks/check_cpu.py --root <unpacked wheel> --tables DIR --tag NAME

Every entry of every table under DIR, each GEMM, on sm_80, sm_86, sm_89, sm_90, sm_120 and gfx942, sized
as `tilefit check --no-fix --workers 1` sizes them. Two checkouts started at the same moment see the same
load, so their CPU seconds compare on a shared machine; the rows go to NAME.json to check they are equal.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from tilefit.check import moe, run
from tilefit.check.size import size_jobs
from tilefit.check.tables import find_tables, read_table
from tilefit.settings import Settings
from tilefit.targets import get_target


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True, help="a folder holding the wheel's sglang/ files unpacked")
    ap.add_argument("--tables", required=True, help="a folder of tables (or one table)")
    ap.add_argument("--tag", required=True)
    ap.add_argument("--targets", default="sm_80,sm_86,sm_89,sm_90,sm_120,gfx942")
    args = ap.parse_args()
    kernels = run.load_kernels(Path(args.root) / moe.SOURCE, Settings.from_env())
    tables = [read_table(path) for path in find_tables([args.tables])]
    targets = [get_target(t) for t in args.targets.split(",")]
    _, jobs = run.plan_jobs(tables, targets, kernels, moe.Problem())
    import triton  # noqa: F401  (its import is not what is measured)

    cpu, wall = time.process_time(), time.perf_counter()
    usages = size_jobs(jobs, Settings(use_cache=False), workers=1)
    print(f"{args.tag}: {len(jobs)} results, {time.process_time() - cpu:.1f} s CPU, "
          f"{time.perf_counter() - wall:.1f} s wall, load average {os.getloadavg()[0]:.1f}")
    with open(f"{args.tag}.json", "w", encoding="utf-8") as f:
        json.dump([(u.target, u.bytes, u.error) for u in usages], f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
