"""Literals every match of a pattern contains: where a pattern can match, found by substring search.

A broad pattern ("shared memory ... exceeded") costs a regex attempt at every position of every keyword window;
on a log whose every line names shared memory that is the whole log, once per pattern. Most patterns also need a
rarer word ("launch", "requested", "(", "/dev/shm"): every match contains one of a few fixed strings. Finding
those strings with `str.find` (C speed) tells where the regex can match at all, so it runs only there, and not at
all where none occurs. The answer is the same as scanning everywhere: a match contains the literal, and the
regex runs over a stretch that holds the whole match (up to `REACH` characters on each side of the literal).
"""

from __future__ import annotations

import bisect
import re
from typing import Any

try:  # the regex parser's own modules (Python 3.11 moved them under re)
    from re import _constants as sre  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as sre  # type: ignore[no-redef, unused-ignore]
    import sre_parse  # type: ignore[no-redef, unused-ignore]

# A match is found when it lies within this many characters of a literal it contains (the matcher's keyword
# windows have the same reach).
REACH = 4096
# Characters that `re.IGNORECASE` equates with an ASCII letter but `str.lower` does not turn into it (or turns
# into two characters): in a text holding any of them the literals are not trusted and every pattern runs.
_FOLDS = ("\u0130", "\u0131", "\u017f", "\u212a")
# A literal with more hits than one per this many characters runs the regex everywhere (a bisect per hit would
# cost more than it saves).
_DENSE = 512

