"""Ahead-of-time compiles of Pallas TPU kernels with libtpu on a machine without a TPU.

`jax.experimental.topologies.get_topology_desc(topology_name="v5e:2x2", platform="tpu")` gives devices of
a real TPU generation; a jit traced with arguments sharded on one of them compiles with libtpu exactly as
on hardware, E1001 included. libtpu reports no scoped-VMEM size for a kernel that compiles
(`memory_analysis()` and the dumped buffer assignment show none), so the exact size is the smallest
`vmem_limit_bytes` that compiles: a search in 4 KiB steps (every VMEM allocation is whole (8,128) x
32-bit tiles), steered by the sizes that E1001 prints.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from tilefit.errors import InputError, MissingExtraError
from tilefit.estimate.pallas_layout import TILE_BYTES
from tilefit.units import parse_size

# E1001: "Scoped allocation with size 18.36M and limit 16.00M exceeded scoped vmem limit by 2.36M."
_SCOPED = re.compile(r"Scoped allocation with size (\S+) and limit (\S+) exceeded")
# Past physical VMEM, two forms (libtpu 0.0.42.1):
# "Allocation (size=134221824) would exceed memory (size=134217728) :: ... space=vmem"
# "Ran out of memory in memory space vmem. Used 140.00M of 128.00M vmem"
_PHYSICAL = re.compile(r"Allocation \(size=(\d+)\) would exceed memory \(size=(\d+)\)[^\n]*space=vmem")
_USED = re.compile(r"memory space vmem\. Used (\S+) of (\S+) vmem")
_ROUNDING = 5243  # half of 0.01 MiB, the precision of the sizes E1001 prints
_ECODE = re.compile(r"\b(E\d{4}): ?(\w+)")


@dataclasses.dataclass(frozen=True)
class Attempt:
    """One compile at one scoped limit: ok, or the VMEM numbers its error gave."""

    limit: int
    ok: bool
    scoped_size: int | None = None
    physical_used: int | None = None
    physical_size: int | None = None
    error: str | None = None


@dataclasses.dataclass(frozen=True)
class Measured:
    """The exact scoped VMEM of a kernel for one topology (or why it is not known)."""

    bytes: int | None
    over_physical: bool
    physical_reported: int | None
    compiles: int
    seconds: float
    fits_in_force: bool | None
    error: str | None = None


def _prepare_env() -> None:
    # libtpu takes /tmp/libtpu_lockfile per process to guard a real TPU; an AOT compile touches no TPU,
    # and without this two tilefit processes (or pytest-xdist workers) would refuse each other.
    os.environ.setdefault("ALLOW_MULTIPLE_LIBTPU_LOAD", "1")
    os.environ.setdefault("GLOG_minloglevel", "2")
    os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")


class TopologyCache:
    """Device handles of compile-only TPU topologies, made once per name."""

    def __init__(self) -> None:
        self._devices: dict[str, Any] = {}

    def device(self, topology: str) -> Any:
        """The first device of `topology` ('v5e:2x2'); InputError when libtpu does not know it."""
        if topology not in self._devices:
            self._devices[topology] = _make_device(topology)
        return self._devices[topology]


def _make_device(topology: str) -> Any:
    _prepare_env()
    try:
        from jax.experimental import topologies
    except ImportError as exc:
        raise MissingExtraError("jax", "tpu") from exc
    try:
        topo = topologies.get_topology_desc(topology_name=topology, platform="tpu")
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(
            f"libtpu cannot compile for topology {topology!r} ({first}); known to work: "
            "v4:2x2x1, v5e:2x2, v5p:2x2x1, v6e:2x2, tpu7x:2x2x1 (needs pip install 'jax[tpu]')"
        ) from exc
    return topo.devices[0]


def with_vmem_limit(fn: Callable[..., Any], args: Sequence[Any], limit: int) -> Callable[..., Any]:
    """`fn` with every pallas_call's `vmem_limit_bytes` replaced by `limit` (a jaxpr rewrite)."""
    import jax
    from jax.extend import core as jex_core

    closed = jax.jit(fn).trace(*args).jaxpr
    run: Callable[..., Any] = jex_core.jaxpr_as_fun(closed.replace(jaxpr=_rewrite(closed.jaxpr, limit)))
    return run


def _rewrite(jaxpr: Any, limit: int) -> Any:
    eqns = []
    for eqn in jaxpr.eqns:
        params = dict(eqn.params)
        if eqn.primitive.name == "pallas_call":
            params["compiler_params"] = _with_limit(params.get("compiler_params"), limit)
        else:
            params = {k: _rewrite_param(v, limit) for k, v in params.items()}
        eqns.append(eqn.replace(params=params))
    return jaxpr.replace(eqns=eqns)


def _rewrite_param(value: Any, limit: int) -> Any:
    inner = getattr(value, "jaxpr", None)
    if inner is not None and hasattr(inner, "eqns") and hasattr(value, "replace"):
        return value.replace(jaxpr=_rewrite(inner, limit))
    if hasattr(value, "eqns") and hasattr(value, "replace"):
        return _rewrite(value, limit)
    return value


def _with_limit(params: Any, limit: int) -> Any:
    from jax.experimental.pallas import tpu as pltpu

    if params is None:
        return pltpu.CompilerParams(vmem_limit_bytes=limit)
    if isinstance(params, dict):
        key = "mosaic_tpu" if "mosaic_tpu" in params else "mosaic"
        return {**params, key: _with_limit(params.get(key), limit)}
    return dataclasses.replace(params, vmem_limit_bytes=limit)


