"""Helion hooks: a default config that fits, and an autotune_config_filter that drops what cannot fit.

    args = (x, gate, up, down)
    bound = use_fitting_config(geglu_mlp, args)      # autotune_effort="none": replaces a default that
    out = bound(*args)                               # would die with OutOfResources at launch

    @helion.kernel(autotune_config_filter=FitFilter())   # drops configs before they are compiled
    def kernel(...): ...

Helion's default config (`config_spec.default_config()`) has no shared-memory check (the seed
kernel of Helion issue 470, T=100 H=512 I=1524 fp32, with Helion 1.5.1's default block_sizes [32, 32] and
num_stages=1 needs 266240 B on sm_90, limit 232448 B; tests/compile/test_integration_helion.py).
tilefit sizes a config exactly through the Triton code Helion generates for it (fit/helion.py) and,
when the default does not fit, fits the space of block sizes x stages x warps. Works with helion 1.4.0
(torch 2.11) and 1.5.1.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from tilefit.errors import InputError
from tilefit.estimate.base import Usage
from tilefit.estimate.helion import HelionEstimator, flat_config


def _bound(kernel: Any, args: Sequence[Any]) -> Any:
    if hasattr(kernel, "config_spec"):
        return kernel
    if hasattr(kernel, "bind"):
        return kernel.bind(tuple(args))
    raise InputError(f"{kernel!r} is not a Helion kernel")


def _target(target: str) -> str:
    from tilefit.estimate.triton import resolve_target

    return resolve_target(target).name


def default_usage(kernel: Any, args: Sequence[Any], target: str = "auto") -> Usage:
    """Exact shared memory of the kernel's default config for these args on `target`."""
    bound = _bound(kernel, args)
    config = bound.config_spec.default_config()
    return HelionEstimator(bound, args).estimate(flat_config(config), _target(target))


def fitting_config(kernel: Any, args: Sequence[Any], target: str = "auto", *, warn: bool = True) -> Any:
    """The default config when it fits, else the best fitting one (a helion.Config); NoConfigFits if none.

    Decided by the guard's one policy (guard/decide.py): remembered per device and compiler version.
    """
    from tilefit.guard.decide import device_for
    from tilefit.guard.fallback import helion_decision

    bound = _bound(kernel, args)
    return helion_decision(bound, args, device_for(target), bound.config_spec.default_config(), warn=warn)


def use_fitting_config(kernel: Any, args: Sequence[Any], target: str = "auto") -> Any:
    """Bind the kernel to args and set a config that fits; returns the BoundKernel to call."""
    bound = _bound(kernel, args)
    bound.set_config(fitting_config(bound, args, target))
    return bound


class FitFilter:
    """An `autotune_config_filter`: returns the config when it fits the target, None when it cannot.

    Helion calls the filter with the config only; the bound kernel and args are taken from the calling
    autotuner (its `kernel` and `args`), or bound explicitly with `bind(bound, args)`.
    """

    def __init__(self, target: str = "auto") -> None:
        self.target = target
        self.dropped: list[tuple[Mapping[str, Any], Usage]] = []
        self._est: HelionEstimator | None = None
        self._auto: HelionEstimator | None = None
        self._tname: str | None = None

    def bind(self, bound: Any, args: Sequence[Any]) -> FitFilter:
        """Use this bound kernel and these args instead of finding the autotuner on the stack."""
        self._est = HelionEstimator(bound, args)
        return self

    def __call__(self, config: Any) -> Any:
        est = self._est or self._from_stack()
        if self._tname is None:
            self._tname = _target(self.target)
        usage = est.estimate(flat_config(config), self._tname)
        if usage.fits is False:
            self.dropped.append((config, usage))
            return None
        return config  # fits, or could not be sized: let Helion decide

    def _from_stack(self) -> HelionEstimator:
        frame = sys._getframe(2)
        while frame is not None:
            owner = frame.f_locals.get("self")
            bound = getattr(owner, "kernel", None)
            if bound is not None and hasattr(bound, "config_spec") and getattr(owner, "args", None) is not None:
                if self._auto is None or self._auto.bound is not bound:
                    self._auto = HelionEstimator(bound, getattr(owner, "args", ()))
                return self._auto
            frame = frame.f_back  # type: ignore[assignment]
        raise InputError("FitFilter was not called by a Helion autotuner; call .bind(bound_kernel, args) first")


def _name(bound: Any) -> str:
    fn = getattr(getattr(bound, "kernel", None), "fn", None)
    return str(getattr(fn, "__name__", "kernel"))
