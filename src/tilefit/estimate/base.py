"""What every estimator returns, and the protocol a backend implements.

Backends are files of this package, named by what they compile: triton.py (Triton kernels for NVIDIA
and AMD targets), pallas.py (Pallas TPU kernels with libtpu), helion.py (Helion kernels, sized through
the Triton code they generate). The file name is the registry key (estimate/__init__.py); each file
ends with a module-level `BACKEND` object implementing `Backend`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from tilefit.usage import (
    Failure,
    FailureKind,
    FailureRow,
    Mode,
    Overrun,
    OverrunRow,
    Usage,
    UsageRow,
    VmemDetail,
)

if TYPE_CHECKING:
    from tilefit.targets import Target

class Estimator(Protocol):
    """Reports the on-chip memory of one kernel's configs; targets are resolved `Target` objects."""

    def estimate(self, config: Mapping[str, Any], target: Target, mode: Mode = "fast") -> Usage:
        """One config on one target; a config that does not compile is a Usage with `error` set."""
        ...

    def estimate_many(
        self,
        configs: Sequence[Mapping[str, Any]],
        targets: Sequence[Target],
        mode: Mode = "fast",
        *,
        workers: int | None = None,
        progress: bool | None = None,
    ) -> list[Usage]:
        """Every config on every target (config-major); failures are results, never an abort of the sweep.

        `workers` bounds the compiler processes (None: the backend's default; 1: in this process);
        `progress` shows a bar on stderr (None: when stderr is a terminal). A backend that has neither
        accepts and ignores them.
        """
        ...


@runtime_checkable
class Backend(Protocol):
    """One compiler backend: which targets it serves, how it loads a kernel, and its estimator.

    `load(ref, spec)` takes "path/to/file.py:name" (the file is imported: its module-level code runs)
    and the spec mapping (args, space, params, ...), and returns the kernel object `estimator` takes.
    """

    name: str

    def accepts(self, target: Target) -> bool:
        """True when this backend can size kernels for `target`."""
        ...

    def load(self, ref: str, spec: Mapping[str, Any]) -> Any:
        """The kernel named by `ref`; InputError when the file or name cannot be used."""
        ...

    def estimator(self, kernel: Any, spec: Mapping[str, Any]) -> Estimator:
        """An Estimator for `kernel` with the spec's argument types or parameters."""
        ...

    def space(self, kernel: Any, spec: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The configs to try: the spec's `space` expanded, or the kernel's own when the spec has none."""
        ...

    def mode(self, requested: str) -> Mode:
        """This backend's Mode for a command line's --mode (fast, full or analytic)."""
        ...


__all__ = [
    "Backend", "Estimator", "Failure", "FailureKind", "FailureRow", "Mode", "Overrun", "OverrunRow", "Usage",
    "UsageRow", "VmemDetail",
]
