"""A drop-in `early_config_prune` for triton.autotune that drops configs that cannot fit the GPU.

    @triton.autotune(configs=..., key=[...], prune_configs_by={"early_config_prune": early_config_prune})
    @triton.jit
    def kernel(...): ...

Stock Triton compiles every config fully and only learns at load time (OutOfResources) that it does not
fit, paying the whole compile for nothing (FACTS.md). This prune asks Triton's allocation pass for the exact
shared memory of each config on the current device (fast mode, ~0.1 s) and keeps those that fit. It never
returns [] (Triton's contract): when none fits it raises NoConfigFits saying what never fits.

The prune needs the kernel; Triton passes only (configs, named_args, **kwargs), so `early_config_prune`
finds the calling Autotuner on the stack. `make_prune(kernel=..., target=...)` binds them explicitly.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.errors import InputError, TilefitWarning
from tilefit.fit.diagnose import no_config_fits
from tilefit.fit.report import Dropped
from tilefit.fit.space import as_config, format_config

Prune = Callable[..., list[Any]]


def make_prune(
    kernel: Any = None,
    *,
    target: str = "auto",
    then: Prune | None = None,
    warn: bool = True,
) -> Prune:
    """An early_config_prune; `then` is a user prune applied to the configs that fit."""

    def prune(configs: Sequence[Any], named_args: Mapping[str, Any], **kwargs: Any) -> list[Any]:
        fn = kernel if kernel is not None else _calling_autotuner_kernel()
        keep = fitting_configs(fn, configs, named_args, kwargs, target=target, warn=warn)
        return list(then(keep, named_args, **kwargs)) if then is not None else keep

    return prune


def early_config_prune(configs: Sequence[Any], named_args: Mapping[str, Any], **kwargs: Any) -> list[Any]:
    """Drop-in prune: the configs that fit the current GPU (the kernel is found on the call stack)."""
    return make_prune()(configs, named_args, **kwargs)


def fitting_configs(
    kernel: Any,
    configs: Sequence[Any],
    named_args: Mapping[str, Any],
    call_kwargs: Mapping[str, Any],
    *,
    target: str = "auto",
    warn: bool = True,
) -> list[Any]:
    """The configs (triton.Config objects, unchanged) that fit; NoConfigFits when none does."""
    from tilefit.estimate.triton import TritonEstimator, resolve_target

    tname = resolve_target(target).name
    args = {**named_args, **{k: v for k, v in call_kwargs.items() if _is_arg(kernel, k)}}
    est = TritonEstimator(kernel, args=args)
    flat = [{**call_kwargs_constexprs(kernel, call_kwargs), **as_config(c)} for c in configs]
    usages = est.estimate_many(flat, [tname], mode="fast", progress=False)
    keep, dropped = [], []
    for cfg, flat_cfg, u in zip(configs, flat, usages, strict=True):
        if u.fits:
            keep.append(cfg)
        elif u.error is not None or u.fits is None:
            dropped.append(Dropped(flat_cfg, "compile-error", None, u.limit, u.error or "no result"))
        else:
            dropped.append(Dropped(flat_cfg, "over-limit", u.bytes, u.limit))
    if not keep:
        limit = next((d.limit for d in dropped if d.limit), 0) or 0
        raise no_config_fits(target=tname, resource="shared memory", limit=limit, configs=flat, dropped=dropped)
    if dropped and warn:
        _warn(kernel, tname, dropped, len(configs))
    return keep


def call_kwargs_constexprs(kernel: Any, call_kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """Constexpr values the caller passed by keyword (not tuned by the configs)."""
    from tilefit.estimate.triton import unwrap_kernel

    fn = unwrap_kernel(kernel)
    names = {p.name for p in fn.params if p.is_constexpr}
    return {k: v for k, v in call_kwargs.items() if k in names}


def _is_arg(kernel: Any, name: str) -> bool:
    from tilefit.estimate.triton import unwrap_kernel

    fn = unwrap_kernel(kernel)
    return any(p.name == name and not p.is_constexpr for p in fn.params)


def _warn(kernel: Any, target: str, dropped: list[Dropped], total: int) -> None:
    name = getattr(getattr(kernel, "fn", kernel), "__name__", str(kernel))
    lines = "; ".join(d.describe() for d in dropped[:4]) + ("; ..." if len(dropped) > 4 else "")
    warnings.warn(
        f"tilefit: {len(dropped)} of {total} autotune configs of {name} cannot run on {target} and were "
        f"pruned before compiling: {lines}",
        TilefitWarning,
        stacklevel=4,
    )


def _calling_autotuner_kernel() -> Any:
    """The JITFunction of the triton Autotuner whose prune_configs called us."""
    frame = sys._getframe(1)
    while frame is not None:
        owner = frame.f_locals.get("self")
        if owner is not None and hasattr(owner, "configs") and hasattr(owner, "fn") and hasattr(owner, "nargs"):
            return owner.fn
        frame = frame.f_back  # type: ignore[assignment]
    raise InputError(
        "early_config_prune was not called by triton.autotune; use "
        "tilefit.integrations.triton_autotune.make_prune(kernel=...) to bind the kernel explicitly"
    )


def describe(configs: Sequence[Any]) -> list[str]:
    """'BLOCK_M=128 ... num_warps=4 num_stages=3' for each config."""
    return [format_config(as_config(c)) for c in configs]
