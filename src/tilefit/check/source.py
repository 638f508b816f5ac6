"""Load a @triton.jit function from its source file without importing the package it belongs to.

SGLang's and vLLM's kernel modules import their whole runtime (torch, CUDA extensions, the server's
settings) at module load, so `import sglang...fused_moe_triton_kernels` fails on a CI machine without a
GPU. Triton needs only the kernel's source and the globals it touches while compiling. So the file is
parsed (never executed), and a small module is written that holds the kernel, the @triton.jit helpers it
calls (transitively), the module-level constants they read, and the file's `triton` imports. Each piece
stays at its original line number, so Triton's error messages point at the real file's lines.

A global the kernel needs that this cannot provide (a helper imported from the package, a constant
computed by a function call) is listed in `LoadedSource.missing` with where it comes from; a compile
that reaches it fails, and `explain_missing` turns Triton's NameError into a message saying so.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import hashlib
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tilefit.errors import InputError

# Decorators that make a top-level function a Triton kernel or helper (the autotune/heuristics wrappers are
# dropped: a check supplies every constexpr and launch option itself).
_JIT_NAMES = frozenset({"jit", "triton.jit"})
_WRAPPER_NAMES = frozenset({"autotune", "triton.autotune", "heuristics", "triton.heuristics"})
# Imports kept in the generated module: they are what a kernel's body may reach at compile time.
_KEPT_MODULES = ("triton", "math")
_BUILTINS = frozenset(dir(builtins))


@dataclasses.dataclass(frozen=True)
class Missing:
    """A global the kernel reads that cannot be loaded from source: its name and where it comes from."""

    name: str
    origin: str  # "sglang.srt.utils (imported at line 25)" or "not defined in the file"

    def __str__(self) -> str:
        return f"{self.name} ({self.origin})"


@dataclasses.dataclass(frozen=True)
class LoadedSource:
    """A kernel read from a source file: the generated module, the kernel's line and a hash of its code."""

    path: Path  # the original source file
    name: str
    line: int  # line of the kernel's `def` in the original file
    source_hash: str  # sha256 of the kernel's and its helpers' source text
    module_path: Path  # the generated module (cached by content)
    helpers: tuple[str, ...]  # the @triton.jit helpers included
    missing: tuple[Missing, ...]

    def load(self) -> Any:
        """The JITFunction, imported from the generated module."""
        from tilefit.estimate.triton_kernel import unwrap_kernel
        from tilefit.userfile import load_module_file

        return unwrap_kernel(getattr(load_module_file(self.module_path), self.name))

    def explain_missing(self, error: str) -> str:
        """Rewrite a compile error that reached a global this loader could not provide."""
        for m in self.missing:
            if re.search(rf"\b{re.escape(m.name)}\b", error) and ("NameError" in error or "not defined" in error):
                return (f"{self.name} needs {m} at compile time, which cannot be loaded from "
                        f"{self.path.name} without importing its package; load the kernel by import instead")
        return error


@dataclasses.dataclass(frozen=True)
class _Piece:
    """One top-level statement of the source file that may be copied."""

    node: ast.stmt
    text: str
    line: int  # first line, decorators included
    binds: tuple[str, ...]
    is_jit: bool


