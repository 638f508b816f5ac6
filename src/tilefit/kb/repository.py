"""The knowledge base: entries loaded from data/kb/**/*.yaml (id == relative path)."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from tilefit.errors import KnowledgeBaseError
from tilefit.kb.model import Entry, entry_from_dict
from tilefit.yamlio import load_yaml

if TYPE_CHECKING:
    from importlib.abc import Traversable


@dataclasses.dataclass(frozen=True)
class KnowledgeBase:
    """A set of entries; build one in tests with KnowledgeBase(entries=(...))."""

    entries: tuple[Entry, ...]

    def __post_init__(self) -> None:
        ids = [e.id for e in self.entries]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise KnowledgeBaseError(f"duplicate entry ids: {', '.join(dupes)}")
        known = set(ids)
        for e in self.entries:
            missing = [r for r in e.refines if r not in known]
            if missing:
                raise KnowledgeBaseError(f"{e.id}: refines unknown entries {missing}")

    def get(self, entry_id: str) -> Entry:
        for e in self.entries:
            if e.id == entry_id:
                return e
        raise KeyError(entry_id)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)


def _walk(folder: Traversable, prefix: str = "") -> Iterator[tuple[str, Traversable]]:
    for child in sorted(folder.iterdir(), key=lambda c: c.name):
        if child.is_dir():
            yield from _walk(child, f"{prefix}{child.name}/")
        elif child.name.endswith(".yaml"):
            yield f"{prefix}{child.name[:-5]}", child


def load_folder(folder: Traversable | Path, *, check_patterns: bool = True) -> KnowledgeBase:
    """Load every entry below a folder; each file's id must equal its relative path."""
    entries = [
        entry_from_dict(load_yaml(path), f"kb/{entry_id}.yaml", expected_id=entry_id, check_patterns=check_patterns)
        for entry_id, path in _walk(folder)
    ]
    return KnowledgeBase(entries=tuple(entries))


@functools.lru_cache(maxsize=1)
def load_kb() -> KnowledgeBase:
    """The knowledge base shipped with tilefit (its patterns compile on first use; kb lint checks them)."""
    return load_folder(resources.files("tilefit") / "data" / "kb", check_patterns=False)
