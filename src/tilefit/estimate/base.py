"""What every estimator returns, and the protocol a backend implements.

Backends are files of this package, named by what they compile: triton.py (Triton kernels for NVIDIA
and AMD targets), pallas.py (Pallas TPU kernels with libtpu). The file name is the registry key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol

from tilefit.errors import DoesNotFit
from tilefit.resources import Resource

Mode = Literal["fast", "full", "analytic", "exact"]
FailureKind = Literal["compile", "crash", "timeout", "oom", "input"]


@dataclasses.dataclass(frozen=True)
class Overrun:
    """One resource a config needs more of than the target allows; `str()` is the DoesNotFit message."""

    resource: Resource
    required: int
    limit: int
    target: str

    def __str__(self) -> str:
        return str(self.error())

    def error(self, hint: str = "") -> DoesNotFit:
        """The DoesNotFit exception for this overrun."""
        return DoesNotFit(self.resource, self.required, self.limit, self.target, hint)


@dataclasses.dataclass(frozen=True)
class Failure:
    """Why a config produced no size: the compiler rejected it, crashed, ran past its time or out of memory."""

    kind: FailureKind
    message: str
    stage: str = ""
    returncode: int | None = None
    stderr: str = ""  # the tail of the child's stderr, bounded


@dataclasses.dataclass(frozen=True)
class VmemDetail:
    """TPU VMEM detail of a Pallas estimate."""

    physical: int | None = None  # physical VMEM of the target
    vmem_limit_bytes: int | None = None  # the limit to pass when the default scoped limit is too small
    over_physical: bool = False  # even physical VMEM is too small
    internal_allowance: int | None = None  # bytes allowed for Mosaic's internal scratch
    buffers: tuple[tuple[str, int], ...] = ()  # (buffer name, bytes) of the pipeline buffers
    grid_steps: int | None = None
    prefetched_inputs: tuple[str, ...] = ()  # inputs XLA copies into VMEM before the kernel (tpu7x)
    bytes_without_prefetch: int | None = None
    bytes_at_limit: int | None = None
    bytes_is_lower_bound: bool = False
    physical_reported: int | None = None
    compiles: int = 0  # libtpu compiles spent on this result (0: model only)
    bytes_low: int | None = None  # exact mode: the size is in (bytes_low, bytes], E1001 prints 0.01 MiB
    unsure: tuple[str, ...] = ()  # what the analytic model could not see; libtpu decided the fit then


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
    over: tuple[Overrun, ...] = ()  # every resource over its limit; empty when it fits or failed
    failure: Failure | None = None  # set when `error` is
    vmem: VmemDetail | None = None  # TPU detail
    compiler: str | None = None  # what sized it: "triton 3.6.0", "libtpu 0.0.51", "analytic (triton 3.9.0)"
    extra: Mapping[str, Any] = dataclasses.field(default_factory=dict)  # free-form; no other module reads it

    def raise_if_over(self, hint: str = "") -> None:
        """Raise DoesNotFit for the first overrun, if any."""
        if self.over:
            raise self.over[0].error(hint)

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
