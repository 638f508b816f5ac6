"""Imports flow one way for explain (kb <- match <- diagnosis <- render <- report), even inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "tilefit"

# package -> packages it must never import (at module level, in functions, or under TYPE_CHECKING).
FORBIDDEN = {
    "kb": ("tilefit.match", "tilefit.diagnosis", "tilefit.render", "tilefit.report"),
    "match": ("tilefit.diagnosis", "tilefit.render", "tilefit.report"),
    "diagnosis": ("tilefit.render", "tilefit.report", "tilefit.fit", "tilefit.estimate"),
}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_does_not_import_upstream(package: str) -> None:
    bad = [
        f"{path.relative_to(SRC)} imports {name}"
        for path in sorted((SRC / package).rglob("*.py"))
        for name in _imports(path)
        if name.startswith(FORBIDDEN[package])
    ]
    assert bad == []


def test_vmem_module_is_pure() -> None:
    assert {n for n in _imports(SRC / "vmem.py") if n.startswith(("tilefit", "jax"))} <= {"tilefit.targets"}
