"""Check tilefit's Triton estimates against real JIT launches on the GPU (issue 3).

For the three bundled kernels and a seeded sample of configs (some over the GPU's shared-memory limit),
compare tilefit's `fast` prediction, made offline for the GPU's target, with what the real JIT launch
reports: `metadata.shared` of the compiled kernel, and whether the launch succeeds or raises
OutOfResources. Both argument paths are checked: real example tensors (`args=`) and the declared types of
the kernel's YAML spec (`signature=`). A subset is also compiled in `full` mode and its registers and
spills compared with the loaded kernel's `n_regs` / `n_spills`.

    PYTHONPATH=src python3 benchmarks/triton_gpu_validate.py --out $OUT
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import triton
import triton.runtime.errors
import yaml

from tilefit.estimate.triton import TritonEstimator, load_module_file, resolve_target

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "examples" / "kernels"


def spaces() -> dict[str, dict[str, list[Any]]]:
    """Config spaces sampled here: wider than the YAML demos, to cross the H100/H200 limit."""
    return {
        "matmul": {"BLOCK_M": [64, 128, 256], "BLOCK_N": [64, 128, 256], "BLOCK_K": [32, 64, 128],
                   "GROUP_M": [8], "num_stages": [2, 3, 4, 5], "num_warps": [4, 8]},
        "attention": {"HEAD_DIM": [64, 128], "BLOCK_M": [64, 128], "BLOCK_N": [32, 64, 128],
                      "CAUSAL": [False, True], "num_stages": [2, 3, 4, 5], "num_warps": [4, 8]},
        "softmax": {"BLOCK_SIZE": [256, 1024, 4096, 16384, 65536], "num_warps": [1, 2, 4, 8, 16, 32, 64]},
    }


def sample(space: dict[str, list[Any]], n: int, rng: random.Random) -> list[dict[str, Any]]:
    keys = list(space)
    allc = [dict(zip(keys, v, strict=True)) for v in itertools.product(*(space[k] for k in keys))]
    # Skip rows of more than 512 elements a thread: slow host compiles that teach nothing new.
    allc = [c for c in allc if c.get("BLOCK_SIZE", 0) <= 512 * 32 * c["num_warps"]]
    return rng.sample(allc, min(n, len(allc)))


def matmul_args(cfg: dict[str, Any]) -> tuple[list[Any], Callable[[Any], tuple[int, ...]]]:
    m = n = k = 512
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    args = [a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1)]
    return args, lambda meta: (triton.cdiv(m, meta["BLOCK_M"]) * triton.cdiv(n, meta["BLOCK_N"]),)


def attention_args(cfg: dict[str, Any]) -> tuple[list[Any], Callable[[Any], tuple[int, ...]]]:
    bh, seq, d = 2, 256, cfg["HEAD_DIM"]
    q, k, v = (torch.randn(bh * seq, d, device="cuda", dtype=torch.float16) for _ in range(3))
    o = torch.empty_like(q)
    args = [q, k, v, o, q.stride(0), k.stride(0), v.stride(0), o.stride(0), seq, d ** -0.5]
    return args, lambda meta: (triton.cdiv(seq, meta["BLOCK_M"]), bh)


def softmax_args(cfg: dict[str, Any]) -> tuple[list[Any], Callable[[Any], tuple[int, ...]]]:
    rows, cols = 8, max(16, cfg["BLOCK_SIZE"] // 2)
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    return [y, x, x.stride(0), y.stride(0), cols], lambda meta: (rows,)


MAKE_ARGS = {"matmul": matmul_args, "attention": attention_args, "softmax": softmax_args}


def launch(kernel: Any, args: list[Any], grid: Any, cfg: dict[str, Any]) -> dict[str, Any]:
    """Compile with the real JIT (warmup), read metadata.shared, then launch: ok or OutOfResources."""
    row: dict[str, Any] = {}
    try:
        compiled = kernel.warmup(*args, grid=grid, **cfg)
        row["jit_shared"] = int(compiled.metadata.shared)
    except Exception as exc:
        row["jit_error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
        return row
    try:
        compiled = kernel[grid](*args, **cfg)
        torch.cuda.synchronize()
        row["launched"] = True
        row["n_regs"], row["n_spills"] = int(compiled.n_regs), int(compiled.n_spills)
    except triton.runtime.errors.OutOfResources as exc:
        row["launched"] = False
        row["oor"] = str(exc)[:200]
    return row


def validate(name: str, configs: list[dict[str, Any]], target: str, full_every: int) -> list[dict[str, Any]]:
    spec = yaml.safe_load((KERNELS / f"{name}.yaml").read_text())
    path, kname = spec["kernel"].split(":")
    kernel = getattr(load_module_file(str(KERNELS / path)), kname)
    declared = TritonEstimator(kernel, signature=spec["args"], cache=False)
    rows = []
    for i, cfg in enumerate(configs):
        args, grid = MAKE_ARGS[name](cfg)
        from_args = TritonEstimator(kernel, args=args, cache=False).estimate(cfg, target)
        from_sig = declared.estimate(cfg, target)
        row: dict[str, Any] = {"kernel": name, "config": cfg, "pred_shared": from_args.bytes,
                               "pred_shared_declared": from_sig.bytes, "pred_fits": from_args.fits,
                               "pred_error": from_args.error, "pred_reason": from_args.extra.get("reason"),
                               "pred_seconds": round(from_args.seconds, 3)}
        if i % full_every == 0:
            full = TritonEstimator(kernel, args=args, cache=False).estimate(cfg, target, mode="full")
            row["pred_regs"], row["pred_spills"] = full.registers, full.spills
        row.update(launch(kernel, args, grid, cfg))
        rows.append(row)
        print(json.dumps(row, default=str), flush=True)
    return rows


def verdict(row: dict[str, Any]) -> dict[str, bool | None]:
    shared_ok = row.get("jit_shared") == row["pred_shared"] == row["pred_shared_declared"]
    fits_ok = row.get("launched") == row["pred_fits"] if "launched" in row else None
    regs_ok = None
    if row.get("pred_regs") is not None and row.get("n_regs") is not None:
        regs_ok = row["pred_regs"] == row["n_regs"] and row["pred_spills"] == row["n_spills"]
    return {"shared_ok": shared_ok, "fits_ok": fits_ok, "regs_ok": regs_ok}


def report(rows: list[dict[str, Any]], device: str, target: str, limit: int | None) -> str:
    lines = [f"device: {device}; target {target}, shared limit {limit} B; triton {triton.__version__}, "
             f"torch {torch.__version__}", "",
             "| kernel | config | predicted B | JIT metadata.shared | predicted fits | launch | regs pred/real |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        cfg = " ".join(f"{k}={v}" for k, v in r["config"].items())
        launch_s = "ok" if r.get("launched") else "OutOfResources" if "oor" in r else r.get("jit_error", "?")
        regs = f"{r.get('pred_regs')}/{r.get('n_regs')}" if r.get("pred_regs") is not None else ""
        lines.append(f"| {r['kernel']} | {cfg} | {r['pred_shared']} | {r.get('jit_shared')} | "
                     f"{r['pred_fits']} | {launch_s} | {regs} |")
    lines.append("")
    for name in sorted({r["kernel"] for r in rows}):
        rs = [r for r in rows if r["kernel"] == name]
        v = [verdict(r) for r in rs]
        fits = [x["fits_ok"] for x in v if x["fits_ok"] is not None]
        regs = [x["regs_ok"] for x in v if x["regs_ok"] is not None]
        over = sum(1 for r in rs if r.get("launched") is False)
        lines.append(f"{name}: {len(rs)} configs ({over} over the limit at launch); shared bytes equal "
                     f"{sum(x['shared_ok'] for x in v)}/{len(rs)}; fits == launch {sum(fits)}/{len(fits)}; "
                     f"registers and spills equal {sum(regs)}/{len(regs)}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=".")
    parser.add_argument("--per-kernel", type=int, default=24)
    parser.add_argument("--full-every", type=int, default=4)
    opts = parser.parse_args()
    target = resolve_target("auto")
    device = torch.cuda.get_device_name()
    rng = random.Random(0)
    start = time.time()
    rows = []
    for name, space in spaces().items():
        rows += validate(name, sample(space, opts.per_kernel, rng), target.name, opts.full_every)
    text = report(rows, device, target.name, target.limit_for("shared-memory"))
    text += f"\n\nwall time {time.time() - start:.0f} s"
    out = Path(opts.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "triton_gpu_validate.md").write_text(text + "\n")
    (out / "triton_gpu_validate.json").write_text(json.dumps(rows, indent=1, default=str))
    print(text)
    ok = all(verdict(r)["shared_ok"] and verdict(r)["fits_ok"] is not False for r in rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
