"""guard(): keep a kernel from dying of an on-chip overflow at launch.

    g = guard(matmul_kernel)                  # @triton.jit, @triton.heuristics, @triton.autotune, Helion
    g[grid](a, b, c, M, N, K, ..., BLOCK_M=256, BLOCK_N=256, BLOCK_K=64, num_stages=5)

A @triton.jit kernel (bare or under @triton.heuristics) is checked where Triton compiles, once per
specialisation (guard/jit.py); a @triton.autotune kernel anywhere in the stack gets the fitting prune
ahead of its own early_config_prune; a Helion kernel gets a config that fits. All three decide through
guard/decide.py: one policy, one store key, one warning. If nothing fits, NoConfigFits is raised before
any launch.

What a fallback may change: for a @triton.jit kernel only num_stages by default (it never changes the
result); tile sizes too when the caller names them in `tunable` (the grid must then be a callable of the
meta-parameters, as in Triton's tutorials) or gives a `space`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tilefit.errors import InputError
from tilefit.guard.decide import (
    DeviceInfo,
    Handle,
    catalogue_device,
    current_device,
    decide,
    fitting_configs,
    specialisation_key,
)
from tilefit.guard.jit import GuardedKernel
from tilefit.settings import Settings
from tilefit.store import stable_key
from tilefit.targets import Target

__all__ = ["DeviceInfo", "GuardedHelion", "GuardedKernel", "guard"]


class GuardedHelion:
    """A Helion kernel whose config is checked once per bound kernel and replaced when it cannot fit."""

    def __init__(self, kernel: Any, *, target: str = "auto", settings: Settings | None = None) -> None:
        self.kernel = kernel
        self.target = target
        self.checked: dict[int, Any] = {}
        self.settings = settings or Settings.from_env()

    def __call__(self, *args: Any) -> Any:
        bound = self.kernel.bind(args)
        ready = self.checked.get(id(bound))
        if ready is None:
            ready = self.checked[id(bound)] = self._prepare(bound, args)
        return ready(*args)

    def _prepare(self, bound: Any, args: Sequence[Any]) -> Any:
        implicit = bound._implicit_config()  # Helion's own choice: default or single config, else None
        if implicit is None:
            return bound  # it will autotune; FitFilter (integrations/helion.py) covers that path
        device = current_device() if self.target == "auto" else catalogue_device(self.target)
        bound.set_config(helion_decision(bound, args, device, implicit, settings=self.settings))
        return bound


def helion_handle(bound: Any, args: Sequence[Any]) -> Handle:
    """A Handle over a bound Helion kernel: each config sized through the Triton code Helion generates."""
    from tilefit.estimate.helion import HelionEstimator

    est = HelionEstimator(bound, args)

    def size(configs: Sequence[Mapping[str, Any]], target: Any) -> list[Any]:
        return est.estimate_many(configs, [target])

    return Handle(_helion_name(bound), stable_key(_helion_source(bound)), _helion_compiler(), size)


def helion_decision(bound: Any, args: Sequence[Any], device: DeviceInfo, config: Any, *,
                    settings: Settings | None = None, warn: bool = True) -> Any:
    """`config` (a helion.Config) when it fits the device, else the best fitting one (a helion.Config)."""
    from tilefit.estimate.helion import flat_config, to_helion
    from tilefit.fit.helion import fit_helion

    def best(target: Target) -> list[dict[str, Any]]:  # the whole space, ranked against the device's limit
        return [dict(fit_helion(bound, args, target).config)]

    # Helion specialises on shapes too (its block sizes and reduction dims follow them).
    shapes = [list(getattr(a, "shape", ())) for a in args]
    spec = f"{specialisation_key({f'arg{i}': a for i, a in enumerate(args) if _sizable(a)})} shapes={shapes}"
    decision = decide(helion_handle(bound, args), flat_config(config), best, spec, device,
                      settings=settings, warn=warn)
    return config if not decision.changes else to_helion(bound, decision.config)


def _sizable(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float)) or hasattr(value, "data_ptr")


def _helion_name(bound: Any) -> str:
    fn = getattr(getattr(bound, "kernel", None), "fn", None)
    return str(getattr(fn, "__name__", "helion_kernel"))


def _helion_source(bound: Any) -> str:
    import inspect

    fn = getattr(getattr(bound, "kernel", None), "fn", None)
    try:
        return inspect.getsource(fn) if fn is not None else _helion_name(bound)
    except (OSError, TypeError):
        return _helion_name(bound)


def _helion_compiler() -> str:
    from importlib.metadata import version

    from tilefit.guard.decide import triton_version

    return f"helion {version('helion')}, {triton_version()}"


def guard(kernel: Any, **options: Any) -> Any:
    """Wrap a @triton.jit, @triton.heuristics, @triton.autotune or Helion kernel so that it never dies of a
    shared-memory overflow; launch the result as the kernel itself."""
    if hasattr(kernel, "bind") and hasattr(kernel, "configs") and not hasattr(kernel, "nargs"):
        return GuardedHelion(kernel, **options)
    tuner = _autotuner_in(kernel)
    if tuner is None:
        return GuardedKernel(kernel, **options)
    target, settings = options.pop("target", "auto"), options.pop("settings", None)
    if options:
        raise InputError(f"guard() of an autotuned kernel takes target and settings, not {', '.join(options)}: "
                         "its configs are the space the fitting prune checks")
    _install_prune(tuner, target=target, settings=settings)
    return kernel  # launched as before: the autotuner prunes what cannot fit


def _autotuner_in(kernel: Any) -> Any:
    """The triton Autotuner in a heuristics/autotune stack, if any."""
    seen = 0
    while kernel is not None and seen < 8:
        if hasattr(kernel, "configs") and hasattr(kernel, "prune_configs"):
            return kernel
        kernel, seen = getattr(kernel, "fn", None), seen + 1
    return None


def _install_prune(autotuner: Any, *, target: str = "auto", settings: Settings | None = None) -> None:
    """Put the fitting prune ahead of the autotuner's own early_config_prune (in place, once)."""
    original = getattr(autotuner, "early_config_prune", None)
    if getattr(original, "__tilefit__", False):
        return
    fn = autotuner.fn

    def prune(configs: Sequence[Any], named_args: Mapping[str, Any], **kwargs: Any) -> list[Any]:
        keep = fitting_configs(fn, configs, named_args, kwargs, target=target, settings=settings)
        return list(original(keep, named_args, **kwargs)) if original else keep

    prune.__tilefit__ = True  # type: ignore[attr-defined]
    autotuner.early_config_prune = prune
