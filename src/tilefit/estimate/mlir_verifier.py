"""Switch off MLIR's verifier between Triton's passes while `tilefit check` sizes many launches.

MLIR verifies the whole module after every pass that does not preserve all analyses; on SGLang's MoE kernel
that is up to half of make_ttgir (0.75 ms a verification, 43 passes). Verifying checks the IR and changes
nothing in it, so the allocation pass sizes the same module with or without it; what it catches is a pass that
leaves invalid IR, and `verified()` below still verifies the module once, at the end.

Triton's bindings expose no switch, but libtriton.so (3.9) exports `mlir::PassManager::enableVerifier(bool)`.
Triton binds `pass_manager` with nanobind, whose instance header (PyObject_HEAD, then an int32 offset and a
flags word: state, direct, internal...) says where the C++ object lies. Each step is checked: the symbol, the
binding library, the header's state; and a child process tries it once per libtriton.so before any worker
relies on it (a wrong guess there is a crash of that child, not of the check). Triton 3.6 does not export the
symbol, so there the verifier stays on and nothing changes.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

_NB_READY = 2  # nanobind's instance state "ready" (uninitialized 0, relinquished 1)
_SYMBOL = "_ZN4mlir11PassManager14enableVerifierEb"


def _library() -> Any:
    from triton._C import libtriton

    return libtriton


@functools.lru_cache(maxsize=1)
def _enable_verifier() -> Callable[[int, bool], None] | None:
    try:
        fn = getattr(ctypes.CDLL(_library().__file__), _SYMBOL)
    except (AttributeError, OSError):
        return None
    fn.argtypes = [ctypes.c_void_p, ctypes.c_bool]
    fn.restype = None
    return fn  # type: ignore[no-any-return]


def _address(pm: Any) -> int | None:
    """Where the C++ PassManager of a nanobind `pass_manager` lies, or None when the header is not as known."""
    if not type(type(pm)).__name__.startswith("nb_type") or sysconfig.get_config_var("Py_GIL_DISABLED"):
        return None  # not nanobind, or a free-threaded CPython whose object header is another size
    base = id(pm)
    header = ctypes.c_uint64.from_address(base + 2 * ctypes.sizeof(ctypes.c_void_p)).value
    offset, flags = ctypes.c_int32(header & 0xFFFFFFFF).value, header >> 32
    state, direct = flags & 0b11, (flags >> 2) & 1
    if state != _NB_READY or offset <= 0:
        return None
    if direct:
        return base + offset
    return ctypes.c_void_p.from_address(base + offset).value


def switch_off(pm: Any) -> bool:
    """Turn the verifier off on one pass manager; False (and nothing done) where that is not known to work."""
    fn = _enable_verifier()
    address = _address(pm) if fn is not None else None
    if fn is None or address is None:
        return False
    fn(address, False)
    return True


def _probe() -> None:
    """Run in a child: a pass manager with the verifier off runs a pipeline; exit 0 says it works."""
    from triton._C.libtriton import ir, passes

    context = ir.context()
    ir.load_dialects(context)
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write("module {\n  tt.func @f() {\n    tt.return\n  }\n}\n")
    try:
        module = ir.parse_mlir_module(f.name, context)
    finally:
        os.unlink(f.name)
    pm = ir.pass_manager(context)
    if not switch_off(pm):
        raise SystemExit(3)
    passes.common.add_canonicalizer(pm)
    passes.common.add_cse(pm)
    pm.run(module, "tilefit_probe")
    raise SystemExit(0 if "tt.func" in str(module) else 4)


# The parent's answer, handed to its compile workers (same interpreter, same Triton) so they need not ask again.
PROBED = "_TILEFIT_MLIR_VERIFIER_PROBED"
_ACTIVE: list[bool] = []


@functools.lru_cache(maxsize=1)
def usable() -> bool:
    """Whether this Triton lets the verifier be switched off: asked of a child process once per process tree."""
    if os.environ.get(PROBED) in ("0", "1"):
        return os.environ[PROBED] == "1"
    if _enable_verifier() is None:
        return False
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from tilefit.estimate.mlir_verifier import _probe; _probe()"],
            capture_output=True, timeout=120, check=False, env={**os.environ, "PYTHONPATH": _path()},
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _path() -> str:
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rest = os.environ.get("PYTHONPATH")
    return here if not rest else here + os.pathsep + rest


@contextlib.contextmanager
def verifier_off(enabled: bool) -> Iterator[None]:
    """While in effect (and `enabled`), every pass manager Triton's ir module makes has its verifier off."""
    if not enabled:
        yield
        return
    from triton._C.libtriton import ir

    real = ir.pass_manager

    def pass_manager(context: Any) -> Any:
        pm = real(context)
        switch_off(pm)
        return pm

    ir.pass_manager = pass_manager
    _ACTIVE.append(True)
    try:
        yield
    finally:
        _ACTIVE.pop()
        ir.pass_manager = real


def verified(module: Any) -> None:
    """Where the verifier is off, verify the module once: what the skipped verifications would catch, at the end."""
    if _ACTIVE and not module.verify():
        raise RuntimeError("MLIR verification failed after make_ttgir (the IR a pass left is invalid)")
