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

How to search is a `SearchPolicy`; what ranks the survivors is `RankInputs`. The estimator comes from the
backend registry (estimate/__init__.py: backend_for(target)) unless one is given.
A config that does not fit or does not compile is data (fit/report.py: Dropped), never an abort.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.errors import InputError
from tilefit.estimate.base import Estimator, Mode, Usage
from tilefit.fit.nofit import no_config_fits
from tilefit.fit.perf import DeviceModel, Grid, Score, score
from tilefit.fit.report import Dropped, FitResult, Ranked
from tilefit.space import MAX_CONFIGS, Config, Space, expand
from tilefit.targets import Target, get_target

Bench = Callable[[Mapping[str, Any]], float]


@dataclasses.dataclass(frozen=True)
class SearchPolicy:
    """How fit() searches: prune margin, how many to keep exact, which passes, how many compilers.

    `exhaustive=True` (or `workers`) compiles every survivor of the analytic prune instead of stopping at
    the bound, so the report has exact bytes for every config. `max_configs` refuses larger spaces at once.
    """

    margin: float = 0.10
    top_k: int = 5
    analytic: bool = True
    exhaustive: bool = False
    workers: int | None = None
    max_configs: int | None = MAX_CONFIGS

    def __post_init__(self) -> None:
        if not (math.isfinite(self.margin) and self.margin >= 0):
            raise InputError(f"margin must be a finite number >= 0, not {self.margin}")
        if self.top_k < 1:
            raise InputError(f"top_k must be at least 1, not {self.top_k}")
        if self.workers is not None and self.workers < 1:
            raise InputError(f"workers must be at least 1, not {self.workers}")
        if self.max_configs is not None and self.max_configs < 1:
            raise InputError(f"max_configs must be at least 1, not {self.max_configs}")

    def but(self, **changes: Any) -> SearchPolicy:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)


@dataclasses.dataclass(frozen=True)
class RankInputs:
    """What the performance model ranks by: the launch grid or problem extents, the SM count, and the
    full-width dims (`fixed`, named by `names`) that the NoConfigFits message explains."""

    grid: Grid | None = None
    problem: Mapping[str, int] | None = None
    sm_count: int | None = None
    fixed: Mapping[str, int] | None = None
    names: Mapping[str, str] | None = None
    reduction: tuple[str, ...] = ()  # block keys of inner (K-like) loops, e.g. HelionEstimator.reduction_keys()
    held: Callable[[Mapping[str, Any]], int] | None = None  # elements a config holds whole per tile row

    def score(self, config: Mapping[str, Any], usage: Usage | None, device: DeviceModel) -> Score:
        held = self.held(config) if self.held is not None else 1
        return score(config, usage, device, grid=self.grid, problem=self.problem, reduction=self.reduction,
                     held=held)


_POLICY_KEYS = frozenset(f.name for f in dataclasses.fields(SearchPolicy))
_RANK_KEYS = frozenset(f.name for f in dataclasses.fields(RankInputs))


def fit(
    kernel: Any,
    space: Space,
    target: str | Target = "auto",
    *,
    args: Sequence[Any] | Mapping[str, Any] | None = None,
    signature: Mapping[str, Any] | None = None,
    measure: bool = False,
    estimator: Estimator | None = None,
    bench: Bench | None = None,
    policy: SearchPolicy | None = None,
    rank: RankInputs | None = None,
    **fields: Any,
) -> FitResult:
    """Choose the best config of `space` that fits `target`; raise NoConfigFits when none does.

    `policy` says how to search, `rank` what to rank by; their fields may also be given as keywords
    (`margin=`, `top_k=`, `grid=`, `problem=`, ...), which override the objects'. `measure=True` times the
    `top_k` best on the current GPU (`args` and `grid` needed, or a `bench(config) -> ms`).
    """
    policy, rank = _split_fields(policy or SearchPolicy(), rank or RankInputs(), fields)
    start = time.perf_counter()
    tgt = _resolve(target)
    configs = expand(space, limit=policy.max_configs)
    est = estimator if estimator is not None else _default_estimator(kernel, tgt, args, signature)
    device = DeviceModel.from_target(tgt, sm_count=rank.sm_count or _live_sm_count(tgt.name))
    dropped: list[Dropped] = []
    models: dict[int, Usage] = {}
    survivors = _prune_analytic(est, configs, tgt, policy.margin, dropped, models) if policy.analytic else configs
    fitting = _compile(est, survivors, tgt, dropped, models, policy, lambda c, u: rank.score(c, u, device).value)
    ranked = _rank(fitting, rank, device)
    if measure and ranked:
        ranked = _measure(ranked, bench or _triton_bench(kernel, args, rank.grid), policy.top_k, dropped)
    if not ranked:
        raise _nothing_fits(tgt, configs, dropped, rank, est)
    return FitResult(
        target=tgt.name, config=dict(ranked[0].config), usage=ranked[0].usage, ranked=tuple(ranked),
        dropped=tuple(dropped), tried=len(configs), seconds=time.perf_counter() - start, measured=measure,
    )


