"""Fit Helion configs: the best config of a Helion kernel that fits a target.

The estimator (HelionEstimator, capture_launches, flat_config, to_helion, helion_space) is the `helion`
backend, estimate/helion.py; it is re-exported here for the callers of tilefit.fit.helion.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from tilefit.errors import InputError
from tilefit.estimate.helion import (
    HelionEstimator,
    Launch,
    capture_launches,
    constexpr_args,
    flat_config,
    helion_space,
    to_helion,
)
from tilefit.fit.core import RankInputs, SearchPolicy, fit
from tilefit.fit.report import FitResult
from tilefit.targets import Target

__all__ = [
    "HelionEstimator", "Launch", "capture_launches", "constexpr_args", "fit_helion", "flat_config",
    "helion_bench", "helion_space", "to_helion",
]


def fit_helion(
    kernel: Any,
    args: Sequence[Any],
    target: str | Target = "auto",
    *,
    space: Sequence[Mapping[str, Any]] | None = None,
    **fit_kwargs: Any,
) -> FitResult:
    """The best config of a Helion kernel (or BoundKernel) for these args that fits `target`."""
    bound = kernel.bind(tuple(args)) if hasattr(kernel, "bind") else kernel
    if not hasattr(bound, "config_spec"):
        raise InputError(f"{kernel!r} is not a Helion kernel")
    est = HelionEstimator(bound, args)
    tgt = _resolve(target)
    configs = list(space) if space is not None else helion_space(bound)
    fixed, names = _full_width_dims(est, configs[0], args)
    if fit_kwargs.get("measure") and "bench" not in fit_kwargs:
        fit_kwargs["bench"] = helion_bench(bound, args)
    policy = fit_kwargs.pop("policy", None) or SearchPolicy()
    rank = dataclasses.replace(fit_kwargs.pop("rank", None) or RankInputs(), fixed=fixed, names=names,
                               reduction=tuple(est.reduction_keys()), held=est.held_elements)
    return fit(None, configs, tgt, estimator=est, policy=policy.but(analytic=False), rank=rank, **fit_kwargs)


def helion_bench(bound: Any, args: Sequence[Any]) -> Any:
    """A do_bench timer (ms) of one config of a bound Helion kernel on the current GPU."""
    import triton.testing

    def run(config: Mapping[str, Any]) -> float:
        fn = bound.compile_config(to_helion(bound, config), allow_print=False)
        fn(*args)
        return float(triton.testing.do_bench(lambda: fn(*args), warmup=5, rep=20))

    return run


def _resolve(target: str | Target) -> Target:
    from tilefit.estimate.triton import resolve_target

    return resolve_target(target)


def _full_width_dims(
    est: HelionEstimator, config: Mapping[str, Any], args: Sequence[Any]
) -> tuple[dict[str, int], dict[str, str]]:
    """Reduction dims Helion holds whole (_RDIM_SIZE_*), named after the tensor size they pad."""
    try:
        launches = capture_launches(est.bound, to_helion(est.bound, config), est.args)
    except Exception:
        return {}, {}
    fixed = {k: v for la in launches for k, v in constexpr_args(la).items() if "RDIM" in k.upper()}
    sizes = sorted({int(d) for a in args for d in getattr(a, "shape", ())})
    names = {}
    for key, value in fixed.items():
        match = [s for s in sizes if s <= value and 2 * s > value]
        if match and match[-1] != value:
            names[key] = f"a tensor dimension of {match[-1]} padded to {value}"
    return fixed, names
