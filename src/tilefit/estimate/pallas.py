"""Scoped VMEM of Pallas TPU kernels for every TPU generation, on a machine without a TPU.

A kernel is a `PallasKernel`: a `build(config, **params)` function that returns `(fn, args)`, where
`fn(*args)` calls `pl.pallas_call` and `args` are `jax.ShapeDtypeStruct`s, plus a config space. Two modes:

- analytic: trace only (no libtpu): blocks padded to the generation's tiles x buffer count, plus scratch,
  plus a measured allowance for Mosaic's internal scratch (`mosaic_internal_*_pct` in tpu.yaml), less the
  buffers of inputs that XLA copies whole into VMEM before the kernel (tpu7x, `prefetched_inputs`).
- exact (also "fast"/"full"): libtpu compiles for the target's topology; the scoped size is the smallest
  `vmem_limit_bytes` that compiles (see pallas_compile.py).

Analytic mode never says "fits" on a guess: where the model is unsure (buffers the kernel allocates in
its body, a traced grid dim) or its estimate is within `ANALYTIC_MARGIN` of the limit, one libtpu compile
at the limit in force decides, and the row says so (`vmem.unsure`, `vmem.compiles`).

`build` is called as `build(config, **params)`, plus `target="v5e"` when it declares a `target`
parameter, and runs under the target's TPU device as JAX's default device, so kernels that ask for the
TPU kind while tracing (tokamax) work on a CPU machine. Every config key must be read by `build`.

Each result is a `Usage` with resource "scoped-vmem", `limit` the scoped limit in force (the kernel's
`vmem_limit_bytes` or the generation's default) and `vmem` (a `VmemDetail`) holding the physical
capacity, the buffers and, when raising the limit fixes it, the `vmem_limit_bytes` to pass.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit import store
from tilefit.errors import InputError, MissingExtraError, TilefitError
from tilefit.estimate.base import Backend, Failure, FailureKind, Mode, Overrun, Usage, VmemDetail
from tilefit.estimate.pallas_compile import (
    TopologyCache,
    compile_once,
    error_summary,
    measure,
    on_device,
    quiet_libtpu,
)
from tilefit.estimate.pallas_kernel import Build, Built, PallasKernel, load_kernel
from tilefit.estimate.pallas_layout import (
    TILE_BYTES,
    BlockShapeError,
    CallLayout,
    tiling_problem,
    trace_layouts,
)
from tilefit.estimate.pallas_model import (
    HEADROOM,
    MIB,
    advice_limit,
    headroom_limit,
    in_place_inputs,
    internal_allowance,
    prefetched_inputs,
    roomy_limit,
    scoped_need,
    smallest_limit,
)
from tilefit.resources import Resource
from tilefit.settings import Settings
from tilefit.targets import Target, get_target

RESOURCE: Resource = "scoped-vmem"
# Analytic estimates this close to the limit (either side) are checked by one libtpu compile: the model's
# error on JAX's shipped kernels reaches about 15 % (BENCHMARKS.md, "Pallas kernels that ship with JAX").
ANALYTIC_MARGIN = 0.20
def tpu_target(target: str | Target) -> Target:
    """Resolve a TPU target name ('v5e') or pass a Target through; InputError for a GPU target."""
    t = get_target(target) if isinstance(target, str) else target
    if t.kind != "tpu" or not t.topology:
        raise InputError(f"{t.name} is not a TPU target; Pallas TPU kernels need v4, v5e, v5p, v6e or tpu7x")
    return t


def limits_of(target: Target, kernel_limit: int | None) -> tuple[int, int]:
    """(scoped limit in force, physical VMEM) for a target and a kernel's own vmem_limit_bytes."""
    physical = target.limit("vmem_physical") or 0
    default = target.limit("vmem_scoped_default") or physical
    return (kernel_limit if kernel_limit is not None else default), physical