def load_source(path: str | Path, name: str, cache_dir: Path) -> LoadedSource:
    """Read `name` and what it needs from `path`; write the module under `cache_dir`; import nothing."""
    src_path = Path(path)
    text = _read(src_path)
    try:
        tree = ast.parse(text, filename=str(src_path))
    except SyntaxError as exc:
        raise InputError(f"{src_path}:{exc.lineno}: {exc.msg}") from exc
    lines = text.splitlines(keepends=True)
    pieces, imports = _index(tree, lines)
    switches = _conditional_imports(tree)
    kernel = pieces.get(name)
    if kernel is None or not kernel.is_jit:
        jits = sorted(n for n, p in pieces.items() if p.is_jit)
        what = "is not a @triton.jit function" if kernel is not None else "is not defined at the top level"
        raise InputError(f"{src_path}: {name} {what}; @triton.jit functions there: {', '.join(jits) or 'none'}")
    chosen, missing = _closure(kernel, pieces, imports)
    chosen.sort(key=lambda p: p.line)
    kept_imports = sorted({imports[n] for n in _used_imports(chosen, imports)}, key=lambda s: s[0])
    alternatives = {m.name: [stmt for _, stmt in sorted(switches[m.name]) if _kept(stmt)] for m in missing
                    if m.name in switches}
    alternatives = {k: v for k, v in alternatives.items() if v}
    missing = [m for m in missing if m.name not in alternatives]
    module = _render(kept_imports, chosen, alternatives)
    digest = hashlib.sha256("".join(p.text for p in chosen).encode()).hexdigest()
    out = _write(cache_dir, src_path.name, module)
    return LoadedSource(
        path=src_path, name=name, line=kernel.line, source_hash=digest, module_path=out,
        helpers=tuple(p.binds[0] for p in chosen if p.is_jit and p is not kernel), missing=tuple(missing),
    )


def _read(path: Path) -> str:
    if not path.is_file():
        raise InputError(f"{path}: no such kernel source file")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read it as UTF-8 Python source ({exc})") from exc


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return ast.unparse(target)


def _conditional_imports(tree: ast.Module) -> dict[str, list[tuple[int, str]]]:
    """Imports inside top-level if/try blocks (version switches), every alternative, by the name they bind."""
    out: dict[str, list[tuple[int, str]]] = {}
    for node in tree.body:
        if not isinstance(node, (ast.If, ast.Try)):
            continue
        for sub in ast.walk(node):
            if isinstance(sub, (ast.Import, ast.ImportFrom)):
                for alias in sub.names:
                    bound = alias.asname or alias.name.split(".")[0]
                    out.setdefault(bound, []).append((sub.lineno, _import_line(sub, alias)))
    return out


def _index(tree: ast.Module, lines: list[str]) -> tuple[dict[str, _Piece], dict[str, tuple[int, str]]]:
    """Top-level functions and simple assignments by the names they bind; imports by the alias they bind."""
    pieces: dict[str, _Piece] = {}
    imports: dict[str, tuple[int, str]] = {}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                imports[bound] = (node.lineno, _import_line(node, alias))
        elif isinstance(node, ast.FunctionDef):
            decos = [_decorator_name(d) for d in node.decorator_list]
            is_jit = any(d in _JIT_NAMES for d in decos)
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            body = "".join(lines[first - 1: node.end_lineno])
            if is_jit:  # keep @triton.jit (as written), drop autotune/heuristics wrappers
                body = _strip_wrappers(node, lines, first)
            pieces[node.name] = _Piece(node, body, first, (node.name,), is_jit)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.end_lineno is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = tuple(t.id for t in targets if isinstance(t, ast.Name))
            body = "".join(lines[node.lineno - 1: node.end_lineno])
            for n in names:
                pieces[n] = _Piece(node, body, node.lineno, names, False)
    return pieces, imports


def _strip_wrappers(node: ast.FunctionDef, lines: list[str], first: int) -> str:
    """The function's text with autotune/heuristics decorator lines blanked (line numbers kept)."""
    out = lines[first - 1: node.end_lineno]
    for deco in node.decorator_list:
        if _decorator_name(deco) in _WRAPPER_NAMES and deco.end_lineno is not None:
            for ln in range(deco.lineno, deco.end_lineno + 1):  # the '@' line through the closing one
                out[ln - first] = "\n"
    return "".join(out)


def _import_line(node: ast.Import | ast.ImportFrom, alias: ast.alias) -> str:
    name = alias.name + (f" as {alias.asname}" if alias.asname else "")
    if isinstance(node, ast.ImportFrom):
        return f"from {'.' * node.level}{node.module or ''} import {name}"
    return f"import {name}"


