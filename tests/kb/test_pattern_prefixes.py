"""A pattern that starts with a lookahead of its possible first characters, `(?=[abc])`, must keep every match.

Python's regex engine tries every alternative of a pattern at every position of the text; a leading class of
the letters the pattern can start with lets it skip most positions at once, which halves the cost of the broad
fallback patterns on long logs. The class is only safe while it lists every first character the rest of the
pattern can start with, so this test works that set out from the parsed pattern and checks it.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import pytest

from tilefit.kb.repository import load_kb

if sys.version_info >= (3, 11):
    from re import _constants as C
    from re import _parser as P
else:  # pragma: no cover - Python 3.10
    import sre_constants as C
    import sre_parse as P

_PREFIX = re.compile(r"\(\?=(\[(?:[^\]\\]|\\.)+\]|\\d)\)")
_DIGIT = "<digit>"


class _Unknown(Exception):
    pass


def _first(seq: Any) -> tuple[set[str], bool]:
    """The characters a parsed sequence can start with, and whether it can match the empty string."""
    out: set[str] = set()
    for op, av in seq:
        chars, nullable = _first_item(op, av)
        out |= chars
        if not nullable:
            return out, False
    return out, True


def _first_item(op: Any, av: Any) -> tuple[set[str], bool]:
    if op is C.LITERAL:
        return {chr(av)}, False
    if op is C.AT:
        return set(), True
    if op in (C.ASSERT, C.ASSERT_NOT):
        if av[0] == -1 or op is C.ASSERT_NOT:  # a lookbehind, or a negative lookahead: only narrows
            return set(), True
        raise _Unknown("lookahead inside")
    if op is C.SUBPATTERN:
        return _first(av[-1])
    if op is C.BRANCH:
        out: set[str] = set()
        nullable = False
        for alt in av[1]:
            chars, n = _first(alt)
            out |= chars
            nullable |= n
        return out, nullable
    if op in (C.MAX_REPEAT, C.MIN_REPEAT) or op is getattr(C, "POSSESSIVE_REPEAT", None):
        low, _, item = av
        chars, n = _first(item)
        return chars, n or low == 0
    if op is C.IN:
        out = set()
        for o, a in av:
            if o is C.LITERAL:
                out.add(chr(a))
            elif o is C.RANGE:
                out |= {chr(c) for c in range(a[0], a[1] + 1)}
            elif o is C.CATEGORY and a is C.CATEGORY_DIGIT:
                out.add(_DIGIT)
            else:
                raise _Unknown(str(o))
        return out, False
    if op is C.CATEGORY and av is C.CATEGORY_DIGIT:  # pragma: no cover - \d parses as IN
        return {_DIGIT}, False
    raise _Unknown(str(op))


def _top_level_bar(pattern: str) -> bool:
    """Whether `pattern` has an alternation outside every group (a prefix would then guard only its first part)."""
    depth, i, in_class = 0, 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            i += 1 if pattern[i + 1 : i + 2] == "^" else 0
            i += 1 if pattern[i + 1 : i + 2] == "]" else 0
        elif c in "()":
            depth += 1 if c == "(" else -1
        elif c == "|" and depth == 0:
            return True
        i += 1
    return False


def _prefixed() -> list[tuple[str, str]]:
    return [
        (e.id, p)
        for e in load_kb().entries
        for p in (*e.patterns, *e.requires.any_of, *e.requires.none_of)
        if _PREFIX.match(p)
    ]


def test_some_patterns_have_a_prefix() -> None:
    assert len(_prefixed()) >= 20


@pytest.mark.parametrize(("entry", "pattern"), _prefixed())
def test_prefix_admits_every_first_character(entry: str, pattern: str) -> None:
    m = _PREFIX.match(pattern)
    assert m is not None
    prefix, rest = m.group(1), pattern[m.end() :]
    assert not _top_level_bar(rest), f"{entry}: wrap {rest[:60]!r} in (?:...) so that the prefix guards all of it"
    try:
        chars, nullable = _first(P.parse(rest, re.IGNORECASE))
    except _Unknown as exc:
        pytest.fail(f"{entry}: cannot tell what {rest[:60]!r} starts with ({exc}); drop the prefix")
    assert not nullable, f"{entry}: {rest[:60]!r} can match nothing, a prefix would lose matches"
    guard = re.compile(prefix, re.IGNORECASE)
    for ch in chars:
        if ch == _DIGIT:
            assert prefix == r"\d", f"{entry}: {rest[:60]!r} starts with \\d, the prefix must be (?=\\d)"
        else:
            assert guard.fullmatch(ch), f"{entry}: {prefix} leaves out {ch!r}, which {rest[:60]!r} can start with"


def test_prefix_keeps_matches_on_a_sample() -> None:
    text = (
        "Shared memory exceeds the limit\nLDS overflow\nrequested 106,752 bytes of shared memory\n"
        "error: too many resources requested for launch\nvmem exceeded\n128KB shared memory vs 228KB\n"
    )
    for entry, pattern in _prefixed():
        m = _PREFIX.match(pattern)
        assert m is not None
        plain = re.compile(pattern[m.end() :], re.IGNORECASE)
        fast = re.compile(pattern, re.IGNORECASE)
        assert [x.span() for x in plain.finditer(text)] == [x.span() for x in fast.finditer(text)], entry