class PallasEstimator:
    """Estimator (see base.py) of the scoped VMEM of a PallasKernel's configs on TPU targets."""

    def __init__(
        self, kernel: PallasKernel, *, cache: bool = True, settings: Settings | None = None,
        libtpu: bool = True,
    ) -> None:
        """`libtpu=False`: analytic mode only, traced on the host device, with no libtpu check."""
        self.kernel = kernel
        self._libtpu = libtpu
        s = settings or Settings.from_env()
        self._show_libtpu = s.debug
        self._topologies = TopologyCache(show_libtpu=s.debug)
        self._cache = store.Store(s.cache_dir / "pallas", store.USAGE) if cache and s.use_cache else None
        self._source = _kernel_source(kernel)
        self._on_device: bool | None = None  # whether this kernel traces under the TPU device (learnt)

    def estimate(self, config: Mapping[str, Any], target: str | Target, mode: Mode = "exact") -> Usage:
        """One config on one target; a config that fails for a non-memory reason has `error` set."""
        tgt = tpu_target(target)
        start = time.perf_counter()
        _require_jax()
        key = self._key(tgt, config) if mode != "analytic" else None
        cached = self._cache.get(key) if self._cache and key else None  # before any build or trace
        if cached is not None:
            return cached
        device = self._device(tgt)
        try:
            fn, args, layouts, unread, on_dev = self._trace(config, tgt, device)
        except TilefitError:
            raise
        except BlockShapeError as exc:
            return _failed(tgt, config, mode, f"{_cfg(config)}: {exc}", start, "input")
        except Exception as exc:
            return _failed(tgt, config, mode, f"build/trace failed: {error_summary(exc)}", start)
        if unread:
            return _failed(tgt, config, mode, unread, start, "input")
        if mode == "analytic":
            return self._analytic_checked(tgt, config, fn, args, layouts, device, on_dev, start)
        usage = self._exact(tgt, config, mode, fn, args, layouts, device, on_dev, start)
        if self._cache and key and usage.error is None:
            self._cache.put(key, usage)
        return usage

    def _trace(
        self, config: Mapping[str, Any], tgt: Target, device: Any
    ) -> tuple[Callable[..., Any], Sequence[Any], list[CallLayout], str | None, bool]:
        """Build and trace under the target's device, else (a build that runs JAX ops eagerly) the host.

        Returns fn, args, layouts, why the config is wrong (None when fine) and whether the device was
        JAX's default device. tokamax asks the default device for the TPU kind while tracing; splash
        attention's build runs its mask preprocessing eagerly, which a compile-only device cannot.
        """
        places = [True, False] if device is not None and self._on_device is not False else [False]
        for i, on_dev in enumerate(places):
            try:
                with quiet_libtpu(self._show_libtpu), on_device(device if on_dev else None):
                    (fn, args), unread = self.kernel.checked_instantiate(config, tgt.name)
                    layouts = trace_layouts(fn, args) if not unread else []
            except (TilefitError, BlockShapeError):
                raise
            except Exception:
                if i == len(places) - 1:
                    raise
                continue
            self._on_device = on_dev if self._on_device is None else self._on_device
            return fn, args, layouts, unread, on_dev
        raise AssertionError("the loop returns or raises")

    def _device(self, tgt: Target) -> Any:
        """The target's compile-only device; None when libtpu is missing (analytic mode still traces)."""
        if not self._libtpu:
            return None
        try:
            return self._topologies.device(tgt.topology or "")
        except (InputError, MissingExtraError):
            return None

    def _key(self, tgt: Target, config: Mapping[str, Any]) -> str | None:
        """Cache key of an exact result: kernel source, params, config, target limits and tool versions."""
        if self._source is None:
            return None
        return store.key({
            "backend": "pallas", "source": self._source, "params": dict(self.kernel.params),
            "config": dict(config), "target": tgt.name, "topology": tgt.topology,
            # only what an exact result depends on: the analytic model's shares in tpu.yaml do not count
            "limits": {k: tgt.limit(k) for k in ("vmem_scoped_default", "vmem_physical")},
            "mode": "exact", "search": 3, "tools": _tool_versions(),
        })

    def estimate_many(
        self, configs: Sequence[Mapping[str, Any]], targets: Sequence[str | Target], mode: Mode = "exact", *,
        workers: int | None = None, progress: bool | None = None,
    ) -> list[Usage]:
        """Every config on every target (target-major); failures are results, never an abort.

        Compiles run in this process (libtpu is not forked): `workers` and `progress` are accepted, unused.
        """
        return [self.estimate(c, t, mode) for t in targets for c in configs]

    def layouts(self, config: Mapping[str, Any], target: str | Target | None = None) -> list[CallLayout]:
        """The traced VMEM consumers of one config (no compile)."""
        tgt = tpu_target(target) if target is not None else None
        device = self._device(tgt) if tgt is not None else None
        if tgt is None:
            with quiet_libtpu(self._show_libtpu):
                (fn, args), unread = self.kernel.checked_instantiate(config)
                layouts = trace_layouts(fn, args) if not unread else []
        else:
            _, _, layouts, unread, _ = self._trace(config, tgt, device)
        if unread:
            raise InputError(unread)
        return layouts

    def _analytic_checked(
        self, tgt: Target, config: Mapping[str, Any], fn: Callable[..., Any], args: Sequence[Any],
        layouts: list[CallLayout], device: Any, on_dev: bool, start: float,
    ) -> Usage:
        """The analytic estimate; libtpu decides the fit where the model is unsure or close to the limit."""
        problem = _tiling_problem(layouts)
        if problem:
            return _failed(tgt, config, "analytic", problem, start)
        usage = self._analytic(tgt, config, layouts, start)
        call = _main_call(layouts)
        limit = usage.limit or 0
        near = usage.bytes is not None and abs(usage.bytes - limit) <= ANALYTIC_MARGIN * limit
        if device is None or not (near or call.unsure):
            return usage
        with quiet_libtpu(self._show_libtpu):
            att = compile_once(fn, args, device, limit, trace_on_device=on_dev)
        if att.error is not None:
            return _failed(tgt, config, "analytic", att.error, start)
        vmem = dataclasses.replace(usage.vmem or VmemDetail(), compiles=1)
        need = usage.bytes or 0
        if not att.ok:  # libtpu's printed size is a lower bound of the need at this limit
            need = max(need, att.scoped_size or att.physical_used or 0, limit + TILE_BYTES)
            physical = vmem.physical or 0
            advice = _limit_advice(need, limit, physical)
            vmem = dataclasses.replace(
                vmem, over_physical=att.physical_used is not None or need > physical,
                vmem_limit_bytes=advice_limit(tgt, call, advice, physical) if advice else None,
            )
        return dataclasses.replace(
            usage, bytes=need, fits=att.ok, vmem=vmem, over=_over(tgt, need, limit, att.ok),
            compiler=f"analytic, fit checked by libtpu {_tool_versions()['libtpu']}",
            seconds=time.perf_counter() - start,
        )

    def _analytic(self, tgt: Target, config: Mapping[str, Any], layouts: list[CallLayout], start: float) -> Usage:
        call = _main_call(layouts)
        internal = internal_allowance(tgt, call)
        limit, physical = limits_of(tgt, call.vmem_limit_bytes)
        need = smallest_limit(tgt, call)  # what exact mode reports: the smallest limit that compiles
        at_limit = scoped_need(tgt, call, limit)  # what a compile at the limit in force needs
        advice = _limit_advice(at_limit, limit, physical)
        if advice is not None:  # a higher limit leaves XLA less VMEM to prefetch inputs into
            advice = advice_limit(tgt, call, advice, physical)
        full = call.block_bytes + internal
        prefetched = in_place_inputs(tgt, call, need) if need < full else ()
        vmem = VmemDetail(
            physical=physical, vmem_limit_bytes=advice, over_physical=at_limit > physical,
            internal_allowance=internal, buffers=_buffers(call), grid_steps=call.grid_steps,
            prefetched_inputs=tuple(b.name for b in prefetched),
            bytes_without_prefetch=full if need < full else None,
            bytes_at_limit=at_limit if at_limit != need else None, unsure=call.unsure,
        )
        fits = at_limit <= limit
        return Usage(
            target=tgt.name, resource=RESOURCE, bytes=need, limit=limit, mode="analytic",
            config=dict(config), fits=fits, seconds=time.perf_counter() - start, vmem=vmem,
            over=_over(tgt, at_limit, limit, fits), compiler=f"analytic (jax {_tool_versions()['jax']})",
        )

    def _exact(
        self, tgt: Target, config: Mapping[str, Any], mode: Mode, fn: Callable[..., Any],
        args: Sequence[Any], layouts: list[CallLayout], device: Any, on_dev: bool, start: float,
    ) -> Usage:
        call = _main_call(layouts)
        limit, physical = limits_of(tgt, call.vmem_limit_bytes)
        if device is None:
            device = self._topologies.device(tgt.topology or "")  # raises the InputError that says why
        guess = smallest_limit(tgt, call)  # the model's answer to what this search measures
        # libtpu allocates the pipeline buffers first and Mosaic's internal scratch last, and E1001 prints
        # the total when the limit breaks: a first limit just above the buffers (which the model knows to
        # the tile) breaks at the internal scratch, so its print is the whole need
        internal = internal_allowance(tgt, call)
        first = guess - internal + TILE_BYTES if internal else guess - TILE_BYTES
        # tpu7x: the need falls with the limit only when XLA can prefetch an input read in place; the
        # model's smallest limit (less 20 %, more room to prefetch) tells whether any input qualifies
        dependent = bool(in_place_inputs(tgt, call, int(guess * 0.8)))
        with quiet_libtpu(self._show_libtpu):
            m = measure(fn, args, device, in_force=limit, physical=physical, guess=guess, first=first,
                        limit_dependent=dependent, trace_on_device=on_dev, roomy=roomy_limit(tgt, call, guess))
        if m.error is not None:
            return _failed(tgt, config, mode, m.error, start)
        need = m.bytes or 0
        advice = _limit_advice(need, limit, physical)
        if advice is not None:  # on tpu7x a higher limit leaves XLA less room to prefetch inputs
            advice = advice_limit(tgt, call, advice, physical)
        vmem = VmemDetail(
            physical=physical, vmem_limit_bytes=advice, over_physical=m.over_physical,
            buffers=_buffers(call), grid_steps=call.grid_steps, bytes_is_lower_bound=m.over_physical,
            physical_reported=m.physical_reported, compiles=m.compiles, bytes_low=m.low,
        )
        fits = bool(m.fits_in_force)
        return Usage(
            target=tgt.name, resource=RESOURCE, bytes=m.bytes, limit=limit, mode=mode,
            config=dict(config), fits=fits, seconds=time.perf_counter() - start, vmem=vmem,
            over=_over(tgt, need, limit, fits), compiler=f"libtpu {_tool_versions()['libtpu']}",
        )


