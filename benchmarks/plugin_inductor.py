"""torch.compile(mode="max-autotune") on matmuls of several shapes and dtypes, and flex attention fwd+bwd.

    python benchmarks/plugin_inductor.py mm|mm1|flex128|flex256              # stock
    tilefit run -- python benchmarks/plugin_inductor.py mm|mm1|flex128|flex256

mm1 is the first matmul alone (fp32 4096^3, the issue's own scale case).

Compile threads 1 unless TORCHINDUCTOR_COMPILE_THREADS says otherwise, caches off. Prints one JSON line: compile wall
seconds (first call, and first backward for flex), Inductor's chosen kernel for each autotuned op, output
checksums (sha256 of the bytes), the three fastest choices of each op with their times (so a different winner
can be told from a tie), Inductor's counters (precompile exceptions, coordinate-descent compiles) and the
compile instrument's summary (benchmarks/plugin_spy.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

# Compile threads 1, as the stock numbers were taken: Inductor's template precompile reads the
# variable itself (select_algorithm.get_num_workers), so it must be set before torch is imported.
os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))
import plugin_spy

records = plugin_spy.install()

import torch  # noqa: E402

chosen: list[str] = []
ranked: list[list[str]] = []


def _feedback(timings: dict[Any, float], name: str, *_rest: Any) -> None:
    best = min(timings, key=lambda c: timings[c])
    chosen.append(f"{name}: {getattr(best, 'name', best)} {getattr(best, 'description', '')}".strip())
    top = sorted(timings, key=lambda c: timings[c])[:3]
    ranked.append([f"{getattr(c, 'name', c)} {timings[c]:.4f} ms" for c in top]
                  + [f"inf: {sum(1 for t in timings.values() if t == float('inf'))} of {len(timings)}"])


def _digest(t: torch.Tensor) -> str:
    return hashlib.sha256(t.detach().float().cpu().numpy().tobytes()).hexdigest()[:16]


def mm_case(first_only: bool = False) -> dict[str, str]:
    g = torch.Generator(device="cuda").manual_seed(0)
    shapes = [((4096, 4096), (4096, 4096), torch.float32), ((2048, 8192), (8192, 1024), torch.bfloat16),
              ((1024, 4096), (4096, 4096), torch.float16)][: 1 if first_only else 3]
    outs = {}
    for i, (sa, sb, dt) in enumerate(shapes):
        a = torch.randn(*sa, device="cuda", dtype=dt, generator=g)
        b = torch.randn(*sb, device="cuda", dtype=dt, generator=g)
        f = torch.compile(lambda x, y: torch.relu(x @ y), mode="max-autotune")
        outs[f"mm{i}"] = _digest(f(a, b))
    return outs


def flex_case(head_dim: int) -> dict[str, str]:
    from torch.nn.attention.flex_attention import flex_attention

    g = torch.Generator(device="cuda").manual_seed(0)
    q, k, v = (torch.randn(2, 8, 1024, head_dim, device="cuda", dtype=torch.bfloat16, generator=g)
               .requires_grad_() for _ in range(3))
    f = torch.compile(flex_attention, mode="max-autotune")
    out = f(q, k, v)
    out.sum().backward()
    assert q.grad is not None and k.grad is not None and v.grad is not None
    return {"out": _digest(out), "dq": _digest(q.grad), "dk": _digest(k.grad), "dv": _digest(v.grad)}


def main() -> None:
    case = sys.argv[1]
    torch._dynamo.reset()
    from torch._inductor import select_algorithm

    select_algorithm.add_feedback_saver(_feedback)
    start = time.perf_counter()
    mm = case.startswith("mm")
    digests = mm_case(first_only=case == "mm1") if mm else flex_case(int(case.removeprefix("flex")))
    torch.cuda.synchronize()
    from torch._dynamo.utils import counters

    row = {"case": case, "seconds": round(time.perf_counter() - start, 2), "chosen": chosen, "ranked": ranked,
           "counters": {k: v for k, v in counters["inductor"].items() if "precompil" in k or "coordesc" in k
                        or "autotune" in k or "benchmark" in k},
           "digests": digests,
           "plugin": os.environ.get("TILEFIT_PLUGIN", ""), "spy": plugin_spy.summarise(records),
           "torch": torch.__version__, "compile_threads": os.environ["TORCHINDUCTOR_COMPILE_THREADS"]}
    print("RESULT " + json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