_REPEATS = tuple(getattr(sre, name) for name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") if hasattr(sre, name))
# At most this many strings stand for one run of literals and small classes.
_MAX_RUNS = 16

# What every match contains, as a tree: a string; or ("any", alternatives), where a match contains all the
# needs of at least one alternative. A pattern's needs are a list (all of them hold).
Need = str | tuple[str, tuple[tuple["Need", ...], ...]]
_memo: dict[re.Pattern[str], tuple[Need, ...]] = {}


def needs(pattern: re.Pattern[str]) -> tuple[Need, ...]:
    """What every match of `pattern` contains (lower-case strings, or alternatives of such)."""
    found = _memo.get(pattern)
    if found is None:
        try:
            found = tuple(_seq(sre_parse.parse(pattern.pattern, pattern.flags)))
        except (re.error, RecursionError, TypeError, ValueError):  # nothing known: the pattern runs everywhere
            found = ()
        _memo[pattern] = found
    return found


def _seq(items: Any) -> list[Need]:
    """Needs of a sequence: each run of literal characters, and those of required sub-items.

    A run may hold a small class of literal characters ("[avh]100" needs one of a100, v100, h100).
    """
    out: list[Need] = []
    run: list[str] = []  # the strings the literals since the last other item spell (all of one length)

    def flush() -> None:
        if len(run) == 1:
            out.append(run[0].lower())
        elif run:
            out.append(("any", tuple((r.lower(),) for r in run)))
        run.clear()

    for op, av in items:
        chars = _chars(op, av)
        if chars is not None:
            if len(run or [""]) * len(chars) > _MAX_RUNS:
                flush()
            run[:] = [r + c for r in (run or [""]) for c in chars]
            continue
        flush()
        if op is sre.SUBPATTERN:
            out.extend(_seq(av[-1]))
        elif op in _REPEATS and av[0] >= 1:
            out.extend(_seq(av[2]))
        elif op is sre.BRANCH:
            alternatives = tuple(tuple(_seq(alt)) for alt in av[1])
            if all(alternatives):  # an alternative that needs nothing makes the whole branch need nothing
                out.append(("any", alternatives))
        # anything else (classes, lookarounds, anchors, optional items) needs no literal
    flush()
    return out


def _chars(op: object, av: Any) -> list[str] | None:
    """The characters one item can match when it is a literal or a small class of literals, else None.

    Whitespace reads as one space (`view`): a literal line break or `\\s` is the character " ".
    """
    if op is sre.LITERAL:
        chars = [" " if chr(av).isspace() else chr(av)]
    elif op is sre.IN and av == [(sre.CATEGORY, sre.CATEGORY_SPACE)]:
        chars = [" "]
    elif op is sre.IN and len(av) <= 4 and all(o is sre.LITERAL for o, _ in av):
        chars = list(dict.fromkeys(" " if chr(v).isspace() else chr(v) for _, v in av))
    else:
        return None
    # A cased letter beyond ASCII may match under re.IGNORECASE what str.lower does not give ("µ" and "Μ"): no literal.
    return None if any(not c.isascii() and c.lower() != c.upper() for c in chars) else chars


# Every character `\\s` matches (str.isspace), read as a space: the view literals and keywords are searched in.
_WHITESPACE = str.maketrans({c: " " for c in "\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003"
                                            "\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"})


def view(text: str) -> str:
    """`text` lower-cased with every whitespace character a space (same length): where literals and keywords are
    looked for, so a phrase wrapped onto the next line is still found."""
    return text.lower().translate(_WHITESPACE)


class Hits:
    """Where the literals of one text occur (its `view`), each literal searched at most once."""

    def __init__(self, lower: str) -> None:
        self.lower = lower
        self.trusted = lower.isascii() or not any(c in lower for c in _FOLDS)
        self.dense = max(16, len(lower) // _DENSE)
        self.memo: dict[str, list[int] | None] = {}
        self.best: dict[re.Pattern[str], list[int] | None] = {}

    def positions(self, literal: str) -> list[int] | None:
        """Sorted starts of `literal`; None when it is everywhere (more than one per _DENSE characters)."""
        if literal in self.memo:
            return self.memo[literal]
        out: list[int] | None = []
        find, pos = self.lower.find, self.lower.find(literal)
        while pos >= 0:
            out.append(pos)  # type: ignore[union-attr]
            if len(out) > self.dense:  # type: ignore[arg-type]
                out = None
                break
            pos = find(literal, pos + 1)
        self.memo[literal] = out
        return out

    def anchors(self, pattern: re.Pattern[str]) -> list[int] | None:
        """Where the rarest need of `pattern` occurs (sorted); None when the pattern may match anywhere."""
        if pattern not in self.best:
            self.best[pattern] = self._all(needs(pattern)) if self.trusted else None
        return self.best[pattern]

    def _all(self, items: tuple[Need, ...]) -> list[int] | None:
        """The rarest of needs that all hold; an absent one (no hits) settles it at once."""
        best: list[int] | None = None
        for item in sorted(items, key=lambda n: -len(n) if isinstance(n, str) else 0):
            hits = self.positions(item) if isinstance(item, str) else self._any(item[1])
            if hits is not None and (best is None or len(hits) < len(best)):
                best = hits
                if not best:
                    break
        return best

    def _any(self, alternatives: tuple[tuple[Need, ...], ...]) -> list[int] | None:
        """Where one of the alternatives can hold: the union of each one's rarest need."""
        merged: list[int] = []
        for alt in alternatives:
            hits = self._all(alt)
            if hits is None or len(merged) + len(hits) > self.dense:
                return None
            merged.extend(hits)
        return sorted(merged) if len(alternatives) > 1 else merged

    def spans(self, pattern: re.Pattern[str], a: int, b: int) -> list[tuple[int, int]] | None:
        """Stretches of text[a:b] where `pattern` can match (merged); None when it may match anywhere."""
        at = self.anchors(pattern)
        if at is None:
            return None
        out: list[tuple[int, int]] = []
        for q in at[bisect.bisect_left(at, a - REACH): bisect.bisect_left(at, b + REACH)]:
            lo, hi = max(a, q - REACH), min(b, q + REACH)
            if lo >= hi:
                continue
            if out and lo <= out[-1][1]:
                out[-1] = (out[-1][0], max(out[-1][1], hi))
            else:
                out.append((lo, hi))
        return out

    def absent(self, pattern: re.Pattern[str], a: int, b: int) -> bool:
        """True when no match of `pattern` can lie within text[a:b] (it needs a literal that is not there)."""
        at = self.anchors(pattern)
        if at is None:
            return False
        k = bisect.bisect_left(at, a)
        return k == len(at) or at[k] >= b
