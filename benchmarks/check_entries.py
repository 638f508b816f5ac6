"""Per-entry counts of a `tilefit check --format json` report over config tables, as BENCHMARKS.md counts them.

An entry (one batch size M of one table) on one target is an error when any of its GEMMs does not
compile, fits when every GEMM fits, and does not fit otherwise. Errors are split by cause
(data/check/causes.yaml; "other" when none is known, e.g. a report written before causes existed).

    python benchmarks/check_entries.py REPORT.json [--dtype fp8_w8a8]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from typing import Any

from tilefit.check.causes import cause_of


def entry_counts(doc: dict[str, Any], dtype: str | None = None) -> dict[str, Counter[str]]:
    """target -> Counter of 'fits', 'does not fit', 'error: <cause id>' over the report's entries."""
    per: dict[tuple[str, Any, str], list[dict[str, Any]]] = defaultdict(list)
    for r in doc["results"]:
        found = re.search(r",dtype=([a-z0-9_]+)", r["source"])
        if dtype is None or (found.group(1) if found else "bf16") == dtype:
            per[(r["path"], r["m"], r["target"])].append(r)
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for (_, _, target), rs in per.items():
        errors = [r for r in rs if r["status"] == "error"]
        if errors:
            cause = errors[0].get("cause") or cause_of(errors[0]["error"], target, errors[0].get("compiler"))
            out[target][f"error: {cause['id'] if cause else 'other'}"] += 1
        else:
            out[target]["fits" if all(r["status"] == "fits" for r in rs) else "does not fit"] += 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report")
    ap.add_argument("--dtype", help="only tables of this dtype (bf16 for tables without one)")
    args = ap.parse_args()
    with open(args.report, encoding="utf-8") as f:
        doc = json.load(f)
    print(f"{doc['compiler']}; entries per target ({args.dtype or 'every dtype'}):")
    for target, counts in sorted(entry_counts(doc, args.dtype).items()):
        parts = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        print(f"  {target:8} {sum(counts.values()):6} entries: {parts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
