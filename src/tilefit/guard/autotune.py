"""The configs of a triton.autotune space that fit the device, remembered per kernel, key and device.

Used by guard() on an Autotuner and by integrations/triton_autotune.py (the drop-in early_config_prune).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from tilefit.errors import TilefitWarning
from tilefit.fit.diagnose import no_config_fits
from tilefit.fit.report import Dropped
from tilefit.fit.space import as_config, format_config
from tilefit.settings import Settings
from tilefit.store import DecisionStore, stable_key


def fitting_configs(
    kernel: Any,
    configs: Sequence[Any],
    named_args: Mapping[str, Any],
    call_kwargs: Mapping[str, Any],
    *,
    target: str = "auto",
    warn: bool = True,
    settings: Settings | None = None,
) -> list[Any]:
    """The configs (triton.Config objects, unchanged) that fit; NoConfigFits when none does."""
    from tilefit.estimate.triton import TritonEstimator, resolve_target, unwrap_kernel

    fn = unwrap_kernel(kernel)
    tname = resolve_target(target).name
    constexprs = {p.name for p in fn.params if p.is_constexpr}
    fixed = {k: v for k, v in call_kwargs.items() if k in constexprs}
    flat = [{**fixed, **as_config(c)} for c in configs]
    s = settings or Settings.from_env()
    store = DecisionStore(s.cache_dir, str(fn.cache_key), fn.__name__) if s.use_cache else None
    key = stable_key({"configs": flat, "args": {k: _spec(v) for k, v in named_args.items()}})
    stored = store.keep(tname, key, len(configs)) if store else None  # indices checked against configs
    if stored is not None:
        return [configs[i] for i in stored]
    # call_kwargs also carries the launcher's own options (grid, warmup, ...): keep kernel arguments only.
    runtime = {p.name for p in fn.params if not p.is_constexpr}
    args = {**{k: v for k, v in named_args.items() if k in runtime},
            **{k: v for k, v in call_kwargs.items() if k in runtime}}
    usages = TritonEstimator(fn, args=args).estimate_many(flat, [tname], mode="fast", progress=False)
    keep: list[int] = []
    dropped: list[Dropped] = []
    for i, (cfg, u) in enumerate(zip(flat, usages, strict=True)):
        if u.fits:
            keep.append(i)
        elif u.error is not None or u.fits is None:
            dropped.append(Dropped(cfg, "compile-error", None, u.limit, u.error or "no result"))
        else:
            dropped.append(Dropped(cfg, "over-limit", u.bytes, u.limit))
    if not keep:
        limit = next((d.limit for d in dropped if d.limit), 0) or 0
        raise no_config_fits(target=tname, resource="shared memory", limit=limit, configs=flat, dropped=dropped)
    if store:
        store.put(tname, key, {"keep": keep, "dropped": [format_config(d.config) for d in dropped]})
    if dropped and warn:
        _warn(fn.__name__, tname, dropped, len(configs))
    return [configs[i] for i in keep]


def _spec(value: Any) -> Any:
    if isinstance(value, int):
        return [value == 1, value % 16 == 0]
    dtype = getattr(value, "dtype", None)
    if dtype is not None and hasattr(value, "data_ptr"):
        return [str(dtype), value.data_ptr() % 16 == 0]
    return type(value).__name__


def _warn(name: str, target: str, dropped: list[Dropped], total: int) -> None:
    lines = "; ".join(d.describe() for d in dropped[:4]) + ("; ..." if len(dropped) > 4 else "")
    warnings.warn(
        f"tilefit: {len(dropped)} of {total} autotune configs of {name} cannot run on {target} and were "
        f"pruned before compiling: {lines}",
        TilefitWarning,
        stacklevel=5,
    )
