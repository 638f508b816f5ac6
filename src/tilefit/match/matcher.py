"""match(text, kb) -> [Match]: every distinct known error in a log, once, in order of appearance."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from tilefit.kb.model import Entry
from tilefit.kb.repository import KnowledgeBase
from tilefit.targets import TargetSet, load_targets
from tilefit.units import parse_size

# Patterns only run in windows around keyword hits: a 10 MB log costs a few substring scans.
_WINDOW = 4096
# Past this many hits of one keyword a log is spam; the windows already cover the first ones.
_MAX_HITS = 100_000
# How far around a match `requires.any_of` looks for context (e.g. "ROCm" in the same traceback).
_CONTEXT = 65536


@dataclasses.dataclass(frozen=True)
class Match:
    """One distinct error found in a log."""

    entry: Entry
    start: int
    end: int
    text: str
    required: int | None
    limit: int | None
    approximate: bool
    count: int = 1


@dataclasses.dataclass(frozen=True)
class _Candidate:
    entry: Entry
    start: int
    end: int
    groups: dict[str, str]


def _keyword_hits(lower: str, keywords: Iterable[str]) -> dict[str, list[int]]:
    """Positions of every keyword, each scanned once however many entries share it."""
    hits: dict[str, list[int]] = {}
    for kw in keywords:
        if kw in hits:
            continue
        found: list[int] = []
        pos = lower.find(kw)
        while pos >= 0 and len(found) < _MAX_HITS:
            found.append(pos)
            pos = lower.find(kw, pos + len(kw))
        hits[kw] = found
    return hits


def _windows(hits: dict[str, list[int]], keywords: Iterable[str]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for pos in sorted(p for kw in keywords for p in hits[kw]):
        a, b = max(0, pos - _WINDOW), pos + _WINDOW
        if spans and a <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], b))
        else:
            spans.append((a, b))
    return spans


def _candidates(text: str, hits: dict[str, list[int]], entry: Entry) -> list[_Candidate]:
    """Pattern hits of one entry; where its patterns overlap, the hit with the most numbers wins."""
    found = []
    for a, b in _windows(hits, entry.keywords):
        for pattern in entry.patterns:
            for m in pattern.finditer(text, a, min(b, len(text))):
                groups = {k: v for k, v in m.groupdict().items() if v is not None}
                found.append(_Candidate(entry, m.start(), m.end(), groups))
    found.sort(key=lambda c: (-len(c.groups), c.start))
    kept: list[_Candidate] = []
    for c in found:
        if not any(k.start < c.end and c.start < k.end for k in kept):
            kept.append(c)
    return kept


def _number(groups: dict[str, str], key: str) -> tuple[int | None, bool]:
    raw = groups.get(key)
    if raw is None:
        return None, True
    parsed = parse_size(raw)
    return (parsed[0], parsed[1]) if parsed else (None, True)


def _requirements_hold(c: _Candidate, text: str, targets: TargetSet) -> bool:
    req = c.entry.requires
    if req.any_of:
        around = text[max(0, c.start - _CONTEXT): c.end + _CONTEXT]
        if not any(p.search(around) for p in req.any_of):
            return False if req.limit_vendor is None else _vendor_holds(c, targets)
    elif req.limit_vendor is not None:
        return _vendor_holds(c, targets)
    return True


def _vendor_holds(c: _Candidate, targets: TargetSet) -> bool:
    limit, _ = _number(c.groups, "limit")
    if limit is None:
        return False
    classes = targets.with_limit(c.entry.resource, limit)
    return bool(classes) and all(t.vendor == c.entry.requires.limit_vendor for t in classes)


def _refine(cands: list[_Candidate]) -> list[_Candidate]:
    """Drop a candidate when a more specific entry that refines it matched an overlapping span."""
    dropped: set[int] = set()
    for c in cands:
        if not c.entry.refines:
            continue
        for j, other in enumerate(cands):
            if other.entry.id in c.entry.refines and other.start < c.end and c.start < other.end:
                dropped.add(j)
    return [c for i, c in enumerate(cands) if i not in dropped]


def _snippet(text: str, start: int, end: int) -> str:
    return " ".join(text[start:end].split())[:400]


def match(text: str, kb: KnowledgeBase, targets: TargetSet | None = None) -> list[Match]:
    """Find every known error in `text`; each distinct (entry, numbers) once, with its count."""
    targets = targets or load_targets()
    hits = _keyword_hits(text.lower(), (kw for entry in kb for kw in entry.keywords))
    cands: list[_Candidate] = []
    for entry in kb:
        cands += [c for c in _candidates(text, hits, entry) if _requirements_hold(c, text, targets)]
    cands = sorted(_refine(cands), key=lambda c: (c.start, c.entry.id))
    found: dict[tuple[str, int | None, int | None], Match] = {}
    for c in cands:
        required, exact_r = _number(c.groups, "required")
        limit, exact_l = _number(c.groups, "limit")
        key = (c.entry.id, required, limit)
        if key in found:
            found[key] = dataclasses.replace(found[key], count=found[key].count + 1)
            continue
        found[key] = Match(
            entry=c.entry, start=c.start, end=c.end, text=_snippet(text, c.start, c.end),
            required=required, limit=limit, approximate=not (exact_r and exact_l),
        )
    numbered = {e for (e, r, lim) in found if r is not None or lim is not None}
    # A numberless mention of an error the log also states with numbers is the same error, summarised.
    return [m for (e, r, lim), m in found.items() if r is not None or lim is not None or e not in numbered]

