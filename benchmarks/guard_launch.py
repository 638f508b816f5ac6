"""Per-launch cost of guard(): plain and guarded launches interleaved in one process, median of N each.

    python benchmarks/guard_launch.py --n 20000 --out guard_launch.json

Two JITFunctions of the same source (so each has its own Triton cache): one launched plain, one through
guard(). Each launch is timed on the host (perf_counter_ns around the launch call, no synchronisation:
the launch cost is the CPU's); a synchronize every 256 launches keeps the queue short. Kernels: a
4096-element vector add (4 arguments) and a matmul (12 arguments, positional and keyword).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import torch
import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from tilefit.guard import guard
from tilefit.settings import Settings


def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def pair(fn: Any, tmp: Path, **options: Any) -> tuple[Any, Any]:
    """(plain, guarded): two JITFunctions of one source."""
    return triton.jit(fn), guard(triton.jit(fn), settings=Settings(cache_dir=tmp), **options)


def first_launch(plain: Any, guarded: Any) -> dict[str, float]:
    """Seconds of the first launch (compile; for the guarded one the check too), Triton's disk cache off."""
    out = {}
    for name, launch in (("plain_s", plain), ("guarded_s", guarded)):
        t0 = time.perf_counter()
        launch()
        torch.cuda.synchronize()
        out[name] = round(time.perf_counter() - t0, 3)
    return out


def interleaved(plain: Any, guarded: Any, n: int) -> dict[str, float]:
    """Median host time of a launch, plain and guarded, alternating launch by launch."""
    for _ in range(200):
        plain()
        guarded()
    torch.cuda.synchronize()
    tp, tg = [], []
    clock = time.perf_counter_ns
    for i in range(n):
        t0 = clock()
        plain()
        t1 = clock()
        guarded()
        t2 = clock()
        tp.append(t1 - t0)
        tg.append(t2 - t1)
        if i % 256 == 255:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    p, g = statistics.median(tp) / 1000, statistics.median(tg) / 1000
    return {"plain_us": round(p, 3), "guarded_us": round(g, 3), "added_us": round(g - p, 3),
            "ratio": round(g / p, 3), "n": n}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--out", default="guard_launch.json")
    ns = ap.parse_args()
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"  # first launches compile for real (not from ~/.triton)
    tmp = Path(ns.out).resolve().parent / "guard-cache"
    rows: dict[str, Any] = {"device": torch.cuda.get_device_name(), "triton": triton.__version__,
                            "torch": torch.__version__}
    x = torch.randn(4096, device="cuda")
    y, out = torch.randn_like(x), torch.empty_like(x)
    p, g = pair(add, tmp)
    rows["vector_add_4096"] = interleaved(lambda: p[(4,)](x, y, out, 4096, BLOCK=1024),
                                          lambda: g[(4,)](x, y, out, 4096, BLOCK=1024), ns.n)
    rows["vector_add_4096_keywords"] = interleaved(
        lambda: p[(4,)](x_ptr=x, y_ptr=y, out_ptr=out, n=4096, BLOCK=1024),
        lambda: g[(4,)](x_ptr=x, y_ptr=y, out_ptr=out, n=4096, BLOCK=1024), ns.n)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "kernels"))
    import matmul

    mm = 256
    a = torch.randn(mm, mm, device="cuda", dtype=torch.float16)
    b, c = torch.randn_like(a), torch.empty_like(a)
    args = (a, b, c, mm, mm, mm, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    cfg = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8, "num_warps": 4, "num_stages": 3}
    p, g = pair(matmul.matmul_kernel.fn, tmp)
    rows["matmul_256_first_launch"] = first_launch(lambda: p[(16,)](*args, **cfg), lambda: g[(16,)](*args, **cfg))
    rows["matmul_256_12_args"] = interleaved(lambda: p[(16,)](*args, **cfg), lambda: g[(16,)](*args, **cfg), ns.n)
    p, g = pair(add, tmp, tunable=("BLOCK",))  # a guard that may change tiles launches through its relauncher
    rows["vector_add_4096_tunable"] = interleaved(lambda: p[(4,)](x, y, out, 4096, BLOCK=1024),
                                                  lambda: g[(4,)](x, y, out, 4096, BLOCK=1024), ns.n)
    Path(ns.out).write_text(json.dumps(rows, indent=1))
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
