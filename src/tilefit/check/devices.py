"""Which target a device name of a config table's file name is (data/check/devices.yaml)."""

from __future__ import annotations

import functools
import re
from importlib import resources

from tilefit.errors import InputError
from tilefit.yamlio import load_yaml


@functools.lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    doc = load_yaml(resources.files("tilefit") / "data" / "check" / "devices.yaml")
    return tuple((re.compile(str(d["pattern"])), str(d["target"])) for d in doc["devices"])


def device_target(device_name: str) -> str | None:
    """The target of a device name ('NVIDIA_H100_80GB_HBM3' -> 'sm_90'), or None when unknown."""
    name = device_name.strip().replace(" ", "_")
    return next((t for p, t in _patterns() if p.fullmatch(name)), None)


def require_device_target(device_name: str) -> str:
    """device_target, or an InputError naming what is known."""
    target = device_target(device_name)
    if target is None:
        known = ", ".join(p.pattern for p, _ in _patterns()[:6])
        raise InputError(f"unknown device name {device_name!r}; give --target too, or a name like "
                         f"torch.cuda.get_device_name() prints (patterns: {known}, ...)")
    return target
