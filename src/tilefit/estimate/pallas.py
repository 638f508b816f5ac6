"""Scoped VMEM of Pallas TPU kernels for every TPU generation, on a machine without a TPU.

A kernel is a `PallasKernel`: a `build(config, **params)` function that returns `(fn, args)`, where
`fn(*args)` calls `pl.pallas_call` and `args` are `jax.ShapeDtypeStruct`s, plus a config space. Two modes:

- analytic: trace only (no libtpu): blocks padded to the generation's tiles x buffer count, plus scratch,
  plus a measured allowance for Mosaic's internal scratch (`mosaic_internal_*_pct` in tpu.yaml), less the
  buffers of inputs that XLA copies whole into VMEM before the kernel (tpu7x, `prefetched_inputs`).
- exact (also "fast"/"full"): libtpu compiles for the target's topology; the scoped size is the smallest
  `vmem_limit_bytes` that compiles (see pallas_compile.py).

Each result is a `Usage` with resource "scoped-vmem", `limit` the scoped limit in force (the kernel's
`vmem_limit_bytes` or the generation's default) and `extra` holding the physical capacity, the margin
(limit - bytes, negative when over) and, when raising the limit fixes it, the `vmem_limit_bytes` to pass.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tilefit import store
from tilefit.errors import InputError, MissingExtraError, TilefitError
from tilefit.estimate.base import Backend, Mode, Usage
from tilefit.estimate.pallas_compile import TopologyCache, error_summary, measure
from tilefit.estimate.pallas_layout import TILE_BYTES, Buffer, CallLayout, tiling_problem, trace_layouts
from tilefit.resources import Resource
from tilefit.settings import Settings
from tilefit.targets import Target, get_target
from tilefit.userfile import load_module_file

RESOURCE: Resource = "scoped-vmem"
MIB = 1 << 20
HEADROOM = 0.10  # 10 % above the measured need: Mosaic's internal scratch moves with jax/libtpu versions


def headroom_limit(required: int, physical: int, headroom: float = HEADROOM) -> int:
    """`required` plus headroom, rounded up to a MiB, capped at physical VMEM."""
    want = -(-int(required * (1.0 + headroom)) // MIB) * MIB
    return min(max(want, required), physical) if physical else want


Built = tuple[Callable[..., Any], Sequence[Any]]
Build = Callable[..., Built]


@dataclasses.dataclass(frozen=True)
class PallasKernel:
    """A Pallas TPU kernel family: `build(config, **params) -> (fn, abstract args)` and its space."""

    build: Build
    space: Mapping[str, Sequence[int]] = dataclasses.field(default_factory=dict)
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    name: str = ""

    def configs(self) -> list[dict[str, int]]:
        """Every config of the space (cartesian product, in key order)."""
        keys = list(self.space)
        return [dict(zip(keys, vals, strict=True)) for vals in itertools.product(*(self.space[k] for k in keys))]

    def instantiate(self, config: Mapping[str, Any]) -> Built:
        """Call build for one config."""
        return self.build(dict(config), **dict(self.params))

    def with_spec(self, spec: Mapping[str, Any]) -> PallasKernel:
        """This kernel with a CLI spec's `space` and `params` laid over its own."""
        space = {str(k): [int(x) for x in _as_list(v)] for k, v in (spec.get("space") or {}).items()}
        params = {**self.params, **dict(spec.get("params") or {})}
        return dataclasses.replace(self, space={**self.space, **space}, params=params)


