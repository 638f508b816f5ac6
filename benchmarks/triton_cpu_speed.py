"""Speed of tilefit's Triton estimator on a CPU (issue 3): fast vs full compile, analytic throughput and error.

    .venv/bin/python benchmarks/triton_cpu_speed.py [--per-kernel 12] [--out results.md]

fast and full run in this process with caches off (tilefit's and Triton's: TRITON_ALWAYS_COMPILE=1),
one config at a time, so seconds are per config on one core. analytic: the one-time model learning is
reported apart from the per-config formula, which is timed over every config of the kernel's space.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

os.environ["TRITON_ALWAYS_COMPILE"] = "1"  # a full compile must not be a Triton cache hit

import triton
import yaml

from tilefit.estimate.triton import TritonEstimator, load_module_file

KERNELS = Path(__file__).resolve().parent.parent / "examples" / "kernels"
TARGETS = ("sm_90", "sm_86", "gfx942")


def load(name: str) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    spec = yaml.safe_load((KERNELS / f"{name}.yaml").read_text())
    path, kname = spec["kernel"].split(":")
    kernel = getattr(load_module_file(str(KERNELS / path)), kname)
    keys = list(spec["space"])
    space = [dict(zip(keys, v, strict=True)) for v in itertools.product(*(spec["space"][k] for k in keys))]
    return kernel, spec["args"], space


def bench(name: str, per_kernel: int) -> list[str]:
    kernel, args, space = load(name)
    est = TritonEstimator(kernel, signature=args, cache=False)
    sample = space[:: max(1, len(space) // per_kernel)][:per_kernel]
    rows = []
    for target in TARGETS:
        est.estimate(sample[0], target)  # warm the backend's imports once
        fast = est.estimate_many(sample, [target], workers=1)
        full = est.estimate_many(sample, [target], mode="full", workers=1)
        same = sum(f.bytes == g.bytes for f, g in zip(fast, full, strict=True))
        t_fast = statistics.mean(u.seconds for u in fast)
        t_full = statistics.mean(u.seconds for u in full)
        start = time.perf_counter()
        model = TritonEstimator(kernel, signature=args, cache=False)
        model.estimate(space[0], target, mode="analytic")
        learn = time.perf_counter() - start
        start = time.perf_counter()
        analytic_all = model.estimate_many(space, [target], mode="analytic")
        rate = len(space) / (time.perf_counter() - start)
        analytic = model.estimate_many(sample, [target], mode="analytic")
        errs = [(a.bytes - f.bytes) / max(f.bytes, 1) for a, f in zip(analytic, fast, strict=True)
                if a.bytes is not None and f.bytes is not None]
        worst = max(errs, key=abs) if errs else float("nan")
        assert len(analytic_all) == len(space)
        rows.append(f"| {name} | {target} | {len(sample)} | {t_fast:.3f} | {t_full:.3f} | {t_full / t_fast:.1f}x "
                    f"| {same}/{len(sample)} | {learn:.2f} | {rate:,.0f} | {worst:+.1%} |")
        print(rows[-1], flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-kernel", type=int, default=12)
    parser.add_argument("--out")
    opts = parser.parse_args()
    head = [f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.processor() or platform.system()}; "
            f"python {platform.python_version()}, triton {triton.__version__}", "",
            "| kernel | target | configs | fast s/config | full s/config | full/fast | fast == full bytes "
            "| analytic learn s | analytic configs/s | analytic worst error vs fast |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    print("\n".join(head), flush=True)
    rows = [r for name in ("matmul", "attention", "softmax") for r in bench(name, opts.per_kernel)]
    text = "\n".join(head + rows)
    if opts.out:
        Path(opts.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
