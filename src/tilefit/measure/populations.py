"""Populations for `tilefit kb measure`: every config of a plan's kernels, estimated on its targets.

Triton kernels through the Triton estimator, Helion kernels through the Triton code Helion generates,
Pallas kernels through libtpu; each population carries a scorer (the performance model) for the speed
a fix costs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tilefit.estimate.base import Usage
from tilefit.measure.rates import Config, Population
from tilefit.progress import progress_bar
from tilefit.settings import Settings
from tilefit.space import expand
from tilefit.yamlio import load_yaml


def _device_score(target: str, rank: Any = None) -> Callable[[Usage], float]:
    from tilefit.fit.core import RankInputs
    from tilefit.fit.perf import DeviceModel
    from tilefit.targets import get_target

    device = DeviceModel.from_target(get_target(target))
    inputs = rank or RankInputs()
    return lambda u: inputs.score(u.config, u, device).value


def gpu_populations(plan: Mapping[str, Any], root: Path, workers: int | None) -> list[Population]:
    """Estimate every config of every GPU kernel of the plan on every GPU target."""
    from tilefit.estimate.triton import TritonEstimator, load_module_file

    section = plan["gpu"]
    out = []
    for k in section["kernels"]:
        spec = load_yaml(root / k["spec"])
        file, _, name = str(spec["kernel"]).partition(":")
        kernel = getattr(load_module_file(str((root / k["spec"]).parent / file)), name)
        est = TritonEstimator(kernel, signature=spec.get("args") or {})
        configs = expand(spec["space"], limit=None)
        for target in section["targets"]:
            usages = est.estimate_many(configs, [target], workers=workers)
            out.append(Population(
                kernel=k["name"], target=target, usages=usages, fixed_keys=tuple(k.get("fixed", ())),
                estimate=_triton_again(est, target, workers),
                score=_device_score(target),
            ))
    return out


def _triton_again(est: Any, target: str, workers: int | None) -> Callable[[list[Config]], list[Usage]]:
    def again(configs: list[Config]) -> list[Usage]:
        result: list[Usage] = est.estimate_many(configs, [target], workers=workers)
        return result

    return again


def _helion_again(est: Any, target: str) -> Callable[[list[Config]], list[Usage]]:
    def again(configs: list[Config]) -> list[Usage]:
        return list(est.estimate_many(configs, [target]))

    return again


def helion_populations(plan: Mapping[str, Any], root: Path) -> list[Population]:
    """Size every config of every Helion kernel of the plan through the Triton code Helion generates."""
    from tilefit.estimate.helion import HelionEstimator, helion_space
    from tilefit.estimate.triton import load_module_file
    from tilefit.fit.core import RankInputs

    section = plan["helion"]
    out = []
    for k in section["kernels"]:
        module = load_module_file(str(root / k["file"]))
        args = module.make_args(**dict(k.get("shape") or {}))
        bound = getattr(module, k.get("kernel", "geglu_mlp")).bind(args)
        est = HelionEstimator(bound, args)
        configs = helion_space(bound, **dict(k.get("space") or {}))
        inner = est.reduction_keys()
        for target in section["targets"]:
            usages = est.estimate_many(configs, [target])
            out.append(Population(
                kernel=k["name"], target=target, usages=usages, fixed_keys=tuple(k.get("fixed", ())),
                estimate=_helion_again(est, target),
                score=_device_score(target, RankInputs(reduction=tuple(inner), held=est.held_elements)),
                k_key=inner[0] if inner else None,
            ))
    return out


def tpu_populations(plan: Mapping[str, Any], root: Path) -> list[Population]:
    """Compile every config of every Pallas kernel of the plan for every TPU target with libtpu."""
    from tilefit.estimate.pallas import PallasEstimator, load_kernel

    section = plan["tpu"]
    out = []
    for k in section["kernels"]:
        file, _, name = str(k["ref"]).partition(":")
        kernel = load_kernel(f"{root / file}:{name}")
        if k.get("space"):
            kernel = kernel.with_spec({"space": k["space"]})
        configs = kernel.configs()
        for target in section["targets"]:
            est = PallasEstimator(kernel)
            step = progress_bar(len(configs), Settings.from_env().progress, desc=f"{k['name']} on {target}")
            usages = []
            for c in configs:
                usages.append(est.estimate(c, target, "exact"))
                step()
            step(close=True)

            def again(cs: list[Config], t: str = target, kern: Any = kernel) -> list[Usage]:
                res = []
                for c in cs:
                    params = {"vmem_limit_bytes": c.pop("vmem_limit_bytes")} if "vmem_limit_bytes" in c else {}
                    kk = dataclasses.replace(kern, params={**kern.params, **params})
                    res.append(PallasEstimator(kk).estimate(c, t, "exact"))
                return res

            out.append(Population(
                kernel=k["name"], target=target, usages=usages, fixed_keys=tuple(k.get("fixed", ())),
                estimate=again, score=_tpu_score,
            ))
    return out


def _tpu_score(u: Usage) -> float:
    """Fewer, larger grid steps run faster on a TPU (each step pays pipeline overhead): the speed proxy."""
    steps = u.vmem.grid_steps if u.vmem is not None else None
    return 1.0 / steps if isinstance(steps, int) and steps > 0 else 0.0