def _as_list(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str):
        return [v for v in value.split(",") if v.strip()]
    return [value]


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

    def __init__(self, kernel: PallasKernel, *, cache: bool = True, settings: Settings | None = None) -> None:
        self.kernel = kernel
        self._topologies = TopologyCache()
        s = settings or Settings.from_env()
        self._cache = store.Store(s.cache_dir / "pallas", store.USAGE) if cache and s.use_cache else None
        self._source = _kernel_source(kernel)

    def estimate(self, config: Mapping[str, Any], target: str | Target, mode: Mode = "exact") -> Usage:
        """One config on one target; a config that fails for a non-memory reason has `error` set."""
        tgt = tpu_target(target)
        start = time.perf_counter()
        _require_jax()
        try:
            fn, args = self.kernel.instantiate(config)
            layouts = trace_layouts(fn, args)
        except TilefitError:
            raise
        except Exception as exc:
            return _failed(tgt, config, mode, f"build/trace failed: {error_summary(exc)}", start)
        if mode == "analytic":
            problem = _tiling_problem(layouts)
            if problem:
                return _failed(tgt, config, mode, problem, start)
            return self._analytic(tgt, config, layouts, start)
        key = self._key(tgt, config, mode)
        cached = self._cache.get(key) if self._cache and key else None
        if cached is not None:
            return cached
        usage = self._exact(tgt, config, mode, fn, args, layouts, start)
        if self._cache and key and usage.error is None:
            self._cache.put(key, usage)
        return usage

    def _key(self, tgt: Target, config: Mapping[str, Any], mode: Mode) -> str | None:
        """Cache key of an exact result: kernel source, params, config, target limits and tool versions."""
        if self._source is None:
            return None
        return store.key({
            "backend": "pallas", "source": self._source, "params": dict(self.kernel.params),
            "config": dict(config), "target": tgt.name, "topology": tgt.topology,
            # only what an exact result depends on: the analytic model's shares in tpu.yaml do not count
            "limits": {k: tgt.limit(k) for k in ("vmem_scoped_default", "vmem_physical")},
            "mode": "exact", "tools": _tool_versions(),
        })

    def estimate_many(
        self, configs: Sequence[Mapping[str, Any]], targets: Sequence[str | Target], mode: Mode = "exact", *,
        workers: int | None = None, progress: bool | None = None,
    ) -> list[Usage]:
        """Every config on every target (target-major); failures are results, never an abort.

        Compiles run in this process (libtpu is not forked): `workers` and `progress` are accepted, unused.
        """
        return [self.estimate(c, t, mode) for t in targets for c in configs]

    def layouts(self, config: Mapping[str, Any]) -> list[CallLayout]:
        """The traced VMEM consumers of one config (no compile)."""
        fn, args = self.kernel.instantiate(config)
        return trace_layouts(fn, args)

    def _analytic(self, tgt: Target, config: Mapping[str, Any], layouts: list[CallLayout], start: float) -> Usage:
        call = max(layouts, key=lambda c: c.block_bytes)
        internal = internal_allowance(tgt, call)
        limit, physical = limits_of(tgt, call.vmem_limit_bytes)
        need = smallest_limit(tgt, call)  # what exact mode reports: the smallest limit that compiles
        at_limit = scoped_need(tgt, call, limit)  # what a compile at the limit in force needs
        extra = _extra(at_limit, limit, physical, call)
        if "vmem_limit_bytes" in extra:  # a higher limit leaves XLA less VMEM to prefetch inputs into
            extra["vmem_limit_bytes"] = _advice(tgt, call, extra["vmem_limit_bytes"], physical)
        extra["internal_allowance"] = internal
        full = call.block_bytes + internal
        if need < full:
            extra["prefetched_inputs"] = [b.name for b in in_place_inputs(tgt, call, need)]
            extra["bytes_without_prefetch"] = full
        if at_limit != need:  # fewer inputs prefetched at the limit in force than at the smallest limit
            extra["bytes_at_limit"] = at_limit
        return Usage(
            target=tgt.name, resource=RESOURCE, bytes=need, limit=limit, mode="analytic",
            config=dict(config), fits=at_limit <= limit, seconds=time.perf_counter() - start, extra=extra,
        )

    def _exact(
        self, tgt: Target, config: Mapping[str, Any], mode: Mode, fn: Callable[..., Any],
        args: Sequence[Any], layouts: list[CallLayout], start: float,
    ) -> Usage:
        call = max(layouts, key=lambda c: c.block_bytes)
        limit, physical = limits_of(tgt, call.vmem_limit_bytes)
        device = self._topologies.device(tgt.topology or "")
        m = measure(fn, args, device, in_force=limit, physical=physical, guess=call.block_bytes)
        if m.error is not None:
            return _failed(tgt, config, mode, m.error, start)
        extra = _extra(m.bytes or 0, limit, physical, call)
        if "vmem_limit_bytes" in extra:  # on tpu7x a higher limit leaves XLA less room to prefetch inputs
            extra["vmem_limit_bytes"] = _advice(tgt, call, extra["vmem_limit_bytes"], physical)
        extra.update(compiles=m.compiles, over_physical=m.over_physical)
        if m.over_physical:
            # libtpu stops at the first allocation past physical VMEM: its size is a lower bound
            extra["bytes_is_lower_bound"] = True
        if m.physical_reported is not None:
            extra["physical_reported"] = m.physical_reported
        return Usage(
            target=tgt.name, resource=RESOURCE, bytes=m.bytes, limit=limit, mode=mode,
            config=dict(config), fits=bool(m.fits_in_force), seconds=time.perf_counter() - start,
            extra=extra,
        )


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


