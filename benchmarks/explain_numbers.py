"""Do explain's numbers come from the text, or from values it has seen? python benchmarks/explain_numbers.py [KIND]

For every labelled on-chip corpus log of KIND ("error", the default, or "prose") that explain recognises, whose
stated request and bound appear in it as decimal numbers, the numbers are replaced by others (the request grows, the
bound becomes another GPU's shared-memory limit or grows a little) in the log and in its label, and the log is judged
again. A log that is then missed read a number from somewhere other than its words: a value a rule names, another
line's number, the same size written another way (hex, KB) that the replacement did not touch. Prints the share kept
and each one lost.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from tilefit.kb.repository import load_kb
from tilefit.match.judge import recognised
from tilefit.match.matcher import match

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus"
# a GPU's shared-memory bound is replaced by another GPU's
OTHER_BOUND = {49152: 65536, 65536: 101376, 101376: 166912, 166912: 232448, 232448: 101376, 98304: 65536,
               163840: 65536}


def _present(log: str, value: int | None) -> bool:
    return value is not None and re.search(rf"(?<![\d.,]){value}(?!\d)", log) is not None


def _moved(required: int | None, limit: int | None) -> tuple[int | None, int | None]:
    """New numbers in the same relation: a request over its bound stays over it."""
    new_req = None if required is None else required + (4096 if required >= 4096 else 8)
    new_lim = None if limit is None else OTHER_BOUND.get(limit, limit + (2048 if limit >= 4096 else 4))
    if (required is not None and limit is not None and new_req is not None and new_lim is not None
            and required > limit and new_req <= new_lim):
        new_req = new_lim + (required - limit)
    return new_req, new_lim


def perturbed(record: dict[str, Any]) -> dict[str, Any] | None:
    """The record with its stated numbers replaced, or None where they do not stand in the log as written."""
    required, limit = record.get("required"), record.get("limit")
    log = str(record["log"])
    if (required is None and limit is None) or (required is not None and required == limit):
        return None
    if (required is not None and not _present(log, required)) or (limit is not None and not _present(log, limit)):
        return None
    new_req, new_lim = _moved(required, limit)
    for old, mark in ((required, "\0REQ\0"), (limit, "\0LIM\0")):
        if old is not None:
            log = re.sub(rf"(?<![\d.,]){old}(?!\d)", mark, log)
    log = log.replace("\0REQ\0", str(new_req)).replace("\0LIM\0", str(new_lim))
    return {**record, "log": log, "required": new_req, "limit": new_lim}


def main(argv: list[str]) -> int:
    kind = argv[0] if argv else "error"
    kb = load_kb()
    kept = total = 0
    for path in sorted(CORPUS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line) if line.strip() else {}
            if record.get("resource") in (None, "off-chip") or record.get("kind") != kind:
                continue
            moved = perturbed(record)
            if moved is None or not recognised(record, kb):
                continue
            total += 1
            if recognised(moved, kb):
                kept += 1
                continue
            got = [(m.entry.id, m.required, m.limit) for m in match(moved["log"], kb) if m.entry.on_chip][:2]
            print(f"  LOST {path.name} {record['url']} {record.get('required')}/{record.get('limit')} -> "
                  f"{moved['required']}/{moved['limit']}: {got}")
    print(f"{kind}: {kept}/{total} kept with other numbers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
