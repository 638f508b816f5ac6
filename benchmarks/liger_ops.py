"""Run Liger-Kernel's ops (forward and backward) on a GPU at a few shapes, for `tilefit record`.

    tilefit record -o liger.trace.jsonl -- python benchmarks/liger_ops.py
    tilefit check liger.trace.jsonl --target sm_90,sm_86,sm_89,gfx942 --triton installed

Each op runs in its own try block: an op this Liger version or GPU cannot run is reported and skipped.
"""

from __future__ import annotations

import traceback

import torch
from liger_kernel import functional as F

dev = "cuda"


def ops(hidden: int, rows: int, dtype: torch.dtype) -> dict[str, object]:
    x = torch.randn(rows, hidden, device=dev, dtype=dtype, requires_grad=True)
    w = torch.randn(hidden, device=dev, dtype=dtype, requires_grad=True)
    b = torch.randn(hidden, device=dev, dtype=dtype, requires_grad=True)
    g = torch.randn(rows, hidden, device=dev, dtype=dtype, requires_grad=True)
    logits = torch.randn(rows, 4 * hidden, device=dev, dtype=torch.float32, requires_grad=True)
    labels = torch.randint(0, 4 * hidden, (rows,), device=dev)
    return {
        "rms_norm": lambda: F.rms_norm(x, w, 1e-6),
        "layer_norm": lambda: F.layer_norm(x, w, b, 1e-6),
        "softmax": lambda: F.softmax(x),
        "swiglu": lambda: F.swiglu(x, g),
        "geglu": lambda: F.geglu(x, g),
        "cross_entropy": lambda: F.cross_entropy(logits, labels),
        "fused_add_rms_norm": lambda: F.fused_add_rms_norm(x, g, w, 1e-6)[0],
    }


def main() -> None:
    for dtype in (torch.bfloat16, torch.float32):
        for hidden, rows in ((1024, 256), (4096, 64), (8192, 16)):
            for name, op in ops(hidden, rows, dtype).items():
                try:
                    out = op()
                    out.float().sum().backward()
                    torch.cuda.synchronize()
                    print(f"ok {name} {hidden} {rows} {dtype}", flush=True)
                except Exception as exc:
                    print(f"FAILED {name} {hidden} {rows} {dtype}: {type(exc).__name__}: {str(exc)[:200]}", flush=True)
                    traceback.print_exc(limit=1)


if __name__ == "__main__":
    main()
