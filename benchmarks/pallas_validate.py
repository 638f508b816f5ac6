"""Check the Pallas TPU estimator against real libtpu compiles (no TPU needed).

For each bundled kernel and config on each generation: analytic scoped VMEM vs libtpu's (the smallest
vmem_limit_bytes that compiles), and whether "fits the default scoped limit" agrees with a plain libtpu
compile at the default. Then the fitter on each kernel and generation, its choice checked by a compile.

    .venv/bin/python benchmarks/pallas_validate.py [--targets v5e,v6e,tpu7x] [--json out.json]

Prints a Markdown table (the one in BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tilefit.estimate.pallas import PallasEstimator, PallasKernel, load_kernel, tpu_target
from tilefit.estimate.pallas_compile import TopologyCache, compile_once
from tilefit.fit.pallas import fit_pallas as fit

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "examples" / "kernels"

# (kernel file, problem params, configs): spread from tiny to past the 16/32 MiB defaults.
CASES: list[tuple[str, dict[str, Any], list[dict[str, int]]]] = [
    ("pallas_matmul.py", {"m": 4096, "n": 4096, "k": 4096}, [
        {"bm": 128, "bn": 128, "bk": 128}, {"bm": 256, "bn": 256, "bk": 256},
        {"bm": 512, "bn": 512, "bk": 512}, {"bm": 512, "bn": 512, "bk": 1024},
        {"bm": 1024, "bn": 1024, "bk": 512}, {"bm": 1024, "bn": 1024, "bk": 1024},
        {"bm": 256, "bn": 512, "bk": 2048}, {"bm": 2048, "bn": 1024, "bk": 512},
        {"bm": 1024, "bn": 2048, "bk": 1024}, {"bm": 2048, "bn": 2048, "bk": 512},
    ]),
    ("pallas_flash_attention.py", {"batch_heads": 8, "seq": 4096, "head_dim": 128}, [
        {"block_q": 128, "block_kv": 128}, {"block_q": 256, "block_kv": 256},
        {"block_q": 256, "block_kv": 512}, {"block_q": 512, "block_kv": 512},
        {"block_q": 512, "block_kv": 1024}, {"block_q": 1024, "block_kv": 512},
        {"block_q": 1024, "block_kv": 1024}, {"block_q": 2048, "block_kv": 1024},
        {"block_q": 1024, "block_kv": 2048}, {"block_q": 2048, "block_kv": 2048},
    ]),
    ("pallas_elementwise.py", {"rows": 8192, "cols": 8192}, [
        {"block_rows": 256, "block_cols": 512}, {"block_rows": 512, "block_cols": 1024},
        {"block_rows": 1024, "block_cols": 1024}, {"block_rows": 1024, "block_cols": 2048},
        {"block_rows": 2048, "block_cols": 2048}, {"block_rows": 1024, "block_cols": 8192},
        {"block_rows": 2048, "block_cols": 4096}, {"block_rows": 256, "block_cols": 1024},
        {"block_rows": 512, "block_cols": 8192}, {"block_rows": 128, "block_cols": 4096},
    ]),
]


def _kernel(fname: str, params: dict[str, Any]) -> PallasKernel:
    k = load_kernel(f"{KERNELS / fname}:kernel")
    return dataclasses.replace(k, params={**k.params, **params})


def _plain_compile_fits(k: PallasKernel, config: dict[str, int], target: str, topo: TopologyCache) -> bool | None:
    """A compile at the kernel's own limit (the default): the ground truth for 'fits'."""
    fn, args = k.instantiate(config)
    att = compile_once(fn, args, topo.device(tpu_target(target).topology or ""), None)
    return None if att.error else att.ok


