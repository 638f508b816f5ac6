"""Blind recognition rate of `tilefit explain` on real logs: python benchmarks/explain_blind.py [JSONL ...].

A log is recognised when the first on-chip match names the expected resource with every stated number, or, for
a look-alike (`resource: off-chip`), when nothing on chip is reported. Prints the rate per split and batch, per
kind (logs with a program's error line, prose), per label (on-chip, look-alike) and per pair of the two, and each
miss. Records whose source is in an earlier corpus file are skipped; a held-out record that became a knowledge-base
example is reported as contaminated.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

from tilefit.kb.repository import load_kb
from tilefit.match.judge import recognised
from tilefit.match.matcher import match

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus"


def known_sources(exclude: Path) -> set[str]:
    """Sources an earlier corpus already holds (not new to the matcher)."""
    urls: set[str] = set()
    for path in CORPUS.glob("*.jsonl"):
        if path.resolve() != exclude.resolve():
            urls |= {json.loads(line)["url"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}
    return urls


def main(argv: list[str]) -> int:
    kb = load_kb()
    for name in argv or [str(CORPUS / "fresh_logs.jsonl")]:
        path = Path(name)
        try:
            records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            print(f"explain_blind: cannot read {name}: {exc}", file=sys.stderr)
            return 2
        known = known_sources(path)
        examples = {x.source for e in kb for x in e.examples}
        tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        for r in records:
            if r["url"] in known:
                print(f"skipped (already known): {r['url']}")
                continue
            if r["split"] == "heldout" and r["url"] in examples:
                print(f"CONTAMINATED (held-out log is a knowledge-base example): {r['url']}")
            ok = recognised(r, kb)
            label = "look-alike" if r["resource"] == "off-chip" else "on-chip"
            kind = r.get("kind", "-")
            for key in ((r["split"], r.get("batch", "-")), (r["split"], "all"), ("all", "all"),
                        ("kind", kind), ("label", label), ("kind/label", f"{kind}/{label}")):
                tally[key][0] += ok
                tally[key][1] += 1
            if not ok:
                got = [(m.entry.id, m.required, m.limit) for m in match(r["log"], kb)]
                print(f"MISS [{r['split']}] {r['url']} want {r['resource']} {r['required']}/{r['limit']} got {got}")
        for (split, batch), (hit, n) in sorted(tally.items()):
            where = f"{split}={batch}" if split in ("kind", "label", "kind/label") else f"split={split} batch={batch}"
            print(f"{path.name} {where}: {hit}/{n} = {hit / n:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
