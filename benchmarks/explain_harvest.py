"""Recognition of messages harvested from sources: python benchmarks/explain_harvest.py HARVEST.jsonl [...] [-v].

A harvest file holds one message a program can print per line ({"repo", "path", "line", "example", "resource",
"required", "limit"}; the workplace's /work/batches/templates*/ files). Each example is read as a user would paste
it, under a frame of its project's traceback ('  File ".../site-packages/<project>/<path>", line N'), and judged as
a labelled log (tilefit.match.judge). Prints the recognised count per file and, with -v, each miss.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tilefit.kb.repository import load_kb
from tilefit.match.judge import recognised
from tilefit.match.matcher import match


def framed(record: dict[str, Any]) -> dict[str, Any]:
    """The record as a labelled log: its example under a traceback frame of its project's file."""
    project = str(record["repo"]).split("/")[-1].split(":")[-1].split("==")[0]
    where = f"/usr/local/lib/python3.11/site-packages/{project}/{record['path']}"
    frame = f'  File "{where}", line {record.get("line", 1)}\n'
    return {"log": frame + str(record["example"]), "resource": record["resource"],
            "required": record.get("required"), "limit": record.get("limit")}


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    kb = load_kb()
    for name in (a for a in argv if a != "-v"):
        records = []
        try:
            for line in Path(name).read_text(encoding="utf-8").splitlines():
                if line.strip():
                    records.append(json.loads(line))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            print(f"explain_harvest: cannot read {name}: {exc}", file=sys.stderr)
            return 2
        misses = [r for r in records if not recognised(framed(r), kb)]
        print(f"{Path(name).name}: {len(records) - len(misses)}/{len(records)}")
        for r in misses if verbose else []:
            got = [(m.entry.id, m.required, m.limit) for m in match(framed(r)["log"], kb)]
            print(f"  MISS {r['repo']} {r['path']} want {r['resource']} {r.get('required')}/{r.get('limit')} got {got}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
