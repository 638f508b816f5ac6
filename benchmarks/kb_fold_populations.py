"""Fold the fix-rate populations of SGLang's bundled MoE tables into the knowledge base.

Each RUN is a `benchmarks/check_sglang.py` output and the targets to take from it (a target's members are
the entries that do not fit it; a rule fixes a member when every GEMM of the entry fits afterwards). The
NVIDIA targets become populations of `triton/shared-memory`'s fixes, gfx targets of
`triton/shared-memory-amd-lds`'s: `num_stages -> 1` under the num_stages fix, the block rules under the
block fix. Writes benchmarks/kb_populations_sglang.yaml (the records) and, with --write, the entries.

    python benchmarks/kb_fold_populations.py \
        benchmarks/check_sglang.h100-host.json:sm_90,sm_120,gfx942 \
        benchmarks/check_sglang.sm86.cpu.json:sm_86 benchmarks/check_sglang.sm80_89.cpu.json:sm_80,sm_89 --write
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import yaml

from tilefit.measure.rates import write_record
from tilefit.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[1]
KB = ROOT / "src" / "tilefit" / "data" / "kb"
NAME = "SGLang 0.5.23's bundled fused-MoE tables"
KERNELS = ["sglang fused_moe_kernel", "sglang fused_moe_kernel_gptq_awq"]
METHOD = ("exact estimate (Triton's allocation pass) of every entry of the 390 bundled tables (the GEMMs SGLang "
          "configures with it, hidden 4096, top-k 8) on each target; members are the entries that do not fit; "
          "fixed = every GEMM of the entry fits after the rule")
COMMANDS = {
    "check_sglang.h100-host.json": "python benchmarks/check_sglang.py --root <unpacked sglang-0.5.23 wheel> "
                                   "--workers 13 --out benchmarks/check_sglang.h100-host.json (H100 host's CPUs)",
}
RULE_KNOB = {"num_stages -> 1": "num_stages"}  # every other rule changes block sizes
ENTRY = {"nvidia": "triton/shared-memory", "amd": "triton/shared-memory-amd-lds"}


def _command(path: Path, targets: list[str]) -> str:
    return COMMANDS.get(path.name, f"<triton 3.6.0 python> benchmarks/check_sglang.py --root <unpacked wheel> "
                                   f"--targets {','.join(targets)} --workers 2 --out benchmarks/{path.name}")


def records(runs: list[tuple[Path, list[str]]]) -> list[dict[str, Any]]:
    """One record per rule: per-target members and fixes over the runs, with their sources."""
    out: dict[str, dict[str, Any]] = {}
    for path, targets in runs:
        doc = json.loads(path.read_text())
        for rule, res in doc["rules"].items():
            rec = out.setdefault(rule, {"rule": rule, "n_by_target": {}, "fixed_by_target": {}, "runs": []})
            for t in targets:
                rec["n_by_target"][t] = int(doc["targets"][t]["does_not_fit"])
                rec["fixed_by_target"][t] = int(res["targets"].get(t, 0))
            rec["runs"].append({"targets": list(targets), "source": f"benchmarks/{path.name}",
                                "triton": doc["triton"], "command": _command(path, targets)})
    for rec in out.values():
        for key in ("n_by_target", "fixed_by_target"):
            rec[key] = dict(sorted(rec[key].items(), key=lambda kv: _order(kv[0])))
    return list(out.values())


def _order(target: str) -> tuple[int, int]:
    """sm_80 < sm_86 < sm_90 < sm_120 < gfx942."""
    digits = "".join(c for c in target if c.isdigit())
    return (target.startswith("gfx"), int(digits) if digits else 0)


def population(rec: dict[str, Any], vendor: str) -> dict[str, Any] | None:
    """The KB population of one rule on one vendor's targets."""
    targets = [t for t in rec["n_by_target"] if t.startswith("gfx") == (vendor == "amd")]
    if not targets:
        return None
    n = sum(rec["n_by_target"][t] for t in targets)
    fixed = sum(rec["fixed_by_target"][t] for t in targets)
    runs = [r for r in rec["runs"] if set(r["targets"]) & set(targets)]
    return {
        "name": f"{NAME}, {'AMD (gfx942)' if vendor == 'amd' else 'NVIDIA'}", "rule": rec["rule"],
        "rate": round(fixed / n, 4), "n": n, "fixed": fixed,
        "n_by_target": {t: rec["n_by_target"][t] for t in targets},
        "fixed_by_target": {t: rec["fixed_by_target"][t] for t in targets},
        "kernels": list(KERNELS), "method": METHOD, "date": "2026-11-23",
        "tools": {"triton": runs[0]["triton"], "sglang": "0.5.23"},
        "command": "; ".join(r["command"] for r in runs),
        "source": ", ".join(r["source"] for r in runs) + " (BENCHMARKS.md, issue 12)",
    }


def fold(recs: list[dict[str, Any]], kb_dir: Path) -> list[str]:
    """Write each vendor's populations into its entry's fixes; 'entry: knob <- rules' lines."""
    done = []
    for vendor, entry in ENTRY.items():
        path = kb_dir / f"{entry}.yaml"
        fixes = load_yaml(path)["fixes"]
        for knob in ("num_stages", "block"):
            pops = [p for r in recs if RULE_KNOB.get(r["rule"], "block") == knob
                    for p in [population(r, vendor)] if p is not None]
            fix = next(f for f in fixes if f.get("knob") == knob)
            if pops and write_record(path, knob, {**fix["measured"], "populations": pops}):
                done.append(f"{entry}: {knob} <- {', '.join(p['rule'] for p in pops)}")
    return done


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", metavar="RESULT.json:TARGETS")
    ap.add_argument("--write", action="store_true", help="write the populations into the knowledge base")
    args = ap.parse_args()
    runs = [(Path(p), t.split(",")) for p, _, t in (r.rpartition(":") for r in args.runs)]
    recs = records(runs)
    head = ("# Fix-rate populations from SGLang 0.5.23's bundled fused-MoE tables (benchmarks/kb_fold_populations.py;\n"
            "# BENCHMARKS.md, issue 12). Per rule: members (entries that do not fit) and fixes per target, and the\n"
            "# runs they come from. The knowledge base holds them split by vendor.\n")
    (ROOT / "benchmarks" / "kb_populations_sglang.yaml").write_text(
        head + yaml.safe_dump({"name": NAME, "records": recs}, sort_keys=False, width=110))
    for line in fold(recs, KB) if args.write else []:
        print(f"wrote {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
