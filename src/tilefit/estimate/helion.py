"""Size Helion configs by asking Triton about the kernels Helion generates (the `helion` backend).

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
from tilefit.estimate.base import Backend, Failure, FailureKind, Mode, Usage
from tilefit.space import config_key
from tilefit.targets import Target

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
        self._held: dict[tuple[tuple[str, Any], ...], int] = {}

    def estimate(self, config: Mapping[str, Any], target: str | Target, mode: Mode = "fast") -> Usage:
        """Usage of the largest launch of this config (an error Usage when it does not generate)."""
        target = _resolve(target)
        flat = flat_config(config) if "block_sizes" in config else dict(config)
        if mode == "analytic":  # no analytic model of Helion's codegen: fit keeps the config
            return _error(flat, target, mode, "no analytic model for Helion configs", "input")
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
        self._held[config_key(flat)] = held
        extra = {**worst.extra, "launches": len(launches), "kernel": _name(launches[0].kernel),
                 "constexprs": constexprs}
        return dataclasses.replace(worst, config=flat, extra=extra)

    def held_elements(self, config: Mapping[str, Any]) -> int:
        """Elements a config's tile row holds whole (the product of Helion's _RDIM_SIZE_* constexprs; 1 when
        the config was not sized): RankInputs.held for the register-pressure factor."""
        return self._held.get(config_key(flat_config(config) if "block_sizes" in config else config), 1)

    def reduction_keys(self) -> list[str]:
        """Flat keys of block sizes that tile an inner loop (not a grid dimension): the K-like dims."""
        spec = self.bound.config_spec
        grid = set(getattr(spec, "grid_block_ids", []) or [])
        if not grid:
            return []
        return [f"block_size_{i}" for i, b in enumerate(spec.block_sizes) if not set(b.block_ids) & grid]

    def estimate_many(
        self,
        configs: Sequence[Mapping[str, Any]],
        targets: Sequence[str | Target],
        mode: Mode = "fast",
        *,
        workers: int | None = None,
        progress: bool | None = None,
    ) -> list[Usage]:
        """Every config on every target (config-major), smallest first so dominance can skip compiles.

        Launches are captured and compiled in this process (`workers` and `progress` are accepted and unused:
        each config's host function must run here to record its launches).
        """
        flat = [flat_config(c) if "block_sizes" in c else dict(c) for c in configs]
        per_target = [self._many(flat, _resolve(t), mode) for t in targets]
        return [per_target[j][i] for i in range(len(flat)) for j in range(len(targets))]

    def _many(self, configs: list[dict[str, Any]], target: Target, mode: Mode) -> list[Usage]:
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
    from tilefit.space import format_config

    reason = (f"needs at least the {base.bytes} B of {format_config(base.config)}: every tile size and the "
              "stage count are at least as large")
    over = tuple(dataclasses.replace(o, required=base.bytes or o.required) for o in base.over[:1])
    return dataclasses.replace(
        base, config=dict(config), seconds=0.0, over=over or base.over,
        extra={"dominated_by": reason, "lower_bound": True},
    )


def _launch_usage(launch: Launch, target: Target, mode: Mode) -> Usage:
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


def _error(config: Mapping[str, Any], target: Target, mode: Mode, message: str, kind: FailureKind = "compile") -> Usage:
    return Usage(
        target=target.name, resource="shared-memory", bytes=None, limit=target.limit_for("shared-memory"),
        mode=mode, config=dict(config), fits=None, error=message, failure=Failure(kind, message, stage="helion"),
    )


def _resolve(target: str | Target) -> Target:
    from tilefit.estimate.triton import resolve_target

    return resolve_target(target)


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


class _Backend:
    """The registry's view of this file: a Helion kernel (`@helion.kernel`), sized on the Triton targets.

    The spec's `args` are the example arguments' shapes and dtypes (`name: [4096, 4096] float16`, made as
    `meta` tensors); `space` the flat configs (block_size_0, ..., num_warps, num_stages), else helion_space.
    """

    name = "helion"

    def accepts(self, target: Target) -> bool:
        from tilefit.estimate.triton import BACKEND as TRITON

        return TRITON.accepts(target)

    def load(self, ref: str, spec: Mapping[str, Any]) -> Any:
        from tilefit.userfile import load_ref

        kernel = load_ref(ref)
        if not hasattr(kernel, "bind") and not hasattr(kernel, "config_spec"):
            raise InputError(f"{ref} is not a Helion kernel (no .bind)")
        return kernel.bind(tuple(meta_args(spec))) if hasattr(kernel, "bind") else kernel

    def estimator(self, kernel: Any, spec: Mapping[str, Any]) -> HelionEstimator:
        return HelionEstimator(kernel, meta_args(spec))

    def space(self, kernel: Any, spec: Mapping[str, Any]) -> list[dict[str, Any]]:
        from tilefit.space import expand

        return expand(spec["space"], limit=None) if spec.get("space") else helion_space(kernel)

    def mode(self, requested: str) -> Mode:
        from tilefit.estimate.triton import BACKEND as TRITON

        return TRITON.mode(requested)


def meta_args(spec: Mapping[str, Any]) -> list[Any]:
    """Example arguments from the spec's `args`: 'SHAPE DTYPE' strings become meta tensors, numbers stay."""
    import torch

    out: list[Any] = []
    for name, raw in (spec.get("args") or {}).items():
        if isinstance(raw, (int, float)):
            out.append(raw)
            continue
        shape, _, dtype = str(raw).strip().rpartition(" ")
        try:
            dims = [int(d) for d in shape.strip("[]() ").replace("x", ",").split(",") if d.strip()]
            out.append(torch.empty(dims, dtype=getattr(torch, dtype), device="meta"))
        except (ValueError, AttributeError, TypeError) as exc:
            raise InputError(f"helion arg {name}: {raw!r} must look like '[4096, 4096] float16' ({exc})") from None
    return out


BACKEND: Backend = _Backend()
