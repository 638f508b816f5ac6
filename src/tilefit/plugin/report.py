"""What a plain launch that cannot fit prints: the numbers, the explain diagnosis, the nearest configs that fit.

Autotuners catch the plug-in's OutOfResources and never show it, so this report costs nothing there: it is
built only when the error reaches the top of the program (the plug-in's sys.excepthook). The nearest
configs come from tilefit's fit over the kernel's block constexprs (names with BLOCK) halved once or twice
and num_stages lowered, each sized by the same allocation pass on the same TTGIR pipeline.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence
from typing import Any

from tilefit.errors import NoConfigFits, TilefitError
from tilefit.estimate.base import Mode, Usage
from tilefit.targets import Target

MAX_CANDIDATES = 24  # each is a TTIR+TTGIR compile (a fraction of a second): the report stays in seconds
BUDGET_S = 10.0  # and candidates past this many seconds are not sized (a huge kernel's TTGIR can be slow)


def find_rejection(exc: BaseException | None) -> Any:
    """The plug-in's OutOfResources in an exception's cause/context chain, or None."""
    from tilefit.plugin.hook import TilefitOutOfResources

    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, TilefitOutOfResources):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


class SourceEstimator:
    """Sizes variants of one rejected compile (constexprs by name, launch options) with compile_fast."""

    def __init__(self, plugin: Any, src: Any, target: Any, options: Any, budget_s: float = BUDGET_S) -> None:
        self.plugin, self.src, self.target, self.options = plugin, src, target, options
        self.deadline = time.monotonic() + budget_s

    def estimate(self, config: Mapping[str, Any], target: Target, mode: Mode = "fast") -> Usage:
        """One variant on the rejected compile's target."""
        from tilefit.estimate.triton_compile import Specialised, compile_fast
        from tilefit.plugin.size import limits_for, verdict

        names = list(self.src.fn.arg_names)
        constexprs = dict(self.src.constants)
        options = {k: v for k, v in vars(self.options).items()}
        for key, value in config.items():
            if key in names:
                constexprs[(names.index(key),)] = value
            else:
                options[key] = value
        sp = Specialised(dict(self.src.signature), constexprs, dict(self.src.attrs), options)
        if time.monotonic() > self.deadline:
            return Usage(target.name, "shared-memory", None, None, "fast", dict(config), None,
                         error=f"not sized: the report's {BUDGET_S:.0f} s budget is spent")
        try:
            with self.plugin.quiet():
                m = compile_fast(self.src.fn, self.target, sp)
        except Exception as exc:
            return Usage(target.name, "shared-memory", None, None, "fast", dict(config), None, error=str(exc))
        limits = limits_for(self.target)
        tmem = m.tensor_memory
        sized = type(limits)(shared=m.shared, tmem=tmem, threads=m.num_warps * int(self.target.warp_size))
        v = verdict(sized, limits, target.name)
        return Usage(target.name, "shared-memory", m.shared, limits.shared, "fast", dict(config), v.fits,
                     threads=sized.threads, tensor_memory=tmem)

    def estimate_many(self, configs: Sequence[Mapping[str, Any]], targets: Sequence[Target], mode: Mode = "fast",
                      *, workers: int | None = None, progress: bool | None = None) -> list[Usage]:
        """Every config on every target, in this process (config-major)."""
        return [self.estimate(c, t, mode) for c in configs for t in targets]


def candidates(config: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Configs near `config`: each BLOCK constexpr kept, halved or quartered (>= 16); num_stages down to 1."""
    axes: dict[str, list[Any]] = {}
    for key, value in config.items():
        if "BLOCK" in key.upper() and isinstance(value, int) and not isinstance(value, bool) and value > 16:
            axes[key] = [v for v in (value, value // 2, value // 4) if v >= 16]
    stages = config.get("num_stages")
    if isinstance(stages, int) and stages > 1:
        axes["num_stages"] = sorted({stages, max(stages - 1, 1), 1}, reverse=True)
    keys = list(axes)
    out = [dict(zip(keys, values, strict=False)) for values in itertools.product(*(axes[k] for k in keys))]
    out = [c for c in out if any(c[k] != config[k] for k in keys)]
    out.sort(key=lambda c: sum(1 for k in keys if c[k] != config[k]))
    return out[:MAX_CANDIDATES]


def nearest(plugin: Any, err: Any) -> str:
    """fit's answer over the nearby configs, as report lines."""
    from tilefit.fit import fit, format_config

    entry = plugin.rejected.get(err.kernel) if plugin is not None else None
    space = candidates(err.config)
    if entry is None or not space:
        return "  nearest configs that fit: none to try (no BLOCK constexpr or num_stages to lower)\n"
    src, target, options = entry
    try:
        result = fit(src.fn, space, err.target, estimator=SourceEstimator(plugin, src, target, options),
                     analytic=False, exhaustive=True)
    except NoConfigFits as exc:
        return f"  no nearby config fits ({len(space)} tried): {exc}\n"
    lines = [f"    {format_config(r.config)}: {r.usage.bytes} B" for r in result.ranked[:3]]
    return "  nearest configs that fit (tilefit fit, best first):\n" + "\n".join(lines) + "\n"


def diagnosis(err: Any) -> str:
    """The explain diagnosis of Triton's message: entry, title, first advice."""
    from tilefit.report import explain

    result = explain(str(err).encode())
    if not result.recognised:
        return ""
    d = result.diagnoses[0]
    advice = getattr(d, "advice", None) or ()
    first = getattr(advice[0], "title", "") if advice else ""
    return f"  diagnosis: {d.entry.title} ({d.entry.id}){'; ' + first if first else ''}\n"


def report(err: Any, plugin: Any) -> str:
    """The full report for a rejected plain launch."""
    head = (f"\ntilefit: {err.kernel} cannot run on {err.target}: {err.name} {err.required} > {err.limit} "
            f"({err.required / max(err.limit, 1):.2f}x); rejected after TTGIR, before LLVM and ptxas\n")
    config = ", ".join(f"{k}={v}" for k, v in err.config.items())
    parts = [head, f"  config: {config}\n"]
    for build in (diagnosis, lambda e: nearest(plugin, e)):
        try:
            parts.append(build(err))
        except (TilefitError, ValueError, RuntimeError) as exc:
            parts.append(f"  ({type(exc).__name__}: {exc})\n")
    return "".join(parts)
