"""Helion's autotuner (quick effort) on a matmul (Helion's README kernel) and on the seed kernel's small problem.

    python benchmarks/plugin_helion_matmul.py matmul|seed                # stock
    tilefit run -- python benchmarks/plugin_helion_matmul.py matmul|seed

HELION_AUTOTUNE_MAX_GENERATIONS and HELION_AUTOTUNE_RANDOM_SEED bound and fix the search (set by the caller).
Prints one JSON line: wall seconds, outcome, winner, max abs error, the compile instrument's summary.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "kernels"))
import plugin_spy

records = plugin_spy.install()

import helion  # noqa: E402
import helion.language as hl  # noqa: E402
import torch  # noqa: E402


@helion.kernel(autotune_effort="quick")
def matmul(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    m, k = x.size()
    k2, n = y.size()
    assert k == k2
    out = torch.empty([m, n], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = torch.addmm(acc, x[tile_m, tile_k], y[tile_k, tile_n])
        out[tile_m, tile_n] = acc.to(x.dtype)
    return out


def main() -> None:
    case = sys.argv[1]
    row: dict[str, object] = {"case": case, "plugin": os.environ.get("TILEFIT_PLUGIN", "")}
    start = time.perf_counter()
    try:
        if case == "matmul":
            g = torch.Generator(device="cuda").manual_seed(0)
            x = torch.randn(4096, 4096, device="cuda", dtype=torch.float16, generator=g)
            y = torch.randn(4096, 4096, device="cuda", dtype=torch.float16, generator=g)
            out = matmul(x, y)
            row["max_abs_err"] = float((out.float() - x.float() @ y.float()).abs().max())
            row["winner"] = str(matmul.bind((x, y))._config)
        else:
            import helion_geglu as seed

            args = seed.make_args(**seed.SMALL, device="cuda")
            kernel = seed.make_kernel(autotune_effort="quick")
            out = kernel(*args)
            row["max_abs_err"] = float((out - seed.reference(*args)).abs().max())
            row["winner"] = str(kernel.bind(args)._config)
        torch.cuda.synchronize()
        row["outcome"] = "finished"
    except Exception as exc:
        row["outcome"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:300]}"
    row["seconds"] = round(time.perf_counter() - start, 2)
    row["spy"] = plugin_spy.summarise(records)
    print("RESULT " + json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
