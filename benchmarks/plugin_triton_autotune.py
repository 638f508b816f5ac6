"""triton.autotune over a matmul space where some configs cannot fit sm_90's 232448 B of shared memory.

    python benchmarks/plugin_triton_autotune.py full       # stock: every oversized config is compiled fully
    tilefit run -- python benchmarks/plugin_triton_autotune.py full
    python benchmarks/plugin_triton_autotune.py fitting    # stock, oversized configs removed by hand

Kernel: examples/kernels/matmul.py (Triton tutorial 03), fp16 4096^3. Prints one JSON line: wall seconds of
the first (autotuning) call, the winner, the output's checksum, and the compile instrument's summary.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "kernels"))
import plugin_spy  # noqa: E402

import torch  # noqa: E402
import triton  # noqa: E402

import matmul as mm  # noqa: E402

# (BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps); fp16 sm_90 shared = stages x (BM*BK + BK*BN) x 2
SPACE = [
    (128, 128, 64, 3, 4), (128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4),
    (64, 128, 64, 4, 4), (128, 64, 64, 4, 4), (256, 256, 64, 3, 8),  # these fit (<= 196608 B)
    (256, 256, 64, 4, 8), (256, 256, 64, 5, 8), (256, 256, 128, 3, 8), (256, 128, 128, 4, 8),
    (128, 256, 128, 4, 8),  # these cannot: 262144 .. 393216 B
]


def shared(c: tuple[int, int, int, int, int]) -> int:
    bm, bn, bk, s, _ = c
    return s * (bm * bk + bk * bn) * 2


def main() -> None:
    which = sys.argv[1]
    space = [c for c in SPACE if which == "full" or shared(c) <= 232448]
    configs = [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8}, num_stages=s,
                             num_warps=w) for bm, bn, bk, s, w in space]
    kernel = triton.autotune(configs=configs, key=["M", "N", "K"])(mm.matmul_kernel)
    n = 4096
    g = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(n, n, device="cuda", dtype=torch.float16, generator=g)
    b = torch.randn(n, n, device="cuda", dtype=torch.float16, generator=g)
    c = torch.empty(n, n, device="cuda", dtype=torch.float16)

    def grid(meta: dict[str, int]) -> tuple[int]:
        return (triton.cdiv(n, meta["BLOCK_M"]) * triton.cdiv(n, meta["BLOCK_N"]),)

    start = time.perf_counter()
    kernel[grid](a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    ref = (a.float() @ b.float())
    row = {"space": which, "configs": len(configs), "seconds": round(seconds, 2), "winner": str(kernel.best_config),
           "max_abs_err": float((c.float() - ref).abs().max()), "checksum": float(c.float().sum()),
           "plugin": os.environ.get("TILEFIT_PLUGIN", ""), "spy": plugin_spy.summarise(plugin_spy_records)}
    print("RESULT " + json.dumps(row), flush=True)


plugin_spy_records = plugin_spy.install()

if __name__ == "__main__":
    main()
