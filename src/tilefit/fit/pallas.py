"""Choose Pallas TPU block shapes that fit scoped VMEM, or the `vmem_limit_bytes` that makes them fit.

Ranking is a simple speed model: fewer grid steps first (less per-step pipeline overhead), then bigger
blocks. Configs are estimated in that order; the first that fits the scoped limit in force wins, unless a
better-ranked config fits physical VMEM, in which case raising the limit is the better fix and the result
says by how much (`vmem_limit_bytes`, with headroom, never above physical VMEM).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from tilefit.errors import InputError, NoConfigFits, TilefitError
from tilefit.estimate.base import Mode, Usage, VmemDetail
from tilefit.estimate.pallas import (
    RESOURCE,
    PallasEstimator,
    PallasKernel,
    headroom_limit,
    tpu_target,
)
from tilefit.estimate.pallas_compile import error_summary
from tilefit.targets import Target
from tilefit.units import format_short


@dataclasses.dataclass(frozen=True)
class PallasFit:
    """The chosen config for one target, and how it was chosen."""

    target: str
    config: Mapping[str, Any]
    usage: Usage
    vmem_limit_bytes: int | None
    reason: str
    within_limit: Usage | None
    considered: tuple[Usage, ...]
    rejected: Mapping[str, str]

    @property
    def raise_limit(self) -> bool:
        """True when the advice is to pass vmem_limit_bytes rather than shrink blocks."""
        return self.vmem_limit_bytes is not None


def fit_pallas(
    kernel: PallasKernel, target: str | Target, *, mode: Mode = "exact", allow_raise: bool = True,
    estimator: PallasEstimator | None = None,
) -> PallasFit:
    """The best config of `kernel.space` for `target`; NoConfigFits when none fits physical VMEM."""
    tgt = tpu_target(target)
    est = estimator or PallasEstimator(kernel)
    ranked, rejected = rank(kernel, est, tgt)
    considered: list[Usage] = []
    raised: Usage | None = None
    within: Usage | None = None
    for config in ranked:
        u = est.estimate(config, tgt.name, mode)
        considered.append(u)
        if u.error is not None or u.bytes is None:
            rejected[_key(config)] = u.error or "no size"
        elif u.fits:
            within = u
            break
        elif allow_raise and raised is None and _fits_physical(u):
            raised = u
    if raised is None and within is None:
        raise _no_fit(tgt, considered, rejected, len(ranked), allow_raise)
    return _decide(tgt, raised, within, considered, rejected)


fit = fit_pallas  # the name before the backend registry; kept for callers of tilefit.fit.pallas.fit


def rank(
    kernel: PallasKernel, est: PallasEstimator, target: Target | None = None
) -> tuple[list[dict[str, int]], dict[str, str]]:
    """Configs best first (fewer grid steps, then more block bytes); those that do not trace, rejected."""
    scored: list[tuple[int, int, dict[str, int]]] = []
    rejected: dict[str, str] = {}
    for config in kernel.configs():
        try:
            call = max(est.layouts(config, target), key=lambda c: c.block_bytes)
        except TilefitError:
            raise
        except Exception as exc:
            rejected[_key(config)] = f"build/trace failed: {error_summary(exc)}"
            continue
        scored.append((call.grid_steps, -call.block_bytes, config))
    scored.sort(key=lambda s: (s[0], s[1]))
    return [c for _, _, c in scored], rejected


def _fits_physical(u: Usage) -> bool:
    v = u.vmem
    if v is None or v.physical is None or v.over_physical:
        return False
    return u.bytes is not None and u.bytes <= v.physical


def _decide(
    tgt: Target, raised: Usage | None, within: Usage | None, considered: list[Usage],
    rejected: dict[str, str],
) -> PallasFit:
    done = tuple(considered)
    if raised is not None:
        vmem = raised.vmem or VmemDetail()
        physical = vmem.physical or 0
        # The estimator's advice already allows for the generation's behaviour at the raised limit
        # (on tpu7x XLA prefetches fewer inputs into VMEM as the limit grows).
        limit = vmem.vmem_limit_bytes or headroom_limit(raised.bytes or 0, physical)
        why = (f"{_cfg(raised.config)} needs {format_short(raised.bytes)} of scoped VMEM, over the "
               f"{format_short(raised.limit)} limit but within {format_short(physical)} physical; it has "
               f"fewer grid steps or bigger blocks than any config under the limit: pass "
               f"pltpu.CompilerParams(vmem_limit_bytes={limit})")
        if within is not None:
            why += f" (best without raising: {_cfg(within.config)})"
        return PallasFit(tgt.name, raised.config, raised, limit, why, within, done, rejected)
    if within is not None:
        why = (f"{_cfg(within.config)} needs {format_short(within.bytes)} of the "
               f"{format_short(within.limit)} scoped limit")
        return PallasFit(tgt.name, within.config, within, None, why, within, done, rejected)
    raise AssertionError("fit() checks that a config was found")


def _no_fit(
    tgt: Target, considered: list[Usage], rejected: Mapping[str, str], tried: int, raise_ok: bool
) -> NoConfigFits:
    """Physical VMEM bounds the search when raising the limit is allowed, the scoped limit otherwise."""
    physical = tgt.limit("vmem_physical") or 0
    bound = physical
    if not raise_ok:
        bound = next((u.limit for u in considered if u.limit), tgt.limit("vmem_scoped_default") or physical)
    sized = [u for u in considered if u.bytes is not None]
    if not sized:
        why = next(iter(rejected.values()), "no config could be built")
        return NoConfigFits(tgt.name, RESOURCE, bound, None, consumer=f"every config failed: {why}",
                            fix="fix the kernel error above", tried=tried)
    small = min(sized, key=lambda u: u.bytes or 0)
    buffers = small.vmem.buffers if small.vmem else ()
    consumer = f"{_cfg(small.config)}: " + ", ".join(f"{name} {format_short(n)}" for name, n in buffers)
    fix = "add smaller block sizes to the space, or pl.Buffered(1) for blocks that do not change per step"
    if not raise_ok and small.bytes is not None and small.bytes <= physical:
        fix = f"pass pltpu.CompilerParams(vmem_limit_bytes={headroom_limit(small.bytes, physical)}), or " + fix
    return NoConfigFits(tgt.name, RESOURCE, bound, small.bytes, consumer=consumer, fix=fix, tried=tried)


def _cfg(config: Mapping[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in config.items())


def _key(config: Mapping[str, Any]) -> str:
    return _cfg(config)


@dataclasses.dataclass(frozen=True)
class PallasFitReport:
    """`tilefit fit FILE.py:KERNEL --target v5e,v6e` for a Pallas kernel: one choice per target."""

    kernel: str
    fits: tuple[PallasFit, ...]
    failures: Mapping[str, str]  # target -> the NoConfigFits message

    def report(self, top: int = 10, per_reason: int = 10) -> str:
        """The text the CLI prints: per target the config, its VMEM, and the limit to pass if any."""
        lines = [f"{self.kernel}: best config per TPU target (scoped VMEM, libtpu-checked)"]
        for f in self.fits:
            u = f.usage
            lines.append(f"  {f.target}: {_cfg(f.config)}  {format_short(u.bytes)} of {format_short(u.limit)}"
                         f"  ({len(f.considered)} estimated, {u.compiler or u.mode})")
            if f.vmem_limit_bytes is not None:
                lines.append(f"      pass compiler_params=pltpu.CompilerParams(vmem_limit_bytes={f.vmem_limit_bytes})")
            lines.append(f"      why: {f.reason}")
            for key, why in list(f.rejected.items())[:per_reason]:
                lines.append(f"      rejected {key}: {why}")
        for target, message in self.failures.items():
            lines.append(f"  {target}: no config fits: {message}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The JSON the CLI prints."""
        return {
            "kernel": self.kernel,
            "targets": [{
                "target": f.target, "config": dict(f.config), "bytes": f.usage.bytes, "limit": f.usage.limit,
                "vmem_limit_bytes": f.vmem_limit_bytes, "reason": f.reason, "estimated": len(f.considered),
                "rejected": dict(f.rejected), "usage": f.usage.to_dict(),
            } for f in self.fits],
            "failures": dict(self.failures),
        }


def cli_fit(ref: str, spec: Mapping[str, Any], targets: Sequence[str], *, mode: Mode = "exact") -> PallasFitReport:
    """What `tilefit fit path.py:kernel --target v5e,v6e` runs for a Pallas kernel."""
    from tilefit.estimate.pallas import load_kernel

    kernel = load_kernel(ref).with_spec(spec)
    if not kernel.configs():
        raise InputError(f"{ref}: empty config space; give --spec space.yaml or --config K=V1,V2")
    est = PallasEstimator(kernel)
    fits: list[PallasFit] = []
    failures: dict[str, str] = {}
    first: NoConfigFits | None = None
    for name in targets:
        try:
            fits.append(fit_pallas(kernel, name, mode=mode, estimator=est))
        except NoConfigFits as exc:
            failures[name] = str(exc)
            first = first or exc
    if not fits and first is not None:
        raise first
    return PallasFitReport(kernel.name or ref, tuple(fits), failures)
