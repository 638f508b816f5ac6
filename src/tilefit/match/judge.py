"""Whether explain answers a labelled real log: the one judgement behind the corpus tests and the blind benchmark.

A record is a JSON line of tests/data/corpus/*.jsonl: `log`, `resource` ("off-chip" for a look-alike, or
on-chip resource names joined by "|" when the log allows either), and the stated `required`/`limit` or null.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tilefit.kb.repository import KnowledgeBase
from tilefit.match.matcher import match


def recognised(record: Mapping[str, Any], kb: KnowledgeBase) -> bool:
    """Right resource first on chip with every stated number; for a look-alike, nothing on chip."""
    on_chip = [m for m in match(record["log"], kb) if m.entry.on_chip]
    if record["resource"] == "off-chip":
        return not on_chip
    # "registers|threads": CUDA's "too many resources requested for launch" names neither; either is right.
    if not on_chip or on_chip[0].entry.resource not in str(record["resource"]).split("|"):
        return False
    return all(record[k] is None or any(getattr(m, k) == record[k] for m in on_chip) for k in ("required", "limit"))