def _split_fields(
    policy: SearchPolicy, rank: RankInputs, fields: Mapping[str, Any]
) -> tuple[SearchPolicy, RankInputs]:
    """Keyword fields of fit() laid over the policy and rank objects; TypeError for an unknown one."""
    unknown = set(fields) - _POLICY_KEYS - _RANK_KEYS
    if unknown:
        raise TypeError(f"fit() got unexpected keyword arguments {sorted(unknown)}")
    p = {k: v for k, v in fields.items() if k in _POLICY_KEYS}
    r = {k: v for k, v in fields.items() if k in _RANK_KEYS}
    return (policy.but(**p) if p else policy), (dataclasses.replace(rank, **r) if r else rank)


def _resolve(target: str | Target) -> Target:
    if isinstance(target, Target):
        return target
    if target == "auto":
        from tilefit.estimate.triton import resolve_target

        return resolve_target("auto")
    return get_target(target)


def _default_estimator(kernel: Any, target: Target, args: Any, signature: Any) -> Estimator:
    """The estimator of the backend that serves `target` (estimate/__init__.py), for this kernel."""
    from tilefit.estimate import backend_for

    backend = backend_for(target)
    if backend.name == "triton":  # the API also takes runtime argument values, not only types
        from tilefit.estimate.triton import TritonEstimator

        return TritonEstimator(kernel, args=args, signature=signature)
    return backend.estimator(kernel, {"args": dict(signature or {})})


def _compile(
    est: Estimator, configs: list[Config], target: Target, dropped: list[Dropped], models: dict[int, Usage],
    policy: SearchPolicy, score_of: Callable[[Config, Usage | None], float],
) -> list[Usage]:
    """Exact sizes of the survivors: bounded by the model's score where it bounds (NVIDIA), else all."""
    if not (models and target.vendor == "nvidia" and policy.workers is None and not policy.exhaustive):
        return _exact(est, configs, target, dropped, policy.workers)

    def bound(cfg: Config) -> float:
        return score_of(cfg, models.get(id(cfg)))

    def exact_score(u: Usage) -> float:
        return score_of(dict(u.config), u)

    return _exact_bounded(est, configs, target, dropped, models, bound, exact_score, policy.top_k)


def _rank(fitting: list[Usage], rank: RankInputs, device: DeviceModel) -> list[Ranked]:
    """The configs that fit, best score first (fewer bytes breaks ties)."""
    return sorted(
        (Ranked(u.config, u, rank.score(u.config, u, device)) for u in fitting),
        key=lambda r: (-r.score.value, r.usage.bytes or 0),
    )


def estimate_all(
    est: Estimator, configs: Sequence[Config], target: Target, mode: Mode, workers: int | None = None
) -> list[Usage]:
    """est.estimate_many for one target, with no progress bar (fit prints its own report)."""
    if not configs:
        return []
    return list(est.estimate_many(configs, [target], mode, workers=workers, progress=False))


def _prune_analytic(
    est: Estimator, configs: list[Config], target: Target, margin: float, dropped: list[Dropped],
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
    est: Estimator, configs: list[Config], target: Target, dropped: list[Dropped], workers: int | None
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
            dropped.append(Dropped(cfg, "over-limit", u.bytes, u.limit, u.reason))
        else:
            fitting.append(u if dict(u.config) == cfg else _with_config(u, cfg))
    return fitting


def _exact_bounded(
    est: Estimator, configs: list[Config], target: Target, dropped: list[Dropped],
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
    target: Target, configs: list[Config], dropped: list[Dropped], rank: RankInputs, est: Estimator
) -> Exception:
    resource = "shared-memory" if target.kind == "gpu" else "scoped-vmem"
    limit = next((d.limit for d in dropped if d.limit), None) or target.limit_for(resource) or 0

    def probe(config: Mapping[str, Any]) -> int | None:
        return est.estimate(config, target, "fast").bytes

    return no_config_fits(
        target=target.name, resource=resource, limit=limit, configs=configs, dropped=dropped,
        fixed=rank.fixed, names=rank.names, probe=probe,
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

