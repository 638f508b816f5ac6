"""Where `tilefit check`'s seconds go: cProfile of N random tasks of SGLang's bundle, in this process.

    python benchmarks/check_profile.py --root <unpacked wheel> --tasks 40 [--no-prefix] [--count-only [--shards N]]

A task is what one worker call compiles: one kernel specialisation in one TTIR class, sized for every
(options, target) of it. --count-only prints the bundle's results, distinct compiles before and after the
same-bytes groups of data/check/same_bytes.yaml (fp8 TTIR taken from the launch's fp8 arguments), tasks,
and with --shards N the distinct compiles of each `--shard I/N`. Otherwise it profiles N random tasks in
this process and prints their CPU seconds; --no-prefix runs make_ttgir whole for every compile.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import pstats
import random
import time
from collections.abc import Iterable
from pathlib import Path

from tilefit.check import compiles, moe, run, size
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
    ap.add_argument("--shards", type=int, default=1)
    ap.add_argument("--no-prefix", action="store_true")
    ap.add_argument("--memo-count", action="store_true", help="lower every task (minutes): what the memo and "
                    "the shared prefixes save")
    args = ap.parse_args()
    root = Path(args.root)
    kernels = run.load_kernels(root / moe.SOURCE, Settings.from_env())
    tables = [read_table(path) for path in find_tables([str(root / CONFIGS)])]
    targets = [get_target(t) for t in args.targets.split(",")]
    plan, jobs = run.plan_jobs(tables, targets, kernels, moe.Problem())
    shards = [run.in_shard(plan, jobs, (i, args.shards)) for i in range(1, args.shards + 1)]
    shard_of = [next(i + 1 for i, s in enumerate(shards) if s[row]) for row in range(len(jobs))]
    version = triton_version()
    distinct = {size._key(j, version): j for j in jobs}
    tasks = size._tasks(list(distinct.values()))
    print(f"{len(jobs)} results, {len(distinct)} distinct compiles, {len(_grouped(distinct.values()))} after "
          f"same-bytes groups, {len(tasks)} tasks (Triton {version})")
    if args.count_only:
        for i in range(1, args.shards + 1 if args.shards > 1 else 1):
            mine = {size._key(j, version): j for j, s in zip(jobs, shard_of, strict=True) if s == i}
            print(f"--shard {i}/{args.shards}: {len(mine)} distinct compiles, {len(_grouped(mine.values()))} "
                  "after same-bytes groups")
        return 0
    compiles.PREFIX = not args.no_prefix
    if args.memo_count:
        return _memo_count(tasks)
    sample = random.Random(1).sample(tasks, args.tasks)
    compiles._run_task(sample[0])  # imports and the first compile out of the profile
    profile = cProfile.Profile()
    start, cpu = time.perf_counter(), time.process_time()
    profile.enable()
    for task in sample:
        compiles._run_task(task)
    profile.disable()
    print(f"{sum(len(t.jobs) for t in sample)} launch x target results in {time.perf_counter() - start:.1f} s, "
          f"{time.process_time() - cpu:.1f} s of CPU (profiled)")
    pstats.Stats(profile).sort_stats("tottime").print_stats(20)
    return 0


def _memo_count(tasks: list[size._Task]) -> int:
    """Distinct compiles within each task (what a worker without the memo runs), across the bundle (with
    it), and how many of them run only the rest of make_ttgir after a prefix shared with another."""
    from tilefit.estimate.triton_kernel import unwrap_kernel
    from tilefit.userfile import load_module_file

    per_task, bundle, prefixes = 0, set(), set()
    for task in tasks:
        kernel = unwrap_kernel(getattr(load_module_file(task.module_path), task.kernel))
        pairs = {p[0]: p[1] for p in compiles.task_keys(kernel, task)[0] if p is not None}
        per_task += len(pairs)
        bundle.update(pairs)
        prefixes.update((k[0], k[1], c.prefix) if c.prefix else k for k, c in pairs.items())
    print(f"{per_task} compiles task by task, {len(bundle)} with the memo across tasks, {len(prefixes)} "
          f"make_ttgir prefixes ({len(bundle) - len(prefixes)} compiles run only the rest)")
    return 0


def _grouped(jobs: Iterable[Job]) -> set[str]:
    version = triton_version()
    return {size._key(dataclasses.replace(j, target=size.same_bytes_group(j.target, _ttir_hint(j))), version)
            for j in jobs}


def _ttir_hint(job: Job) -> str:
    return "f8E" if any("fp8" in str(getattr(a, "dtype", "")) for a in job.launch.args.values()) else ""


if __name__ == "__main__":
    raise SystemExit(main())
