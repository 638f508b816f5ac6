"""Start the plug-in in a child process: read TILEFIT_PLUGIN / TILEFIT_TRACE, wait for `import triton`.

Importing triton costs about a second, so a Python child that never uses Triton (pip, a data loader
worker) must not pay it: the plug-in is installed right after the child's own first `import triton`.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any


def plugin_settings(env: Mapping[str, str]) -> tuple[bool, str]:
    """(TILEFIT_PLUGIN, TILEFIT_TRACE) as Settings parses them."""
    from tilefit.settings import Settings

    settings = Settings.from_env(env)
    return settings.plugin, settings.trace


class _Loader(importlib.abc.Loader):
    """Runs triton's own loader, then the callback."""

    def __init__(self, inner: importlib.abc.Loader, then: Callable[[], object]) -> None:
        self.inner = inner
        self.then = then

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.inner.exec_module(module)
        _call(self.then)


class _After(importlib.abc.MetaPathFinder):
    """A finder that answers only for one module, to wrap its loader once."""

    def __init__(self, module: str, then: Callable[[], object]) -> None:
        self.module = module
        self.then = then

    def find_spec(self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> Any:
        if name != self.module:
            return None
        sys.meta_path.remove(self)  # from now on the other finders answer; this one is done
        spec = _find(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader, self.then)
        return spec


def _find(name: str, path: Sequence[str] | None) -> Any:
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        spec = find(name, path) if find is not None else None
        if spec is not None:
            return spec
    return None


def _call(then: Callable[[], object]) -> None:
    try:
        then()
    except Exception as exc:  # a child must never die of the plug-in
        print(f"tilefit plug-in not installed: {exc}", file=sys.stderr, flush=True)


def _loaded(module: str) -> bool:
    """Imported and done executing (a module being imported is in sys.modules already)."""
    mod = sys.modules.get(module)
    return mod is not None and not getattr(getattr(mod, "__spec__", None), "_initializing", False)


def on_import(module: str, then: Callable[[], object]) -> None:
    """Call `then` now if `module` is imported, else right after its first import finishes."""
    if _loaded(module):
        _call(then)
    elif module not in sys.modules:
        sys.meta_path.insert(0, _After(module, then))
