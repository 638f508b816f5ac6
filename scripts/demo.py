"""make demo: tilefit's main job on bundled real examples (logs from public issues, real kernels)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOGS = sorted((ROOT / "examples" / "logs").glob("*.log"))


def tilefit(*args: str) -> int:
    print(f"\n$ tilefit {' '.join(args)}", flush=True)
    return subprocess.run([sys.executable, "-m", "tilefit", *args], cwd=ROOT).returncode


def summary() -> None:
    from tilefit.render.common import amount
    from tilefit.report import explain

    print("== tilefit explain: one line per bundled real log (examples/logs) ==")
    for log in LOGS:
        for d in explain(log.read_bytes()).diagnoses:
            m = d.match
            unit = d.entry.number_unit
            nums = f" {amount(m.required, unit)} > {amount(m.limit, unit)} ({d.ratio:.2f}x)" if d.ratio else ""
            chip = "on-chip" if d.entry.on_chip else "NOT on-chip"
            devices = ", ".join(t.name for t in d.device_classes) or "-"
            print(f"{log.name:40} {d.entry.resource:20} {chip:12}{nums}  devices: {devices}")


def main() -> int:
    summary()
    print("\n== the seed (Helion #470), in full ==")
    tilefit("explain", "examples/logs/helion-470-geglu-default-config.log")
    print("\n== a TPU E1001 log, in Chinese ==")
    tilefit("explain", "examples/logs/tpu-scoped-vmem-e1001.log", "--lang", "zh")
    if importlib.util.find_spec("triton") and (ROOT / "examples" / "kernels" / "matmul.py").exists():
        print("\n== estimate a real Triton matmul for H100, RTX 4090 and MI300X, with no GPU ==")
        tilefit(
            "estimate", "examples/kernels/matmul.py:matmul_kernel", "--spec", "examples/kernels/matmul.yaml",
            "--target", "sm_90,sm_89,gfx942", "--config", "BLOCK_M=128", "--config", "BLOCK_N=128,256",
            "--config", "BLOCK_K=64", "--config", "num_stages=2,4", "--config", "num_warps=8",
        )
        print("\n== the fastest matmul config that fits an RTX 4090 (sm_89), from a space tuned for H100 ==")
        tilefit("fit", "examples/kernels/matmul.py:matmul_kernel", "--spec", "examples/kernels/matmul.yaml",
                "--target", "sm_89", "--top", "3")
    return 0


if __name__ == "__main__":
    sys.exit(main())
