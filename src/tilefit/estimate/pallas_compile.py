"""Ahead-of-time compiles of Pallas TPU kernels with libtpu on a machine without a TPU.

`jax.experimental.topologies.get_topology_desc(topology_name="v5e:2x2", platform="tpu")` gives devices of
a real TPU generation; a jit traced with arguments sharded on one of them compiles with libtpu exactly as
on hardware, E1001 included.

The size: a compile that passes writes libtpu's VMEM report (pallas_report.py), whose scoped block for
the kernel is the smallest `vmem_limit_bytes` that compiles, to the byte (checked: that limit compiles,
4 KiB less raises E1001). `measure` compiles at the limit in force (which answers "fits") and reads the
size there, or, when that raises E1001, at physical VMEM; a second compile at the size confirms it. Two
compiles, always.

Without a report (libtpu started before tilefit asked for one) the size comes from E1001: a compile at a
limit a little below the need prints the size allocated when the limit broke ("Scoped allocation with
size 18.36M", 0.01 MiB precision), and a compile at that size rounded up confirms it. libtpu allocates on
a stack and stops at the allocation that crosses the limit, so a print at a limit far below the need is
partial (the 8192^3 matmul with 1024^3 blocks prints 4.00M at a 1 MiB limit, 16.00M at 8 MiB and its
whole 18.36M at 16 MiB) and costs further compiles; `measure(..., pin=True)` bisects to the 4 KiB tile.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tilefit.errors import InputError, MissingExtraError
from tilefit.estimate import pallas_report
from tilefit.estimate.pallas_layout import TILE_BYTES
from tilefit.estimate.pallas_report import ScopedReport

_ROUNDING = 5243  # half of 0.01 MiB, the precision of the sizes E1001 prints
_SCOPED_ENTRY = "tpu/scoped-vmem-e1001"
_PHYSICAL_ENTRY = "tpu/vmem-capacity"
MAX_COMPILES = 8  # a search that needs more gives the interval it reached


@dataclasses.dataclass(frozen=True)
class Attempt:
    """One compile at one scoped limit: ok, or the VMEM numbers its error gave."""

    limit: int
    ok: bool
    scoped_size: int | None = None
    physical_used: int | None = None
    physical_size: int | None = None
    error: str | None = None
    reported: int | None = None  # the scoped VMEM libtpu's VMEM report gives (a compile that passed)
    report: ScopedReport | None = None


@dataclasses.dataclass(frozen=True)
class Measured:
    """The scoped VMEM of a kernel for one topology: in (`low`, `bytes`], or why it is not known."""

    bytes: int | None
    over_physical: bool
    physical_reported: int | None
    compiles: int
    seconds: float
    fits_in_force: bool | None
    error: str | None = None
    low: int | None = None  # the size is above this (a failed compile or E1001's printed size less rounding)


def _prepare_env() -> None:
    # libtpu takes /tmp/libtpu_lockfile per process to guard a real TPU; an AOT compile touches no TPU,
    # and without this two tilefit processes (or pytest-xdist workers) would refuse each other.
    os.environ.setdefault("ALLOW_MULTIPLE_LIBTPU_LOAD", "1")
    os.environ.setdefault("GLOG_minloglevel", "2")
    os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")
    pallas_report.enable()  # read when libtpu starts: VMEM reports of every compile (pallas_report.py)


@contextlib.contextmanager
def quiet_libtpu(show: bool = False) -> Iterator[None]:
    """Silence what libtpu writes to file descriptor 2 while it starts (unless `show`).

    libtpu prints "Failed to find host bounds for accelerator type", "Logging before InitGoogle()" and
    an E0000 TPU_WORKER_HOSTNAMES line when it starts on a machine without a TPU: noise for a
    compile-only topology, which a user reads as an error. Python exceptions are raised, not printed,
    so nothing of tilefit's is lost.
    """
    if show:
        yield
        return
    sys.stderr.flush()
    try:
        saved = os.dup(2)
        sink = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # no fd 2 (a closed stderr): nothing to silence
        yield
        return
    try:
        os.dup2(sink, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(sink)


class TopologyCache:
    """Device handles of compile-only TPU topologies, made once per name."""

    def __init__(self, *, show_libtpu: bool = False) -> None:
        self._devices: dict[str, Any] = {}
        self.show_libtpu = show_libtpu

    def device(self, topology: str) -> Any:
        """The first device of `topology` ('v5e:2x2'); InputError when libtpu does not know it."""
        if topology not in self._devices:
            with quiet_libtpu(self.show_libtpu):
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


@contextlib.contextmanager
def on_device(device: Any) -> Iterator[None]:
    """Trace with `device` as JAX's default device, so kernels that ask for the TPU kind at trace time work.

    tokamax's kernels (and any that call `pltpu.get_tpu_info()` while tracing) read the default device's
    kind; on a CPU machine that is "cpu" and they raise "Unsupported TPU device kind".
    """
    if device is None:
        yield
        return
    import jax

    with jax.default_device(device):
        yield


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


def compile_once(
    fn: Callable[..., Any], args: Sequence[Any], device: Any, limit: int | None, *, trace_on_device: bool = True,
) -> Attempt:
    """Compile for `device` (limit None: the kernel's own); the VMEM numbers of a failure are data.

    `trace_on_device=False` traces with the host as JAX's default device (kernels whose build runs
    JAX ops eagerly, like splash attention's mask preprocessing, cannot run on a compile-only device).
    """
    import jax
    from jax.sharding import SingleDeviceSharding

    sharding = SingleDeviceSharding(device)
    placed = [_place(a, sharding) for a in args]
    try:
        with on_device(device if trace_on_device else None):
            target = fn if limit is None else with_vmem_limit(fn, placed, limit)
            lowered = jax.jit(target).trace(*placed).lower()
            pallas_report.clear()
            lowered.compile()
    except Exception as exc:
        pallas_report.clear()
        return attempt_from_error(limit or 0, exc)
    report = pallas_report.take()
    return Attempt(limit=limit or 0, ok=True, reported=report.bytes if report else None, report=report)


def _place(arg: Any, sharding: Any) -> Any:
    import jax

    if not hasattr(arg, "shape") or not hasattr(arg, "dtype"):
        raise InputError(f"kernel arguments must be arrays or jax.ShapeDtypeStruct, got {type(arg).__name__}")
    return jax.ShapeDtypeStruct(arg.shape, arg.dtype, sharding=sharding)  # type: ignore[no-untyped-call]


@functools.lru_cache(maxsize=1)
def _vmem_kb() -> Any:
    """The knowledge base's two VMEM entries: their patterns are the one place libtpu's wording lives."""
    from tilefit.kb.repository import KnowledgeBase, load_kb

    kb = load_kb()
    return KnowledgeBase(entries=(kb.get(_SCOPED_ENTRY), kb.get(_PHYSICAL_ENTRY)))


def attempt_from_error(limit: int, exc: BaseException) -> Attempt:
    """The VMEM numbers of a failed compile, read by the knowledge base's matcher; else its message."""
    from tilefit.match.matcher import match

    found = {m.entry.id: m for m in match(str(exc), _vmem_kb()) if m.required is not None}
    if _SCOPED_ENTRY in found:
        return Attempt(limit, False, scoped_size=found[_SCOPED_ENTRY].required)
    if _PHYSICAL_ENTRY in found:
        m = found[_PHYSICAL_ENTRY]
        return Attempt(limit, False, physical_used=m.required, physical_size=m.limit)
    return Attempt(limit, False, error=error_summary(exc))


def error_summary(exc: BaseException) -> str:
    """A one-paragraph message for a compile that failed for a non-memory reason."""
    lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
    body = " ".join(lines[:3])[:600] if lines else "(no message)"
    return f"{type(exc).__name__}: {body}"


def measure(
    fn: Callable[..., Any], args: Sequence[Any], device: Any, *, in_force: int, physical: int,
    guess: int | None = None, limit_dependent: bool = False, pin: bool = False, trace_on_device: bool = True,
    first: int | None = None, roomy: int | None = None,
) -> Measured:
    """The scoped VMEM of `fn` (the smallest limit that compiles) and whether the limit in force holds it.

    Usually two compiles: one at `first` (default: `guess`, the analytic estimate, less 3 %) whose E1001
    prints the size, one at that size rounded up that confirms it. `limit_dependent` (tpu7x: XLA prefetches inputs into
    the VMEM a lower limit leaves, so a lower limit can compile where a higher one fails) adds a compile
    at the limit in force when the size found is below it. `pin` bisects to the single 4 KiB tile.
    """
    start = time.perf_counter()
    search = _Search(fn, args, device, physical, tolerance=TILE_BYTES if pin else 2 * _ROUNDING + TILE_BYTES)
    search.trace_on_device = trace_on_device
    lower = _tiles(guess) if limit_dependent and guess else None
    reported = _from_reports(search, in_force, roomy or physical, lower)
    if reported is not None:
        return dataclasses.replace(reported, seconds=time.perf_counter() - start)
    if search.over or search.last_error is not None:
        size = search.run()
        return Measured(size, search.over, search.reported, search.compiles, time.perf_counter() - start, None,
                        search.last_error, search.lo if size is not None else None)
    start_at = _tiles(first) if first else _tiles(guess * 0.97) if guess else in_force
    search.probe(min(max(start_at, TILE_BYTES), physical or start_at))
    size = search.run()
    fits: bool | None = None
    if size is not None and not search.over:
        fits = _fits(search, size, in_force, limit_dependent)
    low = search.lo if size is not None else None
    return Measured(
        size, search.over, search.reported, search.compiles, time.perf_counter() - start, fits,
        search.last_error, low,
    )


def _from_reports(search: _Search, in_force: int, top: int, lower: int | None = None) -> Measured | None:
    """At most two compiles with libtpu's VMEM report (pallas_report.py): None when it is not written.

    First at the limit in force, which answers "fits" directly: a compile that passes reports its size
    and a second compile at that size confirms it (where a lower limit lets XLA place more inputs in
    VMEM, the second report can be smaller and is the answer). A compile that fails (E1001) writes no
    report, so the second compile is at `top`: physical VMEM, or below it where XLA needs room to place
    the inputs the model reads in place (`roomy_limit`); the kernel fits there unless it cannot fit.
    `lower` (tpu7x, where the model expects XLA to keep more inputs in VMEM at a lower limit): the
    confirming compile goes there when it is below the size found, since the smallest limit that compiles
    can be far below it (two 16 MiB inputs, 8 MiB blocks: 32 MiB at a 32 MiB limit, 16 MiB at 16-22 MiB).
    """
    physical = search.physical
    if not pallas_report.active():
        return None
    first = search.probe(in_force)
    if first.error is not None or first.physical_used is not None:
        return None  # the search reports the error or the physical overrun
    if first.ok:
        if first.reported is None:
            return None
        at = _tiles(first.reported)
        going_lower = lower is not None and lower < at
        second = search.probe(lower if going_lower and lower else at)
        if second.ok:
            return _exactly(search, second.reported or second.limit, fits=True)
        if going_lower and second.error is None and second.physical_used is None:
            # the need never grows as the limit falls (more room for XLA's inputs), so the size found at the
            # limit in force compiles at that size: the smallest limit is in (the failed limit, that size]
            low = max(second.limit, (second.scoped_size or 0) - _ROUNDING - 1)
            return Measured(at, False, None, search.compiles, 0.0, True, None, min(low, at - TILE_BYTES))
        return None  # the report was not the need there: search on from what is known
    if top <= in_force:
        return None
    second = search.probe(top)
    if second.ok and second.reported is not None:
        return _exactly(search, second.reported, fits=False)
    if second.scoped_size is not None and top >= physical:  # E1001 at physical VMEM: no limit fits it
        search.over, search.reported = True, physical
    return None


def _exactly(search: _Search, size: int, *, fits: bool) -> Measured:
    """The size libtpu reported (a compile at it passed; VMEM is allocated in 4 KiB tiles)."""
    return Measured(size, False, None, search.compiles, 0.0, fits, None, size - TILE_BYTES)


def _fits(search: _Search, size: int, in_force: int, limit_dependent: bool) -> bool | None:
    """Whether a compile at the limit in force succeeds; compiled only when the interval cannot say."""
    known = search.results.get(in_force)
    if known is not None:
        return known
    if search.lo >= in_force:
        return False
    if size <= in_force and not limit_dependent:
        return True
    att = search.probe(in_force)
    return att.ok if att.error is None else None


class _Search:
    """State of the limit search: T (the scoped size) is in (lo, hi]; hi is None until a compile passes."""

    def __init__(
        self, fn: Callable[..., Any], args: Sequence[Any], device: Any, physical: int, tolerance: int
    ) -> None:
        self.fn, self.args, self.device, self.physical = fn, args, device, physical
        self.tolerance = tolerance
        self.lo, self.hi = 0, None  # type: int, int | None
        self.hint: int | None = None
        self.compiles = 0
        self.over = False
        self.reported: int | None = None
        self.last_error: str | None = None
        self.results: dict[int, bool] = {}
        self.trace_on_device = True
        self.printed = False  # whether an E1001 size has been read

    def probe(self, limit: int) -> Attempt:
        self.compiles += 1
        att = compile_once(self.fn, self.args, self.device, limit, trace_on_device=self.trace_on_device)
        if att.error is None and att.physical_used is None:
            self.results[limit] = att.ok
        if att.ok:
            self.hi = limit if self.hi is None else min(self.hi, limit)
        elif att.error is not None:
            self.last_error = att.error
        elif att.physical_used is not None:
            self.over, self.reported = True, att.physical_size
            self.lo = max(self.lo, att.physical_used - 1)
        else:
            # the size E1001 prints (rounded to 0.01 MiB) was allocated when the limit broke, so T is at
            # least that much less the rounding; the print is the whole need when the limit was close
            printed = att.scoped_size or 0
            self.lo = max(self.lo, limit, printed - _ROUNDING - 1)
            self.hint = att.scoped_size
            self.printed = True
        return att

    def run(self) -> int | None:
        """Probe until T is pinned to the tolerance; None after a non-memory error."""
        while self.last_error is None and not self.over and self.compiles < MAX_COMPILES:
            limit = self._next()
            if limit is None:
                return self.hi
            self.probe(limit)
        if self.over:
            return self.lo + 1
        if self.hi is None and self.last_error is None:
            self.last_error = f"no scoped limit up to {self.physical} B compiles after {self.compiles} compiles"
        return self.hi if self.last_error is None else None

    def _next(self) -> int | None:
        hint, self.hint = self.hint, None
        if self.hi is not None and self.hi - self.lo <= self.tolerance:
            return None
        if hint is not None:
            # the printed size has two decimals of MiB: just above it is the likely answer
            want = _tiles(hint + _ROUNDING)
            if want > self.lo and (self.hi is None or want < self.hi):
                return min(want, self.physical) if self.physical else want
        if self.hi is None:
            top = self.physical or 2 * max(self.lo, TILE_BYTES)
            return top if top > self.lo else None
        lo_t, hi_t = self.lo // TILE_BYTES, self.hi // TILE_BYTES
        if hi_t - lo_t <= 1:
            return None
        if not self.printed:  # no E1001 yet: step down a little, so that its print is the whole need
            step = _tiles(self.hi * 0.85) // TILE_BYTES
            if lo_t < step < hi_t:
                return step * TILE_BYTES
        return ((lo_t + hi_t) // 2) * TILE_BYTES


def _tiles(n: float) -> int:
    return math.ceil(n / TILE_BYTES) * TILE_BYTES
