"""fit(): the fastest config of a space that fits a target.

1. prune analytically: configs whose model bytes exceed the limit by more than `margin` are dropped
   without a compile (the model can be off by the epilogue scratch; the margin keeps borderline ones);
2. ask the compiler exactly (fast mode: Triton's own allocation pass) for the rest, best first: on NVIDIA
   the analytic bytes never exceed the compiler's (measured, BENCHMARKS.md), so a score computed from them
   is an upper bound (fewer bytes, more blocks per SM); configs are compiled in order of that bound and the
   search stops once no bound left can beat the `top_k`-th exact score. Where the model over-estimates
   (AMD targets, or any exact result below its model bytes) every survivor is compiled;
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
    exhaustive: bool = False,
) -> FitResult:
    """Choose the best config of `space` that fits `target`; raise NoConfigFits when none does.

    `grid` (config -> launch grid) or `problem` ({"BLOCK_M": M, ...}) lets the model count programs for
    wave quantisation; `measure=True` times the `top_k` best on the current GPU (`args` and `grid` needed,
    or a `bench(config) -> ms`). `fixed`/`names` describe full-width dims for the NoConfigFits message.
    `exhaustive=True` (or `workers`) compiles every survivor of the analytic prune instead of stopping
    at the bound, so the report has exact bytes for every config.
    """
    start = time.perf_counter()
    configs = expand(space)
    est = estimator if estimator is not None else _triton_estimator(kernel, args, signature)
    tname = _target_name(target)
    dropped: list[Dropped] = []
    device = DeviceModel.from_target(get_target(tname), sm_count=sm_count or _live_sm_count(tname))
    models: dict[int, Usage] = {}
    survivors = _prune_analytic(est, configs, tname, margin, dropped, models) if analytic else configs
    if models and get_target(tname).vendor == "nvidia" and workers is None and not exhaustive:
        def bound(cfg: Config) -> float:
            return score(cfg, models.get(id(cfg)), device, grid=grid, problem=problem).value

        def exact_score(u: Usage) -> float:
            return score(u.config, u, device, grid=grid, problem=problem).value

        fitting = _exact_bounded(est, survivors, tname, dropped, models, bound, exact_score, top_k)
    else:
        fitting = _exact(est, survivors, tname, dropped, workers)
    if not fitting:
        raise _nothing_fits(tname, configs, dropped, fixed, names, est)
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
    est: Estimator, configs: list[Config], target: str, margin: float, dropped: list[Dropped],
    models: dict[int, Usage] | None = None,
) -> list[Config]:
    """Drop configs whose model bytes exceed limit x (1 + margin); keep any the model cannot size.

    The model is checked once against the compiler: the pruned config with the fewest model bytes is
    compiled exactly, and if it fits after all (the model over-estimates this kernel on this target), the
    analytic prune is undone and every config goes to the exact pass.
    """
    keep: list[Config] = []
    pruned: list[Dropped] = []
    for cfg, u in zip(configs, estimate_all(est, configs, target, "analytic"), strict=True):
        if models is not None and u.error is None and u.bytes is not None:
            models[id(cfg)] = u
        if u.error is None and u.bytes is not None and u.limit and u.bytes > u.limit * (1.0 + margin):
            pruned.append(Dropped(cfg, "analytic", u.bytes, u.limit, f"model, margin {margin:.0%}"))
        else:
            keep.append(cfg)
    if pruned:
        probe = min(pruned, key=lambda d: d.bytes or 0)
        exact = est.estimate(probe.config, target, "fast")
        if exact.fits:
            if models is not None:
                models.clear()  # the model over-estimates here: its bytes bound nothing
            return configs
    dropped.extend(pruned)
    return keep


def _exact(
    est: Estimator, configs: list[Config], target: str, dropped: list[Dropped], workers: int | None
) -> list[Usage]:
    """Ask the compiler; return the usages that fit and record the rest."""
    return _sort_out(configs, estimate_all(est, configs, target, "fast", workers), dropped)


def _sort_out(configs: list[Config], usages: list[Usage], dropped: list[Dropped]) -> list[Usage]:
    """The usages that fit; the others go to `dropped` with their reason."""
    fitting = []
    for cfg, u in zip(configs, usages, strict=True):
        if u.error is not None or u.fits is None:
            dropped.append(Dropped(cfg, "compile-error", u.bytes, u.limit, u.error or "no result"))
        elif not u.fits:
            dropped.append(Dropped(cfg, "over-limit", u.bytes, u.limit, str(u.extra.get("reason", ""))))
        else:
            fitting.append(u if dict(u.config) == cfg else _with_config(u, cfg))
    return fitting


def _exact_bounded(
    est: Estimator, configs: list[Config], target: str, dropped: list[Dropped],
    models: Mapping[int, Usage], bound: Callable[[Config], float], exact_score: Callable[[Usage], float],
    top_k: int,
) -> list[Usage]:
    """Compile in order of the model's upper bound of the score; stop when no bound can beat the top_k.

    If any compile shows fewer bytes than the model said, the bound is void and the rest is compiled.
    """
    order = sorted(configs, key=bound, reverse=True)
    fitting: list[Usage] = []
    scores: list[float] = []
    step = max(2, top_k)
    for i in range(0, len(order), step):
        chunk = order[i: i + step]
        usages = estimate_all(est, chunk, target, "fast", workers=1)
        fitting += _sort_out(chunk, usages, dropped)
        if any(_below_model(u, models.get(id(c))) for c, u in zip(chunk, usages, strict=True)):
            return fitting + _exact(est, order[i + step:], target, dropped, workers=None)
        scores = sorted((exact_score(u) for u in fitting), reverse=True)
        rest = order[i + step:]
        if rest and len(scores) >= top_k and bound(rest[0]) < scores[top_k - 1]:
            kth = scores[top_k - 1]
            dropped += [
                Dropped(c, "bounded", None, None, f"model score at most {bound(c):.3g} < {kth:.3g} (top {top_k})")
                for c in rest
            ]
            break
    return fitting


def _below_model(exact: Usage, model: Usage | None) -> bool:
    """True when the compiler needs fewer bytes than the model said (so the model bounds nothing)."""
    return model is not None and exact.bytes is not None and model.bytes is not None and exact.bytes < model.bytes


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