def validate(targets: list[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    topo = TopologyCache()
    for fname, params, configs in CASES:
        k = _kernel(fname, params)
        est = PallasEstimator(k)
        for t in targets:
            for cfg in configs:
                a = est.estimate(cfg, t, "analytic")
                e = est.estimate(cfg, t, "exact")
                plain = _plain_compile_fits(k, cfg, t, topo)
                rows.append(_row(fname, cfg, t, a, e, plain))
                print(_fmt(rows[-1]), file=sys.stderr, flush=True)
    return rows


def _row(fname: str, cfg: dict[str, int], t: str, a: Any, e: Any, plain: bool | None) -> dict[str, Any]:
    over = bool(e.vmem and e.vmem.over_physical)  # libtpu then gives only a lower bound
    err = None if over or not (a.bytes and e.bytes) else 100.0 * (a.bytes - e.bytes) / e.bytes
    return {
        "kernel": fname.removesuffix(".py").removeprefix("pallas_"), "config": cfg, "target": t,
        "blocks": sum(n for _, n in a.vmem.buffers) if a.vmem else None, "analytic": a.bytes,
        "exact": e.bytes, "err_pct": err, "limit": e.limit, "physical": e.vmem.physical if e.vmem else None,
        "analytic_fits": a.fits, "exact_fits": e.fits, "libtpu_fits": plain,
        "compiles": e.vmem.compiles if e.vmem else None,
        "exact_s": round(e.seconds, 2), "error": e.error or a.error, "over_physical": over,
    }


FIT_SPACES: dict[str, dict[str, list[int]]] = {
    "pallas_matmul.py": {"bm": [256, 512, 1024], "bn": [256, 512, 1024], "bk": [256, 512, 1024]},
    "pallas_flash_attention.py": {"block_q": [256, 512, 1024, 2048], "block_kv": [256, 512, 1024, 2048]},
    "pallas_elementwise.py": {"block_rows": [256, 512, 1024], "block_cols": [512, 1024, 2048]},
}


def fit_checks(targets: list[str]) -> list[dict[str, Any]]:
    """The fitter per kernel, generation and mode, every decision checked by a plain libtpu compile.

    Without raising the limit: the chosen config compiles at the default limit and every config ranked
    above it does not. With raising allowed: an advised vmem_limit_bytes compiles and the config does not
    compile at the default (so the raise is needed).
    """
    out: list[dict[str, Any]] = []
    topo = TopologyCache()
    for fname, params, _ in CASES:
        k = dataclasses.replace(_kernel(fname, params), space=FIT_SPACES[fname])
        for t in targets:
            dev = topo.device(tpu_target(t).topology or "")
            for mode in ("analytic", "exact"):
                start = time.perf_counter()
                kept = fit(k, t, mode=mode, allow_raise=False)  # type: ignore[arg-type]
                above = [u.config for u in kept.considered[:-1]]
                ok = _compiles(k, kept.config, dev, None) and not any(_compiles(k, c, dev, None) for c in above)
                raised = fit(k, t, mode=mode)  # type: ignore[arg-type]
                if raised.vmem_limit_bytes is not None:
                    ok = ok and _compiles(k, raised.config, dev, raised.vmem_limit_bytes)
                    ok = ok and not _compiles(k, raised.config, dev, None)
                out.append({
                    "kernel": fname, "target": t, "mode": mode, "config": dict(kept.config),
                    "rejected_above": len(above), "raised_config": dict(raised.config),
                    "vmem_limit_bytes": raised.vmem_limit_bytes, "agrees": ok,
                    "seconds": round(time.perf_counter() - start, 1),
                })
                print(out[-1], file=sys.stderr, flush=True)
    return out


def _compiles(k: PallasKernel, config: dict[str, int], device: Any, limit: int | None) -> bool:
    fn, args = k.instantiate(config)
    return compile_once(fn, args, device, limit).ok


def _mib(n: int | None) -> str:
    return "-" if n is None else f"{n / (1 << 20):.2f}"


def _fmt(r: dict[str, Any]) -> str:
    cfg = ",".join(str(v) for v in r["config"].values())
    err = "-" if r["err_pct"] is None else f"{r['err_pct']:+.1f}%"
    exact = (">" if r["over_physical"] else "") + _mib(r["exact"])
    agree = "yes" if r["analytic_fits"] == r["libtpu_fits"] else "NO"
    return (f"| {r['kernel']} | {cfg} | {r['target']} | {_mib(r['blocks'])} | {_mib(r['analytic'])} | "
            f"{exact} | {err} | {_mib(r['limit'])} | {r['analytic_fits']} | {r['exact_fits']} | "
            f"{r['libtpu_fits']} | {agree} | {r['compiles']} | {r['exact_s']} |")


def summary(rows: list[dict[str, Any]]) -> str:
    lines = ["| kernel | config | target | blocks+scratch MiB | analytic MiB | libtpu MiB | error | "
             "limit MiB | analytic fits | exact fits | libtpu compile fits | agree | compiles | exact s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    lines += [_fmt(r) for r in rows]
    errs = [abs(r["err_pct"]) for r in rows if r["err_pct"] is not None]
    agree = sum(r["analytic_fits"] == r["libtpu_fits"] for r in rows)
    exact_agree = sum(r["exact_fits"] == r["libtpu_fits"] for r in rows)
    within = sum(e <= 15.0 for e in errs)
    lines.append("")
    lines.append(f"{len(rows)} config x target rows; analytic within 15% of libtpu: {within}/{len(errs)} "
                 f"(median |error| {statistics.median(errs):.1f}%, max {max(errs):.1f}%); "
                 f"analytic fit decision = libtpu compile: {agree}/{len(rows)}; "
                 f"exact fit decision = libtpu compile: {exact_agree}/{len(rows)}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--targets", default="v5e,v6e,tpu7x")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--no-fit", action="store_true")
    ns = ap.parse_args()
    targets = ns.targets.split(",")
    start = time.perf_counter()
    rows = validate(targets)
    fits = [] if ns.no_fit else fit_checks(targets)
    print(summary(rows))
    if fits:
        print()
        print("| kernel | target | mode | best under default limit | ranked above, rejected | "
              "best with raised limit | vmem_limit_bytes | libtpu agrees | s |")
        print("|---|---|---|---|---|---|---|---|---|")
        for f in fits:
            cfg = ",".join(str(v) for v in f["config"].values())
            rcfg = ",".join(str(v) for v in f["raised_config"].values())
            print(f"| {f['kernel'].removesuffix('.py')} | {f['target']} | {f['mode']} | {cfg} | "
                  f"{f['rejected_above']} | {rcfg} | {f['vmem_limit_bytes'] or '-'} | {f['agrees']} | "
                  f"{f['seconds']} |")
        agree = sum(f["agrees"] for f in fits)
        print(f"\nfit decisions confirmed by libtpu compiles: {agree}/{len(fits)}")
    print(f"\ntotal {time.perf_counter() - start:.0f} s")
    if ns.json:
        ns.json.write_text(json.dumps({"rows": rows, "fits": fits}, indent=1, default=str))


if __name__ == "__main__":
    main()