def internal_allowance(target: Target, call: CallLayout) -> int:
    """Mosaic's internal scratch for a call: measured per-generation shares of its big values.

    `mosaic_internal_reduced_pct` of the largest value a reduction reads plus `mosaic_internal_value_pct`
    of the largest other value (tpu.yaml; fitted to libtpu compiles, see BENCHMARKS.md). A value of at most
    `mosaic_register_resident_kib` stays in vector registers and counts nothing: flash attention's
    (128,128) and (64,256) f32 scores and a 128^3 matmul's dot result (64 KiB, 16 vregs) cost 0 bytes on
    v5e, v5p, v6e and tpu7x; on v4 the (128,128) scores cost about 80 KiB (no entry there).
    """
    reduced_pct = target.limit("mosaic_internal_reduced_pct") or 0
    value_pct = target.limit("mosaic_internal_value_pct") or 0
    resident = (target.limit("mosaic_register_resident_kib") or 0) * 1024
    reduced = call.reduced_value if call.reduced_value > resident else 0
    other = call.largest_value if call.reduced_value == 0 and call.largest_value > resident else 0
    raw = (reduced_pct * reduced + value_pct * other) // 100
    return -(-raw // TILE_BYTES) * TILE_BYTES


def prefetched_inputs(target: Target, call: CallLayout, limit: int) -> tuple[Buffer, ...]:
    """The inputs whose whole array XLA copies into VMEM before the kernel, compiled at scoped `limit`.

    On tpu7x (libtpu 0.0.42.1) XLA's memory-space assignment prefetches kernel operands into the VMEM the
    scoped limit leaves (a copy-start to memory space S(1) in the compiled HLO), smallest array first
    (equal sizes in operand order), while they fit in physical VMEM - limit -
    `xla_operand_prefetch_reserve_kib` (10 MiB, measured to the 4 KiB: one 16 MiB f32 input is prefetched
    at a 38 MiB limit and not at 38 MiB + 4 KiB; a 50 MiB one at a 4 MiB limit, 51 MiB not; of 8, 16 and
    32 MiB inputs at a 10 MiB limit the 8 and 16 MiB ones). v5e and v6e never prefetch (no such entry).
    """
    reserve_kib = target.limit("xla_operand_prefetch_reserve_kib")
    physical = target.limit("vmem_physical") or 0
    if reserve_kib is None or not physical:
        return ()
    budget = physical - limit - reserve_kib * 1024
    chosen: list[Buffer] = []
    used = 0
    inputs = [b for b in call.buffers if b.kind == "input" and b.array_shape]
    for buf in sorted(inputs, key=lambda b: b.array_bytes):
        if used + buf.array_bytes > budget:
            break
        used += buf.array_bytes
        chosen.append(buf)
    return tuple(chosen)


def in_place_inputs(target: Target, call: CallLayout, limit: int) -> tuple[Buffer, ...]:
    """Prefetched inputs whose blocks the kernel reads in place: they take no pipeline buffers.

    Measured on tpu7x: flash attention's q, k and v (None, block, 128) blocks over (heads, seq, 128) cost
    nothing once prefetched (128x128 blocks: 256 KiB = output buffers + scratch; pl.Buffered(1) on q, k or
    v changes nothing, on the output it saves one buffer); a strided block of a prefetched array still
    takes its buffers (`contiguous_block` in pallas_layout.py).
    """
    return tuple(b for b in prefetched_inputs(target, call, limit) if b.contiguous)


def scoped_need(target: Target, call: CallLayout, limit: int) -> int:
    """Scoped VMEM the call needs when compiled with scoped limit `limit`."""
    skip = in_place_inputs(target, call, limit)
    return sum(b.bytes for b in call.buffers if b not in skip) + internal_allowance(target, call)


def smallest_limit(target: Target, call: CallLayout) -> int:
    """The smallest scoped limit L with scoped_need(L) <= L (what exact mode measures).

    A lower limit leaves XLA more VMEM to prefetch inputs into, so the need falls with the limit; the
    answer is one of the needs with the first k inputs (in prefetch order) read in place.
    """
    full = call.block_bytes + internal_allowance(target, call)
    if target.limit("xla_operand_prefetch_reserve_kib") is None:
        return full
    order = sorted((b for b in call.buffers if b.kind == "input" and b.array_shape), key=lambda b: b.array_bytes)
    candidates = {full}
    saved = 0
    for buf in order:
        saved += buf.bytes if buf.contiguous else 0
        candidates.add(full - saved)
    return min(c for c in candidates if scoped_need(target, call, c) <= c)


def _advice(target: Target, call: CallLayout, limit: int, physical: int) -> int:
    """A vmem_limit_bytes that leaves room for the call at that limit (headroom included)."""
    while limit < physical and scoped_need(target, call, limit) > limit:
        limit = max(limit + TILE_BYTES, headroom_limit(scoped_need(target, call, limit), physical))
    return limit


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


def _extra(need: int, limit: int, physical: int, call: CallLayout) -> dict[str, Any]:
    extra: dict[str, Any] = {
        "physical": physical,
        "margin": limit - need,
        "physical_margin": physical - need,
        "grid_steps": call.grid_steps,
        "block_bytes": call.block_bytes,
        "buffers": [b.describe() for b in call.buffers],
    }
    if need > limit and need <= physical:
        extra["vmem_limit_bytes"] = headroom_limit(need, physical)
    return extra


def _failed(tgt: Target, config: Mapping[str, Any], mode: Mode, message: str, start: float) -> Usage:
    limit = tgt.limit("vmem_scoped_default")
    return Usage(
        target=tgt.name, resource=RESOURCE, bytes=None, limit=limit, mode=mode, config=dict(config),
        fits=None, error=message, seconds=time.perf_counter() - start,
        extra={"physical": tgt.limit("vmem_physical")},
    )


def load_kernel(ref: str) -> PallasKernel:
    """Load 'path/to/file.py:name' (a PallasKernel or a build function); InputError when it cannot."""
    path_s, sep, name = ref.rpartition(":")
    if not sep or not path_s or not name:
        raise InputError(f"kernel reference {ref!r} must look like path/to/file.py:name")
    path = Path(path_s)
    if not path.is_file():
        raise InputError(f"kernel file {path} does not exist")
    module = load_module_file(path)
    obj = getattr(module, name, None)
    if obj is None:
        raise InputError(f"{path} defines no {name!r}")
    if isinstance(obj, PallasKernel):
        return obj
    if callable(obj):
        return PallasKernel(build=obj, name=name)
    raise InputError(f"{ref} is neither a PallasKernel nor a build function")


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
