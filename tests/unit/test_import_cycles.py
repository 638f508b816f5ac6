"""No import cycle anywhere in tilefit: module to module and package to package, imports inside functions
included (imports under `if TYPE_CHECKING:` are for the type checker only and never run)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
ROOT = SRC / "tilefit"


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for body in node.orelse for n in _runtime_imports_of(body))
            continue
        yield from _runtime_imports_of(node)


def _runtime_imports_of(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    else:
        yield from _runtime_imports(node)


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom, mods: dict[str, Path]) -> set[str]:
    if isinstance(node, ast.Import):
        wanted = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:
            pkg = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
            pkg = pkg[: len(pkg) - node.level + 1]
            base = ".".join([*pkg, base] if base else pkg)
        wanted = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
    out = set()
    for w in wanted:
        while w not in mods and "." in w:
            w = w.rsplit(".", 1)[0]
        if w in mods and w != name and w != "tilefit":
            out.add(w)
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    return {
        name: {t for node in _runtime_imports(ast.parse(path.read_text())) for t in _targets(name, path, node, mods)}
        for name, path in mods.items()
    }


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(n: str) -> None:
        index[n] = low[n] = len(index)
        stack.append(n)
        for w in sorted(graph.get(n, ())):
            if w not in index:
                visit(w)
                low[n] = min(low[n], low[w])
            elif w in stack:
                low[n] = min(low[n], index[w])
        if low[n] == index[n]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == n:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for n in sorted(graph):
        if n not in index:
            visit(n)
    return found


def _package(name: str) -> str:
    return ".".join(name.split(".")[:2])


def test_no_module_imports_itself_through_others() -> None:
    assert _cycles(_graph()) == []


def test_no_package_imports_itself_through_others() -> None:
    packages: dict[str, set[str]] = {}
    for name, targets in _graph().items():
        for t in targets:
            if _package(name) != _package(t):
                packages.setdefault(_package(name), set()).add(_package(t))
    assert _cycles(packages) == []


def test_the_checker_sees_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
