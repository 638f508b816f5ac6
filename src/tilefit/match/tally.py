"""Distinct matches with their counts: what a log says, once per error however often it repeats."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tilefit.match.matcher import Match

_Key = tuple[str, int | None, int | None]


@dataclasses.dataclass
class Tally:
    """Distinct matches by (entry, numbers) with their counts, in order of first appearance.

    At most `limit` distinct matches are kept; further distinct ones are counted in `omitted` only, so a
    log of a million different numbers costs a set of small keys, not a million snippets.
    """

    limit: int = 1_000_000
    found: dict[_Key, Match] = dataclasses.field(default_factory=dict)
    counts: dict[_Key, int] = dataclasses.field(default_factory=dict)
    extra: set[_Key] = dataclasses.field(default_factory=set)

    @property
    def omitted(self) -> int:
        return len(self.extra)

    def add(self, m: Match) -> bool:
        """Count `m` (`m.count` times); True when it is the first of its kind and kept."""
        key = (m.entry.id, m.required, m.limit)
        if key in self.counts:
            self.counts[key] += m.count
            return False
        if len(self.found) >= self.limit:
            self.extra.add(key)
            return False
        self.counts[key] = m.count
        self.found[key] = m
        return True

    def result(self) -> list[Match]:
        ms = [dataclasses.replace(m, count=self.counts[k]) for k, m in self.found.items()]
        return summarise(ms)


def summarise(ms: Sequence[Match]) -> list[Match]:
    """Drop numberless mentions of errors the log also states with numbers, and fallbacks when more is known."""
    numbered = {m.entry.id for m in ms if m.required is not None or m.limit is not None}
    ms = [m for m in ms if m.required is not None or m.limit is not None or m.entry.id not in numbered]
    # one number of a pair stated again alone ("Used 256.00M of 128.00M vmem" ... "Program vmem requirement 256.00M")
    pairs = {(m.entry.id, m.required, m.limit) for m in ms if m.required is not None and m.limit is not None}
    halves = {(e, r, None) for e, r, _ in pairs} | {(e, None, lim) for e, _, lim in pairs}
    ms = [m for m in ms if (m.entry.id, m.required, m.limit) not in halves]
    # the scoped limit named beside VMEM is the one that ran short ("Prior OOM was scoped TPU VMEM pressure"): a
    # fallback of VMEM as a whole gives way to a scoped-VMEM match that states as many numbers
    def stated(m: Match) -> int:
        return (m.required is not None) + (m.limit is not None)
    scoped = max((stated(m) for m in ms if m.entry.resource == "scoped-vmem"), default=-1)
    ms = [m for m in ms if not (m.entry.fallback and m.entry.resource == "vmem" and stated(m) <= scoped)]
    specific = [m for m in ms if not m.entry.fallback]
    if not specific:
        # among guesses, one whose words state both numbers first ("TMEM 524288/262144 EXCEEDED" over the "SMEM/TMEM
        # loops ... EXCEEDED" of the sentence above it)
        return sorted(ms, key=lambda m: stated(m) < 2)
    # A fallback that states the numbers a numberless specific match of the same resource lacks keeps them:
    # "cudaErrorInvalidConfiguration" names no size, "larger than the 1024 threads-per-block limit" does.
    counted = {m.entry.resource for m in specific if m.required is not None or m.limit is not None}
    bare = {m.entry.resource for m in specific} - counted
    return [m for m in ms if not m.entry.fallback or (
        m.entry.resource in bare and (m.required is not None or m.limit is not None))]
