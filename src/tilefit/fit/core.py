"""fit(): the fastest config of a space that fits a target.

1. prune analytically: configs whose model bytes exceed the limit by more than `margin` are dropped
   without a compile (the model can be off by the epilogue scratch; the margin keeps borderline ones);
2. ask the compiler exactly (fast mode: Triton's own allocation pass) for the rest;
3. rank what fits by the performance model (fit/perf.py), and, with `measure=True` on a GPU, time
   the best `top_k` with triton.testing.do_bench;
4. if nothing fits, raise NoConfigFits naming what never fits and the rewrite that fixes it.

A config that does not fit or does not compile is data (fit/report.py: Dropped), never an abort.
"""

from __future__ import annotations

import dataclasses
import inspect
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.estimate.base import Estimator, Usage
from tilefit.fit.diagnose import no_config_fits
from tilefit.fit.perf import DeviceModel, Grid, score
from tilefit.fit.report import Dropped, FitResult, Ranked
from tilefit.fit.space import Config, Space, expand
from tilefit.targets import Target, get_target

Bench = Callable[[Mapping[str, Any]], float]


def fit(
    kernel: Any,
    space: Space,
    target: str = "auto",
    *,
    args: Sequence[Any] | Mapping[str, Any] | None = None,
    signature: Mapping[str, Any] | None = None,
    measure: bool = False,
    grid: Grid | None = None,
    problem: Mapping[str, int] | None = None,
    sm_count: int | None = None,
    margin: float = 0.10,
    top_k: int = 5,
    analytic: bool = True,
    estimator: Estimator | None = None,
    bench: Bench | None = None,
    fixed: Mapping[str, int] | None = None,
    names: Mapping[str, str] | None = None,
    workers: int | None = None,
) -> FitResult:
    """Choose the best config of `space` that fits `target`; raise NoConfigFits when none does.

    `grid` (config -> launch grid) or `problem` ({"BLOCK_M": M, ...}) lets the model count programs for
    wave quantisation; `measure=True` times the `top_k` best on the current GPU (`args` and `grid` needed,
    or a `bench(config) -> ms`). `fixed`/`names` describe full-width dims for the NoConfigFits message.
    """
    start = time.perf_counter()
    configs = expand(space)
    est = estimator if estimator is not None else _triton_estimator(kernel, args, signature)
    tname = _target_name(target)
    dropped: list[Dropped] = []
    survivors = _prune_analytic(est, configs, tname, margin, dropped) if analytic else configs
    fitting = _exact(est, survivors, tname, dropped, workers)
    if not fitting:
        raise _nothing_fits(tname, configs, dropped, fixed, names, est)
    device = DeviceModel.from_target(get_target(tname), sm_count=sm_count or _live_sm_count(tname))
    ranked = sorted(
        (Ranked(u.config, u, score(u.config, u, device, grid=grid, problem=problem)) for u in fitting),
        key=lambda r: (-r.score.value, r.usage.bytes or 0),
    )
    if measure:
        runner = bench or _triton_bench(kernel, args, grid)
        ranked = _measure(ranked, runner, top_k, dropped)
        if not ranked:
            raise _nothing_fits(tname, configs, dropped, fixed, names, est)
    best = ranked[0]
    return FitResult(
        target=tname, config=dict(best.config), usage=best.usage, ranked=tuple(ranked),
        dropped=tuple(dropped), tried=len(configs), seconds=time.perf_counter() - start, measured=measure,
    )


def _target_name(target: str | Target) -> str:
    if isinstance(target, Target):
        return target.name
    if target == "auto":
        from tilefit.estimate.triton import resolve_target

        return resolve_target("auto").name
    return get_target(target).name


def _triton_estimator(kernel: Any, args: Any, signature: Any) -> Estimator:
    from tilefit.estimate.triton import TritonEstimator

    return TritonEstimator(kernel, args=args, signature=signature)


def estimate_all(
    est: Estimator, configs: Sequence[Config], target: str, mode: str, workers: int | None = None
) -> list[Usage]:
    """est.estimate_many for one target, passing workers/progress only where the estimator takes them."""
    if not configs:
        return []
    params = inspect.signature(est.estimate_many).parameters
    kwargs: dict[str, Any] = {}
    if "workers" in params:
        kwargs["workers"] = workers
    if "progress" in params:
        kwargs["progress"] = False
    return list(est.estimate_many(configs, [target], mode, **kwargs))  # type: ignore[arg-type]


