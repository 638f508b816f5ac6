"""Size a TTGIR module with the estimator's allocation pass, and the limits of the device it will run on.

The module Triton just produced is copied (printed and parsed back into its own context) and the copy gets
the head of `make_llir` up to the shared- and tensor-memory allocation (estimate/triton_compile.py), so the
module Triton goes on compiling, and with it the cache entry and the binary, is untouched.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import tempfile
from typing import Any

from tilefit.trace import Sized

# Triton's names in OutOfResources (CompiledKernel._init_handles): the order it checks them in.
SHARED, TMEM, THREADS = "shared memory", "tensor memory", "threads"


@dataclasses.dataclass(frozen=True)
class Verdict:
    """Sized usage against limits; `over` names what exceeds, in Triton's check order."""

    sized: Sized
    limits: Sized
    target: str
    over: tuple[str, ...]

    @property
    def fits(self) -> bool:
        """True when nothing is over its limit."""
        return not self.over

    def first(self) -> tuple[int, int, str]:
        """(required, limit, name) of the first resource over, as Triton's OutOfResources takes them."""
        name = self.over[0]
        if name == SHARED:
            return self.sized.shared, self.limits.shared, name
        if name == TMEM:
            return int(self.sized.tmem or 0), int(self.limits.tmem or 0), name
        return self.sized.threads, self.limits.threads, name


def copy_module(module: Any) -> Any:
    """A deep copy of an MLIR module in the same context (print, parse: the module API has no clone)."""
    from triton._C.libtriton import ir

    fd, path = tempfile.mkstemp(suffix=".ttgir", prefix="tilefit-")
    try:
        with os.fdopen(fd, "w") as fh:
            # Without debug locations the text is a third shorter and parses faster; allocation ignores them.
            fh.write(module.str_nodebug() if hasattr(module, "str_nodebug") else str(module))
        copy = ir.parse_mlir_module(path, module.context)
        copy.context = module.context
        return copy
    finally:
        os.unlink(path)


def size_module(module: Any, target: Any, options: Any) -> Sized:
    """Shared bytes, tensor-memory columns and threads of a TTGIR module, as make_llir would allocate them."""
    from triton._C.libtriton import ir

    from tilefit.estimate.triton_compile import family

    copy = copy_module(module)
    pm = ir.pass_manager(copy.context)
    family(target.backend).allocation(pm, target, options)
    pm.run(copy, "tilefit_allocate_shared_memory")
    warps = copy.get_int_attr("ttg.total-num-warps") or options.num_warps
    tmem = copy.get_int_attr("ttg.tensor_memory_size")
    return Sized(shared=int(copy.get_int_attr("ttg.shared") or 0), tmem=None if tmem is None else int(tmem),
                 threads=int(warps) * int(target.warp_size))


def target_name(target: Any) -> str:
    """tilefit's name of a GPUTarget: sm_90, gfx942."""
    return f"sm_{target.arch}" if target.backend == "cuda" else str(target.arch).split(":")[0]


def limits_for(target: Any) -> Sized:
    """The current device's limits when it is the compile target, else tilefit's table for the target."""
    live = _live_shared(target.backend, str(target.arch))
    table = _table_limits(target_name(target))
    shared = live if live is not None else table.shared
    # Triton checks tensor memory against 512 columns (576 on sm_107), independent of the device.
    tmem = (576 if target.arch == 107 else 512) if target.backend == "cuda" else None
    return Sized(shared=shared, tmem=tmem, threads=table.threads)


@functools.cache
def _table_limits(name: str) -> Sized:
    from tilefit.targets import load_targets

    t = load_targets().get(name)
    return Sized(shared=int(t.limit("shared_per_block_optin") or 0), tmem=None,
                 threads=int(t.limit("threads_per_block") or 1024))


@functools.cache
def _live_shared(backend: str, arch: str) -> int | None:
    """max_shared_mem of the current device (what Triton checks at load), when it is this target."""
    try:
        from triton.runtime.driver import driver

        current = driver.active.get_current_target()
        if current.backend != backend or str(current.arch) != arch:
            return None
        props = driver.active.utils.get_device_properties(driver.active.get_current_device())
        return int(props["max_shared_mem"])
    except Exception:  # no GPU, no driver: the table answers
        return None


def verdict(sized: Sized, limits: Sized, target: str) -> Verdict:
    """Compare in Triton's order: shared memory, tensor memory, threads."""
    over = []
    if sized.shared > limits.shared:
        over.append(SHARED)
    if sized.tmem is not None and limits.tmem is not None and sized.tmem > limits.tmem:
        over.append(TMEM)
    if sized.threads > limits.threads:
        over.append(THREADS)
    return Verdict(sized, limits, target, tuple(over))
