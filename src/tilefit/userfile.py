"""Importing the user's kernel files (the CLI's `file.py:name`), once per process, with clear errors."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from tilefit.errors import InputError, MissingExtraError

# Module-name prefix of files loaded here; worker processes recognise it (estimate/triton_kernel.py).
PREFIX = "tilefit_kernel_"
# A file that imports one of these without it installed needs that tilefit extra.
_EXTRAS = {"jax": ("jax", "tpu"), "jaxlib": ("jax", "tpu"), "libtpu": ("jax", "tpu"),
           "triton": ("triton", "triton"), "torch": ("torch", "helion"), "helion": ("helion", "helion")}


def load_module_file(path: str | Path) -> Any:
    """Import a Python file by path; the same file is imported once per process."""
    resolved = Path(path).resolve()
    name = f"{PREFIX}{abs(hash(str(resolved))):x}"
    if name in sys.modules:
        return sys.modules[name]
    if not resolved.is_file():
        raise InputError(f"{path}: no such file")
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise InputError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except ImportError as exc:
        del sys.modules[name]
        missing = _EXTRAS.get((exc.name or "").split(".")[0])
        if missing:
            raise MissingExtraError(*missing) from exc
        raise InputError(f"importing {path} failed: {exc}") from exc
    except Exception as exc:
        del sys.modules[name]
        raise InputError(f"importing {path} failed: {type(exc).__name__}: {exc}") from exc
    return module
