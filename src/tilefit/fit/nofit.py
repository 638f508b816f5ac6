"""When no config fits: name what never fits, the smallest achievable bytes, and the rewrite that fixes it."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.errors import NoConfigFits
from tilefit.fit.report import Dropped
from tilefit.space import block_keys, format_config

# Exact bytes of one config (None when it does not compile): lets the diagnosis see what scales.
Probe = Callable[[Mapping[str, Any]], "int | None"]


def fixed_dims(configs: Sequence[Mapping[str, Any]], fixed: Mapping[str, int] | None) -> dict[str, int]:
    """Tile sizes that no config varies (plus those the caller names): full-width dimensions."""
    out = {k: int(v) for k, v in (fixed or {}).items()}
    if len(configs) > 1:
        for key in block_keys(configs[0]):
            values = {c.get(key) for c in configs}
            if len(values) == 1:
                out.setdefault(key, int(configs[0][key]))
    return out


def _floor_pow2(n: float) -> int:
    p = 1
    while p * 2 <= n:
        p *= 2
    return p if n >= 1 else 0


def _scaling_keys(best: Dropped, probe: Probe | None, fixed: Mapping[str, int]) -> list[str]:
    """Tunable tile sizes the bytes grow in proportion to: compile the smallest config with each doubled."""
    out: list[str] = []
    if probe is None or not best.bytes:
        return out
    for key in block_keys(best.config):
        if key in fixed:
            continue
        bigger = probe({**best.config, key: int(best.config[key]) * 2})
        if bigger is not None and abs(bigger / best.bytes - 2.0) <= 0.3:
            out.append(key)
    return out


def no_config_fits(
    *,
    target: str,
    resource: str,
    limit: int,
    configs: Sequence[Mapping[str, Any]],
    dropped: Sequence[Dropped],
    fixed: Mapping[str, int] | None = None,
    names: Mapping[str, str] | None = None,
    probe: Probe | None = None,
) -> NoConfigFits:
    """Build the NoConfigFits for a search where every config was dropped."""
    sized = [d for d in dropped if d.reason == "over-limit" and d.bytes is not None]
    failed = [d for d in dropped if d.reason == "compile-error"]
    if not sized and failed:
        first = failed[0]
        return NoConfigFits(
            target, resource, limit, min((d.bytes for d in dropped if d.bytes), default=None),
            consumer=f"{len(failed)} configs failed to compile (first, {format_config(first.config)}: "
            f"{first.message})",
            fix="fix the compile error; tilefit cannot size a kernel that does not compile",
            tried=len(configs),
        )
    sized = sized or [d for d in dropped if d.bytes is not None]
    if not sized:
        return NoConfigFits(target, resource, limit, None, consumer="no config could be sized",
                            tried=len(configs))
    best = min(sized, key=lambda d: d.bytes or 0)
    smallest = int(best.bytes or 0)
    dims = fixed_dims(configs, fixed)
    rows = math.prod(int(best.config[k]) for k in _scaling_keys(best, probe, dims))
    consumer, fix = _explain(best.config, smallest, limit, dims, names or {}, rows)
    return NoConfigFits(target, resource, limit, smallest, consumer=consumer, fix=fix, tried=len(configs))


def _explain(
    config: Mapping[str, Any],
    smallest: int,
    limit: int,
    dims: Mapping[str, int],
    names: Mapping[str, str],
    rows: int,
) -> tuple[str, str]:
    cfg = format_config(config)
    if not dims:
        return (
            f"even the smallest config ({cfg}) needs {smallest} B, {smallest / limit:.2f}x the limit",
            _shrink_hint(config),
        )
    key = max(dims, key=lambda k: dims[k])
    size = dims[key]
    label = key
    about = f" ({names[key]})" if key in names else ""
    per_row = smallest / rows
    elem = per_row / size
    consumer = (
        f"the full-width dimension {label}={size}{about} is held on chip whole in every config: at the "
        f"smallest tile ({cfg}) that is {smallest} B = {size} elements x {elem:.3g} B = "
        f"{per_row / 1024:.0f} KiB per row" + (f" x {rows} rows" if rows > 1 else "")
        + f", {smallest / limit:.2f}x the {limit} B limit; no tile size or stage count can shrink it"
    )
    fits_up_to = _floor_pow2(size * limit / smallest)
    fix = (
        f"tile {label} instead of holding it whole: loop over it in chunks (e.g. hl.tile over that "
        f"dimension with a running accumulator, or a BLOCK loop) so only a [rows x chunk] slice is live, "
        f"or split the kernel and keep the [rows x {size}] intermediate in global memory; "
        f"at this tile a width of at most {fits_up_to} would fit"
    )
    return consumer, fix


def _shrink_hint(config: Mapping[str, Any]) -> str:
    """Suggest the next smaller step of each knob the space could add."""
    steps = [f"{k}={int(config[k]) // 2}" for k in block_keys(config) if int(config[k]) > 16]
    stages = config.get("num_stages")
    if isinstance(stages, int) and stages > 1:
        steps.append("num_stages=1")
    if not steps:
        return "the tiles are already at their minimum; split the kernel so less data is live at once"
    return "add smaller configs to the space: " + ", ".join(steps)

