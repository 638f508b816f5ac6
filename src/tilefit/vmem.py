"""VMEM headroom arithmetic over TPU targets: pure integers, no jax, no libtpu.

Used by `explain` (advice for an E1001 / scoped-VMEM log), and meant for the Pallas estimator and fitter,
so that all three agree on one rule: the limit to pass is the need plus `HEADROOM`, rounded up to a MiB,
never above the generation's physical VMEM.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tilefit.targets import Target

MIB = 1 << 20
KIB = 1 << 10
# 10 % above the measured need: Mosaic's internal scratch moves with jax/libtpu versions.
HEADROOM = 0.10
# The libtpu flag that raises the default scoped-VMEM limit for every kernel of a process (KiB).
SCOPED_VMEM_FLAG = "--xla_tpu_scoped_vmem_limit_kib"


def headroom_limit(required: int, physical: int | None, headroom: float = HEADROOM) -> int:
    """`required` plus headroom, rounded up to a MiB, capped at `physical` (no cap when it is 0 or None)."""
    required = max(0, int(required))
    want = -(-int(required * (1.0 + max(0.0, headroom))) // MIB) * MIB
    want = max(want, required)
    return min(want, physical) if physical else want


@dataclasses.dataclass(frozen=True)
class VmemLimitAdvice:
    """The `vmem_limit_bytes` to pass for a kernel that needs `required` bytes of scoped VMEM."""

    required: int
    vmem_limit_bytes: int | None
    per_target: Mapping[str, int | None]
    too_small: tuple[str, ...]

    @property
    def snippet(self) -> str | None:
        """The Python to paste into the pallas_call."""
        if self.vmem_limit_bytes is None:
            return None
        return f"compiler_params=pltpu.CompilerParams(vmem_limit_bytes={self.vmem_limit_bytes})"

    @property
    def flag(self) -> str | None:
        """The LIBTPU_INIT_ARGS form of the same limit (process-wide)."""
        return None if self.vmem_limit_bytes is None else flag_for(self.vmem_limit_bytes)


def vmem_limit_for(required: int, targets: Sequence[Target], headroom: float = HEADROOM) -> VmemLimitAdvice:
    """The vmem_limit_bytes for `required` bytes (e.g. an E1001 size) on every candidate generation.

    Per target: required + headroom rounded up to a MiB, capped at that target's physical VMEM (None
    where even physical VMEM is too small). `vmem_limit_bytes` is the smallest per-target value, one
    number that works on every generation with room; None when no candidate has room. Targets without
    a physical VMEM (GPUs) are skipped.
    """
    per: dict[str, int | None] = {}
    for t in targets:
        physical = t.limit("vmem_physical")
        if physical is None:
            continue
        per[t.name] = headroom_limit(required, physical, headroom) if required <= physical else None
    fitting = [v for v in per.values() if v is not None]
    too_small = tuple(name for name, v in per.items() if v is None)
    return VmemLimitAdvice(required, min(fitting) if fitting else None, per, too_small)


def flag_for(limit_bytes: int) -> str:
    """`LIBTPU_INIT_ARGS=--xla_tpu_scoped_vmem_limit_kib=N` for a limit in bytes (rounded up to a KiB)."""
    return f"LIBTPU_INIT_ARGS={SCOPED_VMEM_FLAG}={-(-max(0, limit_bytes) // KIB)}"


__all__ = [
    "HEADROOM", "KIB", "MIB", "SCOPED_VMEM_FLAG", "VmemLimitAdvice", "flag_for", "headroom_limit",
    "vmem_limit_for",
]
