"""The one table of resources tilefit knows: what each is, whether it lives on the chip, how it is counted.

`Usage`, the errors, the knowledge-base schema and the renderers all read this table; a unit test checks
that the schema's enum equals `Resource`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Literal, get_args

Resource = Literal[
    "shared-memory", "static-shared-memory", "registers", "threads", "tensor-memory",
    "vmem", "scoped-vmem", "tpu-smem",
    "host-memory", "compile-time", "hbm", "host-shared-memory", "host-threads", "grid", "block-elements",
]
Unit = Literal["bytes", "threads", "registers", "columns", "seconds", "blocks", "elements"]


@dataclasses.dataclass(frozen=True)
class ResourceInfo:
    """One resource: its name, whether it is on the accelerator chip, its unit, and the target limit bounding it."""

    name: Resource
    on_chip: bool
    unit: Unit
    limit_key: str | None  # the key of Target.limits that bounds it, or None
    label: str  # how a message names it: "shared memory", "scoped VMEM"


def _r(name: Resource, on_chip: bool, unit: Unit, limit_key: str | None, label: str) -> ResourceInfo:
    return ResourceInfo(name, on_chip, unit, limit_key, label)


TABLE: Mapping[str, ResourceInfo] = {
    r.name: r
    for r in (
        _r("shared-memory", True, "bytes", "shared_per_block_optin", "shared memory"),
        _r("static-shared-memory", True, "bytes", "shared_per_block_default", "static shared memory"),
        _r("registers", True, "registers", "registers_per_sm", "registers"),
        _r("threads", True, "threads", "threads_per_block", "threads per block"),
        _r("tensor-memory", True, "columns", "tensor_memory_columns", "tensor memory"),
        _r("vmem", True, "bytes", "vmem_physical", "VMEM"),
        _r("scoped-vmem", True, "bytes", "vmem_scoped_default", "scoped VMEM"),
        _r("tpu-smem", True, "bytes", "smem", "TPU SMEM"),
        _r("host-memory", False, "bytes", None, "host memory"),
        _r("compile-time", False, "seconds", None, "compile time"),
        _r("hbm", False, "bytes", None, "device memory (HBM)"),
        _r("host-shared-memory", False, "bytes", None, "host shared memory (/dev/shm)"),
        _r("host-threads", False, "threads", None, "host threads"),
        # a launch's grid (blocks per dimension, 65535 in y and z): checked at launch, but not on-chip memory
        _r("grid", False, "blocks", None, "launch grid"),
        # the elements of one block (a Triton tensor, a fused row): a compiler's or a library's cap, checked before
        # any on-chip memory is sized
        _r("block-elements", False, "elements", None, "elements per block"),
    )
}
RESOURCES: tuple[Resource, ...] = get_args(Resource)
ON_CHIP: frozenset[str] = frozenset(name for name, r in TABLE.items() if r.on_chip)


def info(resource: str) -> ResourceInfo:
    """The table row of a resource name; KeyError names the valid ones."""
    try:
        return TABLE[resource]
    except KeyError:
        raise KeyError(f"unknown resource {resource!r}; known: {', '.join(RESOURCES)}") from None


def is_on_chip(resource: str) -> bool:
    """True for resources that live on the accelerator chip."""
    row = TABLE.get(resource)
    return bool(row and row.on_chip)