def _free_names(node: ast.AST) -> set[str]:
    """Names a statement reads that it does not bind itself (a function's globals, roughly)."""
    loads: set[str] = set()
    stores: set[str] = set()
    # A kernel's decorators (autotune configs, heuristics lambdas) are dropped, so their names are not needed.
    parts = [node.args, *node.body, *([node.returns] if node.returns else [])] if isinstance(node, ast.FunctionDef) \
        else [node]
    for sub in (s for part in parts for s in ast.walk(part)):
        if isinstance(sub, ast.Name):
            (loads if isinstance(sub.ctx, ast.Load) else stores).add(sub.id)
        elif isinstance(sub, ast.arg):
            stores.add(sub.arg)
    if isinstance(node, ast.FunctionDef):
        stores.discard(node.name)
    return loads - stores - _BUILTINS


def _closure(
    kernel: _Piece, pieces: Mapping[str, _Piece], imports: Mapping[str, tuple[int, str]]
) -> tuple[list[_Piece], list[Missing]]:
    """The kernel plus every top-level piece it reaches; names it reaches that cannot be copied."""
    chosen: dict[int, _Piece] = {}
    missing: dict[str, Missing] = {}
    todo = [kernel]
    while todo:
        piece = todo.pop()
        if id(piece.node) in chosen:
            continue
        chosen[id(piece.node)] = piece
        for name in sorted(_free_names(piece.node)):
            if name in pieces:
                dep = pieces[name]
                if isinstance(dep.node, ast.FunctionDef) and not dep.is_jit:
                    missing[name] = Missing(name, f"a plain Python function at line {dep.line}, not @triton.jit")
                else:
                    todo.append(dep)
            elif name in imports:
                line, stmt = imports[name]
                if not _kept(stmt):
                    missing[name] = Missing(name, f"`{stmt}` at line {line}")
            else:
                missing[name] = Missing(name, "not defined at the top level of the file")
    return list(chosen.values()), [missing[k] for k in sorted(missing)]


def _kept(stmt: str) -> bool:
    module = stmt.split()[1]
    return not module.startswith(".") and module.split(".")[0] in _KEPT_MODULES


def _used_imports(chosen: Iterable[_Piece], imports: Mapping[str, tuple[int, str]]) -> set[str]:
    names: set[str] = {"triton", "tl"} & set(imports)
    for piece in chosen:
        names |= {n for n in _free_names(piece.node) if n in imports and _kept(imports[n][1])}
    return names


def _render(kept_imports: list[tuple[int, str]], chosen: list[_Piece],
            alternatives: Mapping[str, list[str]] | None = None) -> str:
    """The module text: imports first, then each piece at its original line (blank lines between).

    A name the file imports under a version switch (`if triton >= 3: from ... import rsqrt else: ...`)
    becomes a chain that tries each alternative in the file's order, one line (so line numbers hold).
    """
    head = ["# Generated by tilefit from a kernel's source file; the pieces keep their line numbers.\n",
            "import triton\n", "import triton.language as tl\n"]
    head += [f"{stmt}\n" for _, stmt in kept_imports if stmt not in ("import triton", "import triton.language as tl")]
    for stmts in (alternatives or {}).values():
        head.append(_chain(stmts) + "\n")
    out = list(head)
    lines = sum(chunk.count("\n") for chunk in out)
    for piece in chosen:
        pad = piece.line - 1 - lines
        out += ["\n"] * max(pad, 0)
        text = piece.text if piece.text.endswith("\n") else piece.text + "\n"
        out.append(text)
        lines += max(pad, 0) + text.count("\n")
    return "".join(out)


def _chain(stmts: list[str]) -> str:
    """`exec` each import in turn until one works, as one line."""
    return f"for _tilefit_import in {stmts!r}:\n    try:\n        exec(_tilefit_import)\n        break\n" \
        "    except ImportError:\n        pass"


def _write(cache_dir: Path, basename: str, text: str) -> Path:
    """Write atomically under cache_dir/source/<hash of the module>/<original file name>."""
    key = hashlib.sha256(text.encode()).hexdigest()[:20]
    folder = cache_dir / "source" / key
    path = folder / basename
    if path.is_file():
        return path
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(f"cannot write the loaded kernel under {folder}: {exc.strerror}") from exc
    return path
