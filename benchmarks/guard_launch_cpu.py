"""Per-launch cost of guard() on a CPU: Triton's whole host path of a launch, with a stand-in driver.

    .venv/bin/python benchmarks/guard_launch_cpu.py --n 20000

The stand-in driver (tests/compile/standin.py) compiles for sm_90 with the real compiler and records
launches instead of running them, so a launch here is Triton's binder, cache lookup and launcher call:
what the guard could add to. Plain and guarded launches alternate, median of --n each (as
benchmarks/guard_launch.py does on a GPU).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "examples" / "kernels"), str(ROOT / "tests" / "compile")]

import torch  # noqa: E402
import triton  # noqa: E402

from tilefit.guard import guard  # noqa: E402
from tilefit.settings import Settings  # noqa: E402


def interleaved(plain: Any, guarded: Any, n: int) -> dict[str, float]:
    for _ in range(200):
        plain()
        guarded()
    tp, tg = [], []
    clock = time.perf_counter_ns
    for _ in range(n):
        t0 = clock()
        plain()
        t1 = clock()
        guarded()
        t2 = clock()
        tp.append(t1 - t0)
        tg.append(t2 - t1)
    p, g = statistics.median(tp) / 1000, statistics.median(tg) / 1000
    return {"plain_us": round(p, 3), "guarded_us": round(g, 3), "added_us": round(g - p, 3),
            "ratio": round(g / p, 3), "n": n}


def main() -> None:
    from matmul import matmul_kernel
    from standin import stand_in

    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20000)
    n = ap.parse_args().n
    plain, other, third = (triton.jit(matmul_kernel.fn) for _ in range(3))
    a = torch.empty(256, 256, dtype=torch.float16)
    args = (a, a, a, 256, 256, 256, 256, 1, 256, 1, 256, 1)
    cfg = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8, "num_warps": 4, "num_stages": 3}
    with tempfile.TemporaryDirectory() as tmp, stand_in(90, 232448, plain, other, third):
        g = guard(other, settings=Settings(cache_dir=Path(tmp)))
        t = guard(third, settings=Settings(cache_dir=Path(tmp)), tunable=("BLOCK_K",))
        rows = {"triton": triton.__version__,
                "matmul_12_args": interleaved(lambda: plain[(16,)](*args, **cfg), lambda: g[(16,)](*args, **cfg), n),
                "matmul_12_args_tunable": interleaved(lambda: plain[(16,)](*args, **cfg),
                                                      lambda: t[(16,)](*args, **cfg), n)}
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
