"""Importing the user's kernel files (the CLI's `file.py:name`), once per process, with clear errors.

A kernel file is imported: its module-level code runs, like `python file.py` would run it, once in
tilefit's process and once in each compiler worker. Only give tilefit files you would run yourself.
A file that calls sys.exit() or os._exit() at import is an input error, not the end of tilefit.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

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
        with _no_os_exit(path):
            spec.loader.exec_module(module)
    except SystemExit as exc:
        del sys.modules[name]
        raise InputError(f"{path} called sys.exit({exc.code!r}) at import; a kernel file must not exit") from None
    except ImportError as exc:
        del sys.modules[name]
        missing = _EXTRAS.get((exc.name or "").split(".")[0])
        if missing:
            raise MissingExtraError(*missing) from exc
        raise InputError(f"importing {path} failed: {exc}") from exc
    except InputError:
        del sys.modules[name]
        raise
    except SyntaxError as exc:
        del sys.modules[name]
        raise InputError(f"{path}:{exc.lineno}: {exc.msg}") from exc
    except Exception as exc:
        del sys.modules[name]
        raise InputError(f"importing {path} failed: {type(exc).__name__}: {exc}") from exc
    return module


@contextlib.contextmanager
def _no_os_exit(path: str | Path) -> Iterator[None]:
    """While a kernel file imports, os._exit raises instead of ending tilefit with no word (rc 0 looked fine)."""
    real = os._exit

    def refuse(status: int) -> NoReturn:
        raise InputError(f"{path} called os._exit({status}) at import; a kernel file must not exit")

    os._exit = refuse
    try:
        yield
    finally:
        os._exit = real


def load_ref(ref: str) -> Any:
    """The object named by 'path/to/file.py:name'; InputError when the reference, file or name is unusable."""
    path_s, sep, name = ref.rpartition(":")
    if not sep or not path_s or not name:
        raise InputError(f"kernel reference {ref!r} must look like path/to/file.py:kernel_name")
    path = Path(path_s)
    if not path.is_file():
        raise InputError(f"kernel file {path} does not exist" if not path.exists() else f"{path} is not a file")
    module = load_module_file(path)
    obj = getattr(module, name, None)
    if obj is None:
        raise InputError(f"{path} defines no {name!r}")
    return obj
