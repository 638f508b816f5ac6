"""Diagnose matches: read each distinct error's surroundings and make its advice specific.

`diagnose_pieces` is the whole pipeline over a log read in pieces (any size, bounded memory). Rendering
lives in tilefit.render and the public `explain()` in tilefit.report; neither is imported here.
"""

from __future__ import annotations

import dataclasses
import traceback
from collections.abc import Iterable, Mapping

from tilefit.diagnosis.advice import Advice, Facts, advise
from tilefit.kb.model import Entry
from tilefit.kb.repository import KnowledgeBase
from tilefit.match.cooccur import release
from tilefit.match.extract import ContextIndex, ContextRules
from tilefit.match.matcher import Match, ProseBudget, inferred, match_window
from tilefit.match.normalize import normalized
from tilefit.match.tally import Tally
from tilefit.match.window import windows
from tilefit.resources import info
from tilefit.targets import Target, TargetSet

# How much of the log before an error is read for its traceback (framework, phase).
_FRAME_WINDOW = 20000
# Distinct errors diagnosed in one input; past this, further distinct ones are only counted.
MAX_DISTINCT = 1000


@dataclasses.dataclass(frozen=True)
class Diagnosis:
    """One distinct error: what it is, its numbers, the devices the limit reveals, what to do."""

    match: Match
    framework: str | None
    phase: str
    vendor: str | None
    device_classes: tuple[Target, ...]
    config: Mapping[str, int | str]
    advice: tuple[Advice, ...]

    @property
    def entry(self) -> Entry:
        return self.match.entry

    @property
    def ratio(self) -> float | None:
        m = self.match
        # a negative requirement ("uses -4 bytes of shared memory") is a compiler's overflowed count, no ratio
        if m.required is None or m.required < 0 or not m.limit:
            return None
        return round(m.required / m.limit, 4)


@dataclasses.dataclass(frozen=True)
class Explanation:
    """All diagnoses of one input, in order of appearance; `omitted` distinct errors past MAX_DISTINCT."""

    diagnoses: tuple[Diagnosis, ...]
    omitted: int = 0

    @property
    def recognised(self) -> bool:
        return bool(self.diagnoses)


def _vendor(entry: Entry, classes: tuple[Target, ...]) -> str | None:
    if entry.requires.any_of or entry.requires.limit_vendor:
        return entry.vendor
    vendors = {t.vendor for t in classes}
    if len(vendors) == 1:
        return vendors.pop()
    if not classes and entry.vendor != "any":
        return entry.vendor
    return None


def _device_classes(m: Match, targets: TargetSet) -> tuple[Target, ...]:
    """Targets with the log's limit; a vendor-specific entry (chosen by context) keeps its vendor's."""
    if m.limit is None or m.entry.unit not in (None, info(m.entry.resource).unit) or m.entry.limit_is_default:
        # no limit, one in another unit than the resource's (bytes of spill space, not registers), or a default
        # every device shares (48 KiB without the opt-in)
        return ()
    found = targets.with_limit(m.entry.resource, m.limit, tolerance=0.006 if m.approximate else 0.0)
    req = m.entry.requires
    if (req.any_of or req.limit_vendor) and m.entry.vendor != "any":
        found = [t for t in found if t.vendor == m.entry.vendor] or found
    return tuple(found)


def diagnose(
    text: str, m: Match, targets: TargetSet, rules: ContextRules, offset: int = 0, index: ContextIndex | None = None
) -> Diagnosis:
    """Read the context of one match (`text` starts at log position `offset`) and make its advice specific."""
    start, end = m.start - offset, m.end - offset
    index = index or rules.index(text)
    classes = _device_classes(m, targets)
    config = rules.config(text, start, end)
    tpus = [t for t in targets.targets if t.kind == "tpu"]
    facts = Facts(m.entry.resource, m.required, m.limit, config, classes, tpus)
    return Diagnosis(
        match=m,
        framework=index.framework(start - _FRAME_WINDOW, end + 2000) or m.entry.frameworks[0],
        phase=index.phase(start - _FRAME_WINDOW, end) or m.entry.phase,
        vendor=_vendor(m.entry, classes),
        device_classes=classes,
        config=config,
        advice=advise(m.entry.fixes, facts),
    )


def _key(m: Match) -> tuple[str, int | None, int | None]:
    return m.entry.id, m.required, m.limit


def diagnose_pieces(
    pieces: Iterable[str], kb: KnowledgeBase, targets: TargetSet, rules: ContextRules,
    *, max_distinct: int = MAX_DISTINCT,
) -> Explanation:
    """Match and diagnose a log given as clean text pieces; each distinct error is diagnosed where first seen."""
    tally = Tally(limit=max_distinct)
    found: dict[tuple[str, int | None, int | None], Diagnosis] = {}
    first: _Window | None = None
    last: _Window | None = None
    budget = ProseBudget()
    try:
        for text, lo, hi, offset in windows(normalized(pieces)):
            index = rules.index(text)
            for m in match_window(text, kb, targets, lo, hi, offset, budget):
                if tally.add(m):
                    found[_key(m)] = diagnose(text, m, targets, rules, offset, index)
            last = (text, offset, index)
            first = first or last
        diagnoses = tuple(dataclasses.replace(found[_key(m)], match=m) for m in tally.result())
        if not diagnoses:  # the general layer reads the log's first and last window (match.cooccur.infer)
            diagnoses = _guess(first, last, kb, targets, rules)
    finally:
        release()
    return Explanation(diagnoses, omitted=tally.omitted)


_Window = tuple[str, int, "ContextIndex"]


def _guess(
    first: _Window | None, last: _Window | None, kb: KnowledgeBase, targets: TargetSet, rules: ContextRules,
) -> tuple[Diagnosis, ...]:
    """The general layer's answer when no entry matched: from the first window, else from the last."""
    for window in (first, last if last is not first else None):
        if window is None:
            continue
        text, offset, index = window
        for m in inferred(text, kb, offset):
            return (diagnose(text, m, targets, rules, offset, index),)
    return ()


def exception_text(exc: BaseException) -> str:
    """A live exception as the log it would print, with Triton's numbers restated when only fields hold them."""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    required, limit = getattr(exc, "required", None), getattr(exc, "limit", None)
    name = getattr(exc, "name", None)
    if isinstance(required, int) and isinstance(limit, int) and name and str(required) not in text:
        # Triton's OutOfResources keeps the numbers as fields; restate them in its own words.
        text += f"\nout of resource: {name}, Required: {required}, Hardware limit: {limit}\n"
    return text


__all__ = ["MAX_DISTINCT", "Diagnosis", "Explanation", "diagnose", "diagnose_pieces", "exception_text"]
