"""tilefit on the Pallas TPU kernels that ship with JAX and with tokamax, against plain libtpu compiles.

For each kernel x generation x config: tilefit analytic (with its libtpu check where the model is
unsure or near the limit), tilefit exact, and a plain `jax.jit(fn).trace(...).lower().compile()` for
the topology at the kernel's own limit (the truth: fits, E1001, past physical VMEM, or another error).
Rows go to a JSONL file (resumable: rows already there are skipped); `--report` prints the Markdown
tables of BENCHMARKS.md from it.

    TILEFIT_USE_CACHE=0 python benchmarks/pallas_real.py --out rows.jsonl \
        [--kernels flash,splash,gmm,paged,tokamax] [--targets v5e,v6e,tpu7x,v5p] \
        [--plain-from old_rows.jsonl] [--no-analytic]
    python benchmarks/pallas_real.py --out rows.jsonl --refresh-analytic   # after a model change
    python benchmarks/pallas_real.py --out rows.jsonl --report
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples" / "kernels"))

import pallas_shipped as shipped  # noqa: E402
import pallas_tpu_inference as tpu_inference  # noqa: E402  (kernels of PyPI tpu-inference, from its wheel)

from tilefit.estimate.pallas import PallasEstimator, PallasKernel  # noqa: E402
from tilefit.estimate.pallas_compile import TopologyCache, compile_once, quiet_libtpu  # noqa: E402
from tilefit.targets import get_target  # noqa: E402


def _c(keys: str, *rows: tuple[int, ...]) -> list[dict[str, int]]:
    names = keys.split(",")
    return [dict(zip(names, r, strict=True)) for r in rows]


# Spread from tiny blocks to past the 16/32 MiB defaults (and past 64 MiB physical on v5p/tpu7x).
CASES: dict[str, tuple[PallasKernel, list[dict[str, int]]]] = {
    "flash": (shipped.flash, _c(
        "block_q,block_k_major,block_k", (128, 128, 128), (256, 512, 256), (512, 512, 512),
        (1024, 1024, 512), (1024, 1024, 1024), (2048, 1024, 1024), (1024, 2048, 2048),
        (2048, 2048, 1024), (2048, 2048, 2048), (4096, 2048, 2048))),
    "splash": (shipped.splash, _c(
        "block_q,block_kv,block_kv_compute", (128, 128, 128), (256, 512, 256), (512, 512, 512),
        (512, 1024, 512), (1024, 1024, 1024), (1024, 2048, 1024), (2048, 2048, 512),
        (2048, 2048, 2048), (4096, 2048, 2048), (2048, 4096, 4096))),
    "gmm": (shipped.gmm, _c(
        "tm,tk,tn", (128, 128, 128), (256, 512, 512), (512, 512, 512), (512, 1024, 1024),
        (1024, 1024, 1024), (1024, 2048, 1024), (2048, 1024, 2048), (1024, 4096, 1024),
        (2048, 2048, 2048), (512, 4096, 4096),
        # from tokamax's tuned tiling tables (GMM_TILING_TUNED_LUT), tiles that divide K = N = 4096
        (1024, 128, 256), (1024, 256, 1024), (256, 1024, 2048), (256, 2048, 1024), (512, 1024, 2048))),
    "paged": (shipped.paged, _c(
        "page_size,pages_per_compute_block", (16, 8), (16, 32), (16, 128), (64, 16), (64, 64),
        (64, 256), (128, 32), (128, 128), (256, 64), (256, 256))),
    "tokamax": (shipped.tokamax_ragged_dot, _c(
        "tm,tk,tn,input_buffer_count", (128, 128, 128, 2), (512, 512, 512, 2), (512, 512, 512, 3),
        (1024, 1024, 1024, 2), (1024, 1024, 1024, 3), (1024, 2048, 1024, 2), (2048, 1024, 2048, 2),
        (2048, 2048, 2048, 2), (512, 4096, 4096, 2), (4096, 4096, 4096, 2),
        # its tuned tiling tables (GMM_TILING_TUNED_LUT), tiles that divide K = N = 4096
        (1024, 128, 256, 3), (256, 1024, 2048, 2), (512, 1024, 2048, 3), (1024, 256, 1024, 3),
        (256, 2048, 1024, 3))),
    # not used to fit the model: the check on a family it was not tuned on (v5e)
    "ragged_paged": (shipped.ragged_paged, _c(
        "kv_pages_per_block,queries_per_block", (8, 16), (8, 32), (16, 16), (16, 32), (16, 64), (32, 32),
        (32, 64), (8, 128), (64, 16), (32, 128))),
    # kernels of another project (vLLM's TPU backend, PyPI tpu-inference 0.32.0), not used to fit the model
    "ti_qmm": (tpu_inference.quantized_matmul, _c(
        "batch_block,out_block,in_block", (256, 512, 1024), (512, 1024, 2048), (512, 2048, 4096),
        (1024, 1024, 4096), (1024, 2048, 2048), (2048, 2048, 4096), (2048, 4096, 4096))),
    "ti_gmm": (tpu_inference.gmm, _c(
        "tm,tk,tn", (256, 512, 512), (512, 1024, 1024), (1024, 1024, 1024), (1024, 2048, 2048),
        (512, 4096, 2048), (2048, 2048, 2048))),
    "ti_rpa3": (tpu_inference.ragged_paged_v3, _c(
        "bq,bkv,bq_c,bkv_c", (16, 128, 16, 128), (32, 256, 32, 128), (64, 512, 32, 256), (64, 1024, 64, 512))
        # its limit defaults to all of VMEM; with a user's 4 MiB (vmem_limit_bytes) it does not fit
        + _c("bq,bkv,bq_c,bkv_c,vmem_limit_mib", (32, 256, 32, 128, 4), (16, 128, 16, 128, 4))),
}


# Which exact search made a row: 3 = libtpu's VMEM report (a compile at the limit in force, then one that
# confirms; tilefit's current one); 2 = E1001 prints with the first limit just above the model's buffers;
# rows without it came from the first limit at the analytic estimate less 3 %.
SEARCH = 3


def _plain(kernel: PallasKernel, config: dict[str, int], target: str, topo: TopologyCache) -> dict[str, Any]:
    """A plain compile at the kernel's own limit: 'fits', 'E1001', 'physical' or 'error'."""
    t0 = time.perf_counter()
    device = topo.device(get_target(target).topology or "")
    try:
        fn, args = kernel.instantiate(config, target)
        att = compile_once(fn, args, device, None)
    except Exception as exc:  # a build that fails is a row too
        return {"outcome": "error", "msg": f"{type(exc).__name__}: {exc}"[:300], "s": 0.0}
    outcome = ("fits" if att.ok else "E1001" if att.scoped_size else "physical" if att.physical_used
               else "error")
    return {"outcome": outcome, "s": round(time.perf_counter() - t0, 2), "msg": (att.error or "")[:300]}