def compile_once(fn: Callable[..., Any], args: Sequence[Any], device: Any, limit: int | None) -> Attempt:
    """Compile for `device` (limit None: the kernel's own); the VMEM numbers of a failure are data."""
    import jax
    from jax.sharding import SingleDeviceSharding

    sharding = SingleDeviceSharding(device)
    placed = [_place(a, sharding) for a in args]
    target = fn if limit is None else with_vmem_limit(fn, args, limit)
    try:
        jax.jit(target).trace(*placed).lower().compile()
    except Exception as exc:
        return _attempt_from_error(limit or 0, exc)
    return Attempt(limit=limit or 0, ok=True)


def _place(arg: Any, sharding: Any) -> Any:
    import jax

    if not hasattr(arg, "shape") or not hasattr(arg, "dtype"):
        raise InputError(f"kernel arguments must be arrays or jax.ShapeDtypeStruct, got {type(arg).__name__}")
    return jax.ShapeDtypeStruct(arg.shape, arg.dtype, sharding=sharding)  # type: ignore[no-untyped-call]


def _attempt_from_error(limit: int, exc: Exception) -> Attempt:
    text = str(exc)
    m = _SCOPED.search(text)
    if m:
        size = parse_size(m.group(1))
        return Attempt(limit, False, scoped_size=size[0] if size else None)
    m = _PHYSICAL.search(text)
    if m:
        return Attempt(limit, False, physical_used=int(m.group(1)), physical_size=int(m.group(2)))
    m = _USED.search(text)
    if m:
        used, cap = parse_size(m.group(1)), parse_size(m.group(2))
        return Attempt(limit, False, physical_used=used[0] if used else None,
                       physical_size=cap[0] if cap else None)
    return Attempt(limit, False, error=error_summary(exc))


def error_summary(exc: BaseException) -> str:
    """A one-paragraph message for a compile that failed for a non-memory reason."""
    text = str(exc).strip()
    code = _ECODE.search(text)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    body = " ".join(lines[:3])[:600] if lines else type(exc).__name__
    prefix = f"{code.group(1)} {code.group(2)}: " if code and code.group(1) not in body[:8] else ""
    return f"{type(exc).__name__}: {prefix}{body}"


def measure(
    fn: Callable[..., Any], args: Sequence[Any], device: Any, *, in_force: int, physical: int,
    guess: int | None = None,
) -> Measured:
    """The smallest scoped limit that compiles, found by compiles at chosen limits."""
    start = time.perf_counter()
    search = _Search(fn, args, device, physical)
    first = search.probe(in_force)
    if first.error is None and first.ok and guess and guess < in_force:
        search.probe(_tiles(guess * 0.95))  # its E1001 size usually lands next to the answer
    size = search.run()
    # the compile at the limit in force is the truth for "fits": on tpu7x a lower limit can compile while
    # a higher one fails (XLA prefetches inputs into the VMEM a lower limit leaves, see pallas.py)
    fits = None if size is None or search.over else (first.ok if first.error is None else size <= in_force)
    return Measured(
        size, search.over, search.reported, search.compiles, time.perf_counter() - start, fits,
        search.last_error,
    )


class _Search:
    """State of the limit search: T (the scoped size) is in (lo, hi]; hi is None until a compile passes."""

    def __init__(self, fn: Callable[..., Any], args: Sequence[Any], device: Any, physical: int) -> None:
        self.fn, self.args, self.device, self.physical = fn, args, device, physical
        self.lo, self.hi = 0, None  # type: int, int | None
        self.hint: int | None = None
        self.compiles = 0
        self.over = False
        self.reported: int | None = None
        self.last_error: str | None = None

    def probe(self, limit: int) -> Attempt:
        self.compiles += 1
        att = compile_once(self.fn, self.args, self.device, limit)
        if att.ok:
            self.hi = limit if self.hi is None else min(self.hi, limit)
        elif att.error is not None:
            self.last_error = att.error
        elif att.physical_used is not None:
            self.over, self.reported = True, att.physical_size
            self.lo = max(self.lo, att.physical_used - 1)
        else:
            # the size E1001 prints (rounded to 0.01 MiB) is what was allocated when the limit broke,
            # so T is at least that much less the rounding
            printed = att.scoped_size or 0
            self.lo = max(self.lo, limit, printed - _ROUNDING - 1)
            self.hint = att.scoped_size
        return att

    def run(self) -> int | None:
        """Probe until T is pinned to one tile; None after a non-memory error."""
        while self.last_error is None and not self.over:
            limit = self._next()
            if limit is None:
                return self.hi
            self.probe(limit)
        return self.lo + 1 if self.over else None

    def _next(self) -> int | None:
        lo_t = self.lo // TILE_BYTES  # T is a whole number of tiles in (lo_t, hi_t]
        hint_t = None
        if self.hint is not None:
            # the printed size has two decimals of MiB (or one of KiB): try just above it
            hint_t, self.hint = _tiles(self.hint + _ROUNDING) // TILE_BYTES, None
        if self.hi is None:
            top = self.physical // TILE_BYTES
            return (min(hint_t, top) if hint_t and hint_t > lo_t else top) * TILE_BYTES
        hi_t = self.hi // TILE_BYTES
        if hi_t - lo_t <= 1:
            self.hi = hi_t * TILE_BYTES
            return None
        if hint_t is not None and lo_t < hint_t < hi_t:
            return hint_t * TILE_BYTES
        return ((lo_t + hi_t) // 2) * TILE_BYTES


def _tiles(n: float) -> int:
    return math.ceil(n / TILE_BYTES) * TILE_BYTES
