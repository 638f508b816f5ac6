"""Dead ends of the knowledge base, checked against the real compiler rather than asserted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")
pytestmark = pytest.mark.compile

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys
sys.path.insert(0, "examples/kernels")
import yaml
from matmul import matmul_kernel
from tilefit.estimate.triton import TritonEstimator
spec = yaml.safe_load(open("examples/kernels/matmul.yaml"))
cfg = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "num_stages": 3, "num_warps": 4}
u = TritonEstimator(matmul_kernel, signature=spec["args"], cache=False).estimate(cfg, "sm_90")
print(u.bytes)
"""


def _shared_bytes(extra_env: dict[str, str]) -> int:
    env = {k: v for k, v in os.environ.items() if k != "TRITON_MAX_SHARED_MEMORY"}
    env.update(extra_env, TRITON_ALWAYS_COMPILE="1")
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300, check=True)
    return int(out.stdout.strip().splitlines()[-1])


def test_triton_max_shared_memory_is_not_a_triton_setting() -> None:
    import triton.knobs

    source = Path(triton.knobs.__file__).read_text()
    assert "TRITON_" in source and "TRITON_MAX_SHARED_MEMORY" not in source


def test_triton_max_shared_memory_changes_nothing_the_compiler_does() -> None:
    # The AI-written entry in the seeds recommends it; the compiler gives the same bytes either way.
    assert _shared_bytes({"TRITON_MAX_SHARED_MEMORY": "32768"}) == _shared_bytes({}) == 98304