def _usage(est: PallasEstimator, config: dict[str, int], target: str, mode: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    u = est.estimate(config, target, mode)  # type: ignore[arg-type]
    v = u.vmem
    return {"bytes": u.bytes, "fits": u.fits, "limit": u.limit, "error": u.error,
            "advice": v.vmem_limit_bytes if v else None, "compiles": v.compiles if v else None,
            "low": v.bytes_low if v else None, "unsure": list(v.unsure) if v else [],
            "over_physical": v.over_physical if v else None, "s": round(time.perf_counter() - t0, 2)}


def _key(r: dict[str, Any]) -> tuple[str, str, str]:
    return r["kernel"], r["target"], json.dumps(r["config"], sort_keys=True)


def _rows(path: Path | None) -> dict[tuple[str, str, str], dict[str, Any]]:
    if path is None or not path.exists():
        return {}
    return {_key(r): r for line in path.read_text().splitlines() for r in [json.loads(line)]}


def run(out: Path, kernels: list[str], targets: list[str], plain_from: Path | None = None,
        analytic: bool = True, only: list[int] | None = None, upto: int | None = None) -> None:
    """Rows not yet in `out`; the plain compile is taken from `plain_from` where it has the row (it does not
    depend on tilefit), the analytic column is left for `--refresh-analytic` with `analytic=False`. `only`:
    the configs (indices into the kernel's list) to run; `upto`: stop a kernel on a generation once `out`
    has that many of its rows."""
    done = set(_rows(out))
    have = Counter((k[0], k[1]) for k in done)
    plains = {k: r["plain"] for k, r in _rows(plain_from).items()}
    topo = TopologyCache()
    with out.open("a") as fh, quiet_libtpu():
        for target in targets:
            for name in kernels:
                kernel, configs = CASES[name]
                est = PallasEstimator(kernel)
                for i, cfg in enumerate(configs):
                    if (only is not None and i not in only) or (upto is not None and have[name, target] >= upto):
                        continue
                    key = (name, target, json.dumps(cfg, sort_keys=True))
                    if key in done:
                        continue
                    row = {"kernel": name, "target": target, "config": cfg, "search": SEARCH,
                           "analytic": _usage(est, cfg, target, "analytic") if analytic else None,
                           "exact": _usage(est, cfg, target, "exact"),
                           "plain": plains.get(key) or _plain(kernel, cfg, target, topo)}
                    fh.write(json.dumps(row) + "\n")
                    have[name, target] += 1
                    fh.flush()
                    print(name, target, cfg, row["exact"]["bytes"], row["exact"]["compiles"],
                          row["plain"]["outcome"], flush=True, file=sys.__stdout__)


def refresh_analytic(out: Path) -> None:
    """Recompute the analytic column of every row (the model changed; exact and plain still hold)."""
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    ests = {name: PallasEstimator(kernel) for name, (kernel, _) in CASES.items()}
    with quiet_libtpu():
        for r in rows:
            r["analytic"] = _usage(ests[r["kernel"]], r["config"], r["target"], "analytic")
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))


def _err(a: int | None, e: int | None) -> float | None:
    return None if a is None or not e else 100.0 * (a - e) / e