def _main_call(layouts: list[CallLayout]) -> CallLayout:
    """The pallas_call that needs the most VMEM (the one that decides the fit)."""
    return max(layouts, key=lambda c: c.block_bytes)


def _buffers(call: CallLayout) -> tuple[tuple[str, int], ...]:
    return tuple((b.name, b.bytes) for b in call.buffers)


def _over(tgt: Target, need: int, limit: int, fits: bool) -> tuple[Overrun, ...]:
    return () if fits else (Overrun("scoped-vmem", need, limit, tgt.name),)


def _cfg(config: Mapping[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in config.items())


def _kernel_source(kernel: PallasKernel) -> str | None:
    """The source of the module that defines the kernel's build function (None: uncachable)."""
    import hashlib
    import inspect

    try:
        module = inspect.getmodule(kernel.build)
        text = inspect.getsource(module) if module is not None else inspect.getsource(kernel.build)
    except (OSError, TypeError):
        return None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _tool_versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for pkg in ("jax", "jaxlib", "libtpu"):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            out[pkg] = "-"
    return out


def _require_jax() -> None:
    if importlib.util.find_spec("jax") is None:
        raise MissingExtraError("jax", "tpu")


def _tiling_problem(layouts: list[CallLayout]) -> str | None:
    """The first block that breaks Mosaic's tiling rule (analytic mode has no compiler to ask)."""
    for call in layouts:
        for buf in call.buffers:
            if buf.kind != "scratch" and len(buf.shape) >= 2 and len(buf.array_shape) >= 2:
                why = tiling_problem(buf.shape, buf.array_shape, buf.itemsize)
                if why:
                    return f"{call.name}: {buf.name} block {list(buf.shape)}: {why} (Mosaic tiling rule)"
    return None


def _limit_advice(need: int, limit: int, physical: int) -> int | None:
    """The vmem_limit_bytes (with headroom) that fixes an over-limit need within physical VMEM."""
    if need > limit and need <= physical:
        return headroom_limit(need, physical)
    return None


def _failed(
    tgt: Target, config: Mapping[str, Any], mode: Mode, message: str, start: float,
    kind: FailureKind = "compile",
) -> Usage:
    limit = tgt.limit("vmem_scoped_default") or tgt.limit("vmem_physical")
    return Usage(
        target=tgt.name, resource=RESOURCE, bytes=None, limit=limit, mode=mode, config=dict(config),
        fits=None, error=message, seconds=time.perf_counter() - start,
        failure=Failure(kind, message, stage="trace" if kind == "input" else "compile"),
        vmem=VmemDetail(physical=tgt.limit("vmem_physical")),
    )


def cli_estimate(ref: str, spec: Mapping[str, Any], targets: list[Target], mode: str) -> list[Usage]:
    """What `tilefit estimate path.py:kernel --target v5e,...` runs for TPU targets."""
    kernel = load_kernel(ref).with_spec(spec)
    configs = kernel.configs()
    if not configs:
        raise InputError(f"{ref}: empty config space; give --spec space.yaml or --config K=V1,V2")
    est = PallasEstimator(kernel)
    m: Mode = "analytic" if mode == "analytic" else "exact"
    return [est.estimate(c, tpu_target(t), m) for t in targets for c in configs]



class _Backend:
    """The registry's view of this file (estimate/__init__.py): Pallas TPU kernels on TPU targets."""

    name = "pallas"

    def accepts(self, target: Target) -> bool:
        return target.kind == "tpu" and bool(target.topology)

    def load(self, ref: str, spec: Mapping[str, Any]) -> PallasKernel:
        return load_kernel(ref).with_spec(spec)

    def estimator(self, kernel: PallasKernel, spec: Mapping[str, Any]) -> PallasEstimator:
        return PallasEstimator(kernel)

    def space(self, kernel: PallasKernel, spec: Mapping[str, Any]) -> list[dict[str, Any]]:
        configs: list[dict[str, Any]] = list(kernel.configs())
        return configs

    def mode(self, requested: str) -> Mode:
        return "analytic" if requested == "analytic" else "exact"


BACKEND: Backend = _Backend()


__all__ = [
    "ANALYTIC_MARGIN", "BACKEND", "HEADROOM", "MIB", "RESOURCE", "Build", "Built", "PallasEstimator", "PallasKernel",
    "cli_estimate", "headroom_limit", "in_place_inputs", "internal_allowance", "limits_of", "load_kernel",
    "prefetched_inputs", "scoped_need", "smallest_limit", "tpu_target",
]
