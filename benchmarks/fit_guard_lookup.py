"""CPU cost of a guarded launch after the first one: the key and the dictionary lookup.

    .venv/bin/python benchmarks/fit_guard_lookup.py

The launch itself is replaced by a no-op (no GPU here), so what is timed is exactly what the guard adds;
benchmarks/fit_gpu_proof.py part (d) times real launches on a GPU, plain vs guarded.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "examples" / "kernels")]


class Tensorish:
    """What the key reads of a torch tensor: dtype and data_ptr()."""

    def __init__(self, dtype: str, ptr: int) -> None:
        self.dtype = dtype
        self._ptr = ptr

    def data_ptr(self) -> int:
        return self._ptr


def main() -> None:
    from matmul import matmul_kernel

    from tilefit.guard.fallback import DeviceInfo, GuardedKernel, arg_spec
    from tilefit.settings import Settings

    calls: list[int] = []

    def noop(grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
        calls.append(1)

    types = ["*fp16:16"] * 3 + ["i32:16"] * 4 + ["i32:1", "i32:16", "i32:1", "i32:16", "i32:1"]
    real = [Tensorish("fp16", 4096 * i) for i in range(1, 4)] + [4096, 4096, 4096, 4096, 1, 4096, 1, 4096, 1]
    cfg = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "num_warps": 8, "num_stages": 3}
    with tempfile.TemporaryDirectory() as tmp:
        dev = DeviceInfo(0, "sm_90", "H100 (described)", 232448)
        g = GuardedKernel(matmul_kernel, device=lambda: dev, launch=noop, settings=Settings(cache_dir=Path(tmp)))
        g[(1,)](*types, **cfg)  # first launch: decided with the declared types
        key = next(iter(g.decisions))
        g.decisions[(key[0], key[1], tuple(map(arg_spec, real)))] = g.decisions[key]  # same, real-arg key
        n = 200_000
        t = time.perf_counter()
        for _ in range(n):
            noop((1,), real, cfg)
        base = (time.perf_counter() - t) / n
        t = time.perf_counter()
        for _ in range(n):
            g[(1,)](*real, **cfg)
        guarded = (time.perf_counter() - t) / n
    print(f"no-op launch: {base * 1e6:.3f} us; guarded no-op launch: {guarded * 1e6:.3f} us; "
          f"guard adds {(guarded - base) * 1e6:.3f} us per launch (12 args, 6 config keys)")


if __name__ == "__main__":
    main()
