"""Every knowledge-base example resolves to its own entry, and to no other, with its numbers."""

from __future__ import annotations

import pytest

from tilefit.kb.repository import load_kb
from tilefit.match.matcher import match

KB = load_kb()
CASES = [(e.id, i) for e in KB for i in range(len(e.examples))]


@pytest.mark.parametrize(("entry_id", "index"), CASES, ids=[f"{e}#{i}" for e, i in CASES])
def test_example_matches_own_entry_only(entry_id: str, index: int) -> None:
    entry = KB.get(entry_id)
    example = entry.examples[index]
    found = match(example.log, KB)
    assert {m.entry.id for m in found} == {entry_id}, [m.entry.id for m in found]
    first = found[0]
    for key, value in example.expect.items():
        assert getattr(first, key) == value, (key, getattr(first, key), value)


@pytest.mark.parametrize("entry_id", [e.id for e in KB])
def test_entry_cites_real_sources(entry_id: str) -> None:
    entry = KB.get(entry_id)
    assert all(x.source.startswith("https://") for x in entry.examples)
    assert all(f.evidence and all(u.startswith("https://") for u in f.evidence) for f in entry.fixes)
    assert all(d.source.startswith("https://") for d in entry.dead_ends)
