"""The knowledge base checked against the matcher: every example resolves to its own entry, numbers exact."""

from __future__ import annotations

from tilefit.kb.lint import Problem
from tilefit.kb.repository import KnowledgeBase
from tilefit.match.literals import view
from tilefit.match.matcher import match
from tilefit.match.normalize import normalize
from tilefit.targets import TargetSet


def example_problems(kb: KnowledgeBase, targets: TargetSet | None = None) -> list[Problem]:
    """Examples that contain no keyword of their entry, resolve to other entries, or yield other numbers."""
    out = []
    for entry in kb:
        for i, ex in enumerate(entry.examples):
            where = f"{entry.id} example {i}"
            if not any(k in view(normalize(ex.log)) for k in entry.keywords):
                out.append(Problem(where, "contains none of the entry's keywords"))
            found = match(ex.log, kb, targets)
            ids = [m.entry.id for m in found]
            if set(ids) != {entry.id}:
                out.append(Problem(where, f"resolves to {ids or 'nothing'}, expected only {entry.id}"))
                continue
            for key, value in ex.expect.items():
                got = getattr(found[0], key)
                if got != value:
                    out.append(Problem(where, f"{key} is {got}, expected {value}"))
    return out
