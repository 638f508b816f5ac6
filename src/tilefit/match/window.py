"""How a log is cut for matching: windows with context on each side, and repeated lines read once."""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Iterable, Iterator

from tilefit.match.normalize import PREFIX_PART

# Patterns only run around keyword hits, this far either side: a 10 MB log of noise costs a few substring scans.
KEYWORD_WINDOW = 4096
# How far around a match `requires.any_of` looks for context (e.g. "ROCm" in the same traceback).
CONTEXT = 65536
# Characters a window owns, and the context it may read on each side (>= CONTEXT + KEYWORD_WINDOW).
CHUNK = 1 << 22
OVERLAP = CONTEXT + 2 * KEYWORD_WINDOW
# A line prefix that makes copies of one line differ: the normaliser's logger prefixes (a timestamp, "[rank3]:",
# "(pid=123)", a level word) and, since only copies are compared here, any short tag, indentation, other date
# forms and a glog header. Lines equal after it are one line for counting (the first copy is kept whole).
_PREFIX = re.compile(
    r"^(?:\s+|\[[^\]\n]{0,40}\]:?|\d{2,4}[-/:]\d{1,2}[-/:][\d\-/:.,TZ+ ]*|[IWEF]\d{4}\s[\d:.]+\s+\d+\s[\w.]+:\d+\]"
    rf"|\((?:pid|rank|worker|\w+ pid)[^)\n]{{0,30}}\)|{PREFIX_PART})+"
)
_PREFIX_START = frozenset("0123456789 \t[(IWEFDC>#")


@dataclasses.dataclass(frozen=True)
class Condensed:
    """A window with every repeated line dropped: each kept line's place in both texts, and its repeats."""

    text: str
    new: list[int]
    orig: list[int]
    weight: list[int]

    def place(self, start: int) -> tuple[int, int]:
        """(position in the original window, how many times the window's own part repeats that line)."""
        k = bisect.bisect_right(self.new, start) - 1
        return self.orig[k] + start - self.new[k], self.weight[k]


def condense(text: str, lo: int, hi: int) -> Condensed | None:
    """Drop repeated lines (an autotuner's or 8 ranks' copies of one error); None when few repeat.

    Each line is kept where it first appears; its weight counts its copies that start in text[lo:hi], so
    a line first seen in the overlap before `lo` still counts the copies this window owns.
    """
    index: dict[str, int] = {}
    kept: list[str] = []
    new: list[int] = []
    orig: list[int] = []
    weight: list[int] = []
    pos = at = 0
    for line in text.split("\n"):
        key = _PREFIX.sub("", line, count=1) if line[:1] in _PREFIX_START else line
        key = key if len(key) >= 16 else line
        k = index.get(key)
        if k is None:
            k = index[key] = len(kept)
            kept.append(line)
            new.append(at)
            orig.append(pos)
            weight.append(0)
            at += len(line) + 1
        if lo <= pos < hi:
            weight[k] += 1
        pos += len(line) + 1
    if at > 0.8 * len(text):
        return None
    return Condensed("\n".join(kept), new, orig, weight)


def windows(pieces: Iterable[str]) -> Iterator[tuple[str, int, int, int]]:
    """(text, lo, hi, offset): each piece with up to OVERLAP characters of its neighbours as context."""
    before, current, offset = "", None, 0
    for piece in _rechunk(pieces):
        if current is not None:
            yield before + current + piece[:OVERLAP], len(before), len(before) + len(current), offset - len(before)
            offset += len(current)
            before = (before + current)[-OVERLAP:]
        current = piece
    if current is not None:
        yield before + current, len(before), len(before) + len(current), offset - len(before)


def _rechunk(pieces: Iterable[str]) -> Iterator[str]:
    """Pieces of about CHUNK characters, whatever size the reader produced."""
    buf: list[str] = []
    size = 0
    for piece in pieces:
        while piece:
            take = piece[: CHUNK - size]
            buf.append(take)
            size += len(take)
            piece = piece[len(take):]
            if size >= CHUNK:
                yield "".join(buf)
                buf, size = [], 0
    if buf:
        yield "".join(buf)
