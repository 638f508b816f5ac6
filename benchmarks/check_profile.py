"""Where `tilefit check`'s seconds go: cProfile of N random tasks of SGLang's bundle, in this process.

    python benchmarks/check_profile.py --root <unpacked wheel> --tasks 40 [--count-only]

A task is what one worker call compiles: one kernel specialisation in one TTIR class, sized for every
(options, target) of it. --count-only prints the bundle's results, distinct compiles before and after the
same-bytes groups of data/check/same_bytes.yaml (fp8 TTIR taken from the launch's fp8 arguments), tasks.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import pstats
import random
import time
from pathlib import Path

from tilefit.check import moe, run, size
from tilefit.check.size import Job, triton_version
from tilefit.check.tables import find_tables, read_table
from tilefit.settings import Settings
from tilefit.targets import get_target

CONFIGS = "sglang/srt/layers/moe/moe_runner/triton_utils/configs"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True, help="a folder holding the wheel's sglang/ files unpacked")
    ap.add_argument("--targets", default="sm_80,sm_86,sm_89,sm_90,sm_120,gfx942")
    ap.add_argument("--tasks", type=int, default=40)
    ap.add_argument("--count-only", action="store_true")
    args = ap.parse_args()
    root = Path(args.root)
    kernels = run.load_kernels(root / moe.SOURCE, Settings.from_env())
    jobs = []
    for path in find_tables([str(root / CONFIGS)]):
        table = read_table(path)
        name = moe.kernel_name(table.name)
        for m in table.entries:
            for kind in moe.kinds(table):
                for t in args.targets.split(","):
                    launch = moe.launch(table, m, kind, get_target(t))
                    jobs.append(Job(str(kernels[name].module_path), name, launch, t))
    version = triton_version()
    distinct = {size._key(j, version): j for j in jobs}
    tasks = size._tasks(list(distinct.values()))
    grouped = {size._key(dataclasses.replace(j, target=size.same_bytes_group(j.target, _ttir_hint(j))), version)
               for j in distinct.values()}
    print(f"{len(jobs)} results, {len(distinct)} distinct compiles, {len(grouped)} after same-bytes groups, "
          f"{len(tasks)} tasks (Triton {version})")
    if args.count_only:
        return 0
    sample = random.Random(1).sample(tasks, args.tasks)
    size._run_task(sample[0])  # imports and the first compile out of the profile
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.enable()
    for task in sample:
        size._run_task(task)
    profile.disable()
    print(f"{sum(len(t.jobs) for t in sample)} launch x target results in {time.perf_counter() - start:.1f} s")
    pstats.Stats(profile).sort_stats("tottime").print_stats(20)
    return 0


def _ttir_hint(job: Job) -> str:
    return "f8E" if any("fp8" in str(getattr(a, "dtype", "")) for a in job.launch.args.values()) else ""


if __name__ == "__main__":
    raise SystemExit(main())