def _prune_analytic(
    est: Estimator, configs: list[Config], target: str, margin: float, dropped: list[Dropped]
) -> list[Config]:
    """Drop configs whose model bytes exceed limit x (1 + margin); keep any the model cannot size.

    The model is checked once against the compiler: the pruned config with the fewest model bytes is
    compiled exactly, and if it fits after all (the model over-estimates this kernel on this target), the
    analytic prune is undone and every config goes to the exact pass.
    """
    keep: list[Config] = []
    pruned: list[Dropped] = []
    for cfg, u in zip(configs, estimate_all(est, configs, target, "analytic"), strict=True):
        if u.error is None and u.bytes is not None and u.limit and u.bytes > u.limit * (1.0 + margin):
            pruned.append(Dropped(cfg, "analytic", u.bytes, u.limit, f"model, margin {margin:.0%}"))
        else:
            keep.append(cfg)
    if pruned:
        probe = min(pruned, key=lambda d: d.bytes or 0)
        exact = est.estimate(probe.config, target, "fast")
        if exact.fits:
            return configs
    dropped.extend(pruned)
    return keep


def _exact(
    est: Estimator, configs: list[Config], target: str, dropped: list[Dropped], workers: int | None
) -> list[Usage]:
    """Ask the compiler; return the usages that fit and record the rest."""
    fitting = []
    for cfg, u in zip(configs, estimate_all(est, configs, target, "fast", workers), strict=True):
        if u.error is not None or u.fits is None:
            dropped.append(Dropped(cfg, "compile-error", u.bytes, u.limit, u.error or "no result"))
        elif not u.fits:
            dropped.append(Dropped(cfg, "over-limit", u.bytes, u.limit, str(u.extra.get("reason", ""))))
        else:
            fitting.append(u if dict(u.config) == cfg else _with_config(u, cfg))
    return fitting


def _with_config(u: Usage, cfg: Config) -> Usage:
    return dataclasses.replace(u, config=cfg)


def _nothing_fits(
    target: str,
    configs: list[Config],
    dropped: list[Dropped],
    fixed: Mapping[str, int] | None,
    names: Mapping[str, str] | None,
    est: Estimator,
) -> Exception:
    tgt = get_target(target)
    limit = next((d.limit for d in dropped if d.limit), None) or tgt.limit_for("shared-memory") or 0
    resource = "shared memory" if tgt.kind == "gpu" else "VMEM"

    def probe(config: Mapping[str, Any]) -> int | None:
        return est.estimate(config, target, "fast").bytes

    return no_config_fits(
        target=target, resource=resource, limit=limit, configs=configs, dropped=dropped,
        fixed=fixed, names=names, probe=probe,
    )


def _measure(ranked: list[Ranked], bench: Bench, top_k: int, dropped: list[Dropped]) -> list[Ranked]:
    """Time the top_k; a launch failure drops the config. Measured come first, fastest first."""
    timed: list[Ranked] = []
    for r in ranked[:top_k]:
        try:
            ms = float(bench(r.config))
        except Exception as exc:  # a launch that fails is a result of the search, not an abort
            dropped.append(Dropped(r.config, "compile-error", r.usage.bytes, r.usage.limit,
                                   f"launch failed: {type(exc).__name__}: {exc}"))
            continue
        timed.append(Ranked(r.config, r.usage, r.score, ms))
    timed.sort(key=lambda r: r.measured_ms if r.measured_ms is not None else float("inf"))
    return timed + ranked[top_k:]


def _live_sm_count(target: str) -> int | None:
    """SM count of the current GPU when it is of this target (torch, only if already imported)."""
    import sys

    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return None
    major, minor = torch.cuda.get_device_capability()
    if target != f"sm_{major}{minor}":
        return None
    return int(torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count)


def _triton_bench(kernel: Any, args: Any, grid: Grid | None) -> Bench:
    """A do_bench timer of kernel[grid](*args, **config) on the current GPU."""
    if args is None or grid is None or isinstance(args, Mapping):
        from tilefit.errors import InputError

        raise InputError("measure=True needs the real args (a sequence) and a grid, or a bench function")
    import triton
    import triton.testing

    fn = kernel
    while not isinstance(fn, triton.runtime.jit.JITFunction) and hasattr(fn, "fn"):
        fn = fn.fn

    def run(config: Mapping[str, Any]) -> float:
        launch_grid = grid(config)

        def call() -> None:
            fn[launch_grid](*args, **config)

        call()
        return float(triton.testing.do_bench(call, warmup=5, rep=20))

    return run

