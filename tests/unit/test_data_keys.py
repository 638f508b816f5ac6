"""The data files name each key once: YAML keeps the last of two equal keys without a word, so a rule added under a
name already in use would replace the older rule silently (explain16 met it: a second `limit_gt` in
prose_numbers.yaml dropped Liger's "(262144 bytes > 232448 sm_100 cap)" bound)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

DATA = Path(__file__).resolve().parents[2] / "src" / "tilefit" / "data"
FILES = sorted([*DATA.glob("*.yaml"), *DATA.glob("kb/*/*.yaml")])


class _Strict(yaml.SafeLoader):
    pass


def _mapping(loader: _Strict, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise AssertionError(f"line {key_node.start_mark.line + 1}: {key!r} twice")
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_Strict.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def test_there_are_files_to_check() -> None:
    assert len(FILES) > 50 and DATA / "prose_numbers.yaml" in FILES and DATA / "cooccur.yaml" in FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_no_key_is_given_twice(path: Path) -> None:
    yaml.load(path.read_text(encoding="utf-8"), Loader=_Strict)


def test_a_key_given_twice_is_caught() -> None:
    with pytest.raises(AssertionError, match="'a' twice"):
        yaml.load("a: 1\nb: 2\na: 3\n", Loader=_Strict)
