"""The backend registry: a backend is one file of this package, named by its registry key.

    backend("triton")        # the Backend object of estimate/triton.py (its module-level BACKEND)
    backend_for(target)      # the backend that sizes kernels for a Target (triton for GPUs, pallas for TPUs)

Adding a backend is one new file `estimate/<name>.py` that ends with `BACKEND = ...` (a `base.Backend`)
plus its name in `NAMES`. Importing a backend module is cheap: the compilers it drives (triton, jax,
helion) are imported only when a kernel is loaded or estimated.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from tilefit.errors import InputError, UnsupportedTarget

if TYPE_CHECKING:
    from tilefit.estimate.base import Backend
    from tilefit.targets import Target

# Registry keys, in the order backend_for tries them. helion sizes the Triton code Helion generates: it
# accepts the same targets as triton, so it is only chosen by name (a kernel that is a Helion kernel).
NAMES: tuple[str, ...] = ("triton", "pallas", "helion")
_DEFAULTS: tuple[str, ...] = ("triton", "pallas")


def backend(name: str) -> Backend:
    """The Backend registered as `name`; InputError naming the available ones otherwise."""
    if name not in NAMES:
        raise InputError(f"unknown backend {name!r}; available: {', '.join(NAMES)}")
    module = importlib.import_module(f"tilefit.estimate.{name}")
    found: Backend = module.BACKEND
    return found


def backend_for(target: Target) -> Backend:
    """The backend that sizes kernels for `target`; UnsupportedTarget when none does (e.g. Intel XPU)."""
    for name in _DEFAULTS:
        found = backend(name)
        if found.accepts(target):
            return found
    family = f"Triton family {target.triton.backend!r}" if target.triton is not None else target.kind
    raise UnsupportedTarget(
        target.name, f"no tilefit backend compiles for {target.vendor} targets ({family})", list(_DEFAULTS),
    )


__all__ = ["NAMES", "backend", "backend_for"]
