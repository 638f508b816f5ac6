"""Guard a kernel so it never dies of an on-chip overflow at launch.

    g = guard(matmul_kernel)                  # @triton.jit
    g[grid](a, b, c, M, N, K, ..., BLOCK_M=256, BLOCK_N=256, BLOCK_K=64, num_stages=5)

Before the first launch of a key (config + argument specialisation) on a device, the config is sized
exactly for that device (Triton's allocation pass, fast mode) against the device's own limit. If it does
not fit, the guard falls back to the best config that fits (fit/core.py), warns once (TilefitWarning)
naming the old and new config, and stores the decision on disk (Settings.cache_dir/guard) per kernel, key
and device. Later launches cost a dictionary lookup. If nothing fits, NoConfigFits is raised before any
launch.

What the fallback may change: for a @triton.jit kernel only num_stages by default (it never changes the
result); tile sizes too when the caller names them in `tunable` (the grid must then be a callable of the
meta-parameters, as in Triton's tutorials) or gives a `space`. A triton.autotune kernel gets the fitting
prune (its configs are the space). A Helion kernel gets a fitting config (integrations' logic, fit/helion).
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.errors import TilefitWarning
from tilefit.fit.core import fit
from tilefit.fit.space import LAUNCH_KEYS, format_config
from tilefit.settings import Settings
from tilefit.store import DecisionStore, stable_key

# Triton's launch defaults for NVIDIA (triton/backends/nvidia/compiler.py CUDAOptions).
_DEFAULTS = {"num_warps": 4, "num_stages": 3}


@dataclasses.dataclass(frozen=True)
class DeviceInfo:
    """The GPU a launch goes to: its target name and its own shared-memory limit (the driver's)."""

    index: int
    target: str
    name: str
    max_shared: int

    @property
    def key(self) -> str:
        return f"{self.target}:{self.name}:{self.max_shared}"


def current_device() -> DeviceInfo:
    """The current GPU as Triton's driver reports it."""
    from triton.runtime.driver import driver

    active = driver.active
    index = int(active.get_current_device())
    gpu = active.get_current_target()
    target = f"sm_{gpu.arch}" if gpu.backend == "cuda" else str(gpu.arch).split(":")[0]
    props = active.utils.get_device_properties(index)
    name = ""
    try:
        import torch

        name = torch.cuda.get_device_name(index)
    except Exception:  # naming is cosmetic
        name = ""
    return DeviceInfo(index, target, name, int(props["max_shared_mem"]))


def arg_spec(a: Any) -> Any:
    """What of an argument changes Triton's specialisation (and so the shared memory); see GuardedKernel.run."""
    if hasattr(a, "data_ptr"):
        return (a.dtype, not a.data_ptr() & 15)
    if a.__class__ is int:
        return (a == 1, not a & 15)
    return a.__class__


class GuardedKernel:
    """A @triton.jit kernel whose launches are checked once per key and device, then looked up."""

    def __init__(
        self,
        kernel: Any,
        *,
        space: Sequence[Mapping[str, Any]] | None = None,
        tunable: Sequence[str] = (),
        device: Callable[[], DeviceInfo] | None = None,
        launch: Callable[[Any, Sequence[Any], Mapping[str, Any]], Any] | None = None,
        settings: Settings | None = None,
    ) -> None:
        from tilefit.estimate.triton import unwrap_kernel

        self.fn = unwrap_kernel(kernel)
        self.space = list(space) if space is not None else None
        self.tunable = tuple(tunable)
        self._device_fn = device or current_device
        self._devices: dict[int, DeviceInfo] = {}
        self._device_index = _device_index_fn() if device is None else (lambda: 0)
        self._launch = launch or _triton_launch(self.fn)
        s = settings or Settings.from_env()
        self.store = DecisionStore(s.cache_dir, str(self.fn.cache_key), self.fn.__name__) if s.use_cache else None
        self.decisions: dict[Any, dict[str, Any]] = {}
        self.warned: set[str] = set()

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        return functools.partial(self.run, grid)

    def run(self, grid: Any, *args: Any, **kwargs: Any) -> Any:
        """Launch with the decided config: a dictionary lookup after the first launch of a key."""
        # arg_spec inlined: this line is the whole cost of a guarded launch after the first.
        spec = tuple([
            (a.dtype, not a.data_ptr() & 15) if hasattr(a, "data_ptr")
            else (a == 1, not a & 15) if a.__class__ is int else a.__class__
            for a in args
        ])
        key = (self._device_index(), tuple(kwargs.items()), spec)
        chosen = self.decisions.get(key)
        if chosen is None:
            chosen = self.decisions[key] = self._decide(key[0], args, kwargs)
        return self._launch(grid, args, chosen)

    def _device(self, index: int) -> DeviceInfo:
        dev = self._devices.get(index)
        if dev is None:
            dev = self._devices[index] = self._device_fn()
        return dev

    def _decide(self, index: int, args: Sequence[Any], kwargs: Mapping[str, Any]) -> dict[str, Any]:
        dev = self._device(index)
        config = {**{k: v for k, v in _DEFAULTS.items() if k not in kwargs}, **self._config_of(kwargs)}
        skey = stable_key({"config": config, "args": [repr(arg_spec(a)) for a in args]})
        stored = self.store.config(dev.key, skey, like=config) if self.store else None
        if stored is not None:
            new = stored
        else:
            new = self._check(dev, args, config)
            if self.store:
                self.store.put(dev.key, skey, {"config": new, "was": config})
        if new != config:
            self._warn(dev, config, new, stored is not None)
        return {**kwargs, **new}

    def _config_of(self, kwargs: Mapping[str, Any]) -> dict[str, Any]:
        names = {p.name for p in self.fn.params if p.is_constexpr}
        return {k: v for k, v in kwargs.items() if k in names or k in LAUNCH_KEYS}

    def _check(self, dev: DeviceInfo, args: Sequence[Any], config: dict[str, Any]) -> dict[str, Any]:
        from tilefit.estimate.triton import TritonEstimator

        est = TritonEstimator(self.fn, args=list(args))
        usage = est.estimate(config, dev.target, "fast")
        if usage.bytes is not None and usage.bytes <= dev.max_shared and usage.fits is not False:
            return config
        if self.space is None:
            # No space given: the nearest config that fits (most stages, then the largest tiles), so the
            # caller's tuning survives as far as the device allows.
            candidates = self._candidates(config)
            usages = est.estimate_many(candidates, [dev.target], mode="fast", progress=False)
            for cand, u in zip(candidates, usages, strict=True):
                if u.bytes is not None and u.bytes <= dev.max_shared and u.fits is not False:
                    return cand
            raise _none_fits(dev, candidates, usages)
        result = fit(self.fn, self._candidates(config), dev.target, args=list(args), estimator=est,
                     analytic=False, workers=1)
        for ranked in result.ranked:
            if ranked.usage.bytes is not None and ranked.usage.bytes <= dev.max_shared:
                return {**config, **ranked.config}
        raise _none_fits(dev, [dict(r.config) for r in result.ranked], [r.usage for r in result.ranked])

    def _candidates(self, config: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The user's space, else the config with fewer stages and (if tunable) halved tiles."""
        if self.space is not None:
            return [{**config, **c} for c in self.space]
        stages = int(config.get("num_stages", 3))
        out = [{**config, "num_stages": s} for s in range(stages, 0, -1)]
        for key in self.tunable:
            size = int(config[key])
            out += [{**c, key: size >> i} for i in (1, 2, 3) if size >> i >= 16 for c in list(out)]
        return out

    def _warn(self, dev: DeviceInfo, old: Mapping[str, Any], new: Mapping[str, Any], stored: bool) -> None:
        text = f"{format_config(old)} -> {format_config(new)}"
        if text in self.warned:
            return
        self.warned.add(text)
        where = f" (decision remembered in {self.store.path})" if self.store else ""
        again = "; loaded from an earlier run" if stored else ""
        warnings.warn(
            f"tilefit: {self.fn.__name__}: config {format_config(old)} does not fit the shared memory of "
            f"{dev.name or dev.target} ({dev.max_shared} B); using {format_config(new)} instead{again}{where}",
            TilefitWarning,
            stacklevel=4,
        )


def _none_fits(dev: DeviceInfo, configs: Sequence[Mapping[str, Any]], usages: Sequence[Any]) -> Exception:
    from tilefit.fit.diagnose import no_config_fits
    from tilefit.fit.report import Dropped

    dropped = [Dropped(dict(c), "over-limit" if u.error is None else "compile-error", u.bytes, dev.max_shared,
                       u.error or "") for c, u in zip(configs, usages, strict=True)]
    return no_config_fits(target=dev.target, resource="shared memory", limit=dev.max_shared,
                          configs=list(configs), dropped=dropped)


def _device_index_fn() -> Callable[[], int]:
    try:
        from triton.runtime.driver import driver

        get: Callable[[], int] = driver.active.get_current_device
        return get
    except Exception:  # no GPU driver: every launch is on "device 0" of the injected device
        return lambda: 0


def _triton_launch(fn: Any) -> Callable[[Any, Sequence[Any], Mapping[str, Any]], Any]:
    def launch(grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        return fn[grid](*args, **kwargs)

    return launch


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
        from tilefit.fit.helion import flat_config, to_helion

        implicit = bound._implicit_config()  # Helion's own choice: default or single config, else None
        if implicit is None:
            return bound  # it will autotune; FitFilter (integrations/helion.py) covers that path
        dev = current_device() if self.target == "auto" else None
        target = dev.target if dev else self.target
        store = DecisionStore(self.settings.cache_dir, stable_key(_helion_id(bound)), _helion_name(bound))
        skey = stable_key({"config": flat_config(implicit), "args": [repr(arg_spec(a)) for a in args]})
        stored = store.config(dev.key if dev else target, skey) if self.settings.use_cache else None
        if stored is not None:
            chosen = to_helion(bound, stored)
        else:
            chosen = _helion_fitting(bound, args, target)
            if self.settings.use_cache:
                store.put(dev.key if dev else target, skey, {"config": flat_config(chosen)})
        if flat_config(chosen) != flat_config(implicit):
            again = "; loaded from an earlier run" if stored is not None else ""
            warnings.warn(
                f"tilefit: {_helion_name(bound)}: config {format_config(flat_config(implicit))} does not fit "
                f"on {target}; using {format_config(flat_config(chosen))} instead{again}",
                TilefitWarning, stacklevel=3,
            )
        bound.set_config(chosen)
        return bound


def _helion_fitting(bound: Any, args: Sequence[Any], target: str) -> Any:
    from tilefit.fit.helion import HelionEstimator, fit_helion, flat_config, to_helion

    implicit = bound._implicit_config()
    usage = HelionEstimator(bound, args).estimate(flat_config(implicit), target)
    if usage.fits:
        return implicit
    return to_helion(bound, fit_helion(bound, args, target).config)


def _helion_name(bound: Any) -> str:
    fn = getattr(getattr(bound, "kernel", None), "fn", None)
    return str(getattr(fn, "__name__", "helion_kernel"))


def _helion_id(bound: Any) -> str:
    import inspect

    fn = getattr(getattr(bound, "kernel", None), "fn", None)
    try:
        return inspect.getsource(fn) if fn is not None else _helion_name(bound)
    except (OSError, TypeError):
        return _helion_name(bound)


def guard(kernel: Any, **options: Any) -> Any:
    """Wrap a @triton.jit, @triton.autotune or Helion kernel so that it never dies of a shared-memory overflow."""
    if hasattr(kernel, "bind") and hasattr(kernel, "configs") and not hasattr(kernel, "nargs"):
        return GuardedHelion(kernel, **options)
    if hasattr(kernel, "configs") and hasattr(kernel, "prune_configs"):
        return _guard_autotuner(kernel, **options)
    return GuardedKernel(kernel, **options)


def _guard_autotuner(autotuner: Any, *, target: str = "auto", settings: Settings | None = None) -> Any:
    """Install the fitting prune ahead of the autotuner's own early_config_prune (in place)."""
    from tilefit.guard.autotune import fitting_configs

    original = getattr(autotuner, "early_config_prune", None)
    fn = autotuner.fn
    s = settings or Settings.from_env()

    def prune(configs: Sequence[Any], named_args: Mapping[str, Any], **kwargs: Any) -> list[Any]:
        keep = fitting_configs(fn, configs, named_args, kwargs, target=target, settings=s)
        return list(original(keep, named_args, **kwargs)) if original else keep

    autotuner.early_config_prune = prune
    return autotuner
