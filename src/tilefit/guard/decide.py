"""One guard policy: keep a config, fall back to one that fits, or prune an autotune space.

Every guarded path (a @triton.jit launch, a triton.autotune prune, a Helion kernel) comes here. Each sizes
configs against the device's own limits (a device-limited `Target`, so `Usage.fits` decides, as Triton's
load-time check would), keys what it decided the same way (kernel, argument specialisation, config and
the compiler version that sized it), remembers it per device on disk, and warns in one wording.

A decision made by another compiler version is never reused: a kernel's shared memory changes between
Triton versions (a block RMS norm: 128 B on 3.9, 256-2048 B on 3.6), so the version is part of the key.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.errors import NoConfigFits, TilefitWarning
from tilefit.estimate.base import Usage
from tilefit.settings import Settings
from tilefit.space import as_config, format_config
from tilefit.store import DecisionStore, stable_key
from tilefit.targets import Limit, Target, get_target

# Sizes configs on a target: one Usage per config, in order; failures are Usages with `error`.
Sizer = Callable[[Sequence[Mapping[str, Any]], Target], list[Usage]]
Candidates = Sequence[Mapping[str, Any]] | Callable[[Target], Sequence[Mapping[str, Any]]]


@dataclasses.dataclass(frozen=True)
class DeviceInfo:
    """The device a launch goes to: its target name and its own shared-memory limit (the driver's)."""

    index: int
    target: str
    name: str
    max_shared: int

    @property
    def key(self) -> str:
        return f"{self.target}:{self.name}:{self.max_shared}"

    def limited(self) -> Target:
        """The catalogue target with the driver's shared-memory limit in place of the catalogue's."""
        base = get_target(self.target)
        source = f"driver: max_shared_mem of device {self.index} ({self.name or self.target})"
        limit = Limit(self.max_shared, source)
        return dataclasses.replace(base, limits={**base.limits, "shared_per_block_optin": limit})

    def describe(self) -> str:
        return f"{self.name or self.target} ({self.max_shared} B of shared memory per block)"


def current_device(index: int | None = None) -> DeviceInfo:
    """A device as Triton's active driver reports it (the current one when `index` is None)."""
    from triton.runtime.driver import driver

    active = driver.active
    index = int(active.get_current_device()) if index is None else index
    gpu = active.get_current_target()
    props = active.utils.get_device_properties(index)
    return DeviceInfo(index, target_name(gpu), _device_name(index), int(props["max_shared_mem"]))


def target_name(gpu: Any) -> str:
    """'sm_90' / 'gfx942' from Triton's GPUTarget."""
    return f"sm_{gpu.arch}" if gpu.backend == "cuda" else str(gpu.arch).split(":")[0]


def _device_name(index: int) -> str:
    try:
        import torch

        return str(torch.cuda.get_device_name(index))
    except Exception:  # naming is cosmetic: no torch, or a stand-in driver
        return ""


def catalogue_device(target: str) -> DeviceInfo:
    """A named target with its catalogue limit (no driver asked): for checks ahead of a launch."""
    t = get_target(target)
    return DeviceInfo(-1, t.name, "", int(t.limit_for("shared-memory") or 0))


def device_for(target: str) -> DeviceInfo:
    """'auto' is the current device (the driver's limit); any other name is that catalogue target."""
    return current_device() if target == "auto" else catalogue_device(target)


@dataclasses.dataclass(frozen=True)
class Handle:
    """What the policy knows of a kernel: its name, an identity of its source, the compiler and a sizer."""

    name: str
    identity: str
    compiler: str
    size: Sizer


@dataclasses.dataclass(frozen=True)
class Decision:
    """The config to launch for a requested one; `changes` is what differs (empty: launched as asked)."""

    config: dict[str, Any]
    was: dict[str, Any]
    usage: Usage | None = None
    stored: bool = False

    @property
    def changes(self) -> dict[str, Any]:
        return {k: v for k, v in self.config.items() if self.was.get(k, _MISSING) != v}


_MISSING = object()


def specialisation_key(args: Mapping[str, Any]) -> str:
    """The argument types that decide what Triton compiles: 'a=*fp16:16 n=i32:16 d=tensordesc<fp16[64, 64]>'.

    One key for every guarded path, from real values or declared types alike (via `arg_from_value`).
    """
    from tilefit.estimate.triton_args import arg_from_value

    return " ".join(f"{k}={_arg_text(arg_from_value(v))}" for k, v in args.items())


def _arg_text(value: Any) -> str:
    return str(value) if value is None or not isinstance(value, (bool, int, float)) else repr(value)


def decide(
    kernel: Handle,
    config: Mapping[str, Any],
    candidates: Candidates,
    spec: str,
    device: DeviceInfo,
    *,
    settings: Settings | None = None,
    warn: bool = True,
) -> Decision:
    """Keep `config` when it fits the device, else the first of `candidates` that fits; NoConfigFits when none.

    `candidates` are overrides of `config` in order of preference, or a function of the device's target
    that returns them (computed only when `config` does not fit).

    A config that cannot be sized (the compiler fails on it) is launched as asked: the guard never turns
    a kernel that might run into an error of its own.
    """
    was = dict(config)
    listed = list(candidates) if not callable(candidates) else getattr(candidates, "__qualname__", "search")
    store, key = _store(kernel, device, settings, {"spec": spec, "config": was, "candidates": listed})
    stored = store.get(device.key, key) if store else None
    changes = stored.get("changes") if stored else None
    if isinstance(changes, Mapping) and set(changes) <= set(was):  # a stale or edited entry is recomputed
        decision = Decision({**was, **changes}, was, stored=True)
    else:
        decision = _decide_fresh(kernel, was, candidates, device)
        if store:
            store.put(device.key, key, {"changes": decision.changes, "compiler": kernel.compiler})
    if decision.changes and warn:
        _warn(kernel, device, [decision.usage] if decision.usage else [], 1, decision, decision.stored)
    return decision


def _decide_fresh(kernel: Handle, config: dict[str, Any], candidates: Candidates, device: DeviceInfo) -> Decision:
    target = device.limited()
    first = kernel.size([config], target)[0]
    if first.fits is not False:  # fits, or could not be sized: launch as asked
        return Decision(config, config, first)
    overrides = candidates(target) if callable(candidates) else candidates
    usages = kernel.size([{**config, **c} for c in overrides], target)
    for usage in usages:
        if usage.fits:
            return Decision(dict(usage.config), config, first)
    raise _none_fits(kernel, device, [first, *usages])


def keep_fitting(
    kernel: Handle,
    configs: Sequence[Mapping[str, Any]],
    spec: str,
    device: DeviceInfo,
    *,
    settings: Settings | None = None,
    warn: bool = True,
) -> list[int]:
    """Indices of the configs that fit (an autotune space), in order; NoConfigFits when none does."""
    flat = [dict(c) for c in configs]
    store, key = _store(kernel, device, settings, {"spec": spec, "configs": flat})
    keep = store.keep(device.key, key, len(flat)) if store else None  # indices checked against this space
    if keep is not None:
        return keep
    usages = kernel.size(flat, device.limited())
    keep = [i for i, u in enumerate(usages) if u.fits is not False]
    if not keep:
        raise _none_fits(kernel, device, usages)
    if store:
        store.put(device.key, key, {"keep": keep, "compiler": kernel.compiler})
    dropped = [u for u in usages if u.fits is False]
    if dropped and warn:
        _warn(kernel, device, dropped, len(flat), None, False)
    return keep


def _store(kernel: Handle, device: DeviceInfo, settings: Settings | None,
           parts: Mapping[str, Any]) -> tuple[DecisionStore | None, str]:
    s = settings or Settings.from_env()
    if not s.use_cache:
        return None, ""
    key = stable_key({**parts, "compiler": kernel.compiler})
    return DecisionStore(s.cache_dir, kernel.identity, kernel.name), key


def _why(usage: Usage) -> str:
    over = "; ".join(str(o) for o in usage.over)
    return over or str(usage.extra.get("reason") or f"{usage.bytes} B > {usage.limit} B")


def _warn(kernel: Handle, device: DeviceInfo, dropped: Sequence[Usage], total: int, decision: Decision | None,
          stored: bool) -> None:
    """The one warning of the guard: what did not fit, on which device, by which compiler, and what runs."""
    if decision is not None:
        head = f"config {format_config(decision.was)} does not fit"
        tail = f"using {format_config(decision.config)} instead"
    else:
        shown = "; ".join(f"{format_config(u.config)}: {_why(u)}" for u in dropped[:4])
        head = f"{len(dropped)} of {total} configs do not fit"
        tail = f"pruned before compiling: {shown}{'; ...' if len(dropped) > 4 else ''}"
    why = f" ({_why(dropped[0])})" if decision is not None and dropped else ""
    again = "; decision loaded from an earlier run" if stored else ""
    warnings.warn(f"tilefit: {kernel.name}: {head} {device.describe()}{why}, sized by {kernel.compiler}; "
                  f"{tail}{again}", TilefitWarning, stacklevel=4)


def _none_fits(kernel: Handle, device: DeviceInfo, usages: Sequence[Usage]) -> NoConfigFits:
    from tilefit.fit.nofit import no_config_fits
    from tilefit.fit.report import Dropped

    dropped = [Dropped(dict(u.config), "over-limit" if u.error is None else "compile-error", u.bytes,
                       device.max_shared, u.error or "") for u in usages]
    return no_config_fits(target=device.target, resource="shared memory", limit=device.max_shared,
                          configs=[dict(u.config) for u in usages], dropped=dropped)


# ---- triton ----------------------------------------------------------------------------------------


def triton_version() -> str:
    import triton

    return f"triton {triton.__version__}"


def triton_handle(fn: Any, args: Mapping[str, Any]) -> Handle:
    """A Handle over a @triton.jit function with these arguments (values or declared types)."""
    from tilefit.estimate.triton import TritonEstimator

    # No estimate cache here: its key names the target, not the device's own limit; the decision store
    # below keeps what was decided instead.
    est = TritonEstimator(fn, args=dict(args), cache=False)

    def size(configs: Sequence[Mapping[str, Any]], target: Target) -> list[Usage]:
        return est.estimate_many(configs, [target], mode="fast", progress=False)

    return Handle(fn.__name__, str(fn.cache_key), triton_version(), size)


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
    """The configs of an autotune space (triton.Config objects, unchanged) that fit; NoConfigFits if none.

    The seam for any autotuner that sees (configs, named args, call kwargs): triton.autotune's
    early_config_prune (integrations/triton_autotune.py), Inductor or vLLM. `target="auto"` is the
    current GPU with the driver's own limit.
    """
    from tilefit.estimate.triton import unwrap_kernel

    fn = unwrap_kernel(kernel)
    constexprs = {p.name for p in fn.params if p.is_constexpr}
    runtime = {p.name for p in fn.params if not p.is_constexpr}
    fixed = {k: v for k, v in call_kwargs.items() if k in constexprs}
    # call_kwargs also carries the launcher's own options (grid, warmup, ...): keep kernel arguments only.
    args = {**{k: v for k, v in named_args.items() if k in runtime},
            **{k: v for k, v in call_kwargs.items() if k in runtime}}
    args = {p.name: args[p.name] for p in fn.params if p.name in args}
    flat = [{**fixed, **as_config(c)} for c in configs]
    keep = keep_fitting(triton_handle(fn, args), flat, specialisation_key(args), device_for(target),
                        settings=settings, warn=warn)
    return [configs[i] for i in keep]
