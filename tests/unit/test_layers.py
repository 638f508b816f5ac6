"""One-way layers, checked on every import statement of the source (inside functions too): the
knowledge base and the estimate backends never import what sits above them."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "tilefit"

# package (folder or module under tilefit/) -> packages it must never import
FORBIDDEN = {
    "kb": ("estimate", "fit", "measure", "cli", "guard", "integrations"),
    "estimate": ("fit", "cli", "measure", "guard", "integrations", "spec"),
    "space": ("estimate", "fit", "cli", "measure"),
    "resources": ("estimate", "fit", "kb", "targets"),
    "spec": ("fit", "cli", "measure"),
    "fit": ("cli", "measure", "spec"),
}


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_layers_are_one_way() -> None:
    problems = []
    for layer, banned in FORBIDDEN.items():
        files = sorted((SRC / layer).rglob("*.py")) if (SRC / layer).is_dir() else [SRC / f"{layer}.py"]
        assert files and all(f.is_file() for f in files), layer
        for f in files:
            for module in _imports(f):
                parts = module.split(".")
                if parts[0] == "tilefit" and len(parts) > 1 and parts[1] in banned:
                    problems.append(f"{f.relative_to(SRC)} imports {module}")
    assert not problems, problems


def _package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for f in SRC.rglob("*.py"):
        rel = f.relative_to(SRC).with_suffix("").parts
        here = rel[0] if rel[0] != "__init__" else "tilefit"
        for module in _imports(f):
            parts = module.split(".")
            if parts[0] == "tilefit" and len(parts) > 1 and parts[1] != here:
                graph.setdefault(here, set()).add(parts[1])
    return graph


def test_no_import_cycle_through_the_backend_seam() -> None:
    """No cycle between top-level packages that passes through estimate, fit, spec, measure or their leaves."""
    graph = _package_graph()

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            node = todo.pop()
            for nxt in graph.get(node, ()):
                if nxt == goal:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    seam = ("estimate", "fit", "spec", "measure", "space", "resources", "targets", "errors", "userfile")
    cycles = [(a, b) for a in seam for b in sorted(graph.get(a, ())) if reaches(b, a)]
    assert not cycles, cycles
