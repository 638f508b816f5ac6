"""What every estimator returns, and the protocol a backend implements.

Backends are files of this package, named by what they compile: triton.py (Triton kernels for NVIDIA
and AMD targets), pallas.py (Pallas TPU kernels with libtpu). The file name is the registry key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol

Mode = Literal["fast", "full", "analytic", "exact"]


@dataclasses.dataclass(frozen=True)
class Usage:
    """On-chip memory of one config on one target, as the compiler (or a model) reports it.

    `bytes` is the binding resource (`resource`: shared-memory on GPUs, scoped-vmem on TPUs);
    `fits` is None when the compile failed for another reason (then `error` holds the message).
    """

    target: str
    resource: str
    bytes: int | None
    limit: int | None
    mode: Mode
    config: Mapping[str, Any]
    fits: bool | None
    error: str | None = None
    seconds: float = 0.0
    registers: int | None = None
    spills: int | None = None
    threads: int | None = None
    tensor_memory: int | None = None
    extra: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def percent(self) -> float | None:
        """Bytes as a percentage of the limit."""
        if self.bytes is None or not self.limit:
            return None
        return 100.0 * self.bytes / self.limit

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the documented `tilefit estimate --format json` row)."""
        d = dataclasses.asdict(self)
        d["config"] = dict(self.config)
        d["extra"] = dict(self.extra)
        d["percent"] = self.percent
        return d


class Estimator(Protocol):
    """A backend that reports the on-chip memory of kernel configs."""

    def estimate(self, config: Mapping[str, Any], target: str, mode: Mode = "fast") -> Usage:
        """One config on one target; a config that does not compile is a Usage with `error` set."""
        ...

    def estimate_many(
        self, configs: Sequence[Mapping[str, Any]], targets: Sequence[str], mode: Mode = "fast"
    ) -> list[Usage]:
        """Every config on every target; failures are results, never an abort of the sweep."""
        ...
