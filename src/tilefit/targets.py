"""Targets (sm_90, gfx942, v5e, ...) and their on-chip limits, loaded from data/targets/*.yaml."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from importlib import resources
from typing import Any, Literal

from tilefit.errors import KnowledgeBaseError, UnknownTargetError
from tilefit.resources import TABLE
from tilefit.yamlio import load_yaml

Vendor = Literal["nvidia", "amd", "intel", "google"]
Kind = Literal["gpu", "tpu"]

# Which limit of a target bounds each resource (read from the one resource table, resources.py).
RESOURCE_LIMIT_KEY: Mapping[str, str] = {name: r.limit_key for name, r in TABLE.items() if r.limit_key}


@dataclasses.dataclass(frozen=True)
class Limit:
    """One hardware number and where it comes from."""

    value: int
    source: str


@dataclasses.dataclass(frozen=True)
class TritonTarget:
    """How Triton names this target: GPUTarget(backend, arch, warp_size)."""

    backend: str
    arch: int | str
    warp_size: int


@dataclasses.dataclass(frozen=True)
class Target:
    """A device class with its on-chip limits."""

    name: str
    vendor: Vendor
    kind: Kind
    family: str
    devices: tuple[str, ...]
    limits: Mapping[str, Limit]
    triton: TritonTarget | None = None
    topology: str | None = None

    def limit(self, key: str) -> int | None:
        """The value of a limit, or None when this target has no such limit."""
        lim = self.limits.get(key)
        return lim.value if lim else None

    def limit_for(self, resource: str) -> int | None:
        """The limit that bounds a knowledge-base resource name (e.g. 'shared-memory')."""
        key = RESOURCE_LIMIT_KEY.get(resource)
        return self.limit(key) if key else None

    def limits_values(self) -> set[int]:
        """Every limit value of this target."""
        return {lim.value for lim in self.limits.values()}


@dataclasses.dataclass(frozen=True)
class TargetSet:
    """All known targets, in data-file order."""

    targets: tuple[Target, ...]
    sources: Mapping[str, str]

    def names(self) -> list[str]:
        return [t.name for t in self.targets]

    def get(self, name: str) -> Target:
        """Look a target up by name ('sm_90', 'gfx942', 'v5e'); also accepts 'sm90', '90', 'cuda:90'."""
        key = _normalise(name)
        for t in self.targets:
            if t.name == key:
                return t
        raise UnknownTargetError(name, self.names())

    def with_limit(self, resource: str, value: int, *, tolerance: float = 0.0) -> list[Target]:
        """Targets whose limit for `resource` equals `value` (within a relative tolerance)."""
        out = []
        for t in self.targets:
            lim = t.limit_for(resource)
            if lim is not None and abs(lim - value) <= tolerance * lim:
                out.append(t)
        return out


def _normalise(name: str) -> str:
    n = name.strip().lower().replace("-", "_")
    if n.startswith("cuda:"):
        n = n[5:]
    if n.startswith("hip:"):
        n = n[4:]
    if n.isdigit():
        return f"sm_{n}"
    if n.startswith("sm") and n[2:].lstrip("_").isdigit():
        return f"sm_{n[2:].lstrip('_')}"
    return n.replace("_", "") if n.startswith("gfx") else n


def _limits(raw: Mapping[str, Any], where: str) -> dict[str, Limit]:
    out = {}
    for key, spec in raw.items():
        if not isinstance(spec, Mapping) or "value" not in spec or "source" not in spec:
            raise KnowledgeBaseError(f"{where}: limit {key!r} needs a value and a source")
        out[key] = Limit(value=int(spec["value"]), source=str(spec["source"]))
    return out


def _parse_file(doc: Mapping[str, Any], where: str, sources: Mapping[str, str]) -> list[Target]:
    vendor, kind = doc["vendor"], doc["kind"]
    defaults = _limits(doc.get("defaults", {}), where)
    out = []
    for raw in doc["targets"]:
        limits = {**defaults, **_limits(raw.get("limits", {}), f"{where}:{raw['name']}")}
        for lim in limits.values():
            if lim.source not in sources:
                raise KnowledgeBaseError(f"{where}:{raw['name']}: unknown source {lim.source!r}")
        tri = raw.get("triton")
        triton = None
        if tri:
            warp = limits.get("warp_size")
            triton = TritonTarget(tri["backend"], tri["arch"], warp.value if warp else 32)
        out.append(
            Target(
                name=raw["name"], vendor=vendor, kind=kind, family=raw.get("family", ""),
                devices=tuple(raw.get("devices", ())), limits=limits, triton=triton,
                topology=raw.get("topology"),
            )
        )
    return out


@functools.lru_cache(maxsize=1)
def load_targets() -> TargetSet:
    """Load every data/targets/*.yaml file shipped with tilefit."""
    folder = resources.files("tilefit") / "data" / "targets"
    sources = {str(k): str(v) for k, v in load_yaml(folder / "sources.yaml").items()}
    targets: list[Target] = []
    for fname in ("nvidia.yaml", "amd.yaml", "intel.yaml", "tpu.yaml"):
        where = f"data/targets/{fname}"
        try:
            targets += _parse_file(load_yaml(folder / fname), where, sources)
        except (KeyError, TypeError, ValueError) as exc:
            raise KnowledgeBaseError(f"{where}: {exc}") from exc
    return TargetSet(targets=tuple(targets), sources=sources)


def get_target(name: str) -> Target:
    """Shortcut for load_targets().get(name)."""
    return load_targets().get(name)
