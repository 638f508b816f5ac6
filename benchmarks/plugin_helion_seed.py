"""Helion issue #470's seed kernel, exactly as a user runs it: no tilefit code here.

    python benchmarks/plugin_helion_seed.py large none     # stock: compiles the default config for minutes
    tilefit run -- python benchmarks/plugin_helion_seed.py large none   # plug-in: a clear error in seconds
    python benchmarks/plugin_helion_seed.py small quick    # Helion's autotuner (quick effort)

Prints one JSON line: problem, effort, wall seconds, outcome, max abs error against torch, chosen config.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "kernels"))

import torch  # noqa: E402

import helion_geglu as seed  # noqa: E402


def main() -> None:
    problem, effort = sys.argv[1], sys.argv[2]
    args = seed.make_args(**getattr(seed, problem.upper()), device="cuda")
    kernel = seed.make_kernel(autotune_effort=effort)
    start = time.perf_counter()
    row: dict[str, object] = {"problem": problem, "effort": effort}
    try:
        out = kernel(*args)
        torch.cuda.synchronize()
        row["outcome"] = "ran"
        row["max_abs_err"] = float((out - seed.reference(*args)).abs().max())
        bound = kernel.bind(args)
        row["config"] = str(getattr(bound, "_config", None))
    except Exception as exc:
        row["outcome"] = f"{type(exc).__name__}: {str(exc)[:400]}"
        raise
    finally:
        row["seconds"] = round(time.perf_counter() - start, 2)
        print("RESULT " + json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
