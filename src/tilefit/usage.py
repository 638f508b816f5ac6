"""What a size estimate is: `Usage` and its typed parts (an overrun, a failure, TPU VMEM detail).

A leaf module: the store validates these records and the backends produce them, so neither imports the other
for them. `tilefit.estimate.base` re-exports every name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal, TypedDict, cast

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
    compiles: int | None = None  # libtpu compiles spent on this result (None or 0: the model only)
    bytes_low: int | None = None  # exact mode: the size is in (bytes_low, bytes], E1001 prints 0.01 MiB
    unsure: tuple[str, ...] = ()  # what the analytic model could not see; libtpu decided the fit then


class OverrunRow(TypedDict):
    resource: str
    required: int
    limit: int
    target: str


class FailureRow(TypedDict):
    kind: str
    message: str
    stage: str
    returncode: int | None
    stderr: str


class UsageRow(TypedDict):
    """One row of `tilefit estimate --format json` (Usage.to_dict): what renderers and tools read."""

    target: str
    resource: str
    bytes: int | None
    limit: int | None
    mode: str
    config: dict[str, Any]
    fits: bool | None
    error: str | None
    seconds: float
    registers: int | None
    spills: int | None
    threads: int | None
    tensor_memory: int | None
    over: list[OverrunRow]
    failure: FailureRow | None
    vmem: dict[str, Any] | None
    compiler: str | None
    extra: dict[str, Any]
    percent: float | None


@dataclasses.dataclass(frozen=True)
class Usage:
    """On-chip memory of one config on one target, as the compiler (or a model) reports it.

    `bytes` is the binding resource (`resource`: shared-memory on GPUs, scoped-vmem on TPUs);
    `fits` is None when the compile failed for another reason (then `error` holds the message).
    """

    target: str
    resource: Resource
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

    def to_dict(self) -> UsageRow:
        """A JSON-ready dict (the documented `tilefit estimate --format json` row)."""
        d = dataclasses.asdict(self)
        d["config"] = dict(self.config)
        d["extra"] = dict(self.extra)
        d["over"] = [dataclasses.asdict(o) for o in self.over]
        d["percent"] = self.percent
        return cast(UsageRow, d)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Usage:  # a UsageRow, or any mapping read from JSON
        """Inverse of to_dict() (also of its JSON): the typed parts are rebuilt; `percent` is ignored."""
        names = {f.name for f in dataclasses.fields(cls)}
        fields = {k: v for k, v in raw.items() if k in names}
        fields["over"] = tuple(Overrun(**o) for o in raw.get("over") or ())
        if raw.get("failure"):
            fields["failure"] = Failure(**raw["failure"])
        vmem = raw.get("vmem")
        if vmem:
            parts: dict[str, Any] = dict(vmem)
            parts["buffers"] = tuple((str(n), int(b)) for n, b in parts.get("buffers") or ())
            parts["prefetched_inputs"] = tuple(parts.get("prefetched_inputs") or ())
            parts["unsure"] = tuple(parts.get("unsure") or ())
            fields["vmem"] = VmemDetail(**parts)
        return cls(**fields)

    @property
    def reason(self) -> str:
        """Why it does not fit ('' when it fits): every overrun's DoesNotFit message, joined."""
        return "; ".join(str(o) for o in self.over)