def report(out: Path) -> str:
    unique = {}
    for line in out.read_text().splitlines():  # files of parallel runs may overlap: one row per config
        r = json.loads(line)
        unique[(r["kernel"], r["target"], json.dumps(r["config"], sort_keys=True))] = r
    rows = list(unique.values())
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["kernel"], r["target"]), []).append(r)
    lines = ["| kernel | target | rows | plain fits/E1001/phys/err | exact fits == plain | analytic fits == plain "
             "| analytic err vs exact: median / worst | libtpu checks (analytic) "
             "| analytic within 15% | exact compiles: median / max (rows) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for (kernel, target), rs in sorted(groups.items()):
        lines.append(_summary(kernel, target, rs))
    wrong = [r for r in rows if r["plain"]["outcome"] in ("fits", "E1001", "physical") and r["analytic"]
             and r["analytic"]["fits"] is not None and r["analytic"]["fits"] != (r["plain"]["outcome"] == "fits")]
    lines.append("")
    lines.append(f"Analytic fit decisions that disagree with the plain compile: {len(wrong)}"
                 + "".join(f"\n- {r['kernel']} {r['target']} {r['config']}: analytic {r['analytic']['fits']}, "
                           f"plain {r['plain']['outcome']}" for r in wrong))
    return "\n".join(lines)


def rows_table(out: Path) -> str:
    """Every row: analytic (bytes, fits, libtpu checks), exact (bytes, compiles), the plain compile."""
    lines = ["| kernel | target | config | analytic B (fits, checks) | exact B (fits, compiles) | search | plain "
             "| err |", "|---|---|---|---|---|---|---|---|"]
    for line in out.read_text().splitlines():
        r = json.loads(line)
        a, e, p = r["analytic"], r["exact"], r["plain"]
        err = _err(a["bytes"], e["bytes"])
        cfg = ",".join(str(v) for v in r["config"].values())
        lines.append(f"| {r['kernel']} | {r['target']} | {cfg} | {a['bytes']} ({a['fits']}, {a['compiles']}) "
                     f"| {e['bytes']} ({e['fits']}, {e['compiles']}) | {r.get('search', 1)} | {p['outcome']} "
                     f"| {'-' if err is None else f'{err:+.1f}%'} |")
    return "\n".join(lines)


def _summary(kernel: str, target: str, rs: list[dict[str, Any]]) -> str:
    outcomes = [r["plain"]["outcome"] for r in rs]
    counts = "/".join(str(outcomes.count(o)) for o in ("fits", "E1001", "physical", "error"))
    judged = [r for r in rs if r["plain"]["outcome"] in ("fits", "E1001", "physical")]
    truth = {id(r): r["plain"]["outcome"] == "fits" for r in judged}
    ex = sum(r["exact"]["fits"] == truth[id(r)] for r in judged)
    an = sum(r["analytic"]["fits"] == truth[id(r)] for r in judged)
    errs = [e for r in judged if r["plain"]["outcome"] != "physical"
            for e in [_err(r["analytic"]["bytes"], r["exact"]["bytes"])] if e is not None]
    err = (f"{statistics.median(abs(e) for e in errs):.1f}% / {max(errs, key=abs):+.1f}%" if errs else "-")
    checks = sum(bool(r["analytic"]["compiles"]) for r in rs)
    close = sum(abs(e) <= 15 for e in errs)
    return (f"| {kernel} | {target} | {len(rs)} | {counts} | {ex}/{len(judged)} | {an}/{len(judged)} | {err} "
            f"| {checks}/{len(rs)} | {close}/{len(errs)} | {_compiles(rs)} |")


def _compiles(rs: list[dict[str, Any]]) -> str:
    """Compiles of the rows measured with the current search (rows of earlier runs searched E1001)."""
    comp = [r["exact"]["compiles"] for r in rs if r["exact"]["compiles"] and r.get("search") == SEARCH]
    return f"{statistics.median(comp):g} / {max(comp)} ({len(comp)})" if comp else "-"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--kernels", default=",".join(CASES))
    p.add_argument("--targets", default="v5e,v6e,tpu7x,v5p")
    p.add_argument("--report", action="store_true")
    p.add_argument("--rows", action="store_true", help="print every row as a Markdown table")
    p.add_argument("--refresh-analytic", action="store_true", help="recompute only the analytic column")
    p.add_argument("--plain-from", type=Path, help="rows whose plain compiles to reuse")
    p.add_argument("--configs", help="indices into each kernel's configs to run, e.g. 10-14 or 0,3")
    p.add_argument("--upto", type=int, help="stop a kernel on a generation once the file has this many rows")
    p.add_argument("--no-analytic", action="store_true", help="leave the analytic column to --refresh-analytic")
    a = p.parse_args()
    if a.refresh_analytic:
        refresh_analytic(a.out)
        return
    if a.report or a.rows:
        print(report(a.out) if a.report else rows_table(a.out))
        return
    run(a.out, a.kernels.split(","), a.targets.split(","), a.plain_from, not a.no_analytic,
        _indices(a.configs) if a.configs else None, a.upto)


def _indices(text: str) -> list[int]:
    """'10-14,2' -> [10, 11, 12, 13, 14, 2]."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


if __name__ == "__main__":
    main()
