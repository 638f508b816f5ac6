"""On a GPU: launch SGLang's fused-MoE kernel (loaded from source) with a table's tuned configs and with the
configs `tilefit refit` chose for a smaller target; compare the launched kernel's `metadata.shared` with
tilefit's estimate for this GPU, and time both where both fit.

    python benchmarks/check_gpu_moe.py --root SGLANG_ROOT --table 'triton_3_1_0/E=8,N=3584,device_name=NVIDIA_H100_80GB_HBM3.json' \
        --refit-for sm_86 --out result.json

The routing (sorted_token_ids, expert_ids) is built in torch the way moe_align_block_size pads it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import torch
import triton
import triton.language as tl

from tilefit.check import moe, run
from tilefit.check.size import Job, size_jobs
from tilefit.check.tables import read_table
from tilefit.settings import Settings
from tilefit.targets import get_target

CONFIGS = "sglang/srt/layers/moe/moe_runner/triton_utils/configs"


def routing(topk_ids: torch.Tensor, block_m: int, experts: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    flat = topk_ids.flatten()
    numel = flat.numel()
    ids, exps = [], []
    for e in range(experts):
        idx = (flat == e).nonzero().flatten().to(torch.int32)
        if idx.numel() == 0:
            continue
        pad = (-idx.numel()) % block_m
        idx = torch.cat([idx, torch.full((pad,), numel, dtype=torch.int32, device=idx.device)])
        ids.append(idx)
        exps += [e] * (idx.numel() // block_m)
    used = torch.cat(ids)
    # moe_align_block_size allocates max_num_tokens_padded entries (rounded up to 4) and ceil(that / block_m)
    # expert ids; the tail holds the sentinel `numel` and expert -1 (the kernel skips those blocks).
    padded = numel * block_m if numel < experts + 1 else numel + (experts + 1) * (block_m - 1)
    padded = (padded + 3) // 4 * 4
    tail = torch.full((padded - used.numel(),), numel, dtype=torch.int32, device=flat.device)
    blocks = -(-padded // block_m)
    exps += [-1] * (blocks - len(exps))
    return (torch.cat([used, tail]), torch.tensor(exps, dtype=torch.int32, device=flat.device),
            torch.tensor([used.numel()], dtype=torch.int32, device=flat.device))


def launch_up(kernel: Any, cfg: dict[str, Any], m: int, n: int, hidden: int, experts: int, topk: int) -> tuple[float, int]:
    dev = "cuda"
    torch.manual_seed(0)
    a = torch.randn(m, hidden, device=dev, dtype=torch.bfloat16)
    b = torch.randn(experts, 2 * n, hidden, device=dev, dtype=torch.bfloat16) / 64
    topk_ids = torch.randint(0, experts, (m, topk), device=dev, dtype=torch.int32)
    weights = torch.rand(m, topk, device=dev, dtype=torch.float32)
    sorted_ids, expert_ids, post = routing(topk_ids, cfg["BLOCK_SIZE_M"], experts)
    c = torch.empty(m * topk, 2 * n, device=dev, dtype=torch.bfloat16)
    opts = {k: cfg[k] for k in ("num_warps", "num_stages") if k in cfg}
    blocks = {k: cfg[k] for k in moe.BLOCKS}
    grid = (triton.cdiv(sorted_ids.numel(), cfg["BLOCK_SIZE_M"]) * triton.cdiv(2 * n, cfg["BLOCK_SIZE_N"]),)
    pdl = {"USE_GDC": True, "launch_pdl": True, "GDC_EARLY": m <= 512} if torch.cuda.get_device_capability()[0] >= 9 else {}

    def call() -> Any:
        return kernel[grid](a, None, b, None, None, c, None, None, weights, sorted_ids, expert_ids, post, None,
                            2 * n, hidden, sorted_ids.numel(), topk_ids.numel(), a.stride(0), a.stride(1),
                            b.stride(0), b.stride(2), b.stride(1), 0, 0, c.stride(-2), c.stride(-1),
                            0, 0, 0, 0, 0, 0, 0, MUL_ROUTED_WEIGHT=False, top_k=topk, compute_type=tl.bfloat16,
                            use_fp8_w8a8=False, use_int8_w8a8=False, use_int8_w8a16=False, per_channel_quant=False,
                            even_Ks=hidden % cfg["BLOCK_SIZE_K"] == 0, c_sorted=False, swap_ab=False,
                            FUSE_ADD_TO_OUTPUT=False, MASK_OUTPUT=False, FUSE_SUM_ALL_REDUCE=False, ROUTER_TOPK=1,
                            **pdl, **blocks, **opts)

    compiled = call()
    torch.cuda.synchronize()
    ms = triton.testing.do_bench(call, warmup=10, rep=50)
    return float(ms), int(compiled.metadata.shared)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--table", required=True)
    ap.add_argument("--refit-for", default="sm_86")
    ap.add_argument("--hidden", type=int, default=4096)
    ap.add_argument("--topk", type=int, default=2)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    root = Path(args.root)
    table = read_table(root / CONFIGS / args.table)
    settings = Settings.from_env()
    kernels = run.load_kernels(root / moe.SOURCE, settings)
    kernel = kernels[moe.KERNEL].load()
    major, minor = torch.cuda.get_device_capability()
    here = get_target(f"sm_{major}{minor}")
    problem = moe.Problem(hidden=args.hidden, topk=args.topk)
    est_here = {r.m: r.usage for r in run.check_tables([table], [here], kernels, problem=problem, fix=False)
                if r.kind == "up"}
    refit = run.check_tables([table], [get_target(args.refit_for)], kernels, problem=problem)
    fixes = {r.m: r.fix for r in refit if r.fix is not None and r.kind == "up"}
    rows = []
    for m, cfg in table.entries.items():
        row: dict[str, Any] = {"m": m, "config": cfg, "estimate": est_here[m].bytes}
        try:
            row["ms"], row["shared"] = launch_up(kernel, dict(cfg), m, table.name.n, args.hidden, table.name.experts,
                                                 args.topk)
        except Exception as exc:
            row["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
        fix = fixes.get(m)
        if fix is not None:
            row["refit"] = dict(fix.config)
            row["refit_estimate_" + args.refit_for] = fix.bytes
            launch = moe.launch(table, m, "up", here, problem, config=fix.config)
            job = Job(str(kernels[moe.KERNEL].module_path), moe.KERNEL, launch, here.name)
            row["refit_estimate"] = size_jobs([job], settings, workers=1)[0].bytes
            try:
                row["refit_ms"], row["refit_shared"] = launch_up(kernel, dict(fix.config), m, table.name.n,
                                                                 args.hidden, table.name.experts, args.topk)
            except Exception as exc:
                row["refit_error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
        rows.append(row)
        print(json.dumps(row), flush=True)
    doc = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
           "table": args.table, "refit_for": args.refit_for, "rows": rows,
           "shared_equal": sum(r.get("shared") == r["estimate"] for r in rows), "n": len(rows),
           "refit_shared_equal": sum(r.get("refit_shared") == r.get("refit_estimate") for r in rows if "refit" in r),
           "refit_n": sum("refit" in r for r in rows)}
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps({k: v for k, v in doc.items() if k != "rows"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
