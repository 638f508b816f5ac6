"""Blind first runs of fresh-3..10 re-run from git, split by log kind, and what the general layer makes of each miss.

python benchmarks/explain_firstrun.py [--json OUT]

For each batch, the code of the commit that added the batch (the code of that moment, before anything was
changed for it) is taken with `git archive` into a temporary folder and measures the batch's current labels
with that commit's benchmarks/explain_blind.py. Each log is then classed "error line" (a line an error or
exception prints: `FooError:`, `error:`, `Traceback`, `CUDA error`, `ptxas fatal`, an assertion, a glog
`F0101`/`E0101` line) or "prose" (issue or pull-request titles and prose only), and each first-run miss by
what the first run got (nothing / a wrong on-chip answer / a look-alike read as on-chip) and whether the
general layer of this tree (tilefit.match.cooccur, with the prose sizes) answers it right on its own.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from tilefit.kb.repository import KnowledgeBase, load_kb
from tilefit.match.cooccur import counts_near, infer
from tilefit.match.prose import numbers_near, prose_rules

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "corpus"
# batch number -> the commit that added it with its blind result (BENCHMARKS.md, issue 13, "Protocol")
COMMITS = {3: "365b032", 4: "0ef3a8c", 5: "b620309", 6: "7437a8c", 7: "4de8d65", 8: "787b4c2", 9: "efd32da",
           10: "5872691"}
ERROR_LINE = re.compile(
    r"^\s*(?:[\w.]*(?:Error|Exception|Failure)\b|Traceback \(most recent|.{0,80}\b(?:error|ERROR|Error)\s*(?:[:\[(]|\d)"
    r"|.{0,80}\bCUDA error\b|.{0,40}ptxas (?:fatal|error)|.{0,80}\b[Aa]ssert(?:ion)?\b.{0,40}(?:failed|`)"
    r"|[FE]\d{4} |terminate called|.{0,80}\bfailed with\b|.{0,80}\bwhat\(\):)", re.MULTILINE)


def first_run_misses(batch: int, path: Path) -> dict[str, bool]:
    """URLs the code of the batch's commit did not recognise, each with whether it found nothing at all."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", COMMITS[batch], "src", "benchmarks"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        env = {"PYTHONPATH": f"{tmp}/src", "PATH": "/usr/bin:/bin"}
        out = subprocess.run([sys.executable, f"{tmp}/benchmarks/explain_blind.py", str(path)], cwd=tmp, env=env,
                             check=True, capture_output=True, text=True).stdout
    return {line.split()[2]: line.endswith("got []") for line in out.splitlines() if line.startswith("MISS")}


def layer_right(record: dict[str, object], kb: KnowledgeBase) -> bool:
    found = infer(str(record["log"]), kb)
    if found is None:
        return record["resource"] == "off-chip"
    if found.entry.resource not in str(record["resource"]).split("|"):
        return False
    got = counts_near(str(record["log"]), found.entry.resource, found.start, found.end)
    if found.entry.resource in prose_rules().resources:
        got = numbers_near(str(record["log"]), found.start, found.end)
    wanted = (record["required"], record["limit"])
    return all(want is None or want == have for want, have in zip(wanted, got, strict=True))


def main(argv: list[str]) -> int:
    kb = load_kb()
    rows = []
    for batch in COMMITS:
        path = CORPUS / f"fresh{batch}_logs.jsonl"
        misses = first_run_misses(batch, path)
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                rows.append({"batch": batch, "url": r["url"], "resource": r["resource"],
                             "kind": "error line" if ERROR_LINE.search(r["log"]) else "prose",
                             "first_run": r["url"] not in misses, "nothing": misses.get(r["url"], False),
                             "layer": layer_right(r, kb)})
    for kind in ("error line", "prose"):
        of = [x for x in rows if x["kind"] == kind]
        on = [x for x in of if x["resource"] != "off-chip"]
        print(f"{kind}: first run {sum(x['first_run'] for x in of)}/{len(of)}; on chip "
              f"{sum(x['first_run'] for x in on)}/{len(on)}")
    missed = [x for x in rows if not x["first_run"]]
    classes = Counter((x["kind"], "look-alike" if x["resource"] == "off-chip" else "on chip",
                       "got nothing" if x["nothing"] else "got a wrong answer") for x in missed)
    print(f"first-run misses: {len(missed)}; by kind: {dict(classes)}")
    # The layer answers only where no entry matched: a miss that got a wrong answer is not its to fix.
    caught = [x for x in missed if x["layer"] and x["nothing"]]
    print(f"the general layer, added to each batch's code, would have answered {len(caught)}/{len(missed)} right; "
          f"{sum(x['nothing'] for x in missed)} of the misses got nothing; by kind: "
          f"{dict(Counter(x['kind'] for x in caught))}")
    for x in missed:
        print(f"  fresh-{x['batch']} {x['kind']:10} got={'nothing' if x['nothing'] else 'wrong'} "
              f"layer={'right' if x['layer'] else 'no'} {x['url']}")
    if argv[:1] == ["--json"]:
        Path(argv[1]).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
