"""Unrolled score copies on a TPU generation: libtpu's spills against the model's `mosaic_unrolled_copy_pct`.

`--spill` compiles configs at the kernel's own limit and prints libtpu's VMEM report (windows, scratch,
SPILL); the sweep (no compile) recomputes the analytic size of every row of the benchmark's rows file whose
kernel unrolls more than one copy of its scores, for each candidate share, against the exact size:

    python benchmarks/pallas_unrolled_share.py --target tpu7x --pcts 40,60,75,90,100
    python benchmarks/pallas_unrolled_share.py --target tpu7x --spill flash:1024,1024,512 splash:1024,2048,1024
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples" / "kernels"))

from tilefit.estimate import pallas_report  # noqa: E402

pallas_report.enable()  # before libtpu starts

import pallas_real  # noqa: E402

from tilefit.estimate import pallas_model  # noqa: E402
from tilefit.estimate.pallas import PallasEstimator  # noqa: E402
from tilefit.estimate.pallas_compile import TopologyCache, compile_once, quiet_libtpu  # noqa: E402
from tilefit.estimate.pallas_layout import CallLayout  # noqa: E402
from tilefit.targets import Target, get_target  # noqa: E402

ROWS = ROOT / "benchmarks" / "pallas_real.rows.jsonl"


def _main_call(est: PallasEstimator, config: dict[str, int], target: str) -> CallLayout:
    return max(est.layouts(config, target), key=lambda c: c.block_bytes)


def _with_share(target: Target, pct: int) -> Target:
    limits = dict(target.limits)
    limits["mosaic_unrolled_copy_pct"] = dataclasses.replace(limits["mosaic_unrolled_copy_pct"], value=pct)
    return dataclasses.replace(target, limits=limits)


def sweep(target: str, pcts: list[int]) -> None:
    """Analytic error vs exact, per candidate share, on the rows with more than one unrolled copy."""
    base = get_target(target)
    print("| kernel | config | copies | scores (KiB) | " + " | ".join(f"{p} %" for p in pcts) + " |")
    print("|---|---|---|---|" + "---|" * len(pcts))
    ests: dict[str, PallasEstimator] = {}
    for line in ROWS.read_text().splitlines():
        r = json.loads(line)
        exact = r["exact"]["bytes"]
        if r["target"] != target or r["kernel"] == "ragged_paged" or not exact:
            continue
        est = ests.setdefault(r["kernel"], PallasEstimator(pallas_real.CASES[r["kernel"]][0]))
        call = _main_call(est, r["config"], target)
        if call.reduced_copies < 2:
            continue
        errs = [(pallas_model.smallest_limit(_with_share(base, p), call) - exact) / exact for p in pcts]
        cfg = ",".join(str(v) for v in r["config"].values())
        print(f"| {r['kernel']} | {cfg} | {call.reduced_copies} | {call.reduced_value // 1024} | "
              + " | ".join(f"{100 * e:+.1f}%" for e in errs) + " |")


def spill(target: str, specs: list[str]) -> None:
    """libtpu's VMEM report at the kernel's own limit: total, windows + scratch, SPILL, SPILL per score copy."""
    tgt = get_target(target)
    topo = TopologyCache()
    with quiet_libtpu():
        for spec in specs:
            name, _, values = spec.partition(":")
            kernel, configs = pallas_real.CASES[name]
            config = dict(zip(configs[0], (int(v) for v in values.split(",")), strict=True))
            call = _main_call(PallasEstimator(kernel), config, target)
            fn, args = kernel.instantiate(config, target)
            att = compile_once(fn, args, topo.device(tgt.topology or ""), None, trace_on_device=name != "splash")
            rep = att.report
            if rep is None:
                print(f"{name} {values} {target}: no report ({att.error})")
                continue
            spilled = rep.spill_bytes()
            print(f"{name} {values} {target}: {rep.bytes} B = {rep.bytes - spilled} windows+scratch + {spilled} "
                  f"SPILL; scores {call.reduced_value} B x {call.reduced_copies} unrolled: "
                  f"{spilled / call.reduced_value:.2f} copies spilled", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--target", default="tpu7x")
    p.add_argument("--pcts", default="40,50,60,75,90,100")
    p.add_argument("--spill", nargs="*", help="kernel:config values (in the benchmark's key order)")
    a = p.parse_args()
    if a.spill:
        spill(a.target, a.spill)
    else:
        sweep(a.target, [int(x) for x in a.pcts.split(",")])


if __name__ == "__main__":
    main()
