"""A stand-in Triton driver: the real JIT path (binder, specialisation, compile, load check) on a CPU.

`driver.set_active(StandInDriver(...))` is Triton's own way to swap drivers. Launches compile for the chosen
GPUTarget with the real compiler (ptxas included); loading checks shared memory against the device limit as
CompiledKernel._init_handles does on a GPU (OutOfResources); the launch itself records what would run.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from typing import Any

from triton.backends.compiler import GPUTarget
from triton.backends.driver import DriverBase


@dataclasses.dataclass(frozen=True)
class Launch:
    """One kernel launch as the GPU would have received it."""

    name: str
    shared: int
    num_warps: int
    num_stages: int
    constants: dict[str, Any]
    grid: tuple[int, int, int]


class _Utils:
    def __init__(self, max_shared: int) -> None:
        self.max_shared = max_shared

    def get_device_properties(self, device: int) -> dict[str, int]:
        return {"max_shared_mem": self.max_shared, "multiprocessor_count": 132, "max_num_regs": 65536,
                "warpSize": 32, "sm_clock_rate": 1, "mem_clock_rate": 1, "mem_bus_width": 1}

    def load_binary(self, name: str, kernel: Any, shared: int, device: int) -> tuple[int, int, int, int, int]:
        return 1, 1, 32, 0, 1024  # module, function, registers, spills, max threads per block

    def unload_module(self, module: Any) -> None:
        pass


class StandInDriver(DriverBase):
    """A driver for `target` whose device has `max_shared` bytes of shared memory per block."""

    def __init__(self, target: GPUTarget, max_shared: int) -> None:
        self.target = target
        self.utils = _Utils(max_shared)
        self.launches: list[Launch] = []
        record = self.launches.append

        class Launcher:
            def __init__(self, src: Any, metadata: Any) -> None:
                fn = getattr(src, "fn", None)
                names = getattr(fn, "arg_names", [])
                consts = getattr(src, "constants", {})
                self.base = dict(name=getattr(metadata, "name", ""), shared=int(metadata.shared),
                                 num_warps=int(metadata.num_warps), num_stages=int(metadata.num_stages),
                                 constants={names[k[0]]: v for k, v in consts.items() if len(k) == 1})

            def __call__(self, gx: int, gy: int, gz: int, *args: Any) -> None:
                record(Launch(**self.base, grid=(gx, gy, gz)))

        self.launcher_cls = Launcher

    @classmethod
    def is_active(cls) -> bool:
        return False

    def map_python_to_cpp_type(self, ty: str) -> str:
        return ty

    def get_current_target(self) -> GPUTarget:
        return self.target

    def get_current_device(self) -> int:
        return 0

    def set_current_device(self, device: int) -> None:
        pass

    def get_current_stream(self, device: int | None = None) -> int:
        return 0

    def get_active_torch_device(self) -> Any:
        import torch

        return torch.device("cpu")

    def get_device_interface(self) -> Any:
        import torch

        return torch.cpu

    def get_benchmarker(self) -> Any:
        def bench(fn: Any, *, quantiles: Any = None, **kwargs: Any) -> Any:
            fn()
            return [1.0] * len(quantiles) if quantiles else 1.0

        return bench


@contextlib.contextmanager
def stand_in(arch: int | str, max_shared: int, *kernels: Any, backend: str = "cuda",
             warp_size: int = 32) -> Iterator[StandInDriver]:
    """Make a StandInDriver the active one; `kernels` (JITFunctions) forget binders made for another driver."""
    from triton.compiler import compiler
    from triton.runtime.driver import driver

    drv = StandInDriver(GPUTarget(backend, arch, warp_size), max_shared)
    saved = driver._active
    driver.set_active(drv)
    compiler.max_shared_mem.cache_clear()  # lru-cached per device index
    for k in kernels:
        k.device_caches.clear()
    try:
        yield drv
    finally:
        for k in kernels:  # compiled kernels unload through the active driver when collected: this one
            k.device_caches.clear()
        driver._active = saved
        compiler.max_shared_mem.cache_clear()
