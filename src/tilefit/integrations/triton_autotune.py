"""A drop-in `early_config_prune` for triton.autotune that drops configs that cannot fit the GPU.

    @triton.autotune(configs=..., key=[...], prune_configs_by={"early_config_prune": early_config_prune})
    @triton.jit
    def kernel(...): ...

Stock Triton compiles every config fully and only learns at load time (OutOfResources) that it does not
fit, paying the whole compile for nothing (Triton checks `metadata.shared` only in
CompiledKernel._init_handles, after triton.compile has produced the binary). This prune asks Triton's
allocation pass for the exact shared memory of each config on the current device (fast mode, ~0.1 s)
and keeps those that fit. It never returns [] (Triton's contract): when none fits it raises NoConfigFits
saying what never fits. The kept set is remembered on disk per kernel, key and device (Settings.cache_dir/guard).

The prune needs the kernel; Triton passes only (configs, named_args, **kwargs), so `early_config_prune`
finds the calling Autotuner on the stack. `make_prune(kernel=..., target=...)` binds them explicitly.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.errors import InputError
from tilefit.guard.decide import fitting_configs
from tilefit.settings import Settings
from tilefit.space import as_config, format_config

Prune = Callable[..., list[Any]]


def make_prune(
    kernel: Any = None,
    *,
    target: str = "auto",
    then: Prune | None = None,
    warn: bool = True,
    settings: Settings | None = None,
) -> Prune:
    """An early_config_prune; `then` is a user prune applied to the configs that fit."""

    def prune(configs: Sequence[Any], named_args: Mapping[str, Any], **kwargs: Any) -> list[Any]:
        fn = kernel if kernel is not None else _calling_autotuner_kernel()
        keep = fitting_configs(fn, configs, named_args, kwargs, target=target, warn=warn, settings=settings)
        return list(then(keep, named_args, **kwargs)) if then is not None else keep

    return prune


def early_config_prune(configs: Sequence[Any], named_args: Mapping[str, Any], **kwargs: Any) -> list[Any]:
    """Drop-in prune: the configs that fit the current GPU (the kernel is found on the call stack)."""
    return make_prune()(configs, named_args, **kwargs)


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
