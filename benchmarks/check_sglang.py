"""Every fused-MoE table bundled in SGLang's wheel, sized for several targets; fix rate of each rule.

    python benchmarks/check_sglang.py --wheel .cache/wheels/sglang-0.5.23-*.whl \
        --targets sm_80,sm_86,sm_89,sm_90,sm_120,gfx942 --out benchmarks/check_sglang.json

Step 1 (timed) is `tilefit check` over all tables without fixes. Step 2 applies each knowledge-base rule
(num_stages -> 1, halve BLOCK_SIZE_K, halve the largest block, every block to 16 and num_stages -> 1)
to every entry that does not fit and sizes the result for both GEMMs of the entry; a rule fixes an entry
when every GEMM fits. The output is a population record per rule for the knowledge base's fix rates.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

from tilefit.check import moe, run
from tilefit.check.size import Job, size_jobs, triton_version
from tilefit.check.tables import find_tables, read_table
from tilefit.progress import progress_bar
from tilefit.settings import Settings
from tilefit.targets import get_target

CONFIGS = "sglang/srt/layers/moe/moe_runner/triton_utils/configs"


def rules(cfg: dict[str, Any]) -> dict[str, dict[str, Any] | None]:
    """The knowledge base's GPU shared-memory fixes, made concrete for a MoE table entry."""
    blocks = ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K")
    stages = int(cfg.get("num_stages", 3))
    largest = max(blocks, key=lambda k: (int(cfg[k]), k))
    return {
        "num_stages -> 1": {**cfg, "num_stages": 1} if stages > 1 else None,
        "halve BLOCK_SIZE_K": {**cfg, "BLOCK_SIZE_K": cfg["BLOCK_SIZE_K"] // 2} if cfg["BLOCK_SIZE_K"] >= 32 else None,
        "halve the largest block": {**cfg, largest: cfg[largest] // 2} if cfg[largest] >= 32 else None,
        "every block to 16, num_stages -> 1": {**cfg, **{k: 16 for k in blocks}, "num_stages": 1},
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--wheel", help="SGLang's wheel (pip download --no-deps sglang==0.5.23)")
    ap.add_argument("--root", help="or a folder holding the wheel's sglang/ files already unpacked")
    ap.add_argument("--targets", default="sm_80,sm_86,sm_89,sm_90,sm_120,gfx942")
    ap.add_argument("--out", default="benchmarks/check_sglang.json")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    root = Path(args.root) if args.root else Path(tempfile.mkdtemp(prefix="sglang-"))
    if not args.root:
        with zipfile.ZipFile(args.wheel) as z:
            for name in z.namelist():
                if name == moe.SOURCE or (name.startswith(CONFIGS) and name.endswith(".json")):
                    z.extract(name, root)
    settings = Settings.from_env()
    tables = [read_table(p) for p in find_tables([str(root / CONFIGS)])]
    targets = [get_target(t) for t in args.targets.split(",")]
    kernels = run.load_kernels(root / moe.SOURCE, settings)
    total = sum(len(t.entries) * len(moe.kinds(t)) for t in tables) * len(targets)
    bar = progress_bar(total, True, unit="launch", desc="check")
    start = time.perf_counter()
    rows = run.check_tables(tables, targets, kernels, fix=False, settings=settings, workers=args.workers,
                            progress=lambda n: [bar() for _ in range(n)] and None)
    bar(close=True)
    seconds = time.perf_counter() - start
    entries = _per_entry(rows)
    print(f"{len(tables)} tables, {sum(len(t.entries) for t in tables)} entries, {len(rows)} launches x targets "
          f"sized in {seconds:.0f} s ({triton_version()})", file=sys.stderr)
    doc = {"wheel": Path(args.wheel).name if args.wheel else str(root), "triton": triton_version(),
           "seconds": round(seconds, 1), "tables": len(tables), "entries": sum(len(t.entries) for t in tables),
           "launches": len(rows), "targets": _breaks(entries, [t.name for t in targets])}
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")  # kept if the rules step is cut short
    start = time.perf_counter()
    rates = _rule_rates(entries, kernels, settings, args.workers)
    print(f"rules sized in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    doc = {"wheel": Path(args.wheel).name if args.wheel else str(root), "triton": triton_version(), "seconds": round(seconds, 1),
           "tables": len(tables), "entries": sum(len(t.entries) for t in tables), "launches": len(rows),
           "targets": _breaks(entries, [t.name for t in targets]), "rules": rates}
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps({k: v for k, v in doc.items() if k != "rules"}, indent=1))
    print(json.dumps(rates, indent=1))
    return 0


def _per_entry(rows: list[run.Row]) -> dict[tuple[str, int, str], list[run.Row]]:
    out: dict[tuple[str, int, str], list[run.Row]] = {}
    for r in rows:
        out.setdefault((str(r.table.path), r.m, r.target), []).append(r)
    return out


def _status(rs: list[run.Row]) -> str:
    if any(r.usage.fits is None for r in rs):
        return "error"
    return "fits" if all(r.usage.fits for r in rs) else "does not fit"


def _breaks(entries: dict[tuple[str, int, str], list[run.Row]], targets: list[str]) -> dict[str, Any]:
    out = {}
    for t in targets:
        mine = [rs for (_, _, tt), rs in entries.items() if tt == t]
        c = Counter(_status(rs) for rs in mine)
        by_dtype = Counter(rs[0].table.name.dtype or "bf16" for rs in mine if _status(rs) == "does not fit")
        out[t] = {"entries": len(mine), "fits": c["fits"], "does_not_fit": c["does not fit"], "error": c["error"],
                  "does_not_fit_by_dtype": dict(by_dtype)}
    return out


def _rule_rates(entries: dict[tuple[str, int, str], list[run.Row]], kernels: Any, settings: Settings,
                workers: int) -> dict[str, Any]:
    failing = [rs for rs in entries.values() if _status(rs) == "does not fit"]
    plan = []
    for rs in failing:
        r = rs[0]
        for rule, cfg in rules(dict(r.table.entries[r.m])).items():
            if cfg is None:
                plan.append((rule, r, None))
                continue
            tgt = get_target(r.target)
            jobs = [Job(str(kernels[moe.kernel_name(r.table.name)].module_path), moe.kernel_name(r.table.name),
                        moe.launch(r.table, r.m, k, tgt, config=cfg), tgt.name) for k in moe.kinds(r.table)]
            plan.append((rule, r, jobs))
    usages = iter(size_jobs([j for _, _, js in plan if js for j in js], settings, workers=workers))
    out: dict[str, Any] = {}
    for rule, r, jobs in plan:
        d = out.setdefault(rule, {"n": 0, "fixed": 0, "targets": Counter()})
        d["n"] += 1
        if jobs is not None:
            us = [next(usages) for _ in jobs]
            ok = all(u.fits for u in us)
            d["fixed"] += ok
            d["targets"][r.target] += ok
    for d in out.values():
        d["rate"] = round(d["fixed"] / d["n"], 3) if d["n"] else None
        d["targets"] = dict(d["targets"])
    return out


if __name__ == "__main__":
    sys.exit(main())
