"""`tilefit kb measure`: run a plan's populations through its rules (the command's body).

Kept apart from rates.py so that the rules and the populations they are measured on never import each other.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from tilefit.measure.populations import gpu_populations, helion_populations, tpu_populations
from tilefit.measure.rates import RuleResult, gpu_rules, load_plan, measure, tpu_rules
from tilefit.targets import get_target


def _tools(kinds: set[str]) -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    from tilefit import __version__

    tools = {"tilefit": __version__}
    for pkg in (["triton"] if "gpu" in kinds else []) + (["jax", "libtpu"] if "tpu" in kinds else []):
        with contextlib.suppress(PackageNotFoundError):
            tools[pkg] = version(pkg)
    return tools


def run_plan(plan_path: Path, *, only: str | None = None, sample: int | None = None, seed: int = 0,
             workers: int | None = None) -> list[tuple[RuleResult, dict[str, str]]]:
    """Measure every rule of a plan; returns each result with the tool versions used."""
    plan = load_plan(plan_path)
    root = plan_path.parent
    seed = int(plan.get("seed", seed))
    out: list[tuple[RuleResult, dict[str, str]]] = []
    if "gpu" in plan and only in (None, "gpu"):
        pops = gpu_populations(plan, root, workers)
        tools = _tools({"gpu"})
        for vendor, entries in plan["gpu"]["entries"].items():
            group = [p for p in pops if get_target(p.target).vendor == vendor]
            method = "exact estimate (Triton's allocation pass)"
            out += [(r, tools) for r in measure(group, gpu_rules, entries, method, sample, seed)]
    if "helion" in plan and only in (None, "helion"):
        pops = helion_populations(plan, root)
        tools = _tools({"gpu"})
        with contextlib.suppress(Exception):
            from importlib.metadata import version

            tools["helion"] = version("helion")
        method = "exact estimate (Triton's allocation pass on Helion's generated kernels)"
        out += [(r, tools) for r in measure(pops, gpu_rules, plan["helion"]["entries"], method, sample, seed)]
    if "tpu" in plan and only in (None, "tpu"):
        pops = tpu_populations(plan, root)
        tools = _tools({"tpu"})
        method = "exact estimate (libtpu compiles for the TPU topology)"
        out += [(r, tools) for r in measure(pops, tpu_rules, plan["tpu"]["entries"], method, sample, seed)]
    return out
