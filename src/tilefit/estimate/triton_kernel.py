"""Finding a @triton.jit kernel: unwrapping autotune/heuristics wrappers, importing a file, and a
picklable reference (module or file + qualified name) that a worker process loads the kernel by again.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from typing import Any

from tilefit.errors import InputError, MissingExtraError
from tilefit.userfile import PREFIX, load_module_file


def unwrap_kernel(kernel: Any) -> Any:
    """The JITFunction inside a triton.autotune / triton.heuristics wrapper."""
    try:
        from triton.runtime.jit import JITFunction
    except ImportError as exc:
        raise MissingExtraError("triton", "triton") from exc

    seen = 0
    while not isinstance(kernel, JITFunction):
        if not hasattr(kernel, "fn") or seen > 8:
            raise InputError(f"{kernel!r} is not a @triton.jit function")
        kernel, seen = kernel.fn, seen + 1
    return kernel


@dataclasses.dataclass(frozen=True)
class KernelRef:
    """Where a worker process finds the kernel again: module name or file, and qualified name."""

    module: str
    qualname: str
    path: str | None

    def load(self) -> Any:
        if self.module not in ("__main__", "__mp_main__") and not self.module.startswith(PREFIX):
            try:
                return _attr(importlib.import_module(self.module), self.qualname)
            except ImportError:
                if self.path is None:
                    raise
        return _attr(load_module_file(self.path or ""), self.qualname)


def _attr(obj: Any, qualname: str) -> Any:
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return unwrap_kernel(obj)


def kernel_ref(kernel: Any) -> KernelRef | None:
    fn = kernel.fn
    if "<locals>" in fn.__qualname__:
        return None
    try:
        path: str | None = inspect.getsourcefile(fn)
    except TypeError:
        path = None
    return KernelRef(fn.__module__, fn.__qualname__, path)
