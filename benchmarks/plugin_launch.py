"""Launch overhead of a tiny Triton kernel, stock vs the plug-in installed, in one process (alternating).

    python benchmarks/plugin_launch.py

Triton 3.9 calls add_stages_inspection_hook() on every launch to extend the in-memory key (3.6 does not);
this measures what that costs. Prints one JSON line: median microseconds per launch, each way.
"""

from __future__ import annotations

import json
import statistics
import time

import torch
import triton
import triton.language as tl

import tilefit


@triton.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


def per_launch(x: torch.Tensor, reps: int = 2000) -> float:
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(reps):
        add_one[(1,)](x, x.numel(), BLOCK=128)
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / reps * 1e6


def main() -> None:
    x = torch.zeros(128, device="cuda")
    per_launch(x, 50)
    stock, plugged = [], []
    for _ in range(7):
        stock.append(per_launch(x))
        tilefit.install()
        per_launch(x, 50)
        plugged.append(per_launch(x))
        tilefit.uninstall()
    row = {"stock_us": round(statistics.median(stock), 2), "plugin_us": round(statistics.median(plugged), 2),
           "triton": triton.__version__}
    print("RESULT " + json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
