"""Size and fit Helion configs by asking Triton about the kernels Helion generates.

A Helion config becomes Triton code (`BoundKernel.compile_config`). Its host function launches the Triton
kernel(s) through a `_launcher` argument; tilefit passes a launcher that records each launch (kernel,
arguments with constexpr values, num_warps, num_stages) instead of running it, and calls the host
function on `meta` tensors, so nothing is computed and no GPU is needed. Each recorded launch is then
sized exactly by the Triton estimator (fast mode). The largest launch is the config's usage.

Configs are flat dicts for fit(): {"block_size_0": 16, "block_size_1": 16, "num_warps": 4,
"num_stages": 1} over the kernel's default config; `to_helion` turns one back into a helion.Config.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from tilefit.errors import InputError
from tilefit.estimate.base import Mode, Usage
from tilefit.fit.core import fit
from tilefit.fit.report import FitResult
from tilefit.targets import get_target

_BLOCK = re.compile(r"^block_size_(\d+)$")


@dataclasses.dataclass(frozen=True)
class Launch:
    """One kernel launch a Helion host function made."""

    kernel: Any
    grid: Any
    args: tuple[Any, ...]
    options: Mapping[str, Any]


def flat_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """{"block_sizes": [16, 32], "num_warps": 4, ...} -> {"block_size_0": 16, "block_size_1": 32, ...}."""
    out: dict[str, Any] = {f"block_size_{i}": int(b) for i, b in enumerate(config.get("block_sizes", []))}
    for key in ("num_warps", "num_stages"):
        if config.get(key) is not None:
            out[key] = int(config[key])
    return out


def to_helion(bound: Any, config: Mapping[str, Any]) -> Any:
    """A helion.Config: the kernel's default config with the flat config's values laid over it."""
    import helion

    if isinstance(config, helion.Config):
        return config
    base = dict(bound.config_spec.default_config())
    blocks = [config[k] for k in sorted((k for k in config if _BLOCK.match(k)), key=_block_index)]
    if blocks:
        base["block_sizes"] = blocks
    for key, value in config.items():
        if not _BLOCK.match(key):
            base[key] = value
    return helion.Config(**base)


def _block_index(key: str) -> int:
    m = _BLOCK.match(key)
    return int(m.group(1)) if m else 0


def capture_launches(bound: Any, config: Any, args: Sequence[Any]) -> list[Launch]:
    """The launches the host function of `config` makes, recorded on meta tensors (nothing runs)."""
    compiled = bound.compile_config(config, allow_print=False)
    launches: list[Launch] = []

    def launcher(kernel: Any, grid: Any, *a: Any, num_warps: int, num_stages: int, **kw: Any) -> None:
        launches.append(Launch(kernel, grid, a, {"num_warps": num_warps, "num_stages": num_stages, **kw}))

    compiled(*[_meta(x) for x in args], _launcher=launcher)
    return launches


def _meta(x: Any) -> Any:
    return x.to("meta") if hasattr(x, "to") and hasattr(x, "data_ptr") else x


class HelionEstimator:
    """The Estimator protocol for one bound Helion kernel: each config sized by its Triton launches.

    With `monotone` (default), a config whose every block size and stage count is at least that of a
    config that does not fit (same num_warps) is dropped without generating code: shared memory grows with
    tiles and stages. Its Usage gives the smaller config's bytes as a lower bound (extra["lower_bound"]).
    """

    def __init__(self, bound: Any, args: Sequence[Any], *, monotone: bool = True) -> None:
        self.bound = bound
        self.args = tuple(args)
        self.monotone = monotone

    def estimate(self, config: Mapping[str, Any], target: str, mode: Mode = "fast") -> Usage:
        """Usage of the largest launch of this config (an error Usage when it does not generate)."""
        flat = flat_config(config) if "block_sizes" in config else dict(config)
        if mode == "analytic":  # no analytic model of Helion's codegen: fit keeps the config
            return _error(flat, target, mode, "no analytic model for Helion configs")
        try:
            launches = capture_launches(self.bound, to_helion(self.bound, flat), self.args)
        except Exception as exc:  # a config Helion cannot generate is a result, not an abort
            return _error(flat, target, mode, f"helion: {type(exc).__name__}: {exc}")
        if not launches:
            return _error(flat, target, mode, "the host function launched no kernel")
        usages = [_launch_usage(launch, target, mode) for launch in launches]
        failed = [u for u in usages if u.error is not None]
        worst = failed[0] if failed else max(usages, key=lambda u: u.bytes or 0)
        constexprs = constexpr_args(launches[0])
        held = math.prod(v for k, v in constexprs.items() if "RDIM" in k.upper())
        extra = {**worst.extra, "launches": len(launches), "kernel": _name(launches[0].kernel),
                 "constexprs": constexprs, "held_elements": held, "reduction_keys": self.reduction_keys()}
        return dataclasses.replace(worst, config=flat, extra=extra)

    def reduction_keys(self) -> list[str]:
        """Flat keys of block sizes that tile an inner loop (not a grid dimension): the K-like dims."""
        spec = self.bound.config_spec
        grid = set(getattr(spec, "grid_block_ids", []) or [])
        if not grid:
            return []
        return [f"block_size_{i}" for i, b in enumerate(spec.block_sizes) if not set(b.block_ids) & grid]

    def estimate_many(
        self, configs: Sequence[Mapping[str, Any]], targets: Sequence[str], mode: Mode = "fast"
    ) -> list[Usage]:
        """Every config on every target (config-major), smallest first so dominance can skip compiles."""
        flat = [flat_config(c) if "block_sizes" in c else dict(c) for c in configs]
        per_target = [self._many(flat, t, mode) for t in targets]
        return [per_target[j][i] for i in range(len(flat)) for j in range(len(targets))]

    def _many(self, configs: list[dict[str, Any]], target: str, mode: Mode) -> list[Usage]:
        results: list[Usage | None] = [None] * len(configs)
        failing: list[Usage] = []
        for i in sorted(range(len(configs)), key=lambda i: _size_key(configs[i])):
            cfg = configs[i]
            base = next((u for u in failing if _dominates(cfg, u.config)), None) if self.monotone else None
            if base is not None and mode != "analytic":
                results[i] = _dominated(cfg, base)
                continue
            usage = self.estimate(cfg, target, mode)
            results[i] = usage
            if usage.fits is False and usage.bytes is not None:
                failing.append(usage)
        return [u for u in results if u is not None]


def _size_key(config: Mapping[str, Any]) -> tuple[int, ...]:
    blocks = [int(v) for k, v in config.items() if _BLOCK.match(k)]
    return (math.prod(blocks), int(config.get("num_stages", 1)), *blocks)


def _dominates(config: Mapping[str, Any], smaller: Mapping[str, Any]) -> bool:
    """True when `config` is at least `smaller` in every block size and the stage count, same warps."""
    if set(config) != set(smaller) or config.get("num_warps") != smaller.get("num_warps"):
        return False
    keys = [k for k in config if _BLOCK.match(k) or k == "num_stages"]
    return all(int(config[k]) >= int(smaller[k]) for k in keys)


def _dominated(config: Mapping[str, Any], base: Usage) -> Usage:
    from tilefit.fit.space import format_config

    reason = (f"needs at least the {base.bytes} B of {format_config(base.config)}: every tile size and the "
              "stage count are at least as large")
    return dataclasses.replace(
        base, config=dict(config), seconds=0.0,
        extra={"reason": reason, "lower_bound": True, "exceeded": ["shared-memory"]},
    )


def _launch_usage(launch: Launch, target: str, mode: Mode) -> Usage:
    from tilefit.estimate.triton import TritonEstimator

    est = TritonEstimator(launch.kernel, args=list(launch.args), cache=False)
    options = {k: v for k, v in launch.options.items() if k in ("num_warps", "num_stages", "maxnreg")}
    return est.estimate(options, target, mode)


def constexpr_args(launch: Launch) -> dict[str, int]:
    """Integer constexpr parameters a launch passed positionally (e.g. _RDIM_SIZE_1=16384)."""
    params = getattr(launch.kernel, "params", [])
    return {
        p.name: int(v)
        for p, v in zip(params, launch.args, strict=False)
        if getattr(p, "is_constexpr", False) and isinstance(v, int) and not isinstance(v, bool)
    }


def _name(kernel: Any) -> str:
    fn = getattr(kernel, "fn", kernel)
    return str(getattr(fn, "__name__", kernel))


def _error(config: Mapping[str, Any], target: str, mode: Mode, message: str) -> Usage:
    return Usage(
        target=target, resource="shared-memory", bytes=None,
        limit=get_target(target).limit_for("shared-memory"), mode=mode, config=dict(config), fits=None,
        error=message,
    )


def helion_space(
    bound: Any,
    *,
    stages: Sequence[int] = (1, 2, 3, 4),
    warps: Sequence[int] = (4, 8),
    max_block: int = 256,
) -> list[dict[str, Any]]:
    """Powers of two for each block size (within the spec's bounds), crossed with stages and warps."""
    choices = []
    for spec in bound.config_spec.block_sizes:
        low = max(int(getattr(spec, "min_size", 16) or 16), 16)
        high = min(int(getattr(spec, "max_size", max_block) or max_block), max_block)
        sizes = [s for s in (16, 32, 64, 128, 256, 512) if low <= s <= high] or [low]
        choices.append(sizes)
    out = []
    for blocks in itertools.product(*choices):
        for s, w in itertools.product(stages, warps):
            cfg: dict[str, Any] = {f"block_size_{i}": b for i, b in enumerate(blocks)}
            out.append({**cfg, "num_warps": w, "num_stages": s})
    return out


def fit_helion(
    kernel: Any,
    args: Sequence[Any],
    target: str = "auto",
    *,
    space: Sequence[Mapping[str, Any]] | None = None,
    **fit_kwargs: Any,
) -> FitResult:
    """The best config of a Helion kernel (or BoundKernel) for these args that fits `target`."""
    bound = kernel.bind(tuple(args)) if hasattr(kernel, "bind") else kernel
    if not hasattr(bound, "config_spec"):
        raise InputError(f"{kernel!r} is not a Helion kernel")
    est = HelionEstimator(bound, args)
    tname = _resolve(target)
    configs = list(space) if space is not None else helion_space(bound)
    fixed, names = _full_width_dims(est, configs[0], tname, args)
    if fit_kwargs.get("measure") and "bench" not in fit_kwargs:
        fit_kwargs["bench"] = helion_bench(bound, args)
    return fit(None, configs, tname, estimator=est, analytic=False, fixed=fixed, names=names, **fit_kwargs)


def helion_bench(bound: Any, args: Sequence[Any]) -> Any:
    """A do_bench timer (ms) of one config of a bound Helion kernel on the current GPU."""
    import triton.testing

    def run(config: Mapping[str, Any]) -> float:
        fn = bound.compile_config(to_helion(bound, config), allow_print=False)
        fn(*args)
        return float(triton.testing.do_bench(lambda: fn(*args), warmup=5, rep=20))

    return run


def _resolve(target: str) -> str:
    if target != "auto":
        return get_target(target).name
    from tilefit.estimate.triton import resolve_target

    return resolve_target("auto").name


def _full_width_dims(
    est: HelionEstimator, config: Mapping[str, Any], target: str, args: Sequence[Any]
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
