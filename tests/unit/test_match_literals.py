"""match.literals: every match of every knowledge-base pattern contains the literal the prefilter looks for."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tilefit.kb.repository import load_kb
from tilefit.match.literals import Hits, needs

ROOT = Path(__file__).resolve().parents[2]
KB = load_kb()
PATTERNS = sorted({p for e in KB for p in (*e.regexes, *e.requires.any_of_regexes, *e.requires.none_of_regexes)},
                  key=lambda p: p.pattern)
TEXTS = [x.log for e in KB for x in e.examples] + [
    json.loads(line)["log"] for line in (ROOT / "tests/data/corpus/fresh13_logs.jsonl").read_text().splitlines()]


def test_every_match_holds_its_literal() -> None:
    """The prefilter is sound: where a pattern matches, `absent` never says it cannot (so no match is skipped)."""
    checked = 0
    for text in TEXTS:
        hits = Hits(text.lower())
        for pattern in PATTERNS:
            for m in pattern.finditer(text):
                if m.end() > m.start():
                    assert not hits.absent(pattern, m.start(), m.end()), (pattern.pattern, m.group())
                    checked += 1
    assert checked > 500


@pytest.mark.parametrize(("pattern", "expected"), [
    (r"shared memory", ("shared memory",)),
    (r"[avh]100\b", (("any", (("a100",), ("v100",), ("h100",))),)),
    (r"out of (?:memory|resources?)", ("out of ", ("any", (("memory",), ("resource",))))),
    (r"x?y*", ()),  # nothing required: the pattern runs everywhere
    (r"\d+ bytes", (" bytes",)),
    # a cased letter beyond ASCII may fold to another under IGNORECASE: it ends the literal
    (r"caf\u00e9|\u00b5s", (("any", (("caf",), ("s",))),)),
])
def test_needs(pattern: str, expected: tuple[object, ...]) -> None:
    assert needs(re.compile(pattern, re.IGNORECASE)) == expected


def test_folding_characters_turn_the_prefilter_off() -> None:
    """re.IGNORECASE matches "ſhared" for "shared"; str.lower does not give "s", so the text is not trusted."""
    pattern = re.compile("shared memory", re.IGNORECASE)
    text = "the \u017fhared memory ran out"
    assert pattern.search(text)
    assert not Hits(text.lower()).absent(pattern, 0, len(text))
    assert Hits("no such words here").absent(pattern, 0, 18)
